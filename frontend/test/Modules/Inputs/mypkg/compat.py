# Module-level host code of the kinds libraries use to stay compatible with
# several Triton versions.
import operator

import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except ImportError:
    libdevice = tl.math

try:
    from triton.language.extra.nosuchtarget import libdevice as other_lib
    HAS_OTHER = tl.constexpr(True)
except ImportError:
    HAS_OTHER = tl.constexpr(False)

if hasattr(tl.extra, "cuda") and hasattr(tl.extra.cuda, "libdevice"):
    HAS_CUDA_LIB = tl.constexpr(True)
else:
    HAS_CUDA_LIB = tl.constexpr(False)


def compare_version(op, version):
    current = tuple(int(p) for p in triton.__version__.split(".")[:2])
    return op(current, version)


if compare_version(operator.ge, (3, 0)):
    NEW_TRITON = tl.constexpr(True)
else:
    NEW_TRITON = tl.constexpr(False)

try:
    import torch_that_is_not_here  # noqa: F401
    MAYBE = tl.constexpr(1)
except ImportError:
    MAYBE = tl.constexpr(2)


@triton.jit
def fast_exp(x):
    return libdevice.exp(x)
