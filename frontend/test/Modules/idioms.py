# Idioms of real kernels: @triton.jit reached through another module's
# re-export of triton; heuristics computed by host code Tessera cannot run,
# which a specialization giving every constexpr does not need; a dtype
# constexpr's `.value`; tensor.logical_and / logical_or.
# RUN: tessera-frontend %s --kernel k --signature "*fp32,*i1,tl.float16,128" --module-path %S/Inputs | FileCheck %s
import triton
import triton.language as tl

import library_not_on_the_path as lib
from mypkg.aliased import aliased_helper
from mypkg.compat_triton import triton as tt


@triton.heuristics(lib.get_heuristic_config("k"))
@tt.jit
def k(p, m, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # CHECK: call @mypkg_2ealiased_aliased_helper__fp32S128S(
    x = aliased_helper(tl.load(p + offs))
    # CHECK: arith.truncf {{.*}} : tensor<128xf32> to tensor<128xf16>
    y = x.to(DTYPE.value)
    mask = tl.load(m + offs)
    # CHECK: arith.andi {{.*}} : tensor<128xi1>
    both = mask.logical_and(y > 0)
    # CHECK: arith.ori {{.*}} : tensor<128xi1>
    either = mask.logical_or(y < 0)
    tl.store(m + offs, both.logical_or(either))
