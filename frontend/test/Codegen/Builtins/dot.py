# tl.dot: accumulator, precision (tf32 by default), out_dtype, fp8 and int8
# operands, batched (3-D) and rank-4 (folded to one batch dimension).
# RUN: tessera-frontend %s --kernel dots --signature "*fp16,*fp32,*i8,*fp8e4nv,*fp8e5" | FileCheck %s
# RUN: tessera-frontend %s --kernel dots --signature "*fp16,*fp32,*i8,*fp8e4nv,*fp8e5" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def dots(ph, pf, pi8, pe4, pe5):
    r = tl.arange(0, 16)
    offs = r[:, None] * 16 + r[None, :]
    h = tl.load(ph + offs)
    f = tl.load(pf + offs)
    i8 = tl.load(pi8 + offs)
    e4 = tl.load(pe4 + offs)
    e5 = tl.load(pe5 + offs)
    # CHECK: %[[Z:.*]] = tessera.splat %{{.*}} : tensor<16x16xf32>
    # CHECK: tessera.dot %{{.*}}, %{{.*}}, %[[Z]] {inputPrecision = #tessera<precision tf32>} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    a = tl.dot(h, h)
    # ieee is the op's default and is not printed.
    # CHECK: tessera.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    a = tl.dot(f, f, a, input_precision="ieee")
    # CHECK: tessera.dot {{.*}}{inputPrecision = #tessera<precision tf32x3>}
    a = tl.dot(f, f, acc=a, input_precision="tf32x3")
    # CHECK: tessera.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32>
    a = tl.dot(f, f, a, allow_tf32=False)
    # CHECK: tessera.dot {{.*}} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
    c16 = tl.dot(h, h, out_dtype=tl.float16)
    # CHECK: tessera.dot {{.*}} : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
    ci = tl.dot(i8, i8)
    # Mixed fp8 operands are allowed.
    # CHECK: tessera.dot {{.*}}maxNumImpreciseAcc = 16 : i32} : tensor<16x16xf8E4M3FN> * tensor<16x16xf8E5M2> -> tensor<16x16xf32>
    c8 = tl.dot(e4, e5, max_num_imprecise_acc=16)
    # Batched.
    # CHECK: tessera.dot {{.*}} : tensor<2x16x16xf16> * tensor<2x16x16xf16> -> tensor<2x16x16xf32>
    hb = tl.join(h, h).permute(2, 0, 1)
    cb = tl.dot(hb, hb)
    # Rank 4 folds the batch dimensions.
    # CHECK: tessera.reshape %{{.*}} : tensor<2x2x16x16xf16> -> tensor<4x16x16xf16>
    # CHECK: tessera.dot {{.*}} : tensor<4x16x16xf16> * tensor<4x16x16xf16> -> tensor<4x16x16xf32>
    # CHECK: tessera.reshape %{{.*}} : tensor<4x16x16xf32> -> tensor<2x2x16x16xf32>
    h4 = tl.join(hb, hb).permute(3, 0, 1, 2)
    c4 = tl.dot(h4, h4)
    tl.store(pf + offs, a + c16 + ci + c8 + tl.sum(cb, 0) + tl.sum(tl.sum(c4, 0), 0))
