# Program ids, block creation, where, minimum/maximum/clamp, Python's min
# and max, cdiv.
# RUN: tessera-frontend %s --kernel core --signature "*fp32,*fp16,i32,fp32" | FileCheck %s
# RUN: tessera-frontend %s --kernel core --signature "*fp32,*fp16,i32,fp32" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def core(p, ph, n, s):
    # CHECK: tessera.program_id x : i32
    # CHECK: tessera.program_id y : i32
    # CHECK: tessera.num_programs z : i32
    pid = tl.program_id(0) + tl.program_id(axis=1) + tl.num_programs(2)
    # CHECK: tessera.make_range {end = 24 : i32, start = 8 : i32} : tensor<16xi32>
    r = tl.arange(8, 24)
    # CHECK: %[[F:.*]] = arith.constant 1.500000e+00 : f16
    # CHECK: tessera.splat %[[F]] : tensor<4x8xf16>
    full = tl.full((4, 8), 1.5, tl.float16)
    # CHECK: arith.constant 0 : i64
    # CHECK: tessera.splat %{{.*}} : tensor<8xi64>
    z = tl.zeros([8], dtype=tl.int64)
    # CHECK: arith.constant 0.000000e+00 : f16
    # CHECK: tessera.splat %{{.*}} : tensor<4x8xf16>
    zl = tl.zeros_like(full)
    # A scalar tensor as the fill value.
    # CHECK: tessera.splat %arg3 : tensor<2x2xf32>
    fs = tl.full([2, 2], s, tl.float32)
    x = tl.load(p + r)
    # CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<16xi1>, tensor<16xf32>
    w = tl.where(r < n, x, 0.0)
    # CHECK: arith.maxnumf %{{.*}} : tensor<16xf32>
    mx = tl.maximum(w, s)
    # CHECK: arith.minimumf %{{.*}} : tensor<16xf32>
    mn = tl.minimum(w, s, propagate_nan=tl.PropagateNan.ALL)
    # CHECK: tessera.clampf %{{.*}}, %{{.*}}, %{{.*}}, none : tensor<16xf32>
    c = tl.clamp(x, 0.0, 1.0)
    # Python's max on tensors is tl.maximum; on constexprs, Python's.
    # CHECK: arith.maxsi %{{.*}} : i32
    m = max(pid, n)
    BIG: tl.constexpr = max(4, 16, 8)
    # tl.cdiv(x, d) = (x + d - 1) // d.
    # CHECK: %[[S:.*]] = arith.addi %arg2, %{{.*}} : i32
    # CHECK: arith.divsi %[[S]], %{{.*}} : i32
    t = tl.cdiv(n, BIG)
    # bf16 min/max compute in fp32.
    # CHECK: arith.extf %{{.*}} : tensor<4x8xbf16> to tensor<4x8xf32>
    # CHECK: arith.minnumf %{{.*}} : tensor<4x8xf32>
    bf = tl.minimum(full.to(tl.bfloat16), zl.to(tl.bfloat16))
    tl.store(p + r, mx + mn + c + m + t)
    tl.store(ph + tl.arange(0, 8), tl.sum(full + zl, axis=0) + z.to(tl.float16))
    tl.store(p + tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :], fs)
    tl.store(p + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :], bf)
