# Compile-time arithmetic follows Python (floor division and modulo round
# toward negative infinity, `/` gives a float, `and`/`or` return an operand),
# by way of the host evaluator. The printed values are Triton 3.6's for the
# same kernel, except the chained comparison and `in`, which Triton rejects
# and Tessera evaluates as Python does, and tuples, which print as Python's.
# RUN: tessera-frontend %s --kernel cexpr --signature "*fp32,64,True,'relu'" 2>&1 >/dev/null | FileCheck %s
import triton
import triton.language as tl

GLOBAL_C = tl.constexpr(7)
DT = tl.float16


@triton.jit
def cexpr(p, BLOCK: tl.constexpr, FLAG: tl.constexpr, NAME: tl.constexpr):
    x = tl.load(p + tl.arange(0, BLOCK))
    tl.static_print("floordiv", 7 // -2, -7 // 2, BLOCK // 3)
    tl.static_print("mod", -7 % 3, 7 % -3, BLOCK % 5)
    tl.static_print("pow", 2 ** 10, BLOCK ** 2)
    tl.static_print("truediv", 1 / 2, BLOCK / 4)
    tl.static_print("str", NAME + "_x", NAME == "relu", NAME != "relu")
    tl.static_print("shifts", BLOCK << 2, BLOCK >> 3, BLOCK & 5, BLOCK | 1, BLOCK ^ 3, ~BLOCK)
    tl.static_print("bool", not FLAG, FLAG and 0, FLAG or 5, -BLOCK, +BLOCK)
    tl.static_print("chain", 1 < 2 < 3, 1 < 3 < 2, 0 <= BLOCK < 1024)
    tl.static_print("ifexp", BLOCK if FLAG else 3, "a" if not FLAG else "b")
    tl.static_print("builtins", min(BLOCK, 5), max(2, BLOCK, 9), len((1, 2, 3)), int(3.7), float(2))
    tl.static_print("global", GLOBAL_C, GLOBAL_C * 2, DT)
    tl.static_print("shape", x.shape, x.shape[0], len(x.shape), x.dtype, p.dtype.element_ty)
    tl.static_print("dtype eq", x.dtype == tl.float32, x.dtype == DT, x.dtype != tl.float32)
    tl.static_print("is", NAME is None, None is None, FLAG is not None)
    tl.static_print("tuple", (1, 2) + (3,), (BLOCK, 2)[1], (1, 2, 3)[1:], (1, 2, 3)[-1])
    tl.static_print("float", 1.5 * 2, 0.1 + 0.2, 3.0 // 2, -3.5 % 2)
    tl.static_print("in", "a" in "abc", 3 in (1, 2, 3), 4 not in (1, 2))
    tl.static_print("mixed", True + 1, BLOCK * 0.5, 10 - BLOCK)

# CHECK: floordiv -4 -4 21
# CHECK-NEXT: mod 2 -2 4
# CHECK-NEXT: pow 1024 4096
# CHECK-NEXT: truediv 0.5 16.0
# CHECK-NEXT: str relu_x True False
# CHECK-NEXT: shifts 256 8 0 65 67 -65
# CHECK-NEXT: bool False 0 True -64 64
# CHECK-NEXT: chain True False True
# CHECK-NEXT: ifexp 64 b
# CHECK-NEXT: builtins 5 64 3 3 2.0
# CHECK-NEXT: global 7 14 fp16
# CHECK-NEXT: shape (64,) 64 1 fp32 fp32
# CHECK-NEXT: dtype eq True False False
# CHECK-NEXT: is False True True
# CHECK-NEXT: tuple (1, 2, 3) 2 (2, 3) 3
# CHECK-NEXT: float 3.0 0.30000000000000004 1.0 0.5
# CHECK-NEXT: in True True True
# CHECK-NEXT: mixed 2 32.0 -54
