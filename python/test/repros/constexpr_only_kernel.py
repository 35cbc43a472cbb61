"""Runtime bug: a kernel whose only parameter is a constexpr, passed by
keyword, cannot be launched:

    kernel 'kernel': the kernel takes 0 runtime arguments, the launch passes 1

(test_core.py::test_slice).

    python -m tessera --backend cpu python/test/repros/constexpr_only_kernel.py
"""
import triton
import triton.language as tl


@triton.jit
def only_constexpr(XBLOCK: tl.constexpr):
    data = tl.arange(0, XBLOCK)
    tl.static_assert(data.shape == [XBLOCK])


try:
    only_constexpr[(1, )](XBLOCK=32)
except Exception as e:  # noqa: BLE001 - reported
    print("BUG:", e)
    raise SystemExit(1)
print("fixed")
