# `if` statements. A constexpr condition compiles only the branch taken (its
# variables may have different types per branch). A run-time condition
# becomes scf.if yielding the live variables either branch changes and those
# both branches define; names bound in one branch only do not survive. An
# `if` containing a `return` becomes blocks and branches.
# RUN: tessera-frontend %s --kernel ifs --signature "*fp32,i32,True" | FileCheck %s
# RUN: tessera-frontend %s --kernel ifs --signature "*fp32,i32,False" | FileCheck %s --check-prefix=INT
# RUN: tessera-frontend %s --kernel early_exit --signature "*fp32,i32" | FileCheck %s --check-prefix=EXIT
# RUN: tessera-frontend %s --kernel early_exit --signature "*fp32,i32" | tessera-opt --inline --canonicalize | FileCheck %s --check-prefix=EXIT
# RUN: tessera-frontend %s --kernel returns --signature "*fp32,i32" | FileCheck %s --check-prefix=RET
# RUN: tessera-frontend %s --kernel returns --signature "*fp32,i32" | tessera-opt --verify-each --inline --canonicalize | FileCheck %s --check-prefix=RETINL
import triton
import triton.language as tl


@triton.jit
def ifs(p, n, FLAG: tl.constexpr):
    if FLAG:
        x = 1.0
    else:
        x = 2
    acc = tl.zeros([16], dtype=tl.float32)
    # CHECK: %[[ACC:.*]] = scf.if %{{.*}} -> (tensor<16xf32>) {
    # CHECK: arith.addf
    # CHECK: scf.yield %{{.*}} : tensor<16xf32>
    # CHECK: } else {
    # CHECK: scf.if %{{.*}} -> (tensor<16xf32>) {
    # CHECK: arith.subf
    # CHECK: } else {
    # CHECK-NEXT: arith.constant 7 : i32
    # CHECK-NEXT: scf.yield %{{.*}} : tensor<16xf32>
    if n > 0:
        acc += 1.0
        only_then = 3
    elif n < -5:
        acc -= 2.0
        only_then = 4
    else:
        temp = 7
    # A new name defined in both branches is yielded.
    # CHECK: %[[Y:.*]] = scf.if %{{.*}} -> (i32) {
    # CHECK: arith.muli
    # CHECK: } else {
    # CHECK: arith.addi
    if n == 3:
        y = n * 2
    else:
        y = n + 1
    # CHECK: arith.addf %[[ACC]], %{{.*}} : tensor<16xf32>
    # INT: arith.sitofp %{{.*}} : i32 to f32
    # CHECK: arith.sitofp %[[Y]] : i32 to f32
    tl.store(p + tl.arange(0, 16), acc + x + y)


@triton.jit
def early_exit(p, n):
    # EXIT-LABEL: func.func @early_exit
    # EXIT: %[[C:.*]] = arith.cmpi sge
    # EXIT: cf.cond_br %[[C]], ^bb1, ^bb2
    # EXIT: ^bb1:
    # EXIT-NEXT: return
    # EXIT: ^bb2:
    # EXIT: tessera.store
    # EXIT-NEXT: return
    pid = tl.program_id(0)
    if pid >= n:
        return
    tl.store(p + pid, 1.0)


@triton.jit
def pick(x, n):
    if n > 0:
        return x * 2.0, n
    elif n < -10:
        return x, 0
    return x + 1.0, n + 1


@triton.jit
def returns(p, n):
    # RET-LABEL: func.func @returns
    # RET: %{{.*}}:2 = call @pick__fp32__i32(%{{.*}}, %arg1) : (f32, i32) -> (f32, i32)
    # RET-LABEL: func.func private @pick__fp32__i32
    # RET: cf.cond_br
    # RET: return %{{.*}}, %arg1 : f32, i32
    # RET: cf.cond_br
    # RET: return %arg0, %{{.*}} : f32, i32
    # RET: return %{{.*}}, %{{.*}} : f32, i32
    # RETINL-LABEL: func.func @returns
    # RETINL-NOT: call
    # RETINL: cf.cond_br
    v, m = pick(tl.load(p), n)
    tl.store(p + m, v)
