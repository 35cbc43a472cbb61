# Unsigned parameters: MLIR's integers are signless, so the kernel records
# Triton's name of each unsigned parameter (or pointer to one) as an
# argument attribute; the launch that specialized it on `*u32` checks its
# arguments against that name. Signed and float parameters need none.
# RUN: tessera-frontend %s --kernel k --signature "*u32:16,*u8,*i32,u64,i32,*fp16" --print-key | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(dst, src, signed, big, n, half):
    # CHECK: // key: k(*u32:16,*u8,*i32,u64,i32,*fp16)
    # CHECK-LABEL: func.func @k(
    # CHECK-SAME: %arg0: !tessera.ptr<i32> {tessera.divisibility = 16 : i32, tessera.signature_type = "*u32"}
    # CHECK-SAME: %arg1: !tessera.ptr<i8> {tessera.signature_type = "*u8"}
    # CHECK-SAME: %arg2: !tessera.ptr<i32>,
    # CHECK-SAME: %arg3: i64 {tessera.signature_type = "u64"}
    # CHECK-SAME: %arg4: i32,
    # CHECK-SAME: %arg5: !tessera.ptr<f16>)
    offs = tl.arange(0, 16)
    tl.store(dst + offs, tl.load(src + offs).to(tl.uint32) + big.to(tl.uint32) + n)
    tl.store(signed + offs, tl.load(half + offs).to(tl.int32))
