# Scans along rows and columns, forward and reversed, with commutative and
# non-commutative combines: the kernels of ScanEndToEndTest.cpp, runnable
# unchanged under Triton.
import triton
import triton.language as tl


@triton.jit
def cumsum_1d(x_ptr, y_ptr, N: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0, reverse=REVERSE))


@triton.jit
def cumsum_2d(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr,
              AXIS: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=AXIS, reverse=REVERSE))


@triton.jit
def _affine(a1, b1, a2, b2):
    # x -> a2 * (a1 * x + b1) + b2: applying step 1, then step 2.
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_recurrence(a_ptr, b_ptr, h_ptr, M: tl.constexpr, N: tl.constexpr,
                      REVERSE: tl.constexpr):
    # h[i, j] = a[i, j] * h[i, j - 1] + b[i, j] (from the other end when
    # reversed), with h = 0 before the first step: a combine that does not
    # commute, over a tuple.
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    _, h = tl.associative_scan((a, b), 1, _affine, reverse=REVERSE)
    tl.store(h_ptr + offs, h)


@triton.jit
def _maximum(a, b):
    return tl.maximum(a, b)


@triton.jit
def cummax_rows(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    # One program per row, masked: the tail of the block scans -inf.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=float("-inf"))
    y = tl.associative_scan(x, 0, _maximum)
    tl.store(y_ptr + row * n_cols + cols, y, mask=mask)
