# A tensor descriptor made on the host is passed as `tensordesc<dtype[block]>`:
# the kernel receives it with its shape (i32) and strides (i64), as Triton
# passes it.
# RUN: tessera-frontend %s --kernel k --signature "tensordesc<fp16[64, 32]>,*fp32:16" --print-key | FileCheck %s
# RUN: tessera-frontend %s --kernel k --signature "tensordesc<fp16[64, 32]>,*fp32:16" | tessera-opt --verify-each > /dev/null
# RUN: not tessera-frontend %s --kernel k --signature "tensordesc<fp16[64 32]>,*fp32" 2>&1 | FileCheck %s --check-prefix=BAD
import triton
import triton.language as tl


@triton.jit
def k(desc, out):
    # CHECK: // key: k(tensordesc<fp16[64,32]>,*fp32:16)
    # CHECK: func.func @k(%arg0: !tessera.tensordesc<tensor<64x32xf16>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tessera.ptr<f32> {tessera.divisibility = 16 : i32})
    # CHECK: tessera.descriptor_load %arg0[%{{.*}}, %{{.*}}] : !tessera.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    x = desc.load([0, 0])
    # The global shape is available.
    # CHECK: %[[P:.*]] = tessera.bitcast %arg5 : !tessera.ptr<f32> -> !tessera.ptr<i32>
    # CHECK: tessera.store %[[P]], %arg1 : !tessera.ptr<i32>
    tl.store(out.to(tl.pointer_type(tl.int32)), desc.shape[0])
    tl.store(out + tl.arange(0, 32), tl.sum(x.to(tl.float32), 0))
# BAD: error: invalid signature: bad block dimension '64 32' in 'tensordesc<fp16[64 32]>'
