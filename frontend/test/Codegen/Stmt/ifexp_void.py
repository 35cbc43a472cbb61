# A conditional expression whose branches are calls returning nothing (as
# Triton's void tensors): with a run-time condition it becomes an scf.if
# without results that runs one call; one void branch and one value is an
# error.
# RUN: tessera-frontend %s --kernel pick --signature "*fp32,*fp32,*fp32" | FileCheck %s
# RUN: not tessera-frontend %s --kernel e_mixed --signature "*fp32,*fp32" 2>&1 | FileCheck %s --check-prefix=MIXED
import triton
import triton.language as tl


@triton.jit
def pick(ret, x_true, x_false):
    # CHECK-LABEL: func.func @pick
    # CHECK: scf.if %{{.*}} {
    # CHECK: tessera.load %arg1
    # CHECK: tessera.store %arg0
    # CHECK-NEXT: } else {
    # CHECK: tessera.load %arg2
    # CHECK: tessera.store %arg0
    # CHECK-NEXT: }
    pid = tl.program_id(0)
    tl.store(ret, tl.load(x_true)) if pid % 2 == 0 else tl.store(ret, tl.load(x_false))


@triton.jit
def e_mixed(ret, x):
    pid = tl.program_id(0)
    # MIXED: ifexp_void.py:[[@LINE+1]]:9: error: a conditional expression with a run-time condition has inconsistent types: one branch returns nothing
    y = tl.store(ret, 1.0) if pid == 0 else tl.load(x)
