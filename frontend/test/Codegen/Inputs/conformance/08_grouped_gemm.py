"""Conformance kernel 08: grouped GEMM (mirrors Triton tutorial 08).

Computes C_g = A_g @ B_g for a group of g = 0 .. group_size-1 independent GEMMs of different
sizes in ONE launch. A fixed number of programs (NUM_SM) walks the concatenated list of
output tiles of all GEMMs: program p takes tiles p, p + NUM_SM, p + 2*NUM_SM, ... The
matrices are described by device arrays:
    group_a_ptrs, group_b_ptrs, group_c_ptrs : int64[group_size], raw device addresses
                                              (turned into typed pointers in the kernel)
    group_gemm_sizes : int32[group_size * 3] = (M_g, N_g, K_g) per GEMM
    g_lds            : int32[group_size * 3] = (lda_g, ldb_g, ldc_g): row strides in elements

Kernel `grouped_matmul_kernel` (pointer loads; autotuned over GROUPED_CONFIGS, key ['group_size'])
  signature : grouped_matmul_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes,
                                    g_lds, group_size, NUM_SM: constexpr,
                                    BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr,
                                    BLOCK_SIZE_K: constexpr)
              A_g (M_g, K_g), B_g (K_g, N_g), C_g (M_g, N_g): fp16, row-major with the given
              leading dimensions; any M/N/K (tails are masked)
  grid      : (NUM_SM, 1, 1)  -- NUM_SM comes from the config

Kernel `grouped_matmul_desc_kernel` (tensor descriptors made in the kernel, one set per GEMM;
needs the host's global-scratch allocator, triton.set_allocator in Python)
  signature : grouped_matmul_desc_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs,
                                         group_gemm_sizes, g_lds, group_size,
                                         NUM_SM: constexpr, BLOCK_SIZE_M: constexpr,
                                         BLOCK_SIZE_N: constexpr, BLOCK_SIZE_K: constexpr,
                                         FP8: constexpr)
              A_g (M_g, K_g) row-major; B_g is given TRANSPOSED, as an (N_g, K_g) row-major
              matrix with row stride ldb_g; C_g (M_g, N_g) fp16.
              FP8=False: A, B fp16;  FP8=True: A, B fp8 e4m3 (float8e4nv).
              Descriptor rules: base addresses 16-byte aligned, lda/ldb/ldc * element size
              a multiple of 16 bytes. Tails are handled by the descriptor (zero padding on
              load, clipping on store).
  grid      : (NUM_SM, 1, 1);  autotuned over GROUPED_DESC_CONFIGS, key ['group_size', 'FP8']

Benchmark (the tutorial's): group of 4 square GEMMs, N in {128, 256, 512, 1024}, fp16.
"""
import triton
import triton.language as tl

GROUPED_CONFIGS = [
    triton.Config({'BLOCK_SIZE_M': bm, 'BLOCK_SIZE_N': bn, 'BLOCK_SIZE_K': bk, 'NUM_SM': sms})
    for (bm, bn, bk) in [(128, 128, 32), (128, 128, 64), (64, 128, 32), (64, 64, 32)]
    for sms in [132, 264]
]

GROUPED_DESC_CONFIGS = [
    triton.Config({'BLOCK_SIZE_M': bm, 'BLOCK_SIZE_N': bn, 'BLOCK_SIZE_K': bk, 'NUM_SM': sms})
    for (bm, bn, bk) in [(128, 128, 64), (128, 128, 128), (64, 128, 64), (128, 64, 64)]
    for sms in [132, 264]
]


@triton.autotune(configs=GROUPED_CONFIGS, key=['group_size'])
@triton.jit
def grouped_matmul_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size,
                          NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                          BLOCK_SIZE_K: tl.constexpr):
    tile = tl.program_id(0)
    tiles_before = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        tiles_n = tl.cdiv(gn, BLOCK_SIZE_N)
        tiles_here = tl.cdiv(gm, BLOCK_SIZE_M) * tiles_n
        # Work through every tile of GEMM g that belongs to this program.
        while tile >= tiles_before and tile < tiles_before + tiles_here:
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            local = tile - tiles_before
            tile_m = local // tiles_n
            tile_n = local % tiles_n

            # Out-of-range rows/cols are wrapped for the loads and masked on the store.
            rows = (tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % gm
            cols = (tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % gn
            ks = tl.arange(0, BLOCK_SIZE_K)
            a_tile = a_ptr + rows[:, None] * lda + ks[None, :]
            b_tile = b_ptr + ks[:, None] * ldb + cols[None, :]
            acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for kb in range(0, tl.cdiv(gk, BLOCK_SIZE_K)):
                k_left = gk - kb * BLOCK_SIZE_K
                a = tl.load(a_tile, mask=ks[None, :] < k_left, other=0.0)
                b = tl.load(b_tile, mask=ks[:, None] < k_left, other=0.0)
                acc = tl.dot(a, b, acc)
                a_tile += BLOCK_SIZE_K
                b_tile += BLOCK_SIZE_K * ldb

            out_rows = tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            out_cols = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            c_tile = c_ptr + out_rows[:, None] * ldc + out_cols[None, :]
            tl.store(c_tile, acc.to(tl.float16), mask=(out_rows[:, None] < gm) & (out_cols[None, :] < gn))
            tile += NUM_SM
        tiles_before += tiles_here


@triton.autotune(configs=GROUPED_DESC_CONFIGS, key=['group_size', 'FP8'])
@triton.jit
def grouped_matmul_desc_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size,
                               NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                               BLOCK_SIZE_K: tl.constexpr, FP8: tl.constexpr):
    in_dtype = tl.float8e4nv if FP8 else tl.float16
    tile = tl.program_id(0)
    tiles_before = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        tiles_n = tl.cdiv(gn, BLOCK_SIZE_N)
        tiles_here = tl.cdiv(gm, BLOCK_SIZE_M) * tiles_n
        if tile >= tiles_before and tile < tiles_before + tiles_here:
            # This program owns at least one tile of GEMM g: describe its matrices once.
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(in_dtype))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(in_dtype))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            a_desc = tl.make_tensor_descriptor(a_ptr, shape=[gm, gk], strides=[lda, 1],
                                               block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
            b_desc = tl.make_tensor_descriptor(b_ptr, shape=[gn, gk], strides=[ldb, 1],
                                               block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
            c_desc = tl.make_tensor_descriptor(c_ptr, shape=[gm, gn], strides=[ldc, 1],
                                               block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
            while tile < tiles_before + tiles_here:
                local = tile - tiles_before
                m0 = (local // tiles_n) * BLOCK_SIZE_M
                n0 = (local % tiles_n) * BLOCK_SIZE_N
                acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                for kb in range(0, tl.cdiv(gk, BLOCK_SIZE_K)):
                    a = a_desc.load([m0, kb * BLOCK_SIZE_K])
                    b = b_desc.load([n0, kb * BLOCK_SIZE_K])
                    acc = tl.dot(a, b.T, acc)
                c_desc.store([m0, n0], acc.to(tl.float16))
                tile += NUM_SM
        tiles_before += tiles_here


if __name__ == "__main__":
    import torch

    import sys

    assert torch.cuda.is_available(), "run on a GPU (the checker script covers the interpreter)"
    if "--quick" in sys.argv:  # tune over two configs only
        grouped_matmul_kernel.configs = grouped_matmul_kernel.configs[:2]
        grouped_matmul_desc_kernel.configs = grouped_matmul_desc_kernel.configs[:2]
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    shapes = [(1024, 1024, 1024), (512, 256, 128), (136, 264, 80), (33, 48, 208)]

    def pack(As, Bs, Cs):
        dev = "cuda"
        ptrs = [torch.tensor([t.data_ptr() for t in ts], device=dev, dtype=torch.int64) for ts in (As, Bs, Cs)]
        sizes = torch.tensor([v for (m, n, k) in shapes for v in (m, n, k)], device=dev, dtype=torch.int32)
        lds = torch.tensor([v for a, b, c in zip(As, Bs, Cs) for v in (a.stride(0), b.stride(0), c.stride(0))],
                           device=dev, dtype=torch.int32)
        return ptrs + [sizes, lds]

    As = [torch.randn(m, k, device="cuda", dtype=torch.float16) for (m, n, k) in shapes]
    Bs = [torch.randn(k, n, device="cuda", dtype=torch.float16) for (m, n, k) in shapes]
    Cs = [torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16) for (m, n, k) in shapes]
    grouped_matmul_kernel[lambda meta: (meta['NUM_SM'], )](*pack(As, Bs, Cs), len(shapes))
    for a, b, c in zip(As, Bs, Cs):
        ref = a.double() @ b.double()
        assert ((c.double() - ref).norm() / ref.norm()).item() < 1e-2
    for fp8 in (False, True):
        dt = torch.float8_e4m3fn if fp8 else torch.float16
        A8 = [a.to(dt) for a in As]
        Bt = [b.T.contiguous().to(dt) for b in Bs]
        Cs = [torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16) for (m, n, k) in shapes]
        grouped_matmul_desc_kernel[lambda meta: (meta['NUM_SM'], )](*pack(A8, Bt, Cs), len(shapes), FP8=fp8)
        for a, b, c in zip(A8, Bt, Cs):
            ref = a.double() @ b.double().T
            assert ((c.double() - ref).norm() / ref.norm()).item() < 1e-2
    print("08_grouped_gemm: ok")
