# Assignments: tuple unpacking (nested), annotations (tl.constexpr keeps a
# compile-time value, other annotations are ignored), chained targets,
# augmented assignment on pointer arguments. Like Triton, a Python number
# assigned to a plain variable becomes a scalar tensor.
# RUN: tessera-frontend %s --kernel assign --signature "*fp32,i32,8" | FileCheck %s
# A run-time value annotated tl.constexpr stays a run-time value, as Triton
# (which wraps it) computes with it, and a warning says so.
# RUN: tessera-frontend %s --kernel runtime_constexpr --signature "*i32,i32,16" 2>&1 | FileCheck %s --check-prefix=RUNTIME
import triton
import triton.language as tl


@triton.jit
def assign(p, n, BLOCK: tl.constexpr):
    # CHECK: %[[A:.*]] = arith.constant 1 : i32
    # CHECK: %[[B:.*]] = arith.constant 2.500000e+00 : f32
    a, (b, c) = 1, (2.5, n)
    # CHECK: %[[D:.*]] = arith.addi %[[A]], %arg1 : i32
    d: tl.tensor = a + c
    K: tl.constexpr = BLOCK * 2
    # CHECK: %[[E:.*]] = arith.muli %[[D]], %{{.*}} : i32
    e = f = d * 2
    # CHECK: %[[P1:.*]] = tessera.addptr %arg0, %arg1 : !tessera.ptr<f32>, i32
    p += n
    # CHECK: %[[P2:.*]] = tessera.addptr %[[P1]], %{{.*}} : !tessera.ptr<f32>, i32
    p += 1
    # CHECK: tessera.make_range {end = 16 : i32, start = 0 : i32}
    # CHECK: tessera.splat %[[P2]] : tensor<16x!tessera.ptr<f32>>
    # CHECK: arith.sitofp %[[E]] : i32 to f32
    # CHECK: arith.addf %[[B]], %{{.*}} : f32
    tl.store(p + tl.arange(0, K), b + e + f)


@triton.jit
def runtime_constexpr(p, tiles, TILE: tl.constexpr):
    # RUNTIME: assign.py:[[# @LINE + 1]]:30: warning: 'CTA_TILE' is annotated tl.constexpr but its value is a run-time int32; it stays a run-time value, as in Triton
    CTA_TILE: tl.constexpr = TILE * tiles
    # RUNTIME: %[[T:.*]] = arith.muli %{{.*}}, %arg1 : i32
    # RUNTIME: tessera.splat %[[T]] : tensor<16xi32>
    tl.store(p + tl.arange(0, TILE), CTA_TILE)
