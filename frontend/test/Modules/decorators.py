# Decorators of other libraries wrapping a @triton.jit function (Inductor's
# @triton_heuristics.pointwise, FlagGems' @libentry) are looked through: the
# kernel is the jit function, and a remark says which decorator was ignored.
# RUN: tessera-frontend %s --kernel k --signature "*fp32" 2>&1 | FileCheck %s
import triton
import triton.language as tl

from some_library.runtime import triton_heuristics
from some_library.utils import libentry


# CHECK: decorators.py:[[@LINE+1]]:2: remark: decorator 'some_library.runtime.triton_heuristics.pointwise' is not Triton's: compiling the @triton.jit function it wraps, without it
@triton_heuristics.pointwise(size_hints=[1024], filename=__file__,
                             triton_meta={'signature': {0: '*fp32'}})
# CHECK: decorators.py:[[@LINE+1]]:2: remark: decorator 'some_library.utils.libentry' is not Triton's
@libentry()
@triton.jit
def k(p):
    offs = tl.arange(0, 16)
    tl.store(p + offs, tl.load(p + offs) + 1.0)
# CHECK: func.func @k
