"""Conformance kernel 03: tiled matrix multiplication (mirrors Triton tutorial 03).

Computes C = act(A @ B) with A of shape (M, K), B of shape (K, N), C of shape (M, N),
accumulating in fp32 and storing in C's element type.

Kernel `matmul_kernel` (autotuned over MATMUL_CONFIGS, key ['M', 'N', 'K'])
  signature : matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                            stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                            BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr,
                            BLOCK_SIZE_K: constexpr, GROUP_SIZE_M: constexpr,
                            ACTIVATION: constexpr)
              a_ptr, b_ptr : fp16, or fp8 e4m3 (float8e4nv) / e5m2 for the fp8 case
              c_ptr        : fp16 (also for fp8 inputs)
              M, N, K, strides : int32, strides in elements (any layout works; B is read
                                 through (stride_bk, stride_bn))
  constexprs: BLOCK_SIZE_M/N/K, GROUP_SIZE_M and num_stages/num_warps come from the
              autotuner (MATMUL_CONFIGS); ACTIVATION is "" (none) or "leaky_relu"
  grid      : (cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N), 1, 1)
  benchmark : M = N = K = 8192, fp16 (A, B row-major), and fp8 e4m3 with B supplied
              transposed: B is stored as an (N, K) row-major tensor and passed as its
              (K, N) view, i.e. stride_bk = 1, stride_bn = K (the K-major operand that
              Hopper's fp8 tensor-core instructions need). FLOPs = 2 * M * N * K.

Program ids are remapped in groups of GROUP_SIZE_M tile-rows so that programs that run
together reuse the same A and B tiles from L2. Rows/columns past M/N are wrapped with a
modulo on the load side and masked on the store; the K tail is masked (loaded as 0).
"""
import triton
import triton.language as tl

# (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_stages, num_warps); GROUP_SIZE_M = 8.
# The first group favours fp16 (BLOCK_SIZE_K 32/64), the second fp8 (BLOCK_SIZE_K 128).
MATMUL_CONFIGS = [
    triton.Config({'BLOCK_SIZE_M': bm, 'BLOCK_SIZE_N': bn, 'BLOCK_SIZE_K': bk, 'GROUP_SIZE_M': 8},
                  num_stages=s, num_warps=w)
    for (bm, bn, bk, s, w) in [
        (128, 256, 64, 3, 8),
        (128, 128, 64, 4, 4),
        (128, 128, 32, 4, 4),
        (64, 256, 32, 4, 4),
        (128, 64, 32, 4, 4),
        (64, 128, 32, 4, 4),
        (128, 32, 32, 4, 4),
        (64, 32, 32, 5, 2),
        (32, 64, 32, 5, 2),
        (128, 256, 128, 3, 8),
        (256, 128, 128, 3, 8),
        (128, 128, 128, 4, 4),
        (64, 256, 128, 4, 4),
        (256, 64, 128, 4, 4),
        (128, 64, 64, 4, 4),
        (64, 128, 64, 4, 4),
    ]
]


@triton.jit
def leaky_relu(x):
    # Slope 0.01 for negative inputs.
    return tl.where(x >= 0, x, 0.01 * x)


@triton.autotune(configs=MATMUL_CONFIGS, key=['M', 'N', 'K'])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr):
    # --- grouped ("super-tile") ordering of the output tiles ---------------------
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    tiles_per_group = GROUP_SIZE_M * tiles_n
    group = pid // tiles_per_group
    group_first_m = group * GROUP_SIZE_M
    group_rows = min(tiles_m - group_first_m, GROUP_SIZE_M)
    slot = pid % tiles_per_group
    tile_m = group_first_m + (slot % group_rows)
    tile_n = slot // group_rows

    # --- operand pointers --------------------------------------------------------
    rows = (tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    cols = (tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    ks = tl.arange(0, BLOCK_SIZE_K)
    a_tile = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_tile = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn

    # --- main loop: fp32 accumulation over K ---------------------------------------
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - kb * BLOCK_SIZE_K
        a = tl.load(a_tile, mask=ks[None, :] < k_left, other=0.0)
        b = tl.load(b_tile, mask=ks[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_SIZE_K * stride_ak
        b_tile += BLOCK_SIZE_K * stride_bk

    # --- fused epilogue --------------------------------------------------------------
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    c = acc.to(c_ptr.dtype.element_ty)

    out_rows = tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    out_cols = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_tile = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
    tl.store(c_tile, c, mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


if __name__ == "__main__":
    import torch

    import sys

    assert torch.cuda.is_available(), "run on a GPU (the checker script covers the interpreter)"
    if "--quick" in sys.argv:  # tune over two configs only
        matmul_kernel.configs = matmul_kernel.configs[:2]

    def run(a, b, activation=""):
        M, K = a.shape
        _, N = b.shape
        c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float16)
        grid = lambda meta: (triton.cdiv(M, meta['BLOCK_SIZE_M']) * triton.cdiv(N, meta['BLOCK_SIZE_N']), )
        matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), ACTIVATION=activation)
        return c

    def rel_err(out, ref):
        return ((out.double() - ref).norm() / ref.norm()).item()

    for (M, N, K) in ((512, 512, 512), (333, 257, 129)):
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        ref = a.double() @ b.double()
        assert rel_err(run(a, b), ref) < 1e-2
        assert rel_err(run(a, b, "leaky_relu"), torch.nn.functional.leaky_relu(ref, 0.01)) < 1e-2
        if torch.cuda.get_device_capability()[0] >= 9 and K % 16 == 0:
            a8 = a.to(torch.float8_e4m3fn)
            b8 = b.T.contiguous().to(torch.float8_e4m3fn).T  # (K, N) view of an (N, K) tensor
            ref8 = a8.double() @ b8.double()
            assert rel_err(run(a8, b8), ref8) < 1e-2
    print("03_matmul: ok")
