# Module-level host code evaluated as Python would on Triton 3.6: try/except
# ImportError around imports of the language, hasattr on the language's
# modules, version checks through a host function, an import of a module that
# is not on the search path (the names it binds are unknown, and only a
# kernel using them fails).
# RUN: tessera-frontend %s --target-module=cuda --kernel k --signature "*fp32" --module-path %S/Inputs | FileCheck %s
# Without that target's module the program takes its fallback branch.
# RUN: tessera-frontend %s --kernel k --signature "*fp32" --module-path %S/Inputs | FileCheck %s --check-prefix=NOTARGET
# RUN: not tessera-frontend %s --kernel uses_unknown --signature "*fp32" --module-path %S/Inputs 2>&1 | FileCheck %s --check-prefix=UNKNOWN
import triton
import triton.language as tl

from mypkg.compat import HAS_OTHER, HAS_CUDA_LIB, NEW_TRITON, MAYBE, fast_exp


@triton.jit
def k(p):
    offs = tl.arange(0, 16)
    x = tl.load(p + offs)
    # CHECK: call @mypkg_2ecompat_fast_exp__fp32S16S(
    x = fast_exp(x)
    # The language has no extra.nosuchtarget: the handler ran.
    if HAS_OTHER:
        x = x + 100.0
    # Triton 3.6 has tl.extra.cuda.libdevice when its target is present.
    # CHECK: arith.constant 2.000000e+00 : f32
    # NOTARGET-NOT: arith.constant 2.000000e+00 : f32
    # NOTARGET: arith.constant 4.000000e+00 : f32
    if HAS_CUDA_LIB:
        x = x * 2.0
    # CHECK: arith.constant 4.000000e+00 : f32
    if NEW_TRITON:
        x = x * 4.0
    tl.store(p + offs, x)

# CHECK-LABEL: func.func private @mypkg_2ecompat_fast_exp__fp32S16S(
# CHECK: tessera.extern_elementwise{{.*}}__tessera_exp_fp32


@triton.jit
def uses_unknown(p):
    # UNKNOWN: compat.py:36:12: error: cannot tell whether this import succeeds: module 'torch_that_is_not_here' was not found
    # UNKNOWN: compat.py:39:5: note: while evaluating the condition that guards 'MAYBE'
    # UNKNOWN: host_code.py:13:{{[0-9]+}}: note: while evaluating global 'MAYBE'
    # UNKNOWN: host_code.py:[[@LINE+2]]:{{[0-9]+}}: note: 'MAYBE' is needed by device code here
    offs = tl.arange(0, 16)
    tl.store(p + offs, tl.load(p + offs) * MAYBE)
