# A transposition of a whole tile, exchanged through shared memory.
import triton
import triton.language as tl


@triton.jit
def transpose_tile(x_ptr, y_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + r[None, :])
    tl.store(y_ptr + r[:, None] * N + r[None, :], tl.trans(x))
