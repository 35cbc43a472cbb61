# Device printing (tl.device_print and Python's print), compiler hints,
# assume, barriers, inline assembly.
# RUN: tessera-frontend %s --kernel dbg --signature "*fp32,i32,u32" | FileCheck %s
# RUN: tessera-frontend %s --kernel dbg --signature "*fp32,i32,u32" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def dbg(p, n, u):
    offs = tl.arange(0, 64)
    x = tl.load(p + offs)
    # Triton's prefix formatting: a leading space, ": " before the values;
    # one signedness flag per value.
    # CHECK: tessera.print " x: " {hex = false, isSigned = array<i32: 0, 1, 0>} : %{{.*}}, %arg1, %arg2 : tensor<64xf32>, i32, i32
    tl.device_print("x", x, n, u)
    # CHECK: tessera.print " n: " {hex = true, isSigned = array<i32: 1>} : %arg1 : i32
    print("n", n, hex=True)
    # CHECK: tessera.print "" {hex = false, isSigned = array<i32>}
    tl.device_print("")
    # Hints: divisibility as a power of two (24 -> 8), several on one value
    # merge into one tessera.hint.
    # CHECK: %[[H:.*]] = tessera.hint %{{.*}} {contiguity = array<i64: 64>, divisibility = array<i64: 8>} : tensor<64xi32>
    o = tl.max_contiguous(tl.multiple_of(offs, 24), 64)
    # CHECK: tessera.hint %{{.*}} {constancy = array<i64: 4>} : tensor<64xi32>
    c = tl.max_constancy(offs // 4, [4])
    # CHECK: tessera.hint %arg1 {divisibility = array<i64: 16>} : i32
    m = tl.multiple_of(n, 16)
    # CHECK: tessera.assume %{{.*}}
    tl.assume(n > 0)
    # CHECK: tessera.debug_barrier
    tl.debug_barrier()
    # CHECK: tessera.inline_asm_elementwise %{{.*}}, %{{.*}} {asm_string = "add.f32 $0, $1, $2;", constraints = "=r,r,r", packed_element = 1 : i32, pure = true} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    y = tl.inline_asm_elementwise("add.f32 $0, $1, $2;", "=r,r,r", [x, 1.0], dtype=tl.float32, is_pure=True, pack=1)
    # Several results come back as a tuple.
    # CHECK: tessera.inline_asm_elementwise %{{.*}} {{.*}} : (tensor<64xi32>) -> (tensor<64xi32>, tensor<64xf32>)
    a, b = tl.inline_asm_elementwise("mov $0, $2; cvt $1, $2;", "=r,=r,r", [o], dtype=(tl.int32, tl.float32), is_pure=False, pack=1)
    tl.store(p + o + c + m, y + a + b)
