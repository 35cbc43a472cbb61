# Operators on run-time values: C semantics for integer `//` and `%`
# (truncating; unsigned forms for unsigned types), arithmetic or logical `>>`
# by signedness, `-x` as 0 - x, `~x` as x ^ -1; `and`/`or` on tensors are
# evaluated eagerly and combined, constexpr operands decide as in Python.
# RUN: tessera-frontend %s --kernel int_ops --signature "*i32,*u32,i32,i32,u32" | FileCheck %s
# RUN: tessera-frontend %s --kernel logic --signature "*i32,i32,i32,False" | FileCheck %s --check-prefix=LOGIC
# RUN: tessera-frontend %s --kernel float_ops --signature "*fp32,*fp16,fp32" | FileCheck %s --check-prefix=FLOAT
# RUN: tessera-frontend %s --kernel ptr_ops --signature "*fp32,i32,u32,i64" | FileCheck %s --check-prefix=PTR
import triton
import triton.language as tl


@triton.jit
def int_ops(pi, pu, a, b, u):
    x = tl.load(pi + tl.arange(0, 8))
    y = tl.load(pu + tl.arange(0, 8))
    # CHECK: arith.divsi %arg2, %arg3 : i32
    tl.store(pi, a // b)
    # CHECK: arith.remsi %arg2, %arg3 : i32
    tl.store(pi, a % b)
    # CHECK: arith.divui %arg4, %arg4 : i32
    tl.store(pu, u // u)
    # CHECK: arith.remui %arg4, %{{.*}} : i32
    tl.store(pu, u % 3)
    # CHECK: arith.divsi %{{.*}} : tensor<8xi32>
    tl.store(pi + tl.arange(0, 8), x // 2)
    # CHECK: arith.shli %{{.*}} : tensor<8xi32>
    tl.store(pi + tl.arange(0, 8), x << 1)
    # CHECK: arith.shrsi %{{.*}} : tensor<8xi32>
    tl.store(pi + tl.arange(0, 8), x >> 1)
    # CHECK: arith.shrui %{{.*}} : tensor<8xi32>
    tl.store(pu + tl.arange(0, 8), y >> 1)
    # CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
    # CHECK: %[[Z:.*]] = tessera.splat %[[ZERO]]
    # CHECK: arith.subi %[[Z]], %{{.*}} : tensor<8xi32>
    tl.store(pi + tl.arange(0, 8), -x)
    # CHECK: arith.constant -1 : i32
    # CHECK: arith.xori
    tl.store(pi + tl.arange(0, 8), ~x)
    # CHECK: arith.andi
    # CHECK: arith.xori
    # CHECK: arith.ori
    tl.store(pi + tl.arange(0, 8), x & a | b ^ x)


@triton.jit
def logic(p, a, b, FLAG: tl.constexpr):
    # LOGIC: %[[L:.*]] = arith.cmpi slt, %arg1, %arg2 : i32
    # LOGIC: %[[R:.*]] = arith.cmpi sgt, %arg2, %{{.*}} : i32
    # LOGIC: %[[C:.*]] = arith.andi %[[L]], %[[R]] : i1
    c = a < b and b > 0
    # A falsy constexpr in `or` drops out: d is the comparison.
    # LOGIC: %[[D:.*]] = arith.cmpi eq, %arg1, %arg2 : i32
    d = a == b or FLAG
    # LOGIC: %[[T:.*]] = arith.constant true
    # LOGIC: %[[E:.*]] = arith.xori %{{.*}}, %[[T]] : i1
    e = not (a < b)
    # A falsy constexpr in `and` short-circuits: f is False.
    # LOGIC: %[[F:.*]] = arith.constant false
    f = FLAG and a < b
    # A chained comparison is the `&` of its links.
    # LOGIC: %[[G1:.*]] = arith.cmpi slt, %{{.*}}, %arg1 : i32
    # LOGIC: %[[G2:.*]] = arith.cmpi slt, %arg1, %arg2 : i32
    # LOGIC: %[[G:.*]] = arith.andi %[[G1]], %[[G2]] : i1
    g = 0 < a < b
    # A conditional expression with a run-time condition is an scf.if.
    # LOGIC: %[[H:.*]] = scf.if %{{.*}} -> (i32) {
    # LOGIC-NEXT: scf.yield %arg1 : i32
    # LOGIC-NEXT: } else {
    # LOGIC-NEXT: scf.yield %arg2 : i32
    h = a if a > b else b
    # LOGIC: arith.extui %[[C]] : i1 to i32
    tl.store(p, c)
    # LOGIC: arith.extui %[[D]] : i1 to i32
    tl.store(p, d)
    # LOGIC: arith.extui %[[E]] : i1 to i32
    tl.store(p, e)
    # LOGIC: arith.extui %[[F]] : i1 to i32
    tl.store(p, f)
    # LOGIC: arith.extui %[[G]] : i1 to i32
    tl.store(p, g)
    # LOGIC: tessera.store %arg0, %[[H]] : !tessera.ptr<i32>
    tl.store(p, h)


@triton.jit
def float_ops(pf, ph, s):
    x = tl.load(pf + tl.arange(0, 8))
    h = tl.load(ph + tl.arange(0, 8))
    # FLOAT: arith.remf %{{.*}} : tensor<8xf32>
    tl.store(pf + tl.arange(0, 8), x % s)
    # fp16 / fp16 divides in fp32.
    # FLOAT: arith.extf %{{.*}} : tensor<8xf16> to tensor<8xf32>
    # FLOAT: arith.extf %{{.*}} : tensor<8xf16> to tensor<8xf32>
    # FLOAT: arith.divf %{{.*}} : tensor<8xf32>
    tl.store(pf + tl.arange(0, 8), h / h)
    # Integer `/` is a float division.
    # FLOAT: arith.sitofp %{{.*}} : tensor<8xi32> to tensor<8xf32>
    # FLOAT: arith.divf
    tl.store(pf + tl.arange(0, 8), tl.arange(0, 8) / 2)
    # FLOAT: arith.cmpf une
    tl.store(pf + tl.arange(0, 8), x != s)


@triton.jit
def ptr_ops(p, i, u, l):
    # PTR: tessera.addptr %arg0, %arg1 : !tessera.ptr<f32>, i32
    q = p + i
    # Narrow unsigned offsets are zero-extended to 64 bits.
    # PTR: %[[W:.*]] = arith.extui %arg2 : i32 to i64
    # PTR: tessera.addptr %{{.*}}, %[[W]] : !tessera.ptr<f32>, i64
    q = q + u
    # ptr - n is ptr + (0 - n).
    # PTR: arith.subi %{{.*}}, %arg3 : i64
    # PTR: tessera.addptr %{{.*}} : !tessera.ptr<f32>, i64
    q = q - l
    # An offset on the left works too.
    # PTR: tessera.addptr %{{.*}}, %{{.*}} : tensor<4x!tessera.ptr<f32>>, tensor<4xi32>
    tl.store(tl.arange(0, 4) + q, 1.0)
