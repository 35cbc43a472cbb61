"""Port of test_core.py's element-wise tests: binary and bitwise operators,
shifts, comparisons, unary and math functions, where, casts."""
from __future__ import annotations

import math

import numpy as np
import pytest

import triton
import triton.language as tl

from core_util import (DTYPES, DTYPES_WITH_BF16, FLOAT_DTYPES, INT_DTYPES, INTEGRAL_DTYPES, UINT_DTYPES,
                       assert_close, compile_error_type, empty, kernel_from_source, not_applicable, numpy_dtype,
                       promote, random, to_device, to_numpy)

pytestmark = pytest.mark.device
SIZE = 128

BINARY = """
@triton.jit
def kernel(Z, X, Y, SIZE: tl.constexpr, BROADCAST_X: tl.constexpr):
    offs = tl.arange(0, SIZE)
    if BROADCAST_X:
        x = tl.load(X)
    else:
        x = tl.load(X + offs)
    y = tl.load(Y + offs)
    z = {expr}
    tl.store(Z + offs, z)
"""

SCALAR_RHS = """
@triton.jit
def kernel(Z, X, y, SIZE: tl.constexpr):
    offs = tl.arange(0, SIZE)
    x = tl.load(X + offs)
    z = {expr}
    tl.store(Z + offs, z)
"""


def run_binary(expr, x, y, dtype_x, dtype_y, out_dtype, broadcast_x=False):
    kernel = kernel_from_source(BINARY.format(expr=expr))
    z = empty((SIZE, ), out_dtype)
    xs = x[:1] if broadcast_x else x
    kernel[(1, )](z, to_device(xs, dtype_x), to_device(y, dtype_y), SIZE=SIZE, BROADCAST_X=broadcast_x)
    return z


def reference_binary(op, x, y, dtype_x, dtype_y):
    """The value Triton computes, in NumPy: operands converted to the
    promoted type, then the operator with C semantics (truncating integer
    division and remainder, wrapping overflow)."""
    common = promote(dtype_x, dtype_y, div_or_mod=op in ("/", "%"))
    a = x.astype(numpy_dtype(common))
    b = y.astype(numpy_dtype(common))
    with np.errstate(all="ignore"):
        if op == "+":
            return a + b, common
        if op == "-":
            return a - b, common
        if op == "*":
            return a * b, common
        if op == "/":
            if common in INTEGRAL_DTYPES:
                return x.astype(np.float64) / y.astype(np.float64), "float32"
            return a / b, common
        if op == "%":
            return np.fmod(a, b), common
        if op == "//":
            return (np.trunc(a.astype(np.float64) / b.astype(np.float64))).astype(a.dtype), common
    raise AssertionError(op)


def mixed_signedness(a, b):
    return (a in INT_DTYPES and b in UINT_DTYPES) or (a in UINT_DTYPES and b in INT_DTYPES)


@pytest.mark.matrix
@pytest.mark.parametrize("dtype_x", DTYPES_WITH_BF16)
@pytest.mark.parametrize("dtype_y", DTYPES_WITH_BF16)
@pytest.mark.parametrize("op", ["+", "-", "*", "/", "%"])
def test_bin_op(op, dtype_x, dtype_y):
    rng = np.random.default_rng(17)
    x = random(SIZE, dtype_x, rng)
    y = random(SIZE, dtype_y, rng)
    if op in ("/", "%") and dtype_x in INTEGRAL_DTYPES and dtype_y in INTEGRAL_DTYPES:
        y[y == 0] = 1
    if op in ("*", "/") and dtype_x in INT_DTYPES and dtype_y in INT_DTYPES:
        y[y == -1] = 1
    if op == "%" and dtype_x in INTEGRAL_DTYPES and dtype_y not in INTEGRAL_DTYPES:
        x = random(SIZE, dtype_x, rng, low=-100, high=100)
    if op in ("/", "%") and mixed_signedness(dtype_x, dtype_y):
        with pytest.raises(compile_error_type(), match="signedness"):
            run_binary(f"x {op} y", x, y, dtype_x, dtype_y, "float32")
        return
    expected, out = reference_binary(op, x, y, dtype_x, dtype_y)
    z = run_binary(f"x {op} y", x, y, dtype_x, dtype_y, out)
    assert_close(z, expected, message=f"x {op} y")
    if op != "%":
        expected_b, _ = reference_binary(op, np.broadcast_to(x[:1], x.shape), y, dtype_x, dtype_y)
        z = run_binary(f"x {op} y", x, y, dtype_x, dtype_y, out, broadcast_x=True)
        assert_close(z, expected_b, message=f"broadcast x {op} y")


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "%", "<", ">", "<<", ">>", "&", "^", "|"])
@pytest.mark.parametrize("lhs_constant", [False, True])
@pytest.mark.parametrize("rhs_constant", [False, True])
def test_bin_op_constexpr(op, lhs_constant, rhs_constant):
    integer_op = op in ("<<", ">>", "&", "^", "|")
    rng = np.random.default_rng(3)
    if integer_op:
        lhs, rhs = ("3" if lhs_constant else "x"), ("4" if rhs_constant else "y")
        x = random(1, "int32", rng)
        y = random(1, "int32", rng, low=0, high=31) if op in ("<<", ">>") else random(1, "int32", rng)
    else:
        lhs, rhs = ("3.14" if lhs_constant else "x"), ("4.13" if rhs_constant else "y")
        x = random(1, "float32", rng)
        y = random(1, "float32", rng)
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(Z, X, Y):
            x = tl.load(X)
            y = tl.load(Y)
            tl.store(Z, {lhs} {op} {rhs})
    """)
    if op == "%":  # Triton's % is C's fmod, Python's is floored
        expected = np.fmod(eval(lhs, {"x": x}), eval(rhs, {"y": y}))
    else:
        expected = np.array(eval(f"{lhs} {op} {rhs}", {"x": x, "y": y}))
    out_dtype = "bool" if expected.dtype == np.bool_ else ("int32" if integer_op else "float32")
    z = empty((1, ), out_dtype)
    kernel[(1, )](z, to_device(x), to_device(y))
    assert_close(z, expected, rtol=1e-3)


@pytest.mark.matrix
@pytest.mark.parametrize("dtype_x,dtype_y", [(a, b) for a in INT_DTYPES for b in INT_DTYPES] +
                         [(a, b) for a in UINT_DTYPES for b in UINT_DTYPES])
def test_floordiv(dtype_x, dtype_y):
    rng = np.random.default_rng(17)
    x = random(SIZE, dtype_x, rng)
    y = random(SIZE, dtype_y, rng)
    y[(y == 0) | (y == -1)] = 3
    expected, out = reference_binary("//", x, y, dtype_x, dtype_y)
    assert_close(run_binary("x // y", x, y, dtype_x, dtype_y, out), expected, exact=True)


def test_unsigned_abs_is_identity_and_signed_abs_is_not():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(O1, O2, X, Y, SIZE: tl.constexpr):
            offs = tl.arange(0, SIZE)
            tl.store(O1 + offs, tl.abs(tl.load(X + offs)))
            tl.store(O2 + offs, tl.abs(-tl.load(Y + offs)))
    """)
    rng = np.random.default_rng(17)
    x = random(SIZE, "uint32", rng)
    y = random(SIZE, "int32", rng)
    o1, o2 = empty((SIZE, ), "uint32"), empty((SIZE, ), "int32")
    kernel[(1, )](o1, o2, to_device(x), to_device(y), SIZE=SIZE)
    assert_close(o1, x, exact=True)
    assert_close(o2, np.abs(y), exact=True)


@pytest.mark.matrix
@pytest.mark.parametrize("dtype_x", DTYPES_WITH_BF16)
@pytest.mark.parametrize("dtype_y", DTYPES_WITH_BF16)
@pytest.mark.parametrize("op", ["&", "|", "^"])
def test_bitwise_op(op, dtype_x, dtype_y):
    rng = np.random.default_rng(17)
    x = random(SIZE, dtype_x, rng)
    y = random(SIZE, dtype_y, rng)
    if dtype_x not in INTEGRAL_DTYPES or dtype_y not in INTEGRAL_DTYPES:
        with pytest.raises(compile_error_type()):
            run_binary(f"x {op} y", x, y, dtype_x, dtype_y, "float32")
        return
    common = promote(dtype_x, dtype_y)
    a, b = x.astype(common), y.astype(common)
    expected = {"&": a & b, "|": a | b, "^": a ^ b}[op]
    assert_close(run_binary(f"x {op} y", x, y, dtype_x, dtype_y, common), expected, exact=True)


@pytest.mark.matrix
@pytest.mark.parametrize("dtype_x", INT_DTYPES + UINT_DTYPES)
@pytest.mark.parametrize("dtype_y", UINT_DTYPES)
@pytest.mark.parametrize("op", ["<<", ">>"])
def test_shift_op(op, dtype_x, dtype_y):
    rng = np.random.default_rng(17)
    bits = max(np.iinfo(dtype_x).bits, np.iinfo(dtype_y).bits)
    x = random(SIZE, dtype_x, rng)
    y = random(SIZE, dtype_y, rng, low=0, high=bits - 1)
    out = f"int{bits}" if dtype_x in INT_DTYPES else f"uint{bits}"
    a, b = x.astype(out), y.astype(out)
    expected = (a << b) if op == "<<" else (a >> b)
    assert_close(run_binary(f"x {op} y", x, y, dtype_x, dtype_y, out), expected, exact=True)


COMPARISONS = ["==", "!=", ">", "<", ">=", "<="]


@pytest.mark.matrix
@pytest.mark.parametrize("dtype_x,dtype_y,mode_x,mode_y",
                         [(a, b, "real", "real") for a in DTYPES for b in DTYPES] +
                         [("float32", "float32", mx, my) for mx, my in (("nan", "real"), ("real", "nan"),
                                                                         ("nan", "nan"))])
@pytest.mark.parametrize("op", COMPARISONS)
def test_compare_op(op, dtype_x, dtype_y, mode_x, mode_y):
    rng = np.random.default_rng(17)
    x = random(SIZE, dtype_x, rng)
    y = random(SIZE, dtype_y, rng)
    y[:SIZE // 4] = x[:SIZE // 4].astype(y.dtype)  # some ties
    if mode_x == "nan":
        x[:] = np.nan
    if mode_y == "nan":
        y[:] = np.nan
    common = promote(dtype_x, dtype_y)
    a, b = x.astype(numpy_dtype(common)), y.astype(numpy_dtype(common))
    expected = eval(f"a {op} b")
    assert_close(run_binary(f"x {op} y", x, y, dtype_x, dtype_y, "bool"), expected, exact=True)


@pytest.mark.parametrize("dtype", DTYPES_WITH_BF16)
def test_broadcast(dtype):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(x_ptr, y_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
            rows = tl.arange(0, M)
            cols = tl.arange(0, N)
            x = tl.load(x_ptr + N * rows[:, None] + cols[None, :])
            y = tl.load(y_ptr + cols)
            _, y_wide = tl.broadcast(x, y)
            tl.store(out_ptr + N * rows[:, None] + cols[None, :], y_wide)
    """)
    rng = np.random.default_rng(17)
    M, N = 32, 64
    x = random((M, N), dtype, rng)
    y = random(N, dtype, rng)
    out = empty((M, N), dtype)
    kernel[(1, )](to_device(x, dtype), to_device(y, dtype), out, M=M, N=N)
    assert_close(out, np.broadcast_to(y, (M, N)), exact=True)


@pytest.mark.parametrize("dtype", DTYPES_WITH_BF16)
def test_empty_kernel(dtype):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, SIZE: tl.constexpr):
            pass
    """)
    kernel[(1, )](to_device(random(SIZE, dtype, np.random.default_rng(0)), dtype), SIZE=SIZE, num_warps=4)


UNARY = """
@triton.jit
def kernel(Z, X, SIZE: tl.constexpr):
    offs = tl.arange(0, SIZE)
    x = tl.load(X + offs)
    z = {expr}
    tl.store(Z + offs, z)
"""


def run_unary(expr, x, dtype, out_dtype=None):
    kernel = kernel_from_source(UNARY.format(expr=expr))
    z = empty(x.shape, out_dtype or dtype)
    kernel[(1, )](z, to_device(x, dtype), SIZE=x.shape[0], num_warps=4)
    return z


@pytest.mark.parametrize("dtype,expr", [(d, "-x") for d in DTYPES_WITH_BF16] + [(d, "~x") for d in INT_DTYPES])
def test_unary_op(dtype, expr):
    x = random(SIZE, dtype, np.random.default_rng(17))
    with np.errstate(over="ignore"):
        expected = -x if expr == "-x" else ~x
    assert_close(run_unary(expr, x, dtype), expected, exact=dtype in INTEGRAL_DTYPES)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", ["exp", "log", "cos", "sin", "exp2", "log2", "sqrt", "floor", "ceil"])
@pytest.mark.parametrize("arg", ["x", "3.0"])
def test_math_op(fn, dtype, arg):
    x = random(SIZE, dtype, np.random.default_rng(17))
    if fn in ("log", "log2", "sqrt"):
        x = np.abs(x) + 0.01
    expected = getattr(np, fn)(x if arg == "x" else np.full_like(x, 3.0))
    assert_close(run_unary(f"tl.{fn}({arg})", x, dtype), expected, rtol=1e-2)


@pytest.mark.parametrize("fn", ["sqrt", "rsqrt", "exp", "exp2", "log", "log2", "sin", "cos"])
def test_unary_math(fn):
    x = random(SIZE, "float32", np.random.default_rng(5))
    if fn in ("sqrt", "rsqrt"):
        x = np.abs(x)
    if fn in ("log", "log2"):
        x = np.maximum(x, 1e-6)
    x64 = x.astype(np.float64)
    expected = 1 / np.sqrt(x64) if fn == "rsqrt" else getattr(np, fn)(x64)
    assert_close(run_unary(f"tl.{fn}(x)", x, "float32"), expected, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_erf(dtype):
    x = random(SIZE, dtype, np.random.default_rng(2))
    expected = np.vectorize(math.erf)(x.astype(np.float64))
    assert_close(run_unary("tl.math.erf(x)", x, dtype), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_fma(dtype):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Z, X, Y, W, SIZE: tl.constexpr):
            offs = tl.arange(0, SIZE)
            tl.store(Z + offs, tl.math.fma(tl.load(X + offs), tl.load(Y + offs), tl.load(W + offs)))
    """)
    rng = np.random.default_rng(4)
    x, y, w = (random(SIZE, dtype, rng) for _ in range(3))
    z = empty((SIZE, ), dtype)
    kernel[(1, )](z, to_device(x), to_device(y), to_device(w), SIZE=SIZE)
    assert_close(z, x.astype(np.float64) * y + w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("expr", ["tl.math.fdiv(x, y)", "tl.math.div_rn(x, y)"])
def test_math_divide(expr):
    rng = np.random.default_rng(6)
    x = random(SIZE, "float32", rng)
    y = random(SIZE, "float32", rng)
    assert_close(run_binary(expr, x, y, "float32", "float32", "float32"), x.astype(np.float64) / y)


@pytest.mark.parametrize("precise,reference", [
    ("tl.math.sqrt_rn(x)", "tl.math.sqrt(x.to(tl.float64)).to(tl.float32)"),
    ("tl.math.div_rn(x, y)", "(x.to(tl.float64) / y.to(tl.float64)).to(tl.float32)"),
])
def test_precise_math_is_correctly_rounded(precise, reference):
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(X, Y, OUT, OUT_REF, BLOCK: tl.constexpr):
            x = tl.load(X + tl.arange(0, BLOCK))
            y = tl.load(Y + tl.arange(0, BLOCK))
            tl.store(OUT + tl.arange(0, BLOCK), {precise})
            tl.store(OUT_REF + tl.arange(0, BLOCK), {reference})
    """)
    rng = np.random.default_rng(8)
    x = np.abs(random(SIZE, "float32", rng))
    y = random(SIZE, "float32", rng) + np.float32(1e-6)
    out, ref = empty((SIZE, ), "float32"), empty((SIZE, ), "float32")
    kernel[(1, )](to_device(x), to_device(y), out, ref, BLOCK=SIZE)
    assert np.array_equal(to_numpy(out), to_numpy(ref))


@pytest.mark.parametrize("dtype", DTYPES_WITH_BF16)
def test_abs(dtype):
    x = random(SIZE, dtype, np.random.default_rng(17))
    assert_close(run_unary("tl.abs(x)", x, dtype), np.abs(x), exact=dtype in INTEGRAL_DTYPES)


@pytest.mark.parametrize("dtype", ["float8e4nv", "float8e5"])
def test_abs_fp8(dtype):
    torch = pytest.importorskip("torch")
    from core_util import BACKEND
    import arrays
    lib = arrays.make_lib("torch", BACKEND)
    codes = torch.arange(-128, 128, dtype=torch.int16).to(torch.int8)
    torch_dtype = {"float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2}[dtype]
    values = codes.view(torch_dtype).float()
    codes = torch.where(torch.isfinite(values), codes, torch.zeros_like(codes)).to(lib.device)
    out = torch.empty_like(codes)
    kernel = kernel_from_source(UNARY.format(expr="tl.abs(x)"))
    tl_dtype = getattr(tl, dtype)
    kernel[(1, )](triton.reinterpret(out, tl_dtype), triton.reinterpret(codes, tl_dtype), SIZE=256)
    expected = codes.view(torch_dtype).float().abs()
    assert torch.equal(out.view(torch_dtype).float().cpu(), expected.cpu())


@pytest.mark.parametrize("dtype", DTYPES_WITH_BF16 + ["*int32"])
def test_where(dtype):
    pointers = dtype == "*int32"
    if pointers:
        dtype = "int64"
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(cond_ptr, a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr, POINTERS: tl.constexpr,
                   SCALAR_POINTERS: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n
            decide = tl.load(cond_ptr + offs, mask=mask)
            if SCALAR_POINTERS:
                chosen = tl.where(tl.load(cond_ptr), a_ptr, b_ptr)
                result = tl.load(chosen + offs, mask=mask)
            else:
                if POINTERS:
                    a = tl.load(a_ptr + offs, mask=mask).to(tl.pi32_t)
                    b = tl.load(b_ptr + offs, mask=mask).to(tl.pi32_t)
                else:
                    a = tl.load(a_ptr + offs, mask=mask)
                    b = tl.load(b_ptr + offs, mask=mask)
                result = tl.where(decide, a, b)
            tl.store(out_ptr + offs, result, mask=mask)
    """)
    n = 1000
    rng = np.random.default_rng(17)
    cond = random(n, "bool", rng)
    x = random(n, dtype, rng)
    y = random(n, dtype, rng)
    out = empty((n, ), dtype)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]), )
    kernel[grid](to_device(cond), to_device(x, dtype), to_device(y, dtype), out, n, BLOCK=1024, POINTERS=pointers,
                 SCALAR_POINTERS=False)
    assert_close(out, np.where(cond, x, y), exact=True)
    if pointers:
        kernel[grid](to_device(cond), to_device(x, dtype), to_device(y, dtype), out, n, BLOCK=1024,
                     POINTERS=True, SCALAR_POINTERS=True)
        assert_close(out, x if cond[0] else y, exact=True)


def test_where_broadcast():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(cond_ptr, a_ptr, out_ptr, BLOCK: tl.constexpr, SCALAR_COND: tl.constexpr):
            rows = tl.arange(0, BLOCK)[:, None]
            cols = tl.arange(0, BLOCK)[None, :]
            if SCALAR_COND:
                mask = False
            else:
                mask = tl.load(cond_ptr + cols)
            values = tl.load(a_ptr + cols + BLOCK * rows)
            tl.store(out_ptr + cols + BLOCK * rows, tl.where(mask, values, 0.))
    """)
    rng = np.random.default_rng(17)
    x = random((32, 32), "float32", rng)
    mask = random(32, "bool", rng)
    out = empty((32, 32), "float32")
    kernel[(1, )](to_device(mask), to_device(x), out, 32, SCALAR_COND=False)
    assert_close(out, np.where(mask, x, 0), exact=True)
    kernel[(1, )](to_device(mask), to_device(x), out, 32, SCALAR_COND=True)
    assert_close(out, np.zeros_like(x), exact=True)


CAST = """
@triton.jit
def kernel(X, Z, TO_TYPE: tl.constexpr, BITCAST: tl.constexpr, SIZE: tl.constexpr, SPELLING: tl.constexpr):
    x = tl.load(X + tl.arange(0, SIZE))
    if SPELLING == 0:
        z = x.to(Z.dtype.element_ty, bitcast=BITCAST)
    elif SPELLING == 1:
        z = x.cast(Z.dtype.element_ty, bitcast=BITCAST)
    elif SPELLING == 2:
        z = tl.cast(x, Z.dtype.element_ty, bitcast=BITCAST)
    else:
        z = tl.cast(x, TO_TYPE, bitcast=BITCAST)
    tl.store(Z + tl.arange(0, SIZE), z)
"""

CAST_CASES = ([(a, b, False) for a in DTYPES for b in DTYPES] +
              [("float32", "bfloat16", False), ("bfloat16", "float32", False), ("float32", "int32", True),
               ("float32", "bool", False), ("int8", "bfloat16", False)] +
              [(f"uint{n}", f"int{n}", True) for n in (8, 16, 32, 64)] +
              [(f"int{n}", f"uint{n}", True) for n in (8, 16, 32, 64)])


@pytest.mark.matrix
@pytest.mark.parametrize("dtype_x,dtype_z,bitcast", CAST_CASES)
def test_cast(dtype_x, dtype_z, bitcast):
    size = 1024
    rng = np.random.default_rng(0)
    if dtype_x in FLOAT_DTYPES + ["bfloat16"]:
        x = random(size, dtype_x, rng, low=-100, high=100)
    else:
        x = random(size, dtype_x, rng, low=-10, high=10).astype(dtype_x)
    if dtype_z in UINT_DTYPES and not bitcast:
        x = np.abs(x)  # out-of-range conversions differ between C and NumPy
    if dtype_x in FLOAT_DTYPES + ["bfloat16"] and dtype_z in FLOAT_DTYPES + ["bfloat16"]:
        # values both types represent exactly
        x = x.astype(numpy_dtype(dtype_z)).astype(numpy_dtype(dtype_x))
        if "bfloat16" in (dtype_x, dtype_z):
            from core_util import round_to_bf16
            x = round_to_bf16(x.astype(np.float32)).astype(numpy_dtype(dtype_x))
    if dtype_x in FLOAT_DTYPES + ["bfloat16"] and dtype_z in INTEGRAL_DTYPES and not bitcast:
        x = np.trunc(x)
    kernel = kernel_from_source(CAST)
    z = empty((size, ), dtype_z)
    spelling = (DTYPES_WITH_BF16 + ["bool"]).index(dtype_z) % 4
    kernel[(1, )](to_device(x, dtype_x), z, TO_TYPE=getattr(tl, "int1" if dtype_z == "bool" else dtype_z),
                  BITCAST=bitcast, SIZE=size, SPELLING=spelling, num_warps=1)
    if bitcast:
        expected = x.view(numpy_dtype(dtype_z))
    elif dtype_z == "bfloat16":
        from core_util import round_to_bf16
        expected = round_to_bf16(x.astype(np.float32))
    else:
        expected = x.astype(numpy_dtype(dtype_z))
    assert_close(z, expected, exact=True)


@pytest.mark.parametrize("dtype_x", ["float8e4nv", "float8e5"])
@pytest.mark.parametrize("dtype_z", ["float16", "float32", "bfloat16"])
@pytest.mark.parametrize("size", [1024, 32])
@pytest.mark.parametrize("direction", ["from_fp8", "to_fp8"])
def test_cast_fp8(dtype_x, dtype_z, size, direction):
    torch = pytest.importorskip("torch")
    from core_util import BACKEND
    import arrays
    lib = arrays.make_lib("torch", BACKEND)
    fp8 = {"float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2}[dtype_x]
    wide = getattr(torch, dtype_z)
    source_dtype, target_dtype = (fp8, wide) if direction == "from_fp8" else (wide, fp8)
    torch.manual_seed(0)
    x = torch.randn(size, dtype=torch.float16).to(fp8).to(source_dtype).to(lib.device)
    z = torch.empty(size, dtype=target_dtype, device=lib.device)
    kernel = kernel_from_source(CAST)
    to_type = getattr(tl, dtype_x if direction == "to_fp8" else dtype_z)
    kernel[(1, )](x, z, TO_TYPE=to_type, BITCAST=False, SIZE=size, SPELLING=size % 4, num_warps=1)
    expected = x.to(target_dtype)
    assert torch.equal(z.view(torch.uint8 if target_dtype == fp8 else target_dtype).cpu(),
                       expected.view(torch.uint8 if target_dtype == fp8 else target_dtype).cpu())


@pytest.mark.parametrize("fp8", ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"])
@pytest.mark.parametrize("dtype_z", ["float32", "float16"])
def test_cast_fp8_every_encoding(fp8, dtype_z):
    """Each of the 256 encodings widens to torch's value: zeros keep their sign, subnormals,
    the largest finite values, infinities and NaNs included."""
    torch = pytest.importorskip("torch")
    from core_util import BACKEND
    import arrays
    lib = arrays.make_lib("torch", BACKEND)
    wide = getattr(torch, dtype_z)
    x = torch.arange(256, dtype=torch.uint8).view(getattr(torch, fp8)).to(lib.device)
    z = torch.empty(256, dtype=wide, device=lib.device)
    kernel = kernel_from_source(CAST)
    kernel[(1, )](x, z, TO_TYPE=getattr(tl, dtype_z), BITCAST=False, SIZE=256, SPELLING=0, num_warps=1)
    z, expected = z.cpu(), x.to(wide).cpu()
    nan = torch.isnan(expected)
    assert torch.equal(torch.isnan(z), nan)
    assert torch.equal(z[~nan].view(torch.int16 if dtype_z == "float16" else torch.int32),
                       expected[~nan].view(torch.int16 if dtype_z == "float16" else torch.int32))


TO_FP8 = """
@triton.jit
def kernel(X, Z, SIZE: tl.constexpr, ROUNDING: tl.constexpr):
    offs = tl.program_id(0) * SIZE + tl.arange(0, SIZE)
    x = tl.load(X + offs)
    tl.store(Z + offs, x.to(Z.dtype.element_ty, fp_downcast_rounding=ROUNDING))
"""


@pytest.mark.parametrize("fp8", ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"])
@pytest.mark.parametrize("rounding", ["rtne", "rtz"])
def test_cast_to_fp8_every_half(fp8, rounding):
    """Every finite fp16 value inside the format's range, widened to fp32, rounds to fp8 as torch
    rounds it (to nearest even), or to the neighbour nearer zero (rtz): ties, subnormals and the
    values next to the largest finite one included."""
    torch = pytest.importorskip("torch")
    from core_util import BACKEND
    import arrays
    lib = arrays.make_lib("torch", BACKEND)
    fp8_dtype = getattr(torch, fp8)
    largest = torch.finfo(fp8_dtype).max
    half = torch.arange(-32768, 32768, dtype=torch.int32).to(torch.int16).view(torch.float16).float()
    x = half[torch.isfinite(half) & (half.abs() <= largest)]
    x = torch.cat([x, torch.zeros(-len(x) % 1024)])
    z = torch.empty(len(x), dtype=fp8_dtype, device=lib.device)
    kernel_from_source(TO_FP8)[(len(x) // 1024, )](x.to(lib.device), z, SIZE=1024, ROUNDING=rounding,
                                                   num_warps=4)
    got = z.cpu().float()
    if rounding == "rtne":
        expected = x.to(fp8_dtype).float()
    else:
        # The finite value of largest magnitude not beyond x, on x's side of zero.
        values = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(fp8_dtype).float()
        values = values[torch.isfinite(values)].unique().sort().values
        below = values[(torch.searchsorted(values, x, right=True) - 1).clamp(min=0)]
        above = values[torch.searchsorted(values, x).clamp(max=len(values) - 1)]
        expected = torch.where(x >= 0, below, above)
    assert torch.equal(got, expected), (x[got != expected][:8], got[got != expected][:8])


@pytest.mark.parametrize("dtype", ["int32"])
def test_umulhi(dtype):
    rng = np.random.default_rng(17)
    x = random(SIZE, dtype, rng, low=0, high=2**31 - 1)
    y = random(SIZE, dtype, rng, low=0, high=2**31 - 1)
    expected = (x.astype(np.int64) * y.astype(np.int64)) >> 32
    assert_close(run_binary("tl.umulhi(x, y)", x, y, dtype, dtype, dtype), expected, exact=True)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("propagate_nan", ["NONE", "ALL"])
@pytest.mark.parametrize("fn", ["minimum", "maximum", "clamp"])
def test_propagate_nan(dtype, propagate_nan, fn):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(A, B, C, MODE: tl.constexpr, FN: tl.constexpr):
            a = tl.load(A)
            b = tl.load(B)
            if FN == "clamp":
                c = tl.clamp(a, -b, b, propagate_nan=getattr(tl.PropagateNan, MODE))
            elif FN == "minimum":
                c = tl.minimum(a, b, propagate_nan=getattr(tl.PropagateNan, MODE))
            else:
                c = tl.maximum(a, b, propagate_nan=getattr(tl.PropagateNan, MODE))
            tl.store(C, c)
    """)
    rng = np.random.default_rng(1)
    for where in ("A", "B", "both"):
        if fn == "clamp" and where == "B":
            continue  # clamp does not promise propagation from its bounds
        a = np.abs(random(1, dtype, rng))
        b = np.abs(random(1, dtype, rng)) + 1
        if where in ("A", "both"):
            a[0] = np.nan
        if where in ("B", "both"):
            b[0] = np.nan
        c = empty((1, ), dtype)
        kernel[(1, )](to_device(a, dtype), to_device(b, dtype), c, MODE=propagate_nan, FN=fn)
        assert np.isnan(to_numpy(c)[0]) == (where == "both" or propagate_nan == "ALL"), where


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("symmetric", [False, True])
def test_clamp(dtype, symmetric):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(x_ptr, lo_ptr, hi_ptr, out_ptr, ref_ptr, n, BLOCK: tl.constexpr, SYMMETRIC: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            mask = offs < n
            x = tl.load(x_ptr + offs, mask=mask)
            hi = tl.load(hi_ptr + offs, mask=mask)
            if SYMMETRIC:
                lo = -hi
            else:
                lo = tl.load(lo_ptr + offs, mask=mask)
            tl.store(out_ptr + offs, tl.clamp(x, lo, hi), mask=mask)
            tl.store(ref_ptr + offs, tl.minimum(tl.maximum(x, lo), hi), mask=mask)
    """)
    rng = np.random.default_rng(9)
    x, a, b = (random(SIZE, dtype, rng) for _ in range(3))
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    if symmetric:
        hi = np.abs(hi)
    out, ref = empty((SIZE, ), dtype), empty((SIZE, ), dtype)
    kernel[(1, )](to_device(x), to_device(lo), to_device(hi), out, ref, SIZE, BLOCK=SIZE, SYMMETRIC=symmetric)
    assert_close(out, to_numpy(ref), exact=True)
    assert_close(out, np.clip(x, -hi if symmetric else lo, hi), exact=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_extern(dtype):
    x = random(SIZE, dtype, np.random.default_rng(17))
    assert_close(run_unary("libdevice.tanh(x)", x, dtype), np.tanh(x.astype(np.float64)), rtol=1e-2)


# libdevice functions libm has no counterpart for (computed inline on the
# CPU): checked against NumPy on values with NaN, infinities and halves.
@pytest.mark.parametrize("expr,out_dtype,reference", [
    ("libdevice.rsqrt(x)", "float32", lambda x: 1 / np.sqrt(x)),
    ("libdevice.isnan(x)", "int32", lambda x: np.isnan(x).astype(np.int32)),
    ("libdevice.isinf(x)", "int32", lambda x: np.isinf(x).astype(np.int32)),
    ("libdevice.finitef(x)", "int32", lambda x: np.isfinite(x).astype(np.int32)),
    ("libdevice.div_rn(x, 3.0)", "float32", lambda x: x / np.float32(3.0)),
    ("libdevice.float2int_rn(x)", "int32", lambda x: np.rint(x).astype(np.int32)),
    ("libdevice.float2int_rz(x)", "int32", lambda x: np.trunc(x).astype(np.int32)),
])
def test_libdevice_functions_without_libm_counterpart(expr, out_dtype, reference):
    x = np.linspace(-4.5, 4.5, SIZE).astype(np.float32)
    x[:4] = [np.nan, np.inf, -np.inf, 0.25]
    if "rsqrt" in expr:
        x = np.abs(x) + 0.5
    if "float2int" in expr:  # finite inputs (NaN and infinities have no int), ties
        x[:3] = [2.5, -3.5, 0.5]
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = reference(x)
    assert_close(run_unary(expr, x, "float32", out_dtype), expected, rtol=1e-6,
                 exact=out_dtype == "int32")


def _directed(exact, mode):
    """The fp32 value `exact` (a Fraction) rounds to in `mode`."""
    from fractions import Fraction
    nearest = np.float32(float(exact))
    if Fraction(float(nearest)) == exact:
        return nearest
    above = Fraction(float(nearest)) > exact
    if mode == "rz":
        toward = np.float32(0) if (above == (exact > 0)) else None
    else:
        toward = (np.float32(-np.inf) if above else None) if mode == "rd" else \
            (np.float32(np.inf) if not above else None)
    return nearest if toward is None else np.nextafter(nearest, toward)


@pytest.mark.parametrize("mode", ["rz", "rd", "ru"])
@pytest.mark.parametrize("fn", ["div", "mul"])
def test_libdevice_directed_rounding(fn, mode):
    # FlagGems' trunc/floor division calls div_rz. Checked against exact
    # rational arithmetic, values whose results are not exact fp32 values.
    from fractions import Fraction
    rng = np.random.default_rng(21)
    x = random(SIZE, "float32", rng) * np.float32(7)
    y = random(SIZE, "float32", rng) + np.float32(0.3)
    x[:4] = [1.0, -1.0, 3.0e38, -1.0e-38]
    y[:4] = [3.0, 3.0, 0.1, 7.0]
    out = to_numpy(run_binary(f"libdevice.{fn}_{mode}(x, y)", x, y, "float32", "float32", "float32"))
    for i in range(SIZE):
        a, b = Fraction(float(x[i])), Fraction(float(y[i]))
        exact = a / b if fn == "div" else a * b
        want = _directed(exact, mode) if abs(exact) < Fraction(float(np.finfo(np.float32).max)) else \
            _directed_overflow(exact, mode)
        assert out[i] == want or (np.isnan(out[i]) and np.isnan(want)), (i, x[i], y[i], out[i], want)


def _directed_overflow(exact, mode):
    big = np.finfo(np.float32).max
    positive = exact > 0
    if mode == "rz" or (mode == "rd" and positive) or (mode == "ru" and not positive):
        return np.float32(big if positive else -big)
    return np.float32(np.inf if positive else -np.inf)


@pytest.mark.parametrize("mode", ["rz", "rd", "ru"])
def test_libdevice_directed_sqrt_and_rcp(mode):
    from fractions import Fraction
    x = np.abs(random(SIZE, "float32", np.random.default_rng(22))) + np.float32(0.5)
    sq = to_numpy(run_unary(f"libdevice.sqrt_{mode}(x)", x, "float32"))
    rc = to_numpy(run_unary(f"libdevice.rcp_{mode}(x)", x, "float32"))
    for i in range(SIZE):
        assert rc[i] == _directed(1 / Fraction(float(x[i])), mode)
        # sqrt: the fp32 neighbours of the root, by squaring exactly.
        r = np.float32(sq[i])
        lo, hi = (r, np.nextafter(r, np.float32(np.inf))) if mode != "ru" else \
            (np.nextafter(r, np.float32(0)), r)
        root2 = Fraction(float(x[i]))
        assert Fraction(float(lo))**2 <= root2 <= Fraction(float(hi))**2, (x[i], r)
        if Fraction(float(r))**2 != root2:
            assert (Fraction(float(r))**2 < root2) == (mode != "ru")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_libdevice_pow_integer_exponent(dtype):
    # FlagGems' gelu: libdevice.pow(x, 2) with an int exponent.
    x = random(SIZE, dtype, np.random.default_rng(23))
    n = (np.arange(SIZE) % 9 - 4).astype(np.int32)
    x[n < 0] += np.sign(x[n < 0]) * 0.5  # away from 0
    out = run_binary("libdevice.pow(x, y)", x, n, dtype, "int32", dtype)
    with np.errstate(all="ignore"):
        expected = np.power(x.astype(np.float64), n.astype(np.float64)).astype(dtype)
    assert_close(out, expected, rtol=1e-6 if dtype == "float32" else 1e-12)
    two = run_unary("libdevice.pow(x, 2)", x, dtype)
    assert_close(two, (x.astype(np.float64)**2).astype(dtype), rtol=1e-6)


def test_dtype_codegen():
    for name in DTYPES_WITH_BF16:
        full = f"triton.language.{name}"
        assert repr(eval(full, {"triton": triton})) == full

