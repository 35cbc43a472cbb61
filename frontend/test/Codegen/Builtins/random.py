# The structure of the Philox streams (their values are checked bit for bit
# against Triton by the PhiloxTest unit test): seed widened to u64 and split
# into the key, 10 rounds by default (n_rounds overrides), counters from the
# offsets, the uniform mapping and Box-Muller for randn.
# RUN: tessera-frontend %s --kernel rng --signature "*fp32,*u32,i32,i64" | FileCheck %s
# RUN: tessera-frontend %s --kernel rng --signature "*fp32,*u32,i32,i64" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def rng(pf, pu, seed, seed64):
    offs = tl.arange(0, 16)
    # CHECK: arith.extsi %arg2 : i32 to i64
    # CHECK: arith.shrui %{{.*}} : i64
    # CHECK: arith.andi %{{.*}} : i64
    # CHECK: arith.trunci %{{.*}} : i64 to i32
    # CHECK-COUNT-20: tessera.mulhiui %{{.*}} : tensor<16xi32>
    r = tl.randint(seed, offs)
    # Three rounds.
    # CHECK-COUNT-6: tessera.mulhiui
    # CHECK-NOT: tessera.mulhiui
    # CHECK: arith.extsi %{{.*}} : tensor<16xi32> to tensor<16xi64>
    a, b, c, d = tl.randint4x(seed, offs, n_rounds=3)
    # A 64-bit offset contributes its high half to the counter.
    # CHECK: arith.shrsi %{{.*}} : tensor<16xi64>
    # CHECK: arith.trunci %{{.*}} : tensor<16xi64> to tensor<16xi32>
    # CHECK-COUNT-20: tessera.mulhiui
    w = tl.randint(seed64, offs.to(tl.int64))
    # CHECK-COUNT-20: tessera.mulhiui
    # CHECK: arith.sitofp
    # CHECK: arith.mulf
    u = tl.rand(seed, offs)
    # randn: two uniforms, then sqrt(-2 log u1) * cos(2 pi u2).
    # CHECK-COUNT-20: tessera.mulhiui
    # CHECK: arith.maxnumf
    # CHECK: math.log
    # CHECK: math.sqrt
    # CHECK: math.cos
    # CHECK: math.sin
    n = tl.randn(seed, offs)
    tl.store(pu + offs, r + a + b + c + d + w)
    tl.store(pf + offs, u + n)
