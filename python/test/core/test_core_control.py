"""Port of test_core.py's control-flow, call and compile-time tests: if/while/
for, early returns, calls (inline and noinline), constexpr evaluation,
const pointers, static_range, tl.range options, num_programs, loop
unrolling, debug-mode assertions in combine functions."""
from __future__ import annotations

import numpy as np
import pytest

import triton
import triton.language as tl

from core_util import BACKEND, assert_close, compile_error_type, empty, kernel_from_source, random, to_device, \
    to_numpy

pytestmark = pytest.mark.device

NOINLINE_HELPERS = """
@triton.jit(noinline=True)
def noinline_simple_fn(x, y, Z):
    tl.store(Z, x + y)


@triton.jit(noinline=True)
def noinline_call_graph_fn1(x):
    return x + 1


@triton.jit(noinline=True)
def noinline_call_graph_fn2(y):
    return y + 2


@triton.jit(noinline=True)
def noinline_call_graph_fn(x, y, Z):
    tl.store(Z, noinline_call_graph_fn1(x) + noinline_call_graph_fn2(y))


@triton.jit(noinline=True)
def noinline_shared_fn(x, y, Z):
    offs = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    z = tl.load(Z + offs)
    tl.store(Z + offs, tl.dot(z, z) + x + y)


@triton.jit(noinline=True)
def noinline_dynamic_fn(x, y, Z):
    if x >= 1:
        x = noinline_call_graph_fn1(x)
    else:
        x = noinline_call_graph_fn2(x)
    if y >= 2:
        y = noinline_call_graph_fn2(y)
    else:
        y = noinline_call_graph_fn1(y)
    tl.store(Z, x + y)


@triton.jit(noinline=True)
def noinline_call_multi_values_fn(x, y):
    return x + 1, y + 2


@triton.jit(noinline=True)
def noinline_multi_values_fn(x, y, Z):
    x, y = noinline_call_multi_values_fn(x, y)
    tl.store(Z, x + y)
"""


@pytest.mark.parametrize("mode", ["simple", "call_graph", "shared", "dynamic", "multi_values"])
def test_noinline(mode):
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(X, Y, Z):
            noinline_{mode}_fn(tl.load(X), tl.load(Y), Z)
    """, prelude=NOINLINE_HELPERS)
    x = to_device(np.array([1.0], np.float32))
    y = to_device(np.array([2.0], np.float32))
    z = to_device(np.ones((16, 16), np.float32) if mode == "shared" else np.zeros(1, np.float32))
    kernel[(1, )](x, y, z, num_warps=1)
    if mode == "simple":
        assert_close(z, [3.0], exact=True)
    elif mode == "shared":
        assert_close(z, np.full((16, 16), 16.0 + 3.0), exact=True)
    else:
        assert_close(z, [1.0 + 1 + 2.0 + 2], exact=True)


CALL_HELPERS = """
@triton.jit
def val_multiplier(val, i):
    return val * i


@triton.jit(noinline=True)
def val_multiplier_noinline(val, i):
    return val * i


@triton.jit
def vecmul(ptr, n_elements, rep, type: tl.constexpr):
    offs = tl.program_id(axis=0) * 128 + tl.arange(0, 128)
    mask = offs < n_elements
    vec = tl.load(ptr + offs, mask=mask)
    for i in range(1, rep):
        if type == "inline":
            vec = val_multiplier(vec, i)
        else:
            vec = val_multiplier_noinline(vec, i)
    tl.store(ptr + offs, vec, mask=mask)
"""


@pytest.mark.parametrize("kind", ["inline", "noinline"])
def test_call(kind):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(ptr, n_elements, num1, num2, type: tl.constexpr):
            vecmul(ptr, n_elements, num1, type)
            vecmul(ptr, n_elements, num2, type)
    """, prelude=CALL_HELPERS)
    values = random(1024, "float32", np.random.default_rng(0))
    x = to_device(values)
    if kind == "noinline":
        # As in the original: a noinline function called with a block (a
        # non-scalar value) is refused when compiling for a device.
        with pytest.raises(compile_error_type()):
            kernel[(1024 // 128, )](x, 1024, 3, 5, kind)
        return
    kernel[(1024 // 128, )](x, 1024, 3, 5, kind)
    assert_close(x, values * 1 * 2 * 1 * 2 * 3 * 4, exact=True)


@pytest.mark.parametrize("if_type", ["if", "if_and_dynamic", "if_exp_static", "if_exp_dynamic",
                                     "if_exp_dynamic_constexpr", "if_exp_dynamic_void", "if_and_static"])
def test_if(if_type):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Cond, XTrue, XFalse, Ret, IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
            pid = tl.program_id(0)
            cond = tl.load(Cond)
            if IfType == "if":
                if pid % 2 == 0:
                    tl.store(Ret, tl.load(XTrue))
                elif 1 == pid % 2:
                    tl.store(Ret, tl.load(XFalse))
            elif IfType == "if_exp_dynamic":
                val = tl.load(XTrue) if pid % 2 == 0 else tl.load(XFalse)
                tl.store(Ret, val)
            elif IfType == "if_exp_dynamic_constexpr":
                val = 3.14 if pid % 2 == 0 else tl.load(XFalse)
                tl.store(Ret, val)
            elif IfType == "if_exp_dynamic_void":
                tl.store(Ret, tl.load(XTrue)) if pid % 2 == 0 else tl.store(Ret, tl.load(XFalse))
            elif IfType == "if_exp_static":
                tl.store(Ret, tl.load(XTrue)) if BoolVar else tl.store(Ret, tl.load(XFalse))
            elif IfType == "if_and_dynamic":
                if BoolVar and (1 != pid % 2 and pid % 2 != 1):
                    tl.store(Ret, tl.load(XTrue))
                else:
                    tl.store(Ret, tl.load(XFalse))
            elif IfType == "if_and_static":
                if StaticValue != 0 and StaticValue != 0:
                    tl.store(Ret, tl.load(XTrue))
                else:
                    tl.store(Ret, tl.load(XFalse))
    """)
    ret = empty((1, ), "float32")
    kernel[(1, )](to_device(np.ones(1, np.int32)), to_device(np.array([3.14], np.float32)),
                  to_device(np.array([1.51], np.float32)), ret, if_type, True, 1)
    assert_close(ret, np.array([3.14], np.float32), exact=True)


def test_if_else():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Cond, TrueVal, FalseVal, Out):
            if tl.load(Cond):
                val = tl.load(TrueVal)
            else:
                val = tl.load(FalseVal)
            tl.store(Out, val)
    """)
    out = empty((1, ), "int32")
    for cond, expected in ((1, 1), (0, 2)):
        kernel[(1, )](to_device(np.array([cond], np.int32)), to_device(np.array([1], np.int32)),
                      to_device(np.array([2], np.int32)), out)
        assert to_numpy(out)[0] == expected


@pytest.mark.parametrize("mode", ["dynamic", "static"])
def test_if_return(mode):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(ExitEarly, Out, cond: tl.constexpr, mode: tl.constexpr):
            if mode == "dynamic":
                if tl.load(ExitEarly):
                    tl.store(Out, 0)
                    return
            else:
                if cond:
                    tl.store(Out, 0)
                    return
            tl.store(Out, 1)
    """)
    out = empty((1, ), "int32")
    kernel[(1, )](to_device(np.array([1], np.int32)), out, True, mode)
    assert to_numpy(out)[0] == 0
    kernel[(1, )](to_device(np.array([0], np.int32)), out, False, mode)
    assert to_numpy(out)[0] == 1


IF_CALL_HELPERS = """
@triton.jit
def add_fn(x):
    return x + 1


@triton.jit(noinline=True)
def add_fn_noinline(x):
    return x + 1


@triton.jit
def add_fn_return(x, pid):
    if pid == 0:
        return x + 1
    else:
        return x + 2


@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)


@triton.jit
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1
"""


@pytest.mark.parametrize("call_type", ["attribute", "attribute_jit", "jit", "jit_if", "jit_expr", "jit_static_cond",
                                       "jit_noinline", "jit_extern"])
def test_if_call(call_type):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Out, call_type: tl.constexpr):
            pid = tl.program_id(0)
            o = tl.load(Out)
            if call_type == "attribute":
                if pid == 0:
                    a = o
                    a = a.to(tl.int32).to(tl.int32) + 1
                    o = a
            elif call_type == "attribute_jit":
                if pid == 0:
                    a = o
                    a = tl.load(Out + add_fn(a) - 1).to(tl.int32) + 1
                    o = a
            elif call_type == "jit":
                if pid == 0:
                    o = add_fn(o)
            elif call_type == "jit_if":
                if pid == 0:
                    o = add_fn_return(o, pid)
            elif call_type == "jit_expr":
                if pid == 0:
                    a = o + 1
                    add_fn_expr(Out, a)
                    o = a
            elif call_type == "jit_static_cond":
                if pid == 0:
                    a = o + 1
                    add_fn_static_cond(o, call_type)
                    o = a
            elif call_type == "jit_noinline":
                if pid == 0:
                    a = o + 1
                    add_fn_noinline(a)
                    o = a
            elif call_type == "jit_extern":
                if pid == 0:
                    a = o + 1
                    tl.cdiv(a, a)
                    o = a
            tl.store(Out, o)
    """, prelude=IF_CALL_HELPERS)
    out = to_device(np.zeros(1, np.int32))
    kernel[(1, )](out, call_type)
    assert to_numpy(out)[0] == 1


@pytest.mark.parametrize("c1", [True, False])
@pytest.mark.parametrize("c2", [True, False])
@pytest.mark.parametrize("c3", [True, False])
def test_nested_if_else_return(c1, c2, c3):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Cond1, Cond2, Cond3, Val1, Val2, Val3, Out):
            val = 0
            if tl.load(Cond1):
                if tl.load(Cond2):
                    val = tl.load(Val1)
                else:
                    return
            else:
                if tl.load(Cond3):
                    val = tl.load(Val2)
                else:
                    val = tl.load(Val3)
            tl.store(Out, val)
    """)
    out = to_device(np.full(1, -1, np.int32))
    flags = [to_device(np.array([int(c)], np.int32)) for c in (c1, c2, c3)]
    values = [to_device(np.array([v], np.int32)) for v in (1, 2, 3)]
    kernel[(1, )](*flags, *values, out)
    expected = (1 if c2 else -1) if c1 else (2 if c3 else 3)
    assert to_numpy(out)[0] == expected


def test_while():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(InitI, Bound, CutOff, OutI, OutInitI, OutJ):
            init_i = tl.load(InitI)
            curr_i = init_i
            j = 0
            while j < tl.load(Bound):
                curr_i = curr_i + (j == tl.load(CutOff))
                j += 1
                tl.store(OutInitI, init_i)
            tl.store(OutI, curr_i)
            tl.store(OutJ, j)
    """)
    out_i, out_init, out_j = (empty((1, ), "int32") for _ in range(3))
    kernel[(1, )](to_device(np.array([1], np.int32)), to_device(np.array([10], np.int32)),
                  to_device(np.array([5], np.int32)), out_i, out_init, out_j)
    assert (to_numpy(out_init)[0], to_numpy(out_i)[0], to_numpy(out_j)[0]) == (1, 2, 10)


def test_nested_while():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(data, countPtr):
            for i in range(10):
                count = tl.load(countPtr)
                while count > 0:
                    tl.store(data, tl.load(data) + 1.0)
                    count = count - 2
    """)
    data = to_device(np.zeros(1, np.float32))
    kernel[(1, )](data, to_device(np.array([8], np.int32)))
    assert to_numpy(data)[0] == 40


def test_constexpr_if_return():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Semaphore, Out, total: tl.constexpr):
            if total == 1:
                tl.store(Out, tl.program_id(0))
                return
            prev = tl.atomic_add(Semaphore, 1)
            if prev + 1 != total:
                return
            tl.store(Out, tl.program_id(0) + prev)
    """)
    out = to_device(np.full(1, -1, np.int32))
    kernel[(1, )](to_device(np.zeros(1, np.int32)), out, 1)
    assert to_numpy(out)[0] == 0
    out = to_device(np.full(1, -1, np.int32))
    kernel[(4, )](to_device(np.zeros(1, np.int32)), out, 4)
    assert to_numpy(out)[0] >= 0


@pytest.mark.parametrize("lo,hi,step", [(2**35, 2**35 + 20, 1), (2**35, 2**35 + 20, 2), (2**35, 2**35 + 20, 3),
                                        (15, -16, -1), (15, -16, -2), (15, -16, -3), (-18, -22, -1), (22, 18, -1)])
def test_for_induction_variable(lo, hi, step):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Out, lo, hi, step: tl.constexpr):
            acc = 0
            acc = acc.to(tl.int64)
            for i in range(lo, hi, step):
                acc += i
            tl.store(Out, acc)
    """)
    out = to_device(np.zeros(1, np.int64))
    kernel[(1, )](out, lo, hi, step)
    assert to_numpy(out)[0] == sum(range(lo, hi, step))


def test_static_range():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Z, N: tl.constexpr, step: tl.constexpr):
            acc = 0
            for i in tl.static_range(0, N, step=step):
                acc += i
            tl.store(Z, acc)
    """)
    out = empty((1, ), "int32")
    kernel[(1, )](out, 100, 7)
    assert to_numpy(out)[0] == sum(range(0, 100, 7))


def test_tl_range_options():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(out, ub):
            total = 0
            for i in tl.range(0, ub, flatten=True):
                for j in tl.range(0, ub, num_stages=None, loop_unroll_factor=None):
                    total += 1
            tl.store(out, total)
    """)
    out = empty((1, ), "int32")
    kernel[(1, )](out, 10)
    assert to_numpy(out)[0] == 100


def test_temp_var_in_loop():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Z, N: tl.constexpr, BLOCK: tl.constexpr):
            acc = tl.full((BLOCK, ), 0, dtype=tl.int32)
            for i in range(N):
                if i == 0:
                    temp = tl.full((BLOCK, ), 2, dtype=tl.int32)
                    acc = temp
                else:
                    acc += tl.full((BLOCK, ), 1, dtype=tl.int32)
                temp = tl.full((BLOCK, ), 1, dtype=tl.int32)
                acc += temp
            tl.store(Z + tl.arange(0, BLOCK), acc)
    """)
    out = empty((32, ), "int32")
    kernel[(1, )](out, 10, 32)
    assert_close(out, np.full(32, 2 + 1 + 9 * 2), exact=True)


def test_num_programs():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(input):
            tl.store(input, tl.num_programs(0))
            tl.store(input + 1, tl.num_programs(1))
            tl.store(input + 2, tl.num_programs(2))
    """)
    out = empty((3, ), "int32")
    kernel[(11, 21, 31)](out)
    assert_close(out, [11, 21, 31], exact=True)


def test_loop_unroll_factor():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst, unroll_factor: tl.constexpr):
            pid = tl.program_id(axis=0)
            for i in tl.range(0, 10, loop_unroll_factor=unroll_factor):
                tl.atomic_add(dst + pid, i + pid)
    """)
    for factor in [1, 2, 4, 5, 8]:
        dst = to_device(np.zeros(1, np.float32))
        kernel[(1, )](dst, factor)
        assert to_numpy(dst)[0] == 45


@pytest.mark.parametrize("choose_const", [True, False])
@pytest.mark.parametrize("constexpr", [True, False])
@pytest.mark.parametrize("mode", ["direct", "call", "ternary", "if"])
def test_const_pointers(choose_const, constexpr, mode):
    tail = {
        "direct": "final_out = c_out" if choose_const else "final_out = out",
        "call": "final_out = pass_const(out, c_out, choose_const)",
        "ternary": "final_out = c_out if choose_const else out",
        "if": "if choose_const:\n        final_out = c_out\n    else:\n        final_out = out",
    }[mode]
    choose = "choose_const: tl.constexpr" if constexpr else "choose_const"
    decorator = "@triton.jit" if constexpr else '@triton.jit(do_not_specialize=["choose_const"])'
    kernel = kernel_from_source(f"""
{decorator}
def kernel(in_ptr: tl.const, out, c_out: tl.const, {choose}, n_elems: tl.int32, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elems
    val = tl.load(in_ptr + offs, mask=mask)
    {tail}
    tl.store(final_out + offs, val, mask=mask)
""", prelude="""
@triton.jit
def pass_const(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a
""")
    values = random(128, "float32", np.random.default_rng(0))
    out = to_device(np.zeros(128, np.float32))
    expect_fail = (not constexpr and mode != "direct") or choose_const
    if expect_fail:
        with pytest.raises(compile_error_type()):
            kernel[(1, )](to_device(values), out, out, choose_const, 128, 128)
    else:
        kernel[(1, )](to_device(values), out, out, choose_const, 128, 128)
        assert_close(out, values, exact=True)


def test_num_warps_must_be_a_power_of_two():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst):
            pass
    """)
    dst = to_device(np.zeros(128, np.float32))
    with pytest.raises((AssertionError, ValueError, compile_error_type()), match="power of 2|power of two"):
        kernel[(1, )](dst=dst, num_warps=3)
    for nw in (1, 2, 4):
        kernel[(1, )](dst=dst, num_warps=nw)


def test_scalar_overflow_is_a_compile_error():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel():
            huge_int: tl.constexpr = 0xFFFFFFFFFFFFFF
            x = tl.full((), 32, dtype=tl.int32)
            y = x + huge_int
    """)
    with pytest.raises(compile_error_type(), match="out of range"):
        kernel[(1, )]()


SANITIZE = """
@triton.jit
def sanitize_add(a, b):
    a64 = a.to(tl.int64)
    b64 = b.to(tl.int64)
    r64 = a64 + b64
    tl.device_assert((r64 >= -2**31) & (r64 <= 2**31 - 1))
    return a + b
"""


def test_reduction_with_an_assertion_in_its_combine_function():
    kernel = kernel_from_source("""
        @triton.jit(debug=True)
        def kernel(Z, X, BLOCK: tl.constexpr):
            tl.store(Z, tl.reduce(tl.load(X + tl.arange(0, BLOCK)), 0, sanitize_add))
    """, prelude=SANITIZE)
    x = np.zeros(512, np.int32)
    x[:300] = 32
    z = empty((1, ), "int32")
    kernel[(1, )](z, to_device(x), BLOCK=512)
    assert to_numpy(z)[0] == x.sum()


@pytest.mark.parametrize("dim", [0, 1])
def test_2d_reduction_with_an_assertion_in_its_combine_function(dim):
    kernel = kernel_from_source("""
        @triton.jit(debug=True)
        def kernel(Z, X, B0: tl.constexpr, B1: tl.constexpr, DIM: tl.constexpr, KEPT: tl.constexpr):
            offs = tl.arange(0, B0)[:, None] * B1 + tl.arange(0, B1)[None, :]
            tl.store(Z + tl.arange(0, KEPT), tl.reduce(tl.load(X + offs), DIM, sanitize_add))
    """, prelude=SANITIZE)
    x = np.random.default_rng(42).integers(0, 10, (16, 32)).astype(np.int32)
    kept = 32 if dim == 0 else 16
    z = empty((kept, ), "int32")
    kernel[(1, )](z, to_device(x), B0=16, B1=32, DIM=dim, KEPT=kept)
    assert_close(z, x.sum(axis=dim), exact=True)


def test_scan_with_an_assertion_in_its_combine_function():
    kernel = kernel_from_source("""
        @triton.jit(debug=True)
        def kernel(Z, X, BLOCK: tl.constexpr):
            z = tl.associative_scan(tl.load(X + tl.arange(0, BLOCK)), 0, sanitize_add)
            tl.store(Z + tl.arange(0, BLOCK), z)
    """, prelude=SANITIZE)
    x = np.zeros(512, np.int32)
    x[:300] = 32
    z = empty((512, ), "int32")
    kernel[(1, )](z, to_device(x), BLOCK=512)
    assert_close(z, np.cumsum(x), exact=True)


def test_launch_option_enable_fp_fusion_is_refused():
    """Triton accepts enable_fp_fusion as a launch option; Tessera refuses
    it by name instead of ignoring it."""
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(data):
            ptrs = data + tl.arange(0, 128)
            tl.store(ptrs, tl.load(ptrs) * 1.5 + 1.0)
    """)
    with pytest.raises(TypeError, match="enable_fp_fusion"):
        kernel[(1, )](to_device(np.zeros(128, np.float32)), enable_fp_fusion=False)
