# Conversions with .to(): Triton's cast rules, fp8 through tessera.fp_to_fp,
# rounding modes, bitcasts, integer and pointer casts.
# RUN: tessera-frontend %s --kernel casts --signature "*fp32,*fp16,*bf16,*i32,*u8,*i64,i32" | FileCheck %s
# RUN: tessera-frontend %s --kernel casts --signature "*fp32,*fp16,*bf16,*i32,*u8,*i64,i32" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def casts(pf, ph, pb, pi, pu8, pl, n):
    offs = tl.arange(0, 16)
    f = tl.load(pf + offs)
    h = tl.load(ph + offs)
    b = tl.load(pb + offs)
    i = tl.load(pi + offs)
    u8 = tl.load(pu8 + offs)
    # CHECK: arith.truncf %{{.*}} : tensor<16xf32> to tensor<16xf16>
    tl.store(ph + offs, f.to(tl.float16))
    # CHECK: tessera.fp_to_fp %{{.*}} {rounding = #tessera<rounding rtz>} : tensor<16xf32> -> tensor<16xf16>
    tl.store(ph + offs, f.to(tl.float16, fp_downcast_rounding="rtz"))
    # fp16 -> bf16 goes through fp32.
    # CHECK: arith.extf %{{.*}} : tensor<16xf16> to tensor<16xf32>
    # CHECK-NEXT: arith.truncf %{{.*}} : tensor<16xf32> to tensor<16xbf16>
    tl.store(pb + offs, h.to(tl.bfloat16))
    # CHECK: tessera.fp_to_fp %{{.*}} {rounding = #tessera<rounding rtne>} : tensor<16xf32> -> tensor<16xf8E4M3FN>
    e4 = f.to(tl.float8e4nv)
    # CHECK: tessera.fp_to_fp %{{.*}} : tensor<16xf8E4M3FN> -> tensor<16xf32>
    tl.store(pf + offs, e4.to(tl.float32))
    # fp8 to fp8 rounds too.
    # CHECK: tessera.fp_to_fp %{{.*}} {rounding = #tessera<rounding rtne>} : tensor<16xf8E4M3FN> -> tensor<16xf8E5M2>
    e5 = e4.to(tl.float8e5)
    # CHECK: tessera.fp_to_fp %{{.*}} : tensor<16xf8E5M2> -> tensor<16xf16>
    tl.store(ph + offs, e5.to(tl.float16))
    # CHECK: tessera.fp_to_fp %{{.*}} {rounding = #tessera<rounding rtne>} : tensor<16xbf16> -> tensor<16xf8E4M3B11FNUZ>
    b15 = b.to(tl.float8e4b15)
    # CHECK: tessera.fp_to_fp %{{.*}} : tensor<16xf8E4M3B11FNUZ> -> tensor<16xf32>
    tl.store(pf + offs, b15.to(tl.float32))
    # CHECK: arith.fptosi %{{.*}} : tensor<16xf32> to tensor<16xi32>
    tl.store(pi + offs, f.to(tl.int32))
    # CHECK: arith.fptoui %{{.*}} : tensor<16xf32> to tensor<16xi8>
    tl.store(pu8 + offs, f.to(tl.uint8))
    # CHECK: arith.sitofp %{{.*}} : tensor<16xi32> to tensor<16xf32>
    tl.store(pf + offs, i.to(tl.float32))
    # Unsigned and bool sources convert as unsigned.
    # CHECK: arith.uitofp %{{.*}} : tensor<16xi8> to tensor<16xf16>
    tl.store(ph + offs, u8.to(tl.float16))
    # CHECK: arith.extui %{{.*}} : tensor<16xi8> to tensor<16xi32>
    tl.store(pi + offs, u8.to(tl.int32))
    # CHECK: arith.extsi %{{.*}} : tensor<16xi32> to tensor<16xi64>
    tl.store(pl + offs, i.to(tl.int64))
    # CHECK: arith.trunci %{{.*}} : tensor<16xi32> to tensor<16xi8>
    tl.store(pu8 + offs, i.to(tl.uint8))
    # Conversions to bool compare with zero.
    # CHECK: arith.cmpf une, %{{.*}} : tensor<16xf32>
    fb = f.to(tl.int1)
    # CHECK: arith.cmpi ne, %{{.*}} : tensor<16xi32>
    ib = i.to(tl.int1)
    # CHECK: arith.uitofp %{{.*}} : tensor<16xi1> to tensor<16xf32>
    tl.store(pf + offs, (fb & ib).to(tl.float32))
    # Bitcasts reinterpret bits of the same width.
    # CHECK: arith.bitcast %{{.*}} : tensor<16xf32> to tensor<16xi32>
    tl.store(pi + offs, f.to(tl.int32, bitcast=True))
    # CHECK: arith.bitcast %{{.*}} : tensor<16xf16> to tensor<16xi16>
    tl.store(pi + offs, h.to(tl.int16, bitcast=True))
    # Pointers: to and from 64-bit integers, and between pointee types.
    # CHECK: tessera.ptr_to_int %{{.*}} : !tessera.ptr<f32> -> i64
    addr = pf.to(tl.int64)
    # CHECK: tessera.int_to_ptr %{{.*}} : i64 -> !tessera.ptr<f16>
    p16 = addr.to(tl.pointer_type(tl.float16))
    # CHECK: tessera.bitcast %{{.*}} : !tessera.ptr<f16> -> !tessera.ptr<i16>
    pi16 = p16.to(tl.pointer_type(tl.int16))
    # A 32-bit integer becomes a pointer after widening.
    # CHECK: arith.extsi %{{.*}} : i32 to i64
    # CHECK-NEXT: tessera.int_to_ptr %{{.*}} : i64 -> !tessera.ptr<i8>
    p8 = n.to(tl.pointer_type(tl.int8))
    tl.store(pi16, 1)
    tl.store(p8, 1)
    # A same-type cast is a no-op, and uint32 <-> int32 changes no bits.
    # CHECK-NOT: arith.bitcast %{{.*}} : i32 to i32
    m = n.to(tl.int32).to(tl.uint32).to(tl.int32)
    tl.store(pi, m)
