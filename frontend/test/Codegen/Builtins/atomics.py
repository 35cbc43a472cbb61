# Atomics: values and masks broadcast to the pointer's shape and converted
# to the pointee type; float max/min decomposed as Triton does.
# RUN: tessera-frontend %s --kernel atomics --signature "*i32,*fp32,*u32,*fp16" | FileCheck %s
# RUN: tessera-frontend %s --kernel atomics --signature "*i32,*fp32,*u32,*fp16" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def atomics(pi, pf, pu, ph):
    offs = tl.arange(0, 16)
    m = offs < 8
    # CHECK: tessera.atomic_rmw add %{{.*}}, %{{.*}}, %{{.*}} {scope = #tessera<scope cta>, sem = #tessera<sem relaxed>} : tensor<16x!tessera.ptr<i32>>
    a = tl.atomic_add(pi + offs, 1, mask=m, sem="relaxed", scope="cta")
    # CHECK: tessera.atomic_rmw fadd %{{.*}}, %{{.*}} : tensor<16x!tessera.ptr<f32>>
    b = tl.atomic_add(pf + offs, a)
    # CHECK: tessera.atomic_rmw fadd %arg3, %{{.*}} : !tessera.ptr<f16>
    tl.atomic_add(ph, 1.0)
    # CHECK: tessera.atomic_rmw max %{{.*}} : tensor<16x!tessera.ptr<i32>>
    tl.atomic_max(pi + offs, a)
    # CHECK: tessera.atomic_rmw umin %{{.*}} : tensor<16x!tessera.ptr<i32>>
    tl.atomic_min(pu + offs, 3)
    # CHECK: tessera.atomic_rmw and
    # CHECK: tessera.atomic_rmw or
    # CHECK: tessera.atomic_rmw xor
    # CHECK: tessera.atomic_rmw xchg %{{.*}} {scope = #tessera<scope sys>} : tensor<16x!tessera.ptr<i32>>
    tl.atomic_and(pi + offs, 1)
    tl.atomic_or(pi + offs, 2)
    (pi + offs).atomic_xor(4)
    tl.atomic_xchg(pi + offs, 0, scope="sys")
    # Float max: a signed max on non-negative values, an unsigned min on
    # negative ones, selected by the sign bit.
    # CHECK: %[[SIGN:.*]] = arith.shrui
    # CHECK: tessera.atomic_rmw max %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x!tessera.ptr<i32>>
    # CHECK: tessera.atomic_rmw umin %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x!tessera.ptr<i32>>
    # CHECK: arith.select
    # CHECK: arith.bitcast %{{.*}} : tensor<16xi32> to tensor<16xf32>
    c = tl.atomic_max(pf + offs, b, mask=m)
    # CHECK: tessera.atomic_rmw min
    # CHECK: tessera.atomic_rmw umax
    d = tl.atomic_min(pf + offs, c)
    # CHECK: tessera.atomic_cas %arg0, %{{.*}}, %{{.*}} {sem = #tessera<sem release>} : !tessera.ptr<i32>
    e = tl.atomic_cas(pi, 0, 1, sem="release", scope="gpu")
    tl.store(pf + offs, d + e)
