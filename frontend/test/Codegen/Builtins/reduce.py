# Reductions and scans: the standard ones (with Triton's dtype rules: narrow
# integers sum in 32 bits, max/min of narrow types compute in 32 bits,
# bf16 in fp32), argmax/argmin with tie-breaking, keep_dims, axis=None, user
# combine functions (lowered on scalars inside the region), histograms.
# RUN: tessera-frontend %s --kernel reductions --signature "*fp32,*fp16,*i8,*i32" | FileCheck %s
# RUN: tessera-frontend %s --kernel reductions --signature "*fp32,*fp16,*i8,*i32" | tessera-opt --verify-each --inline --canonicalize | FileCheck %s --check-prefix=INLINED
import triton
import triton.language as tl


@triton.jit
def add_mul(a0, b0, a1, b1):
    return a0 + a1, b0 * b1


@triton.jit
def pick_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def reductions(pf, ph, pi8, pi):
    r = tl.arange(0, 8)
    offs = r[:, None] * 8 + r[None, :]
    x = tl.load(pf + offs)
    h = tl.load(ph + offs)
    b = tl.load(pi8 + offs)
    # CHECK: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<8x8xf32>) -> tensor<8xf32>
    # CHECK: arith.addf %{{.*}} : f32
    s = tl.sum(x, axis=1)
    # axis=None reduces everything (flattened, in any order).
    # CHECK: tessera.reshape %{{.*}} {allow_reorder} : tensor<8x8xf32> -> tensor<64xf32>
    # CHECK: tessera.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<64xf32>) -> f32
    total = tl.sum(x)
    # int8 sums in int32.
    # CHECK: arith.extsi %{{.*}} : tensor<8x8xi8> to tensor<8x8xi32>
    # CHECK: tessera.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<8x8xi32>) -> tensor<8xi32>
    si = tl.sum(b, 0)
    # A dtype overrides it.
    # CHECK: arith.extf %{{.*}} : tensor<8x8xf16> to tensor<8x8xf32>
    sh = tl.sum(h, 1, dtype=tl.float32)
    # keep_dims keeps the reduced axis.
    # CHECK: arith.maxnumf %{{.*}} : f32
    # CHECK: tessera.expand_dims %{{.*}} {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
    mk = tl.max(x, 1, keep_dims=True)
    # fp16 max computes in fp32.
    # CHECK: arith.extf %{{.*}} : tensor<8x8xf16> to tensor<8x8xf32>
    # CHECK: arith.minnumf %{{.*}} : f32
    mh = tl.min(h, axis=0)
    # argmax: values and indices reduce together; ties go to the lower index.
    # CHECK: tessera.reduce(%{{.*}}, %{{.*}}) {axis = 1 : i32} : (tensor<8x8xf32>, tensor<8x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
    # CHECK: ^bb0(%[[V0:.*]]: f32, %[[I0:.*]]: i32, %[[V1:.*]]: f32, %[[I1:.*]]: i32):
    # CHECK: arith.cmpf ogt, %[[V0]], %[[V1]] : f32
    # CHECK: arith.cmpf oeq, %[[V0]], %[[V1]] : f32
    # CHECK: arith.cmpi slt, %[[I0]], %[[I1]] : i32
    # CHECK: arith.andi
    # CHECK: arith.ori
    # CHECK: tessera.reduce.return %{{.*}}, %{{.*}} : f32, i32
    am = tl.argmax(x, axis=1)
    # CHECK: arith.cmpf olt
    # CHECK-NOT: arith.cmpf oeq
    # CHECK: tessera.reduce.return
    vmin, imin = tl.min(x, axis=0, return_indices=True, return_indices_tie_break_left=False)
    # CHECK: arith.xori %{{.*}} : i8
    xs = tl.xor_sum(b, axis=1)
    # A user combine function reduces two tensors together.
    # CHECK: tessera.reduce(%{{.*}}, %{{.*}}) {axis = 0 : i32} : (tensor<8x8xf32>, tensor<8x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
    # CHECK: call @add_mul__fp32__i32__fp32__i32(
    # CHECK: tessera.reduce.return
    u0, u1 = tl.reduce((x, offs), 0, add_mul)
    # CHECK: tessera.reduce(%{{.*}}) {axis = 1 : i32}
    # CHECK: call @pick_max__fp32__fp32(
    um = x.reduce(1, pick_max)
    # Scans.
    # CHECK: tessera.scan(%{{.*}}) {axis = 1 : i32} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    # CHECK: arith.addf
    cs = tl.cumsum(x, axis=1)
    # CHECK: tessera.scan(%{{.*}}) {axis = 0 : i32, reverse} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    # CHECK: arith.mulf
    cp = tl.cumprod(x, 0, reverse=True)
    # CHECK: tessera.scan(%{{.*}}, %{{.*}}) {axis = 1 : i32}
    # CHECK: call @add_mul__fp32__i32__fp32__i32(
    c0, c1 = tl.associative_scan((x, offs), 1, add_mul)
    # CHECK: tessera.histogram %{{.*}}, %{{.*}} : tensor<64xi1> : tensor<64xi32> -> tensor<16xi32>
    hist = tl.histogram(tl.reshape(offs, 64) % 16, 16, mask=tl.reshape(offs, 64) < 32)
    tl.store(pf + r, s + si + sh + mh + am + vmin + imin + xs + u0 + u1 + um + tl.sum(cs, 1) + tl.sum(cp, 0))
    tl.store(pi + tl.arange(0, 16), hist + total.to(tl.int32))
    tl.store(pi + r, tl.sum(c1, 1))
    tl.store(pf + offs, mk + c0)

# INLINED-LABEL: func.func @reductions
# INLINED-NOT: call
