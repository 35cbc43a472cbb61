# A tensor descriptor made on the host is passed as `tensordesc<dtype[block]>`
# (`tensordesc<dtype[block],nan>` when padded with NaN): the kernel receives
# its fields, the base (16-byte aligned), shape (i32) and strides (i64; all
# but the last multiples of 16 bytes, the last 1), as Triton passes it, and
# rebuilds the descriptor at its entry.
# RUN: tessera-frontend %s --kernel k --signature "tensordesc<fp16[64, 32]>,*fp32:16" --print-key | FileCheck %s
# RUN: tessera-frontend %s --kernel k --signature "tensordesc<fp16[64, 32]>,*fp32:16" | tessera-opt --verify-each > /dev/null
# RUN: tessera-frontend %s --kernel k --signature "tensordesc<fp16[64, 32],nan>,*fp32:16" --print-key | FileCheck %s --check-prefix=NAN
# RUN: not tessera-frontend %s --kernel k --signature "tensordesc<fp16[64 32]>,*fp32" 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not tessera-frontend %s --kernel k --signature "tensordesc<i8[64, 32],nan>,*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_NAN
import triton
import triton.language as tl


@triton.jit
def k(desc, out):
    # CHECK: // key: k(tensordesc<fp16[64,32]>,*fp32:16)
    # CHECK: func.func @k(%arg0: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg1: i32, %arg2: i32, %arg3: i64 {tessera.divisibility = 8 : i32}, %arg4: i64, %arg5: !tessera.ptr<f32> {tessera.divisibility = 16 : i32})
    # CHECK: %[[ONE:.*]] = arith.constant 1 : i64
    # CHECK: %[[D:.*]] = tessera.make_tensor_descriptor %arg0, [%arg1, %arg2], [%arg3, %[[ONE]]] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<64x32xf16>>
    # CHECK: tessera.descriptor_load %[[D]][%{{.*}}, %{{.*}}] : !tessera.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    # NAN: // key: k(tensordesc<fp16[64,32],nan>,*fp32:16)
    # NAN: tessera.make_tensor_descriptor %arg0, [%arg1, %arg2], [%arg3, %{{.*}}] {padding = #tessera<padding nan>}
    x = desc.load([0, 0])
    # The global shape is available.
    # CHECK: %[[P:.*]] = tessera.bitcast %arg5 : !tessera.ptr<f32> -> !tessera.ptr<i32>
    # CHECK: tessera.store %[[P]], %arg1 : !tessera.ptr<i32>
    tl.store(out.to(tl.pointer_type(tl.int32)), desc.shape[0])
    tl.store(out + tl.arange(0, 32), tl.sum(x.to(tl.float32), 0))
# BAD: error: invalid signature: bad block dimension '64 32' in 'tensordesc<fp16[64 32]>'
# BAD_NAN: error: invalid signature: NaN padding needs a floating-point element type, in 'tensordesc<i8[64, 32],nan>'
