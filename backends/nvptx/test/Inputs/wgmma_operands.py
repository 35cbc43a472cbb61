# Dots whose operands no pipelining put in shared memory: B transposed
# (K contiguous in memory), then A from registers and B row-major.
import triton
import triton.language as tl


@triton.jit
def two_dots(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
             K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rn[:, None] * K + rk[None, :])
    s = tl.dot(a, tl.trans(b))
    c = tl.dot(s.to(tl.float16), b)
    tl.store(c_ptr + rm[:, None] * K + rk[None, :], c)


@triton.jit
def fp8_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
            K: tl.constexpr):
    # fp8 operands from registers, B row-major (N contiguous): wgmma reads
    # 8-bit operands only K-major from shared memory.
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def invariant_a(q_desc, k_desc, v_desc, out_ptr, N_CTX, BM: tl.constexpr,
                D: tl.constexpr, BN: tl.constexpr):
    # Attention's shape: A of the first dot (Q) loaded once before the loop,
    # A of the second (P) computed in it, both the same size (BN == D).
    q = q_desc.load([0, 0])
    acc = tl.zeros([BM, D], tl.float32)
    for start in range(0, N_CTX, BN):
        k = k_desc.load([start, 0])
        v = v_desc.load([start, 0])
        p = tl.dot(q, k.T)
        acc = tl.dot(p.to(tl.float16), v, acc)
    rm = tl.arange(0, BM)
    rd = tl.arange(0, D)
    tl.store(out_ptr + rm[:, None] * D + rd[None, :], acc)


@triton.jit
def invariant_register_a(q_ptr, k_ptr, v_ptr, out_ptr, N_CTX, BM: tl.constexpr,
                         D: tl.constexpr, BN: tl.constexpr):
    # The same with Q loaded through pointers: kept in registers across the
    # loop, the same size as P.
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    acc = tl.zeros([BM, D], tl.float32)
    for start in range(0, N_CTX, BN):
        k = tl.load(k_ptr + (start + rn)[:, None] * D + rd[None, :])
        v = tl.load(v_ptr + (start + rn)[:, None] * D + rd[None, :])
        p = tl.dot(q, k.T)
        acc = tl.dot(p.to(tl.float16), v, acc)
    tl.store(out_ptr + rm[:, None] * D + rd[None, :], acc)


@triton.jit
def invariant_register_a_two_loops(q_ptr, k_ptr, v_ptr, out_ptr, N_CTX,
                                   BM: tl.constexpr, D: tl.constexpr,
                                   BN: tl.constexpr):
    # Causal attention's shape: Q in registers, read by the dots of two
    # loops one after the other (off the diagonal, then on it).
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    acc = tl.zeros([BM, D], tl.float32)
    for start in range(0, N_CTX, BN):
        k = tl.load(k_ptr + (start + rn)[:, None] * D + rd[None, :])
        v = tl.load(v_ptr + (start + rn)[:, None] * D + rd[None, :])
        p = tl.dot(q, k.T)
        acc = tl.dot(p.to(tl.float16), v, acc)
    for start in range(N_CTX, N_CTX + BM, BN):
        k = tl.load(k_ptr + (start + rn)[:, None] * D + rd[None, :])
        v = tl.load(v_ptr + (start + rn)[:, None] * D + rd[None, :])
        p = tl.dot(q, k.T)
        p = tl.where(rm[:, None] >= (start - N_CTX + rn)[None, :], p, 0.0)
        acc = tl.dot(p.to(tl.float16), v, acc)
    tl.store(out_ptr + rm[:, None] * D + rd[None, :], acc)
