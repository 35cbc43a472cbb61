# Triton's implicit promotion: every line below is what Triton 3.6 prints for
# the same kernel (its tl.static_print output, recorded with the real Triton).
# RUN: tessera-frontend %s --kernel promo --signature "*fp16,*bf16,*fp32,*fp64,*i8,*i32,*u32,*i64,*fp8e4nv,*fp8e5,i32,fp32,0.5" 2>&1 >/dev/null | FileCheck %s
import triton
import triton.language as tl

@triton.jit
def promo(p16, pbf, p32, p64, pi8, pi32, pu32, pi64, pf8, pf8b, n, f, SCALE: tl.constexpr):
    h = tl.load(p16)
    b = tl.load(pbf)
    s = tl.load(p32)
    d = tl.load(p64)
    i8 = tl.load(pi8)
    i = tl.load(pi32)
    u = tl.load(pu32)
    l = tl.load(pi64)
    e4 = tl.load(pf8)
    e5 = tl.load(pf8b)
    tl.static_print("h+1.0", (h + 1.0).dtype)
    tl.static_print("h+s", (h + s).dtype)
    tl.static_print("h/h", (h / h).dtype)
    tl.static_print("b+h", (b + h).dtype)
    tl.static_print("b+b", (b + b).dtype)
    tl.static_print("b/b", (b / b).dtype)
    tl.static_print("i+u", (i + u).dtype)
    tl.static_print("i+l", (i + l).dtype)
    tl.static_print("u+l", (u + l).dtype)
    tl.static_print("i/i", (i / i).dtype)
    tl.static_print("i//2", (i // 2).dtype)
    tl.static_print("i8+1", (i8 + 1).dtype)
    tl.static_print("i8+i", (i8 + i).dtype)
    tl.static_print("i8*300", (i8 * 3).dtype)
    tl.static_print("i+1.5", (i + 1.5).dtype)
    tl.static_print("h+i", (h + i).dtype)
    tl.static_print("e4+e5", (e4 + e5).dtype)
    tl.static_print("e4+e4", (e4 + e4).dtype)
    tl.static_print("e4+h", (e4 + h).dtype)
    tl.static_print("h>1", (h > 1).dtype)
    tl.static_print("h<n", (h < n).dtype)
    tl.static_print("d+s", (d + s).dtype)
    tl.static_print("h*SCALE", (h * SCALE).dtype)
    tl.static_print("u+2**31", (u + 2147483648).dtype)
    tl.static_print("h%h", (h % h).dtype)
    tl.static_print("l%2", (l % 2).dtype)
    tl.static_print("n+f", (n + f).dtype)
    tl.static_print("f*2", (f * 2).dtype)
    tl.static_print("True+i8", (i8 + True).dtype)
    tl.static_print("max(h,0.0)", tl.maximum(h, 0.0).dtype)
    tl.static_print("where(h)", tl.where(h > 0, h, 0.0).dtype)
    tl.static_print("b max", tl.maximum(b, b).dtype)
    tl.static_print("exp(s)", tl.exp(s).dtype)
    tl.static_print("i>>1", (i >> 1).dtype)
    tl.static_print("u&0xff", (u & 0xff).dtype)
    tl.static_print("i8|i", (i8 | i).dtype)
    tl.static_print("cdiv", tl.cdiv(n, 16).dtype)
    tl.static_print("sum h", tl.sum(tl.full([16], 1, tl.float16)).dtype)
    tl.static_print("sum i8", tl.sum(tl.full([16], 1, tl.int8)).dtype)
    tl.static_print("max h", tl.max(tl.full([16], 1, tl.float16)).dtype)
    tl.static_print("max u8", tl.max(tl.full([16], 1, tl.uint8)).dtype)
    tl.static_print("cumsum b", tl.cumsum(tl.full([16], 1, tl.bfloat16)).dtype)
    tl.static_print("argmax h", tl.argmax(tl.full([16], 1, tl.float16), 0).dtype)

# CHECK: h+1.0 fp16
# CHECK-NEXT: h+s fp32
# CHECK-NEXT: h/h fp32
# CHECK-NEXT: b+h fp16
# CHECK-NEXT: b+b bf16
# CHECK-NEXT: b/b fp32
# CHECK-NEXT: i+u uint32
# CHECK-NEXT: i+l int64
# CHECK-NEXT: u+l int64
# CHECK-NEXT: i/i fp32
# CHECK-NEXT: i//2 int32
# CHECK-NEXT: i8+1 int8
# CHECK-NEXT: i8+i int32
# CHECK-NEXT: i8*300 int8
# CHECK-NEXT: i+1.5 fp32
# CHECK-NEXT: h+i fp16
# CHECK-NEXT: e4+e5 fp16
# CHECK-NEXT: e4+e4 fp8e4nv
# CHECK-NEXT: e4+h fp16
# CHECK-NEXT: h>1 int1
# CHECK-NEXT: h<n int1
# CHECK-NEXT: d+s fp64
# CHECK-NEXT: h*SCALE fp16
# CHECK-NEXT: u+2**31 uint32
# CHECK-NEXT: h%h fp32
# CHECK-NEXT: l%2 int64
# CHECK-NEXT: n+f fp32
# CHECK-NEXT: f*2 fp32
# CHECK-NEXT: True+i8 int8
# CHECK-NEXT: max(h,0.0) fp32
# CHECK-NEXT: where(h) fp16
# CHECK-NEXT: b max fp32
# CHECK-NEXT: exp(s) fp32
# CHECK-NEXT: i>>1 int32
# CHECK-NEXT: u&0xff uint32
# CHECK-NEXT: i8|i int32
# CHECK-NEXT: cdiv int32
# CHECK-NEXT: sum h fp16
# CHECK-NEXT: sum i8 int32
# CHECK-NEXT: max h fp32
# CHECK-NEXT: max u8 int32
# CHECK-NEXT: cumsum b fp32
# CHECK-NEXT: argmax h int32
