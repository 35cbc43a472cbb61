# One warp's 16x16x32 fp16 dot (mma.sync even on sm_90a: one warp is no
# warpgroup); the source of sink-matrix-loads-dot-input.mlir.
import triton
import triton.language as tl


@triton.jit
def small_dot(X, Y, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(X + m[:, None] * K + k[None, :])
    y = tl.load(Y + k[:, None] * N + n[None, :])
    tl.store(Z + m[:, None] * N + n[None, :], tl.dot(x, y))
