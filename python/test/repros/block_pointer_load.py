"""cpu backend bug: loading through a block pointer (`tl.make_block_ptr`)
fails verification after the layout stage:

    error: 'tessera.load' op failed to verify that value type matches what the pointer points to

(test_core.py::test_trans_4d, test_trans_reshape).

    python -m tessera --backend cpu python/test/repros/block_pointer_load.py
"""
import numpy as np
import triton
import triton.language as tl


@triton.jit
def copy_block(In, Out, M: tl.constexpr, N: tl.constexpr):
    src = tl.make_block_ptr(base=In, shape=(M, N), strides=(N, 1), offsets=(0, 0), block_shape=(M, N),
                            order=(1, 0))
    tl.store(Out + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], tl.load(src))


x = np.arange(32 * 32, dtype=np.int32).reshape(32, 32)
out = np.zeros_like(x)
try:
    copy_block[(1, )](x, out, 32, 32)
except triton.CompilationError as e:
    print("BUG:", e)
    raise SystemExit(1)
assert np.array_equal(out, x)
print("fixed")
