"""Frontend bug: parameters annotated `tl.const` are not read-only; a store
through one compiles and writes. Triton refuses it ("Cannot store to a
constant pointer"; test_core.py::test_const).

    python -m tessera --backend cpu python/test/repros/const_pointer_store.py
"""
import numpy as np
import triton
import triton.language as tl


@triton.jit
def write_const(out: tl.const, N: tl.constexpr):
    tl.store(out + tl.arange(0, N), tl.full([N], 1.0, tl.float32))


out = np.zeros(8, np.float32)
try:
    write_const[(1, )](out, N=8)
except triton.CompilationError as e:
    print("fixed:", e)
    raise SystemExit(0)
print(f"BUG: stored through a tl.const pointer (out = {out})")
raise SystemExit(1)
