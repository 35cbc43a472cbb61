# An fp32 dot with IEEE precision: no matrix instruction, multiply-adds.
import triton
import triton.language as tl


@triton.jit
def fma_dot(X, Y, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(X + m[:, None] * K + k[None, :])
    y = tl.load(Y + k[:, None] * N + n[None, :])
    tl.store(Z + m[:, None] * N + n[None, :], tl.dot(x, y, input_precision="ieee"))


def library_wrapper(fn):
    # A library's decorator above @triton.jit (the frontend looks through it
    # with a remark).
    return fn


@library_wrapper
@triton.jit
def wrapped_fma_dot(X, Y, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    fma_dot(X, Y, Z, M, N, K)
