"""Kernels of CpuLanguageTest.cpp: constructs of Triton's language tests
(test_core.py) that the cpu backend once got wrong. Ordinary Triton code."""
import triton
import triton.language as tl


@triton.jit
def copy(dst, src, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(dst + offs, tl.load(src + offs))


@triton.jit
def store_scalar(out, value):
    tl.store(out, value)


@triton.jit
def halve(out, value):
    # Unsigned for a u64 argument; a value read as signed would halve to 0
    # or -1 instead.
    tl.store(out, value // 2)


@triton.jit
def block_copy(src, dst, M, N, stride, BM: tl.constexpr, BN: tl.constexpr, STEPS: tl.constexpr):
    # Reads a BM x BN window that starts at (1, 1) and moves right STEPS
    # times; rows past M read 0 (boundary-checked), columns are not checked.
    src_block = tl.make_block_ptr(base=src, shape=(M, N), strides=(stride, 1), offsets=(1, 1),
                                  block_shape=(BM, BN), order=(1, 0))
    for _ in range(STEPS):
        src_block = tl.advance(src_block, (0, 1))
    x = tl.load(src_block, boundary_check=(0, ), padding_option="zero")
    dst_block = tl.make_block_ptr(base=dst, shape=(BM, BN), strides=(BN, 1), offsets=(0, 0),
                                  block_shape=(BM, BN), order=(1, 0))
    tl.store(dst_block, x)


@triton.jit
def pick(ret, x_true, x_false):
    pid = tl.program_id(0)
    tl.store(ret + pid, tl.load(x_true)) if pid % 2 == 0 else tl.store(ret + pid, tl.load(x_false))


@triton.jit
def choose(cond, a, b, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    chosen = tl.where(tl.load(cond) != 0, a, b)
    tl.store(out + offs, tl.load(chosen + offs))


@triton.jit
def fill_only_constexpr(XBLOCK: tl.constexpr):
    data = tl.arange(0, XBLOCK)
    tl.static_assert(data.shape == [XBLOCK])


@triton.jit
def scalar_index(z, x):
    # The trailing ':' is past the rank of the 1x1 block: Triton ignores it.
    tl.store(z[None, None, :], tl.load(x)[None, None])


@triton.jit
def store_broadcast(z, x):
    # A [1, 32] value stored through [4, 32, 32] pointers is broadcast as in
    # Triton 3.6 (the pointers keep their shape).
    v = tl.load(x + tl.arange(0, 32))[None, :]
    offs = (tl.arange(0, 4)[:, None, None] * 1024 + tl.arange(0, 32)[None, :, None] * 32 +
            tl.arange(0, 32)[None, None, :])
    tl.store(z + offs, v)


@triton.jit
def dot3d(q, k, o, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
          OUT: tl.constexpr):
    b = tl.arange(0, B)
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    kk = tl.arange(0, K)
    x = tl.load(q + b[:, None, None] * M * K + m[None, :, None] * K + kk[None, None, :])
    y = tl.load(k + b[:, None, None] * K * N + kk[None, :, None] * N + n[None, None, :])
    z = tl.dot(x, y, out_dtype=OUT)
    tl.store(o + b[:, None, None] * M * N + m[None, :, None] * N + n[None, None, :], z)
