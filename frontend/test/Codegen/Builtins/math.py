# Elementwise math (fp32/fp64 only, as Triton checks), precise division and
# square root, fma, umulhi, abs, sigmoid and softmax.
# RUN: tessera-frontend %s --kernel mathk --signature "*fp32,*fp64,*i32,*u32,*fp16" | FileCheck %s
# RUN: tessera-frontend %s --kernel mathk --signature "*fp32,*fp64,*i32,*u32,*fp16" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def mathk(pf, pd, pi, pu, ph):
    offs = tl.arange(0, 8)
    x = tl.load(pf + offs)
    d = tl.load(pd + offs)
    i = tl.load(pi + offs)
    u = tl.load(pu + offs)
    h = tl.load(ph + offs)
    # CHECK: math.exp %{{.*}} : tensor<8xf32>
    # CHECK: math.exp2 %{{.*}} : tensor<8xf32>
    # CHECK: math.log %{{.*}} : tensor<8xf32>
    # CHECK: math.log2 %{{.*}} : tensor<8xf64>
    # CHECK: math.cos
    # CHECK: math.sin
    # CHECK: math.sqrt
    # CHECK: math.rsqrt
    # CHECK: math.erf
    # CHECK: math.floor
    # CHECK: math.ceil %{{.*}} : tensor<8xf64>
    a = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.math.log2(d).to(tl.float32)
    a += tl.cos(x) + tl.sin(x) + x.sqrt() + tl.rsqrt(x) + tl.erf(x) + tl.floor(x)
    a += tl.ceil(d).to(tl.float32)
    # CHECK: tessera.precise_sqrt %{{.*}} : tensor<8xf32>
    # CHECK: tessera.precise_divf %{{.*}}, %{{.*}} : tensor<8xf32>
    # CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>
    # CHECK: arith.divf %{{.*}} : tensor<8xf32>
    a += tl.sqrt_rn(x) + tl.div_rn(x, a) + tl.fma(x, a, 1.0) + tl.fdiv(x, a)
    # CHECK: math.absf %{{.*}} : tensor<8xf32>
    # CHECK: math.absi %{{.*}} : tensor<8xi32>
    # CHECK: math.absf %{{.*}} : tensor<8xf16>
    a += tl.abs(x) + tl.abs(i) + tl.abs(u) + tl.abs(h)
    # CHECK: tessera.mulhiui %{{.*}}, %{{.*}} : tensor<8xi32>
    hi = tl.umulhi(u, u)
    # sigmoid(x) = 1 / (1 + exp(-x)).
    # CHECK: arith.subf
    # CHECK: math.exp
    # CHECK: arith.addf
    # CHECK: arith.divf
    a += tl.sigmoid(x)
    # softmax(x) = exp(x - max(x)) / sum(exp(x - max(x))).
    # CHECK: tessera.reduce
    # CHECK: arith.maxnumf
    # CHECK: math.exp
    # CHECK: tessera.reduce
    # CHECK: arith.addf
    # CHECK: arith.divf
    a += tl.softmax(x)
    tl.store(pf + offs, a + hi)
