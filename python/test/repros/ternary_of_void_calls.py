"""Frontend bug: a conditional expression whose branches are calls returning
nothing (`tl.store(...) if c else tl.store(...)`) fails to compile:

    error: cannot convert constexpr[None] to a tensor

Triton compiles it (test_core.py::test_if[if_exp_dynamic_void]).

    python -m tessera --backend cpu python/test/repros/ternary_of_void_calls.py
"""
import numpy as np
import triton
import triton.language as tl


@triton.jit
def pick(Ret, XTrue, XFalse):
    pid = tl.program_id(0)
    tl.store(Ret, tl.load(XTrue)) if pid % 2 == 0 else tl.store(Ret, tl.load(XFalse))


ret = np.zeros(1, np.float32)
try:
    pick[(1, )](ret, np.array([3.0], np.float32), np.array([1.0], np.float32))
except triton.CompilationError as e:
    print("BUG:", e)
    raise SystemExit(1)
assert ret[0] == 3.0
print("fixed")
