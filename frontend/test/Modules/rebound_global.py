# A module global that a function rebinds (`global NAME`) may have been set
# before the kernel compiles: the file-based evaluator refuses to guess it,
# naming the global and the function, instead of using its first value
# (`None` here, which failed later as "None has no attribute 'exp'"). Other
# globals of the module are unaffected.
# RUN: not tessera-frontend %s --kernel uses_rebound --signature "*fp32" --module-path %S/Inputs 2>&1 | FileCheck %s --check-prefix=REBOUND
# RUN: tessera-frontend %s --kernel uses_constant --signature "*fp32" --module-path %S/Inputs | FileCheck %s --check-prefix=CONST
import triton
import triton.language as tl

from mypkg import runtime_set

shim = runtime_set.get_math_module()


# REBOUND: error: cannot know the value of global 'math_module' of module 'mypkg.runtime_set' at compile time: function 'select_math_module' rebinds it ('global math_module') when it runs
@triton.jit
def uses_rebound(p):
    offs = tl.arange(0, 16)
    tl.store(p + offs, shim.exp(tl.load(p + offs)))


# CONST: arith.constant 2.000000e+00 : f32
@triton.jit
def uses_constant(p):
    offs = tl.arange(0, 16)
    tl.store(p + offs, tl.load(p + offs) * runtime_set.SCALE)
