"""Port of test_core.py's reductions, scans, histograms and gathers."""
from __future__ import annotations

import numpy as np
import pytest

import triton
import triton.language as tl

from core_util import (DTYPES_WITH_BF16, INT_DTYPES, INTEGRAL_DTYPES, assert_close, compile_error_type, empty,
                       kernel_from_source, random, to_device, to_numpy)

pytestmark = pytest.mark.device


def test_max_of_zeros_is_zero():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, Z, BLOCK: tl.constexpr):
            tl.store(Z, tl.max(tl.load(X + tl.arange(0, BLOCK))))
    """)
    z = to_device(np.ones(1, np.float32))
    kernel[(1, )](to_device(np.zeros(128, np.float32)), z, BLOCK=128)
    assert to_numpy(z)[0] == 0


REDUCE1D_OPS = ["min", "max", "min-with-indices", "max-with-indices", "argmin-tie-break-left",
                "argmax-tie-break-left", "sum"]


@pytest.mark.matrix
@pytest.mark.parametrize("op", REDUCE1D_OPS)
@pytest.mark.parametrize("dtype", DTYPES_WITH_BF16)
@pytest.mark.parametrize("shape", [32, 64, 128, 512])
def test_reduce1d(op, dtype, shape):
    name = op.split("-")[0]
    if "with-indices" in op:
        call = f"z, _ = tl.{name}(x, axis=0, return_indices=True)"
    elif "arg" in op:
        call = f"z = tl.{name}(x, axis=0, tie_break_left=True)"
    else:
        call = f"z = tl.{name}(x, axis=0)"
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(X, Z, BLOCK: tl.constexpr):
            x = tl.load(X + tl.arange(0, BLOCK))
            {call}
            tl.store(Z, z)
    """)
    rng = np.random.default_rng(17)
    x = random(shape, dtype, rng)
    reference = {"sum": np.sum, "max": np.max, "min": np.min, "argmin": np.argmin, "argmax": np.argmax}[name]
    if "tie-break-left" in op:
        x[3:10] = x[reference(x)]
    index_result = "arg" in op
    out_dtype = "int32" if index_result else dtype
    z = empty((1, ), out_dtype)
    kernel[(1, )](to_device(x, dtype), z, BLOCK=shape)
    got = to_numpy(z)[0]
    if index_result:
        assert got == reference(x)  # the leftmost of the tied extremes
    elif op == "sum":
        if dtype in INTEGRAL_DTYPES:
            # accumulated in (u)int32 or wider, stored in the input's type
            assert got == np.sum(x.astype(np.int64)).astype(dtype)
        else:
            # bf16/fp16 accumulate in their own type: allow its rounding
            # over the magnitudes summed
            atol = 7e-3 if dtype not in ("bfloat16", "float16") else float(np.sum(np.abs(x))) * 2**-8
            assert_close(np.array([got]), np.array([np.sum(x.astype(np.float64))]), rtol=1e-2, atol=atol)
    else:
        assert got == reference(x)


REDUCE_OPS = ["min", "max", "sum", "argmin", "argmax"]
REDUCE_CASES = (
    [(op, dtype, (1, 1024), 1, False) for dtype in DTYPES_WITH_BF16 for op in REDUCE_OPS] +
    [(op, "float32", shape, axis, False) for op in REDUCE_OPS for shape in [(2, 32), (4, 32), (4, 128)]
     for axis in [0, 1]] + [(op, "float32", (16, 32), None, False) for op in ["min", "max", "sum"]] +
    [(op, "float32", shape, axis, False) for op in REDUCE_OPS for shape in [(2, 32, 16), (32, 2, 16), (32, 16, 2)]
     for axis in [0, 1, 2]] +
    [("sum", "float32", (32, 32), axis, False) for axis in [2, 3]] + [("sum", "float32", (32, 32), -1, False)] +
    [(op, "float32", (32, 32), axis, True) for op in REDUCE_OPS for axis in [0, 1]] +
    [(op, "float32", (32, 32), None, True) for op in ["min", "max", "sum"]] +
    [(op, "float32", (32, 2, 16), axis, True) for op in REDUCE_OPS for axis in [0, 1, 2]] +
    [(op, "float32", (32, 2, 16), None, True) for op in ["min", "max", "sum"]] +
    [("xor_sum", "bool", shape, axis, False) for shape in [(2, 32), (4, 32), (4, 128)] for axis in [0, 1]])

REDUCE_KERNEL = """
@triton.jit
def kernel(X, Z, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, IS_3D: tl.constexpr,
           AXIS: tl.constexpr, KEEP_DIMS: tl.constexpr, USE_I1: tl.constexpr):
    m = tl.arange(0, BLOCK_M)
    n = tl.arange(0, BLOCK_N)
    k = tl.arange(0, BLOCK_K)
    if IS_3D:
        x = tl.load(X + m[:, None, None] * BLOCK_N * BLOCK_K + n[None, :, None] * BLOCK_K + k[None, None, :])
    else:
        x = tl.load(X + m[:, None] * BLOCK_N + n[None, :])
    if USE_I1:
        x = tl.cast(x, tl.int1)
    z = tl.{op}(x, axis=AXIS, keep_dims=KEEP_DIMS)
    out = Z
    if KEEP_DIMS and AXIS is None:
        if IS_3D:
            out = out[None, None, None, :]
        else:
            out = out[None, None, :]
    if IS_3D:
        if AXIS == 0:
            out = Z + n[:, None] * BLOCK_K + k[None, :]
        elif AXIS == 1 or AXIS == -2:
            out = Z + m[:, None] * BLOCK_K + k[None, :]
        elif AXIS == 2 or AXIS == -1:
            out = Z + m[:, None] * BLOCK_N + n[None, :]
    else:
        if AXIS == 0:
            out = Z + n
        elif AXIS == 1 or AXIS == -1:
            out = Z + m
    if KEEP_DIMS and AXIS is not None:
        out = tl.expand_dims(out, axis=AXIS)
    tl.store(out, z)
"""


@pytest.mark.matrix
@pytest.mark.parametrize("op,dtype,shape,axis,keep_dims", REDUCE_CASES)
def test_reduce(op, dtype, shape, axis, keep_dims):
    kernel = kernel_from_source(REDUCE_KERNEL.format(op=op))
    rng = np.random.default_rng(17)
    x = random(shape, dtype, rng)
    three_d = len(shape) == 3
    args = dict(BLOCK_M=shape[0], BLOCK_N=shape[1], BLOCK_K=shape[2] if three_d else 1, IS_3D=three_d, AXIS=axis,
                KEEP_DIMS=keep_dims, USE_I1=dtype == "bool")
    if axis is not None and axis >= len(shape):
        with pytest.raises(compile_error_type()):
            kernel[(1, )](to_device(x, dtype if dtype != "bool" else "int8"), empty((1, ), "float32"), **args)
        return
    reference = {"sum": np.sum, "max": np.max, "min": np.min, "argmin": np.argmin, "argmax": np.argmax,
                 "xor_sum": np.bitwise_xor.reduce}[op]
    expected = reference(x, axis=axis, keepdims=keep_dims)
    if op in ("argmin", "argmax"):
        out_dtype = "int32"
    elif dtype == "bool":
        out_dtype = "int8"
    else:
        out_dtype = dtype
    z = empty(np.shape(expected) or (1, ), out_dtype)
    source = x.astype(np.int8) if dtype == "bool" else x
    kernel[(1, )](to_device(source, "int8" if dtype == "bool" else dtype), z, **args)
    got = to_numpy(z).reshape(np.shape(expected))
    if op == "sum":
        if dtype in INTEGRAL_DTYPES:
            assert_close(got, np.sum(x.astype(np.int64), axis=axis, keepdims=keep_dims).astype(dtype), exact=True)
        else:
            atol = 7e-3 if dtype not in ("bfloat16", "float16") else \
                float(np.max(np.sum(np.abs(x.astype(np.float64)), axis=axis))) * 2**-8
            assert_close(got, np.sum(x.astype(np.float64), axis=axis, keepdims=keep_dims), rtol=1e-2, atol=atol)
    elif op in ("argmin", "argmax"):
        expanded_axis = axis if axis is not None else 0
        got_idx = got if keep_dims else np.expand_dims(got, expanded_axis)
        ref_idx = expected if keep_dims else np.expand_dims(expected, expanded_axis)
        assert_close(np.take_along_axis(x, got_idx.astype(np.int64), expanded_axis),
                     np.take_along_axis(x, ref_idx, expanded_axis), exact=True)
    else:
        assert_close(got, expected, exact=True)


def test_sum_with_dtype():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(out_ptr, init, IN: tl.constexpr, OUT: tl.constexpr):
            x = tl.full((32, 32), init, dtype=IN)
            tl.store(out_ptr, tl.sum(x, dtype=OUT).to(tl.int32))
    """)
    out = empty((1, ), "int32")
    for init, in_dtype, out_dtype, expected in ((1, tl.int1, None, 1024), (1, tl.int1, tl.int1, 0),
                                                (7, tl.int8, tl.int8, (7 * 1024) % 256), (1, tl.int32, None, 1024)):
        kernel[(1, )](out, init=init, IN=in_dtype, OUT=out_dtype)
        assert to_numpy(out)[0] == expected, (init, in_dtype, out_dtype)
    default_int = kernel_from_source("""
        @triton.jit
        def default_int(out_ptr):
            tl.store(out_ptr, tl.sum(tl.full((32, 32), 1, dtype=tl.int1)))
    """, name="default_int")
    default_int[(1, )](out)
    assert to_numpy(out)[0] == 1024


SCAN_HELPERS = """
@triton.jit
def first_element(a, b):
    return a


@triton.jit
def linear_recurrence(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def cummax(v0, i0, v1, i1):
    gt = v0 > v1
    return tl.where(gt, v0, v1), tl.where(gt, i0, i1)


@triton.jit
def roll(a1, b1_last, b1_cur, a2, b2_last, b2_cur):
    return a1 + a2, tl.where(a2 == 1, b1_cur, 0) + b2_last, b2_cur
"""

SCAN_CASES = ([(op, dtype, shape, axis, reverse, num_warps)
               for num_warps in [4, 16]
               for dtype in ["int32", "float32", "bfloat16"]
               for axis in [1, 0]
               for reverse in [True, False]
               for shape in [(8, 32), (16, 32), (32, 16), (2, 1024), (1024, 2), (32, 32), (1, 1024)]
               for op in ["cumsum", "cumprod", "get_first_element", "linear_recurrence", "cummax", "roll"]] +
              [("cumsum", "float32", (32, 32), -1, False, 4)])


def scan_reference(op, x, y, axis, reverse):
    x_in = np.flip(x, axis) if reverse else x
    if op in ("cumsum", "cumprod"):
        z = getattr(np, op)(x_in.astype(np.float64) if x.dtype != np.int32 else x_in, axis=axis)
        return np.flip(z, axis) if reverse else z
    if op == "cummax":
        values = np.moveaxis(x_in, axis, -1)
        indices = np.zeros(values.shape, np.int64)
        for row in np.ndindex(values.shape[:-1]):
            best = 0
            for i in range(values.shape[-1]):
                if values[row + (i, )] >= values[row + (best, )]:
                    best = i
                indices[row + (i, )] = best
        z = np.moveaxis(indices, -1, axis)
        return x.shape[axis] - np.flip(z, axis) - 1 if reverse else z
    if op == "roll":
        z = np.roll(x_in, 1, axis=axis)
        if axis in (0, -2):
            z[:1] = 0
        else:
            z[:, :1] = 0
        return np.flip(z, axis) if reverse else z
    if op == "linear_recurrence":
        xs = np.moveaxis(x_in, axis, -1).astype(np.float64)
        ys = np.moveaxis(np.flip(y, axis) if reverse else y, axis, -1).astype(np.float64)
        z = np.zeros_like(xs)
        acc = np.zeros(xs.shape[:-1])
        for i in range(xs.shape[-1]):
            acc = xs[..., i] * acc + ys[..., i]
            z[..., i] = acc
        z = np.moveaxis(z, -1, axis)
        return np.flip(z, axis) if reverse else z
    z = x.copy()  # get_first_element
    if axis == 0:
        if reverse:
            z[:-1] = x[-1]
        else:
            z[1:] = x[0]
    else:
        if reverse:
            z[:, :-1] = x[:, -1:]
        else:
            z[:, 1:] = x[:, 0:1]
    return z


@pytest.mark.matrix
@pytest.mark.parametrize("op,dtype,shape,axis,reverse,num_warps", SCAN_CASES)
def test_scan2d(op, dtype, shape, axis, reverse, num_warps):
    if dtype == "bfloat16" and op in ("cummax", "linear_recurrence"):
        pytest.skip("the original skips bf16 cummax and linear_recurrence (accuracy, older GPUs)")
    if op in ("cumsum", "cumprod"):
        expr = f"z = tl.{op}(x, axis={axis}, reverse={reverse})"
    elif op == "get_first_element":
        expr = f"z = tl.associative_scan(x, axis={axis}, combine_fn=first_element, reverse={reverse})"
    elif op == "cummax":
        rg = "m[:, None]" if axis == 0 else "n[None, :]"
        expr = (f"_, z = tl.associative_scan((x, tl.broadcast_to({rg}.to(tl.int64), [BLOCK_M, BLOCK_N])), "
                f"axis={axis}, combine_fn=cummax, reverse={reverse})")
    elif op == "roll":
        expr = f"_, z, _ = tl.associative_scan((1 + 0 * x, 0 * x, x), axis={axis}, combine_fn=roll, reverse={reverse})"
    else:
        expr = f"_, z = tl.associative_scan((x, y), axis={axis}, combine_fn=linear_recurrence, reverse={reverse})"
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(X, Y, Z, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
            m = tl.arange(0, BLOCK_M)
            n = tl.arange(0, BLOCK_N)
            x = tl.load(X + m[:, None] * BLOCK_N + n[None, :])
            y = tl.load(Y + m[:, None] * BLOCK_N + n[None, :])
            {expr}
            tl.store(Z + m[:, None] * BLOCK_N + n[None, :], z)
    """, prelude=SCAN_HELPERS)
    rng = np.random.default_rng(17)
    if op == "linear_recurrence" and dtype == "int32":
        x = rng.integers(-1, 2, shape).astype(np.int32)
        y = rng.integers(-1, 2, shape).astype(np.int32)
    elif op == "cumprod" and dtype == "int32":
        x = rng.integers(-1, 2, shape).astype(np.int32)
        y = x
    else:
        x = random(shape, dtype, rng)
        y = random(shape, dtype, rng)
    out_dtype = "int64" if op == "cummax" else ("float32" if dtype == "bfloat16" else dtype)
    z = empty(shape, out_dtype)
    kernel[(1, )](to_device(x, dtype), to_device(y, dtype), z, BLOCK_M=shape[0], BLOCK_N=shape[1], AXIS=axis,
                  num_warps=num_warps)
    expected = scan_reference(op, x, y, axis, reverse)
    if dtype in INT_DTYPES or op == "cummax":
        assert_close(z, expected, exact=True)
    else:
        assert_close(z, expected, rtol=1e-2, atol=1e-3 if op == "cumprod" else 7e-3)


@pytest.mark.parametrize("M,N", [(2048, 2), (1024, 8), (1024, 128), (256, 512), (32, 512), (8, 512), (8, 2)])
def test_histogram(M, N):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr):
            x = tl.load(x_ptr + tl.arange(0, M))
            z = tl.histogram(x, N)
            widened = z + tl.full([M, N], 1, dtype=tl.int32)  # broadcasts like any tensor
            tl.store(z_ptr + tl.arange(0, N), z)
    """)
    x = np.random.default_rng(17).integers(0, N, M).astype(np.int32)
    z = empty((N, ), "int32")
    kernel[(1, )](to_device(x), z, M=M, N=N)
    assert_close(z, np.bincount(x, minlength=N), exact=True)


@pytest.mark.parametrize("M,N", [(1, 64), (2, 32), (4, 16), (8, 8), (16, 4), (32, 2), (64, 1)])
def test_scan_1d(M, N):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(out_ptr, in_ptr, M: tl.constexpr, N: tl.constexpr):
            x = tl.load(in_ptr + tl.arange(0, M))
            out = tl.cumsum(x).reshape([1, M]).broadcast_to([N, M])
            tl.store(out_ptr + tl.arange(0, M * N), out.reshape([M * N]))
    """)
    x = np.random.default_rng(3).integers(-100, 100, M).astype(np.int32)
    out = empty((M * N, ), "int32")
    kernel[(1, )](out, to_device(x), M, N)
    assert_close(out, np.broadcast_to(np.cumsum(x), (N, M)).reshape(-1), exact=True)


@pytest.mark.matrix
@pytest.mark.parametrize("op", ["sum", "max", "min"])
@pytest.mark.parametrize("BLOCK_N", [32, 64, 128])
@pytest.mark.parametrize("N", [512, 1024, 2048])
@pytest.mark.parametrize("num_pid_n", [2, 4])
def test_partial_reductions_across_programs(op, BLOCK_N, N, num_pid_n):
    init = {"sum": "tl.zeros([BLOCK_M], dtype=tl.float32)",
            "max": 'tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)',
            "min": 'tl.full([BLOCK_M], float("inf"), dtype=tl.float32)'}[op]
    step = {"sum": "acc + tl.sum(x, axis=1)", "max": "tl.maximum(acc, tl.max(x, axis=1))",
            "min": "tl.minimum(acc, tl.min(x, axis=1))"}[op]
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(X, Y, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
            start_m = tl.program_id(0)
            pid_n = tl.program_id(1)
            num_pid_n = tl.num_programs(1)
            acc = {init}
            off_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
            for start_n in range(pid_n, tl.cdiv(N, BLOCK_N), num_pid_n):
                off_n = start_n * BLOCK_N + tl.arange(0, BLOCK_N)
                x = tl.load(X + off_m[:, None] * N + off_n[None, :])
                acc = {step}
            tl.store(Y + off_m * num_pid_n + pid_n, acc)
    """)
    rng = np.random.default_rng(0)
    x = random((32, N), "float32", rng)
    y = empty((32, num_pid_n), "float32")
    kernel[(1, num_pid_n, 1)](to_device(x), y, N, 32, BLOCK_N)
    reduce = {"sum": np.sum, "max": np.max, "min": np.min}[op]
    assert_close(reduce(to_numpy(y), axis=1), reduce(x.astype(np.float64), axis=1), rtol=1e-2, atol=1e-3)


def test_generic_reduction_welford():
    kernel = kernel_from_source("""
        @triton.jit
        def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
            delta = mean_2 - mean_1
            new_weight = weight_1 + weight_2
            w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
            return mean_1 + delta * w2_over_w, m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w, new_weight


        @triton.jit
        def kernel(X, out_mean, out_var, BLOCK: tl.constexpr):
            x = tl.load(X + tl.arange(0, BLOCK))
            mean, m2, weight = tl.reduce((x, tl.zeros_like(x), tl.full(x.shape, 1, x.dtype)), 0, welford_combine)
            tl.store(out_mean, mean)
            tl.store(out_var, m2 / weight)
    """)
    x = np.random.default_rng(5).random(512).astype(np.float32)
    mean, var = empty((1, ), "float32"), empty((1, ), "float32")
    kernel[(1, )](to_device(x), mean, var, BLOCK=512)
    assert_close(mean, [x.astype(np.float64).mean()], rtol=1e-5, atol=1e-6)
    assert_close(var, [x.astype(np.float64).var()], rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("in_shape,perm,red_dims", [((4, 32, 32, 4, 2), [2, 1, 0, 3, 4], [3, 1, 0]),
                                                    ((8, 2, 32, 4, 16), [4, 0, 1, 3, 2], [0, 2, 0])])
def test_chained_reductions(in_shape, perm, red_dims):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(In, Out, d0: tl.constexpr, d1: tl.constexpr, d2: tl.constexpr, d3: tl.constexpr,
                   d4: tl.constexpr, p0: tl.constexpr, p1: tl.constexpr, p2: tl.constexpr, p3: tl.constexpr,
                   p4: tl.constexpr, r0: tl.constexpr, r1: tl.constexpr, r2: tl.constexpr):
            idx = tl.arange(0, d0 * d1 * d2 * d3 * d4).reshape(d0, d1, d2, d3, d4)
            vals = tl.permute(tl.load(In + idx), [p0, p1, p2, p3, p4])
            r = tl.sum(tl.sum(tl.sum(vals, r0), r1), r2)
            tl.store(Out + tl.arange(0, r.shape[0] * r.shape[1]).reshape(r.shape), r)
    """)
    x = np.random.default_rng(1).integers(0, 1000, in_shape).astype(np.int32)
    t = np.transpose(x, perm)
    expected = t.sum(axis=red_dims[0]).sum(axis=red_dims[1]).sum(axis=red_dims[2])
    out = empty(expected.shape, "int32")
    kernel[(1, )](to_device(x), out, *in_shape, *perm, *red_dims)
    assert_close(out, expected, exact=True)


@pytest.mark.parametrize("src_shape,idx_shape,axis", [
    ([4, 4], [8, 4], 0),
    pytest.param([128, 64], [256, 64], 0, marks=pytest.mark.xfail(
        strict=True, reason="tl.gather compares every index with every source position; "
        "256x64 indices into 128 rows exceed the compare limit")),
    ([128, 64], [128, 128], 1)])
def test_gather(src_shape, idx_shape, axis):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(src_ptr, idx_ptr, out_ptr, axis: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                   I0: tl.constexpr, I1: tl.constexpr):
            src = tl.load(src_ptr + tl.arange(0, S0)[:, None] * S1 + tl.arange(0, S1)[None, :])
            idx_offs = tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :]
            out = tl.gather(src, tl.load(idx_ptr + idx_offs), axis)
            tl.store(out_ptr + idx_offs, out)
    """)
    rng = np.random.default_rng(2)
    src = random(src_shape, "float32", rng)
    idx = rng.integers(0, src_shape[axis], idx_shape).astype(np.int64)
    out = empty(idx_shape, "float32")
    kernel[(1, )](to_device(src), to_device(idx), out, axis, *src_shape, *idx_shape)
    assert_close(out, np.take_along_axis(src, idx, axis), exact=True)
