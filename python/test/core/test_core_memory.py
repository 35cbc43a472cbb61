"""Port of test_core.py's memory tests: masked loads and stores, cache and
eviction hints, pointer arithmetic, scalar loads, and atomics."""
from __future__ import annotations

import numpy as np
import pytest

import triton
import triton.language as tl

from core_util import (DTYPES_WITH_BF16, FLOAT_DTYPES, INT_DTYPES, UINT_DTYPES, assert_close, empty,
                       kernel_from_source, random, to_device, to_numpy)

pytestmark = pytest.mark.device

ALL_DTYPES = DTYPES_WITH_BF16 + ["bool"]


@pytest.mark.parametrize("dtype", DTYPES_WITH_BF16)
@pytest.mark.parametrize("order", [0, 1])
def test_addptr(dtype, order):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(x, y, ORDER: tl.constexpr, SIZE: tl.constexpr):
            offs = tl.arange(0, SIZE)
            if ORDER == 0:
                tl.store(y + offs, tl.load(x + offs))
            else:
                tl.store(offs + y, tl.load(offs + x))
    """)
    x = random(1024, dtype, np.random.default_rng(17))
    y = empty((1024, ), dtype)
    kernel[1, ](to_device(x, dtype), y, order, 1024)
    assert_close(y, x, exact=True)


@pytest.mark.matrix
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("size", [128, 512])
@pytest.mark.parametrize("size_diff", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("other", [0, 1])
def test_masked_load(dtype, size, size_diff, other):
    masked = size_diff > 0
    load = (f"tl.load(in_ptr + offs, mask=offs < in_size, other={other})" if masked
            else "tl.load(in_ptr + offs)")
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(in_ptr, out_ptr, in_size: tl.constexpr, out_size: tl.constexpr):
            offs = tl.arange(0, out_size)
            tl.store(out_ptr + offs, {load})
    """)
    rng = np.random.default_rng(0)
    n = size - size_diff
    if dtype == "bool":
        values = random(n, "bool", rng)
    elif dtype in INT_DTYPES + UINT_DTYPES:
        values = random(n, dtype, rng, low=0, high=126)
    else:
        values = np.abs(random(n, dtype, rng))
    out = empty((size, ), dtype)
    kernel[(1, )](to_device(values, dtype), out, n, size)
    expected = np.concatenate([values, np.full(size_diff, other, dtype=values.dtype)])
    assert_close(out, expected, exact=True)


@pytest.mark.parametrize("mask", [True, False])
@pytest.mark.parametrize("other", [0, 1])
def test_masked_load_scalar(mask, other):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(in_ptr, out_ptr, size: tl.constexpr, mask: tl.constexpr, other: tl.constexpr):
            offs = tl.arange(0, size)
            tl.store(out_ptr + offs, tl.load(in_ptr + offs, mask=mask, other=other))
    """)
    out = empty((128, ), "float32")
    kernel[(1, )](to_device(np.full(128, 4.0, np.float32)), out, 128, mask, other)
    assert_close(out, np.full(128, 4.0 if mask else float(other)), exact=True)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_masked_load_before_a_dot(dtype):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(a_ptr, b_ptr, out_ptr, a_stride, b_stride, out_stride, M: tl.constexpr, N: tl.constexpr,
                   K: tl.constexpr):
            m = tl.arange(0, M)
            n = tl.arange(0, N)
            k = tl.arange(0, K)
            a_offs = m[:, None] * a_stride + k[None, :]
            b_offs = k[:, None] * b_stride + n[None, :]
            a = tl.load(a_ptr + a_offs, mask=a_offs < M * K)
            b = tl.load(b_ptr + b_offs, mask=b_offs < K * N)
            c = tl.dot(a, b, out_dtype=tl.float32)
            out_offs = m[:, None] * out_stride + n[None, :]
            tl.store(out_ptr + out_offs, c, mask=out_offs < M * N)
    """)
    rng = np.random.default_rng(1)
    M, N, K = 32, 32, 16
    a = np.abs(random((M, K), dtype, rng))
    b = np.abs(random((K, N), dtype, rng))
    out = empty((M, N), dtype)
    kernel[(1, )](to_device(a, dtype), to_device(b, dtype), out, K, N, N, M=M, N=N, K=K)
    assert_close(out, a.astype(np.float64) @ b, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("cache", ["", ".ca", ".cg", ".cv"])
def test_load_cache_modifier(cache):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst, src, CACHE: tl.constexpr):
            offs = tl.arange(0, 128)
            tl.store(dst + offs, tl.load(src + offs, cache_modifier=CACHE))
    """)
    src = random(128, "float32", np.random.default_rng(2))
    dst = empty((128, ), "float32")
    kernel[(1, )](dst, to_device(src), CACHE=cache)
    assert_close(dst, src, exact=True)


@pytest.mark.parametrize("cache", ["", ".wb", ".cg", ".cs", ".wt"])
def test_store_cache_modifier(cache):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst, src, CACHE: tl.constexpr):
            offs = tl.arange(0, 128)
            tl.store(dst + offs, tl.load(src + offs), cache_modifier=CACHE)
    """)
    src = random(128, "float32", np.random.default_rng(3))
    dst = empty((128, ), "float32")
    kernel[(1, )](dst, to_device(src), CACHE=cache)
    assert_close(dst, src, exact=True)


@pytest.mark.parametrize("policy", ["", "evict_last", "evict_first"])
def test_store_eviction_policy(policy):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst, src, POLICY: tl.constexpr):
            offs = tl.arange(0, 128)
            tl.store(dst + offs, tl.load(src + offs), eviction_policy=POLICY)
    """)
    src = random(128, "float32", np.random.default_rng(4))
    dst = empty((128, ), "float32")
    kernel[(1, )](dst, to_device(src), POLICY=policy)
    assert_close(dst, src, exact=True)


@pytest.mark.parametrize("n", [16, 10, 11, 1024])
def test_vectorizable_copy(n):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst, src, N, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(dst + offs, tl.load(src + offs, mask=offs < N), mask=offs < N)
    """)
    src = random(1024, "float32", np.random.default_rng(5))
    dst = empty((1024, ), "float32")
    kernel[(1, )](dst, to_device(src), N=n, BLOCK=1024)
    assert_close(to_numpy(dst)[:n], src[:n], exact=True)


@pytest.mark.parametrize("hints", [False, True])
def test_vectorization_hints(hints):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst, src, off, N, BLOCK: tl.constexpr, HINT: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            offs = offs + tl.load(off)
            if HINT:
                offs = tl.max_contiguous(tl.multiple_of(offs, 1024), 1024)
            tl.store(dst + offs, tl.load(src + offs, mask=offs < N), mask=offs < N)
    """)
    src = random(1024, "float32", np.random.default_rng(6))
    dst = empty((1024, ), "float32")
    kernel[(1, )](dst, to_device(src), to_device(np.zeros(1, np.int32)), N=1024, BLOCK=1024, HINT=hints)
    assert_close(dst, src, exact=True)


def test_assume():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(out_ptr, N: tl.constexpr, BLOCK_N: tl.constexpr):
            remaining = N - tl.program_id(0) * BLOCK_N
            tl.assume(remaining >= BLOCK_N)
            if remaining >= 128:
                tl.store(out_ptr + tl.program_id(0), remaining)
            else:
                tl.store(out_ptr + tl.program_id(0), remaining + 101024)
    """)
    out = empty((8, ), "float32")
    kernel[(8, )](out, N=1024, BLOCK_N=128)
    assert_close(out, 1024 - 128 * np.arange(8), exact=True)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("field", ["value", "mask"])
def test_store_constant(dtype, field):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(out_ptr, n, BLOCK: tl.constexpr, FIELD: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            if FIELD == "value":
                value = 1
                out = tl.full([BLOCK], value=value, dtype=value.dtype)
                mask = offs < n
            else:
                out = offs < n
                mask = False
            tl.store(out_ptr + offs, out, mask=mask)
    """)
    out = to_device(np.zeros(128), dtype)
    kernel[(1, )](out, 128, BLOCK=128, FIELD=field)
    assert_close(out, np.ones(128) if field == "value" else np.zeros(128), exact=True)


def test_load_store_same_pointer():
    kernel = kernel_from_source("""
        @triton.jit()
        def kernel(in_out_ptr):
            pid = tl.program_id(axis=0)
            x = tl.load(in_out_ptr + pid)
            tl.store(in_out_ptr + pid, x * 2)
    """)
    for _ in range(5):
        x = to_device(np.ones(4096, np.float32))
        kernel[(4096, )](x, num_warps=4)
        assert np.all(to_numpy(x) == 2)


def test_load_scalar_with_mask():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Input, Index, Out, N: int):
            index = tl.load(Index)
            scalar = tl.load(Input + index, mask=index < N, other=0)
            tl.store(Out, scalar, mask=index < N)
    """)
    out = empty((1, ), "int32")
    kernel[(1, )](to_device(np.zeros(1, np.int32)), to_device(np.zeros(1, np.int32)), out, 1)
    assert to_numpy(out)[0] == 0


def test_default_arguments():
    kernel = kernel_from_source("""
        @triton.jit
        def impl(value=10):
            return value


        @triton.jit
        def kernel(ret0, ret1, value=3):
            tl.store(ret0, impl())
            tl.store(ret1, impl(value))
    """)
    ret0, ret1 = empty((1, ), "int32"), empty((1, ), "int32")
    kernel[(1, )](ret0, ret1, 5)
    assert (to_numpy(ret0)[0], to_numpy(ret1)[0]) == (10, 5)
    kernel[(1, )](ret0, ret1)
    assert (to_numpy(ret0)[0], to_numpy(ret1)[0]) == (10, 3)


def test_noop():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(x):
            pass
    """)
    kernel[(1, )](to_device(np.ones(1, np.int32)))


@pytest.mark.parametrize("value,overflow", [(2**64 - 1, False), (2**64, True), (-2**63, False), (-2**63 - 1, True)])
def test_integer_argument_range(value, overflow):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(VALUE, X):
            pass
    """)
    x = to_device(np.array([3.14159], np.float32))
    if overflow:
        with pytest.raises((OverflowError, TypeError, ValueError), match="VALUE|range|overflow"):
            kernel[(1, )](value, x)
    else:
        kernel[(1, )](value, x)


# ---------------------------------------------------------------- atomics

ATOMIC_CASES = [(op, dtype) for op, dtypes in (
    ("add", ["float16", "uint32", "int32", "float32", "uint64", "int64", "float64"]),
    ("max", ["uint32", "int32", "float32", "uint64", "int64", "float64"]),
    ("min", ["uint32", "int32", "float32", "uint64", "int64", "float64"]),
) for dtype in dtypes]


@pytest.mark.matrix
@pytest.mark.parametrize("op,dtype", ATOMIC_CASES)
@pytest.mark.parametrize("mode", ["all_neg", "all_pos", "min_neg", "max_pos"])
@pytest.mark.parametrize("sem", [None, "acquire", "release", "acq_rel", "relaxed"])
def test_atomic_rmw(op, dtype, mode, sem):
    sem_arg = "None" if sem is None else f'"{sem}"'
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(X, Z):
            pid = tl.program_id(0)
            x = tl.load(X + pid)
            old = tl.atomic_{op}(Z, x, sem={sem_arg})
            tl.static_assert(old.dtype == x.dtype)
    """)
    n = 5
    rng = np.random.default_rng(17)
    x = np.array([2**i for i in range(n)], dtype=dtype)
    if mode == "all_neg":
        x = -np.abs(x) if dtype not in UINT_DTYPES else x
    if mode == "min_neg" and dtype not in UINT_DTYPES:
        x[rng.integers(n)] = -np.max(np.abs(x)) - 1
    if mode == "max_pos":
        x[rng.integers(n)] = np.max(np.abs(x)) + 1
    if dtype in FLOAT_DTYPES:
        neutral = {"add": 0, "max": -np.inf, "min": np.inf}[op]
    else:
        info = np.iinfo(dtype)
        neutral = {"add": 0, "max": info.min, "min": info.max}[op]
    z = to_device(np.array([neutral], dtype=dtype), dtype)
    kernel[(n, )](to_device(x, dtype), z)
    expected = {"add": np.sum, "max": np.max, "min": np.min}[op](x)
    assert_close(z, np.array([expected]), exact=op != "add", rtol=1e-2)


def test_atomic_rmw_predicated():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X):
            val = tl.program_id(0)
            if val < 64:
                tl.atomic_max(X, val)
    """)
    x = to_device(np.zeros(1, np.int32))
    kernel[(4096, )](x)
    assert to_numpy(x)[0] == 63


@pytest.mark.matrix
@pytest.mark.parametrize("shape", [(2, 2), (2, 8), (8, 2), (8, 8), (32, 32), (64, 64)])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", ["float16", "float32", "uint64", "int64", "float64"])
def test_tensor_atomic_rmw(shape, axis, dtype):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Z, X, OLD, AXIS: tl.constexpr, SHAPE0: tl.constexpr, SHAPE1: tl.constexpr,
                   HALF: tl.constexpr):
            off0 = tl.arange(0, SHAPE0)
            off1 = tl.arange(0, SHAPE1)
            x = tl.load(X + off0[:, None] * SHAPE1 + off1[None, :])
            if HALF:
                z = tl.sum(x.to(tl.float32), axis=AXIS).to(tl.float16)
            else:
                z = tl.sum(x, axis=AXIS)
            if AXIS == 1:
                tl.store(OLD + off0, tl.atomic_add(Z + off0, z))
            else:
                tl.store(OLD + off1, tl.atomic_add(Z + off1, z))
    """)
    rng = np.random.default_rng(17)
    x = random(shape, dtype, rng)
    z_shape = (shape[0], ) if axis == 1 else (shape[1], )
    z = random(z_shape, dtype, rng)
    partial = np.sum(x.astype(np.float32), axis=axis).astype(x.dtype) if dtype == "float16" else np.sum(x, axis=axis)
    old = empty(z_shape, dtype)
    z_dev = to_device(z, dtype)
    kernel[(1, )](z_dev, to_device(x, dtype), old, axis, shape[0], shape[1], dtype == "float16")
    assert_close(z_dev, z + partial, rtol=1e-3, atol=1e-2)
    assert_close(old, z, exact=True)


@pytest.mark.parametrize("size", [2, 4, 8, 32, 64, 128])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_tensor_atomic_add_overlapping_offsets(size, dtype):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, val, NUM: tl.constexpr):
            off = tl.arange(0, NUM)
            offset = off[:, None] * NUM + off[None, :]
            tl.atomic_add(X + offset // 2, tl.load(val + offset))
    """)
    values = random(size * size, dtype, np.random.default_rng(2))
    x = to_device(np.zeros(size * size // 2), dtype)
    kernel[(1, )](x, to_device(values, dtype), size, num_warps=1)
    expected = values[0::2].astype(np.float64) + values[1::2]
    assert_close(x, expected, rtol=1e-2, atol=1e-2)


@pytest.mark.matrix
@pytest.mark.parametrize("shape", [(2, 2), (4, 4), (5, 5), (6, 6), (8, 8)])
@pytest.mark.parametrize("order", ["increase", "decrease", "random_no_duplication", "random"])
@pytest.mark.parametrize("mask_step", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_tensor_atomic_add_access_patterns(shape, order, mask_step, dtype):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(in_ptr, idx_ptr, out_ptr, shape0, shape1, mask_step, XBLOCK: tl.constexpr):
            x_idx = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
            mask = (x_idx < shape0 * shape1) & (x_idx % mask_step != 0)
            base = shape1 * (x_idx // shape1)
            col = tl.load(idx_ptr + x_idx, mask)
            value = tl.load(in_ptr + x_idx, mask)
            tl.atomic_add(out_ptr + (col + base), value, mask, sem="relaxed")
    """)
    rng = np.random.default_rng(11)
    rows, cols = shape
    row = np.arange(cols)
    if order == "increase":
        idx = np.stack([np.repeat(row, i + 1)[:cols] for i in range(rows)])
    elif order == "decrease":
        idx = np.stack([np.repeat(row[::-1], i + 1)[:cols] for i in range(rows)])
    elif order == "random_no_duplication":
        idx = np.stack([rng.permutation(cols) for _ in range(rows)])
    else:
        idx = rng.integers(0, cols, (rows, cols))
    values = random(shape, dtype, rng)
    dst = random(shape, dtype, rng)
    expected = dst.astype(np.float64)
    for flat, (i, j) in enumerate(np.ndindex(rows, cols)):
        if flat % mask_step:
            expected[i, idx[i, j]] += values[i, j]
    out = to_device(dst, dtype)
    kernel[(1, )](to_device(values, dtype), to_device(idx.astype(np.int64)), out, rows, cols, mask_step, 64)
    assert_close(out, expected, rtol=0, atol=2e-2)


def test_tensor_atomic_min_block():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, SHAPE0: tl.constexpr, SHAPE1: tl.constexpr):
            offs = tl.arange(0, SHAPE0)[:, None] * SHAPE1 + tl.arange(0, SHAPE1)[None, :]
            tl.atomic_min(X + offs, offs.to(tl.float32))
    """)
    x = to_device(np.ones((8, 8), np.float32))
    kernel[(2, )](x, 8, 8)
    assert to_numpy(x).min() == 0.0


@pytest.mark.parametrize("sem", [None, "acquire", "release", "acq_rel", "relaxed"])
def test_atomic_cas(sem):
    change = kernel_from_source("""
        @triton.jit
        def kernel(Lock):
            tl.atomic_cas(Lock, 0, 1)
    """)
    lock = to_device(np.zeros(1, np.int32))
    change[(1, )](lock)
    assert to_numpy(lock)[0] == 1
    serialized_add = kernel_from_source("""
        @triton.jit
        def kernel(data, Lock, SEM: tl.constexpr):
            ptrs = data + tl.arange(0, 128)
            while tl.atomic_cas(Lock, 0, 1, SEM) == 1:
                pass
            tl.store(ptrs, tl.load(ptrs) + 1.0)
            tl.debug_barrier()
            tl.atomic_xchg(Lock, 0)
    """)
    lock = to_device(np.zeros(1, np.int32))
    data = to_device(np.zeros(128, np.float32))
    serialized_add[(2000, )](data, lock, SEM=sem)
    assert_close(data, np.full(128, 2000.0), exact=True)


@pytest.mark.parametrize("sem", [None, "acquire", "release", "acq_rel", "relaxed"])
def test_tensor_atomic_cas(sem):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, BLOCK: tl.constexpr, sem: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.atomic_cas(X + offs, tl.full((BLOCK, ), 0, dtype=tl.int64), tl.full((BLOCK, ), 2, dtype=tl.int64),
                          sem=sem)
    """)
    x = to_device(np.array([0, 1] * 4, np.int64))
    kernel[(2, )](x, 4, sem)
    assert_close(x, np.array([2, 1] * 4), exact=True)
