"""Runtime bug: a kernel launched with unsigned-integer arrays (uint8/16/32/
64, NumPy or torch) fails before it runs: the compiled kernel records its
pointer parameters in MLIR's signless types (`*i32`) while the launch's
pointer is `*u32`, and argument packing compares the two texts:

    kernel 'copy': argument 'dst' (*i32): expected a pointer to i32, got a pointer to u32

Triton specializes on `*u32` and runs. In the port of test_core.py this one
bug fails every case with an unsigned operand.

    python -m tessera --backend cpu python/test/repros/unsigned_pointer_args.py
"""
import numpy as np
import triton
import triton.language as tl


@triton.jit
def copy(dst, src, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(dst + offs, tl.load(src + offs))


for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
    src = np.arange(8, dtype=dtype)
    dst = np.zeros(8, dtype)
    try:
        copy[(1, )](dst, src, N=8)
    except Exception as e:  # noqa: BLE001 - reported
        print(f"BUG ({np.dtype(dtype).name}): {e}")
        raise SystemExit(1)
    assert np.array_equal(dst, src)
print("fixed: unsigned arrays launch")
