# Loops. `range` and `tl.range` become scf.for carrying exactly the variables
# the body reassigns (found by a first, discarded lowering of the body);
# tl.range options become attributes; tl.static_range unrolls; a negative
# constant step counts down; the induction variable takes the promoted
# integer type of the bounds; `while` becomes scf.while.
# RUN: tessera-frontend %s --kernel loops --signature "*fp32,i32,u32,3" | FileCheck %s
# RUN: tessera-frontend %s --kernel loops --signature "*fp32,i32,u32,3" | tessera-opt --verify-each --canonicalize > /dev/null
# RUN: tessera-frontend %s --kernel nested --signature "*fp32,i32,i64" | FileCheck %s --check-prefix=NEST
# RUN: tessera-frontend %s --kernel spin --signature "*i32,*fp32" | FileCheck %s --check-prefix=SPIN
import triton
import triton.language as tl


@triton.jit
def loops(p, n, u, NS: tl.constexpr):
    acc = tl.zeros([16], dtype=tl.float32)
    # CHECK: %[[R1:.*]] = scf.for %[[I:.*]] = %{{.*}} to %arg1 step %{{.*}} iter_args(%[[A1:.*]] = %{{.*}}) -> (tensor<16xf32>) : i32 {
    # CHECK: arith.sitofp %[[I]] : i32 to f32
    for i in range(n):
        acc += i
    # CHECK: scf.for %{{.*}} = %c2_i32 to %arg1 step %c3_i32
    for j in range(2, n, 3):
        acc *= 2.0
    # CHECK: } {tessera.disallow_acc_multi_buffer, tessera.loop_unroll_factor = 2 : i32, tessera.num_stages = 3 : i32}
    for k in tl.range(0, n, 1, num_stages=NS, loop_unroll_factor=2, disallow_acc_multi_buffer=True):
        acc += 1.0
    # The static range unrolls with a constexpr counter.
    # CHECK: arith.constant 0.000000e+00 : f32
    # CHECK: arith.constant 1.000000e+00 : f32
    # CHECK: arith.constant 2.000000e+00 : f32
    # CHECK-NOT: scf.for
    for s in tl.static_range(3):
        acc += s
    # range(10, 0, -2) runs 10, 8, ..., 2: an upward loop from 0 to 10,
    # mapped back as ub - iv + lb.
    # CHECK: scf.for %[[J:.*]] = %[[LB:.*]] to %[[UB:.*]] step %{{.*}} iter_args
    # CHECK: %[[D:.*]] = arith.subi %[[UB]], %[[J]] : i32
    # CHECK: arith.addi %[[D]], %[[LB]] : i32
    for r in range(10, 0, -2):
        acc += r
    # An unsigned bound makes an unsigned induction variable.
    # CHECK: scf.for unsigned
    for q in range(u):
        acc += 1.0
    # CHECK: %[[T:.*]] = scf.while (%[[X:.*]] = %{{.*}}) : (i32) -> i32 {
    # CHECK: %[[C:.*]] = arith.cmpi slt, %[[X]], %arg1 : i32
    # CHECK: scf.condition(%[[C]]) %[[X]] : i32
    # CHECK: } do {
    # CHECK: arith.addi
    # CHECK: scf.yield
    total = 0
    while total < n:
        total += 4
    tl.store(p + tl.arange(0, 16), acc + total)


@triton.jit
def nested(p, n, m):
    acc = 0.0
    cnt = 0
    # A 64-bit bound makes a 64-bit induction variable; the inner loop
    # carries both accumulators, the outer one too. `unused` is reassigned
    # only inside the inner body and is not carried.
    # NEST: scf.for %{{.*}} = %{{.*}} to %arg2 step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, i32) : i64 {
    # NEST: scf.for %{{.*}} = %{{.*}} to %arg1 step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, i32) : i32 {
    for i in range(m):
        for j in range(n):
            unused = i + j
            acc += 1.0
            cnt += 1
    tl.store(p + cnt, acc)


@triton.jit
def spin(lock, p):
    # A condition with side effects runs in the `before` region.
    # SPIN: scf.while : () -> () {
    # SPIN-NEXT: arith.constant 0 : i32
    # SPIN-NEXT: arith.constant 1 : i32
    # SPIN-NEXT: tessera.atomic_cas %arg0, %{{.*}}, %{{.*}} {sem = #tessera<sem acquire>} : !tessera.ptr<i32>
    # SPIN: scf.condition
    while tl.atomic_cas(lock, 0, 1, sem="acquire") == 1:
        pass
    tl.store(p, 1.0)
    # SPIN: tessera.atomic_rmw xchg %arg0, %{{.*}} {sem = #tessera<sem release>} : !tessera.ptr<i32>
    tl.atomic_xchg(lock, 0, sem="release")
