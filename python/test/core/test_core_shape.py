"""Port of test_core.py's shape tests: slicing, expand_dims, transposes,
permutations, reshapes, join/split/interleave, cat, full, arange."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import triton
import triton.language as tl

from core_util import (DTYPES_WITH_BF16, FLOAT_DTYPES, INT_DTYPES, UINT_DTYPES, assert_close, compile_error_type,
                       empty, kernel_from_source, random, to_device, to_numpy)

pytestmark = pytest.mark.device


def test_slice_shapes():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(XBLOCK: tl.constexpr):
            data = tl.arange(0, XBLOCK)
            tl.static_assert(data.shape == [XBLOCK])
            tl.static_assert(data[None, :].shape == [1, XBLOCK])
            tl.static_assert(data[None, :, None].shape == [1, XBLOCK, 1])
            scalar = tl.full([], 1, tl.int32)
            tl.static_assert(scalar.shape == [])
            tl.static_assert(scalar[None].shape == [1])
            tl.static_assert(scalar[None, None].shape == [1, 1])
    """)
    kernel[(1, )](XBLOCK=32)


def test_invalid_slice():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst):
            dst[10:]
    """)
    with pytest.raises(compile_error_type()):
        kernel[(1, )](to_device(np.zeros(128, np.float32)))


def test_expand_dims_shapes():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dummy, N: tl.constexpr):
            offs = tl.arange(0, N)
            tl.static_assert(tl.expand_dims(offs, 0).shape == [1, N])
            tl.static_assert(tl.expand_dims(offs, 1).shape == [N, 1])
            tl.static_assert(tl.expand_dims(offs, -1).shape == [N, 1])
            tl.static_assert(tl.expand_dims(offs, -2).shape == [1, N])
            tl.static_assert(tl.expand_dims(offs, (0, -1)).shape == [1, N, 1])
            tl.static_assert(tl.expand_dims(offs, (0, 1, 3)).shape == [1, 1, N, 1])
            tl.static_assert(tl.expand_dims(offs, (-4, 2, -1)).shape == [1, N, 1, 1])
            tl.static_assert(tl.expand_dims(offs, (3, 1, 2)).shape == [N, 1, 1, 1])
            scalar = tl.sum(offs)
            tl.static_assert(scalar.shape == [])
            tl.static_assert(tl.expand_dims(scalar, 0).shape == [1])
            tl.static_assert(tl.expand_dims(scalar, -1).shape == [1])
            tl.static_assert(tl.expand_dims(N, -1).shape == [1])
    """)
    kernel[(1, )](to_device(np.zeros(1, np.float32)), 32)


@pytest.mark.parametrize("expr,message", [
    ("t = tl.expand_dims(tl.arange(0, N), -3)", "-3"),
    ("t = tl.expand_dims(tl.arange(0, N), 2)", "2"),
    ("t = tl.expand_dims(tl.sum(tl.arange(0, 1)), 1)", "1"),
    ("t = tl.expand_dims(tl.arange(0, N), (0, 0))", "duplicate"),
    ("t = tl.expand_dims(tl.arange(0, N), (0, -3))", "duplicate"),
])
def test_expand_dims_errors(expr, message):
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(dummy, N: tl.constexpr):
            {expr}
    """)
    with pytest.raises(compile_error_type(), match=message):
        kernel[(1, )](to_device(np.zeros(1, np.float32)), 32)


def test_invalid_program_id_axis():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(dst):
            pid = tl.program_id(20)
    """)
    with pytest.raises(compile_error_type(), match="20"):
        kernel[(1, )](to_device(np.zeros(1, np.float32)))


def test_shapes_as_separate_parameters():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel():
            a = tl.arange(0, 32).expand_dims(-1).broadcast_to(32, 32)
            tl.static_assert(a.shape == [tl.constexpr(32), tl.constexpr(32)])
            a = tl.arange(0, 32).reshape(4, 8).permute(1, 0)
            tl.static_assert(a.shape == [tl.constexpr(8), tl.constexpr(4)])
            a = tl.arange(0, 32).reshape(4, 8).trans()
            tl.static_assert(a.shape == [tl.constexpr(8), tl.constexpr(4)])
            a = tl.arange(0, 32).reshape(4, 8).reshape(32)
            tl.static_assert(a.shape == [tl.constexpr(32)])
            a = tl.arange(0, 64).reshape(2, 4, 8).trans(2, 1, 0)
            tl.static_assert(a.shape == [tl.constexpr(8), tl.constexpr(4), tl.constexpr(2)])
            a = tl.arange(0, 64).reshape(2, 4, 8).trans((2, 1, 0))
            tl.static_assert(a.shape == [tl.constexpr(8), tl.constexpr(4), tl.constexpr(2)])
            a = tl.arange(0, 64).view(2, 4, 8)
            tl.static_assert(a.shape == [tl.constexpr(2), tl.constexpr(4), tl.constexpr(8)])
    """)
    kernel[(1, )]()


@pytest.mark.parametrize("dtype", DTYPES_WITH_BF16)
def test_transpose(dtype):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Z, X, SIZE: tl.constexpr):
            offs = tl.arange(0, SIZE)
            offs2d = offs[None, :] + (tl.arange(0, 2) * SIZE)[:, None]
            tl.store(Z + offs2d.T, tl.load(X + offs2d).T)
    """)
    # The kernel reads its input as a (2, 128) block, transposes it and
    # stores it through transposed offsets: the output memory must equal the
    # input's, seen as (128, 2), as the original checks through x.T.
    x = random((128, 2), dtype, np.random.default_rng(1))
    z = empty((128, 2), dtype)
    kernel[(1, )](z, to_device(x, dtype), SIZE=128)
    assert_close(to_numpy(z).T, x.T, exact=True)


def pointer_expr(name, shape):
    """`name + offsets` of a row-major block of `shape` (as the original builds it)."""
    terms, stride = [], 1
    for i in reversed(range(len(shape))):
        index = ", ".join(":" if j == i else "None" for j in range(len(shape)))
        terms.append(f"tl.arange(0, {shape[i]})[{index}] * {stride}")
        stride *= shape[i]
    return f"{name} + " + " + ".join(terms)


@pytest.mark.parametrize("expr", ["x[None, :]", "x[:, None]", "x[None, :, :]", "x[:, :, None]"])
@pytest.mark.parametrize("dtype", ["int32", "uint32", "uint16"])
def test_index1d(expr, dtype):
    rank_x = expr.count(":")
    rank_z = expr.count(",") + 1

    def make(shape_x, shape_z):
        return kernel_from_source(f"""
            @triton.jit
            def kernel(Z, X, SIZE: tl.constexpr):
                x = tl.load({pointer_expr("X", shape_x)})
                z = {expr}
                tl.store({pointer_expr("Z", shape_z)}, z)
        """)

    shape_x = [32] * rank_x
    x = random(shape_x, dtype, np.random.default_rng(4))
    expected = eval(expr) + np.zeros([32] * rank_z, dtype=dtype)
    z = empty(expected.shape, dtype)
    make(shape_x, [32] * rank_z)[(1, )](z, to_device(x, dtype), SIZE=32, num_warps=1)
    assert_close(z, expected, exact=True)
    # Pointers whose dimensions differ from the value's are a compile error;
    # the output is sized for them, so a compiler that accepted them would
    # not write out of bounds.
    z_wrong = empty([64] * rank_z, dtype)
    with pytest.raises(compile_error_type()):
        make(shape_x, [64] * rank_z)[(1, )](z_wrong, to_device(x, dtype), SIZE=32, num_warps=1)
    # Pointers of one more dimension take the value broadcast over it (Triton
    # 3.6's store: the value gains leading dimensions, the pointers keep
    # their shape).
    wider = [32] * (rank_z + 1)
    z_wide = empty(wider, dtype)
    make(shape_x, wider)[(1, )](z_wide, to_device(x, dtype), SIZE=32, num_warps=1)
    assert_close(z_wide, np.broadcast_to(expected, wider), exact=True)


TUPLES = """
@triton.jit
def tuples_fn(a, b):
    return a + b, \\
        a - b, \\
        a * b


@triton.jit
def with_fn(X, Y, A, B, C):
    a, b, c = tuples_fn(tl.load(X), tl.load(Y))
    tl.store(A, a)
    tl.store(B, b)
    tl.store(C, c)


@triton.jit
def without_fn(X, Y, A, B, C):
    x = tl.load(X)
    y = tl.load(Y)
    a, b, c = x + y, x - y, x * y
    tl.store(A, a)
    tl.store(B, b)
    tl.store(C, c)
"""


@pytest.mark.parametrize("name", ["with_fn", "without_fn"])
def test_tuples(name):
    kernel = kernel_from_source(TUPLES, name=name)
    x = np.array([1.3], np.float32)
    y = np.array([1.9], np.float32)
    outs = [empty((1, ), "float32") for _ in range(3)]
    kernel[(1, )](to_device(x), to_device(y), *outs, num_warps=1)
    for out, ref in zip(outs, (x + y, x - y, x * y)):
        assert_close(out, ref, exact=True)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("shape", [(64, 64), (128, 128)])
def test_permute_by_strides(dtype, shape):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, sxm, sxn, Z, szm, szn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
            m = tl.arange(0, BLOCK_M)
            n = tl.arange(0, BLOCK_N)
            tl.store(Z + m[:, None] * szm + n[None, :] * szn, tl.load(X + m[:, None] * sxm + n[None, :] * sxn))
    """)
    x = random(shape, dtype, np.random.default_rng(7))
    dev_x = to_device(x, dtype)
    z1, z2 = empty(shape, dtype), empty(shape, dtype)
    kernel[(1, 1)](dev_x, shape[1], 1, z1, 1, shape[0], BLOCK_M=shape[0], BLOCK_N=shape[1])
    kernel[(1, 1)](dev_x, 1, shape[1], z2, shape[1], 1, BLOCK_M=shape[0], BLOCK_N=shape[1])
    assert_close(z1, x.T, exact=True)
    assert_close(z2, x.T, exact=True)


@pytest.mark.parametrize("dtype", ["int32", "int8"])
@pytest.mark.parametrize("shape", [(2, 4), (16, 16)])
@pytest.mark.parametrize("perm", list(itertools.permutations([0, 1])))
def test_trans_2d(dtype, shape, perm):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(In, Out, i1: tl.constexpr, i2: tl.constexpr, o1: tl.constexpr, o2: tl.constexpr,
                   t1: tl.constexpr, t2: tl.constexpr):
            in_offs = tl.arange(0, i1)[:, None] * i2 + tl.arange(0, i2)[None, :]
            out_offs = tl.arange(0, o1)[:, None] * o2 + tl.arange(0, o2)[None, :]
            tl.store(Out + out_offs, tl.permute(tl.load(In + in_offs), (t1, t2)))
    """)
    x = np.arange(np.prod(shape)).astype(dtype).reshape(shape)
    expected = np.transpose(x, perm)
    out = empty(expected.shape, dtype)
    kernel[(1, )](to_device(x), out, *shape, *expected.shape, *perm)
    assert_close(out, expected, exact=True)


@pytest.mark.matrix
@pytest.mark.parametrize("dtype", ["int32", "int8"])
@pytest.mark.parametrize("shape", [(2, 2, 8, 64), (4, 4, 4, 4)])
@pytest.mark.parametrize("perm", list(itertools.permutations([0, 1, 2, 3])))
def test_trans_4d_through_block_pointers(dtype, shape, perm):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(In, Out, i1: tl.constexpr, i2: tl.constexpr, i3: tl.constexpr, i4: tl.constexpr,
                   o1: tl.constexpr, o2: tl.constexpr, o3: tl.constexpr, o4: tl.constexpr,
                   t1: tl.constexpr, t2: tl.constexpr, t3: tl.constexpr, t4: tl.constexpr):
            src = tl.make_block_ptr(base=In, shape=(i1, i2, i3, i4), strides=(i4 * i3 * i2, i4 * i3, i4, 1),
                                    offsets=(0, 0, 0, 0), block_shape=(i1, i2, i3, i4), order=(3, 2, 1, 0))
            dst = tl.make_block_ptr(base=Out, shape=(o1, o2, o3, o4), strides=(o4 * o3 * o2, o4 * o3, o4, 1),
                                    offsets=(0, 0, 0, 0), block_shape=(o1, o2, o3, o4), order=(3, 2, 1, 0))
            tl.store(dst, tl.load(src).permute((t1, t2, t3, t4)))
    """)
    x = np.arange(np.prod(shape)).astype(dtype).reshape(shape)
    expected = np.transpose(x, perm)
    out = empty(expected.shape, dtype)
    kernel[(1, )](to_device(x), out, *shape, *expected.shape, *perm, num_warps=8)
    assert_close(out, expected, exact=True)


@pytest.mark.parametrize("formats", [((64, ), (8, 8)), ((2, 32), (16, 4)), ((512, ), (2, ) * 9),
                                     ((64, 32), (16, 8, 16))])
def test_reshape(formats):
    in_shape, out_shape = formats
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(Z, X, out_shape: tl.constexpr):
            x = tl.load({pointer_expr("X", in_shape)})
            tl.store({pointer_expr("Z", out_shape)}, tl.reshape(x, out_shape))
    """)
    x = random(in_shape, "int32", np.random.default_rng(8))
    z = empty(out_shape, "int32")
    kernel[(1, )](z, to_device(x), out_shape)
    assert_close(z, x.reshape(out_shape), exact=True)


def test_reshape_to_another_element_count_fails():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel():
            y = tl.reshape(tl.arange(0, 8 * 8), (8 * 4, ))
    """)
    with pytest.raises(compile_error_type(), match="reshape"):
        kernel[(1, )]()


def test_trans_then_reshape():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(In, Out, S0: tl.constexpr, S1: tl.constexpr):
            src = tl.make_block_ptr(base=In, shape=(S0, S1), strides=(S1, 1), offsets=(0, 0),
                                    block_shape=(S0, S1), order=(1, 0))
            x = tl.reshape(tl.load(src), (32, 4, 4, 2))
            x = tl.reshape(tl.permute(x, (1, 2, 3, 0)), (S0 * S1, ))
            tl.store(Out + tl.arange(0, S0 * S1), x)
    """)
    x = np.arange(32 * 32, dtype=np.int32).reshape(32, 32)
    out = empty((32, 32), "int32")
    kernel[(1, )](to_device(x), out, 32, 32)
    assert_close(out, x.T, exact=True)


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES)
@pytest.mark.parametrize("num_warps", [4, 8])
def test_cat(dtype, num_warps):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, Y, Z, N: tl.constexpr):
            offs = tl.arange(0, N)
            z = tl.cat(tl.load(X + offs), tl.load(Y + offs), can_reorder=True)
            tl.store(Z + tl.arange(0, 2 * N), z)
    """)
    x = np.arange(0, 128).astype(dtype)
    y = np.arange(-128, 0).astype(dtype)
    z = empty((256, ), dtype)
    kernel[(1, )](to_device(x), to_device(y), z, N=128, num_warps=num_warps)
    got = to_numpy(z)
    # can_reorder: any order of the 256 values
    assert_close(np.sort(got), np.sort(np.concatenate([x, y])), exact=True)


def test_join():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, Y, Z, N: tl.constexpr):
            offs = tl.arange(0, N)
            z = tl.join(tl.load(X + offs), tl.load(Y + offs))
            tl.store(Z + tl.arange(0, N)[:, None] * 2 + tl.arange(0, 2)[None, :], z)
    """)
    x = np.arange(128, dtype=np.int32)
    y = np.arange(-128, 0, dtype=np.int32)
    z = empty((128, 2), "int32")
    kernel[(1, )](to_device(x), to_device(y), z, N=128)
    assert_close(z, np.stack([x, y], axis=-1), exact=True)


def test_join_scalars():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, Y, Z):
            z = tl.join(tl.load(X), tl.load(Y))
            tl.static_assert(z.shape == [2])
            tl.store(Z + tl.arange(0, 2), z)
    """)
    z = empty((2, ), "int32")
    kernel[(1, )](to_device(np.array([42], np.int32)), to_device(np.array([100], np.int32)), z)
    assert_close(z, [42, 100], exact=True)


def test_join_then_dot():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, Z):
            x = tl.load(X + 16 * tl.arange(0, 32)[:, None] + tl.arange(0, 16)[None, :])
            x3 = tl.reshape(tl.join(x, 2 * x), (32, 32))
            tl.store(Z + 32 * tl.arange(0, 32)[:, None] + tl.arange(0, 32)[None, :], tl.dot(x3, x3))
    """)
    x = np.arange(32 * 16, dtype=np.float32).reshape(32, 16) / 512
    r = np.stack([x, 2 * x], axis=-1).reshape(32, 32).astype(np.float64)
    z = empty((32, 32), "float32")
    kernel[(1, )](to_device(x), z)
    assert_close(z, r @ r, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("debug", [False, True])
def test_interleave(debug):
    kernel = kernel_from_source(f"""
        @triton.jit(debug={debug})
        def kernel(Z, N: tl.constexpr):
            z = tl.interleave(tl.arange(0, N), tl.arange(N, 2 * N))
            tl.store(Z + tl.arange(0, 2 * N), z)
    """)
    z = empty((256, ), "int32")
    kernel[(1, )](z, N=128)
    assert_close(z, np.stack([np.arange(128), np.arange(128, 256)], axis=-1).reshape(-1), exact=True)


def test_interleave_scalars():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, Y, Z):
            z = tl.interleave(X, Y)
            tl.static_assert(z.shape == [tl.constexpr(2)])
            tl.store(Z + tl.arange(0, 2), z)
    """)
    z = empty((2, ), "float32")
    kernel[(1, )](10, 20, z)
    assert_close(z, [10, 20], exact=True)


def test_split():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, Z1, Z2, N: tl.constexpr):
            x = tl.reshape(tl.load(X + tl.arange(0, N)), (N // 2, 2))
            z1, z2 = tl.split(x)
            tl.store(Z1 + tl.arange(0, N // 2), z1)
            tl.store(Z2 + tl.arange(0, N // 2), z2)
    """)
    x = np.arange(256, dtype=np.int32).reshape(128, 2)
    z1, z2 = empty((128, ), "int32"), empty((128, ), "int32")
    kernel[(1, )](to_device(x), z1, z2, N=256)
    assert_close(z1, x[:, 0], exact=True)
    assert_close(z2, x[:, 1], exact=True)


def test_split_to_scalars():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, Z1, Z2):
            z1, z2 = tl.split(tl.load(X + tl.arange(0, 2)))
            tl.static_assert(isinstance(z1, tl.tensor))
            tl.static_assert(z1.shape == [])
            tl.static_assert(z2.shape == [])
            tl.store(Z1, z1)
            tl.store(Z2, z2)
    """)
    z1, z2 = empty((1, ), "int64"), empty((1, ), "int64")
    kernel[(1, )](to_device(np.array([[0, 1]], np.int64)), z1, z2)
    assert (to_numpy(z1)[0], to_numpy(z2)[0]) == (0, 1)


@pytest.mark.parametrize("dtype", INT_DTYPES + UINT_DTYPES + FLOAT_DTYPES + ["bfloat16"])
@pytest.mark.parametrize("shape", [(), (1, ), (128, )])
def test_full(dtype, shape):
    static = kernel_from_source(f"""
        @triton.jit
        def kernel(out):
            a = tl.full({shape}, 2, tl.{dtype})
            tl.static_assert(a.shape == {list(shape)})
            tl.store(out + tl.arange(0, 128)[:], a)
    """)
    dynamic = kernel_from_source(f"""
        @triton.jit
        def kernel(out, val, dtype: tl.constexpr):
            a = tl.full({list(shape)}, val, dtype)
            tl.static_assert(a.shape == {list(shape)})
            tl.store(out + tl.arange(0, 128)[:], a)
    """)
    out = to_device(np.zeros(128), dtype)
    static[(1, )](out)
    assert np.all(to_numpy(out) == 2)
    out = to_device(np.zeros(128), dtype)
    dynamic[(1, )](out, 2, getattr(tl, dtype))
    assert np.all(to_numpy(out) == 2)


@pytest.mark.parametrize("literal,dtype", [("1e+50", "float64"), ("1e+10", "float32"), ("1.0", "float32"),
                                           ('float("inf")', "float32"), ('float("-inf")', "float32"),
                                           ('float("nan")', "float32"), ('float("-nan")', "float32"),
                                           ("0.", "float32"), ("5", "int32"), ("2**40", "int64")])
def test_literal_types(literal, dtype):
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(out_ptr):
            val = {literal}
            tl.store(out_ptr.to(tl.pointer_type(val.dtype)), val)
    """)
    out = to_device(np.zeros(1), dtype)
    kernel[(1, )](out)
    expected = np.array([eval(literal)], dtype=dtype)
    assert_close(out, expected, exact=not np.isnan(expected[0]), rtol=0, atol=0)


@pytest.mark.parametrize("start", [0, 1, 7, 16])
def test_arange(start):
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(z, BLOCK: tl.constexpr, START: tl.constexpr, END: tl.constexpr):
            tl.store(z + tl.arange(0, BLOCK), tl.arange(START, END))
    """)
    z = empty((128, ), "int32")
    kernel[(1, )](z, START=start, END=start + 128, BLOCK=128)
    assert_close(z, np.arange(start, start + 128), exact=True)


def test_constexpr_shape():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X):
            offs = tl.arange(0, 128 + 128)
            tl.store(X + offs, offs)
    """)
    x = empty((256, ), "int32")
    kernel[(1, )](x)
    assert_close(x, np.arange(256), exact=True)


def test_shape_from_a_runtime_scalar():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X, s):
            offs = tl.arange(0, 256)
            tl.store(X + offs, offs % (256 // s))
    """)
    x = empty((256, ), "int32")
    kernel[(1, )](x, 32)
    assert_close(x, np.arange(256) % 8, exact=True)


def test_dtype_of_pointer_elements():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(X):
            dtype_x: tl.constexpr = X.dtype.element_ty
            tl.static_assert(dtype_x == tl.int32)
            tl.static_assert(dtype_x == tl.constexpr(tl.int32))
            tl.static_assert(dtype_x == tl.int8 or (dtype_x == tl.int16 or dtype_x == tl.int32))
    """)
    kernel[(1, )](to_device(np.zeros(1, np.int32)))


@pytest.mark.parametrize("kind", ["load", "store"])
def test_descriptor_block_rows_need_16_bytes(kind):
    body = ("desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [1, 2])\n    desc.load([0, 0])"
            if kind == "load" else
            "desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [8, 4])\n"
            "    desc.store([0, 0], tl.zeros([8, 4], dtype=tl.int16))")
    kernel = kernel_from_source(f"""
@triton.jit
def kernel(ptr):
    {body}
""")
    dtype = "int32" if kind == "load" else "int16"
    triton.set_allocator(lambda size, alignment, stream: empty((size, ), "int8"))
    with pytest.raises(compile_error_type(), match="16 bytes"):
        kernel[(1, )](to_device(np.zeros((128, 128)), dtype))
