"""cpu backend bug: `tl.where` on two scalar pointers fails to lower:

    error: failed to legalize operation 'arith.select' that was explicitly marked illegal
    ... (i1, !tessera.ptr<i64>, !tessera.ptr<i64>) -> !tessera.ptr<i64>

(test_core.py::test_where[*int32]).

    python -m tessera --backend cpu python/test/repros/select_of_pointers.py
"""
import numpy as np
import triton
import triton.language as tl


@triton.jit
def choose(cond_ptr, a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    chosen = tl.where(tl.load(cond_ptr) != 0, a_ptr, b_ptr)
    tl.store(out_ptr + offs, tl.load(chosen + offs))


a = np.arange(8, dtype=np.int64)
b = -a
out = np.zeros(8, np.int64)
try:
    choose[(1, )](np.array([1], np.int32), a, b, out, N=8)
except triton.CompilationError as e:
    print("BUG:", e)
    raise SystemExit(1)
assert np.array_equal(out, a)
print("fixed")
