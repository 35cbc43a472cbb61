"""Conformance kernel 09: the persistent matmul family (mirrors Triton tutorial 09).

Four ways to compute C = A @ B (M x K times K x N, fp32 accumulation, C stored in C's
element type: fp16 for fp16 inputs, fp8 e4m3 for fp8 e4m3 inputs as in the tutorial):

  matmul_kernel                        one program per output tile, pointer loads
  matmul_kernel_persistent             NUM_SMS programs loop over the tiles, pointer loads
  matmul_kernel_descriptor             one program per tile, tensor-descriptor (TMA) loads/stores
  matmul_kernel_descriptor_persistent  persistent + tensor descriptors + optional epilogue
                                       subtiling (store C in two BLOCK_SIZE_N/2 halves)

Tiles are ordered in groups of GROUP_SIZE_M tile-rows (L2 reuse), as in tutorial 03.

Kernel `matmul_kernel` (autotuned over MATMUL_CONFIGS, key ['M', 'N', 'K'])
  signature : matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                            stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                            BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr,
                            BLOCK_SIZE_K: constexpr, GROUP_SIZE_M: constexpr)
  grid      : (cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N), 1, 1)

Kernel `matmul_kernel_persistent` (autotuned over MATMUL_CONFIGS, key ['M', 'N', 'K'])
  signature : as matmul_kernel, plus NUM_SMS: constexpr last
  grid      : (min(NUM_SMS, cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)), 1, 1)
              NUM_SMS = the device's multiprocessor count (132 on H100 SXM); the tile loop is
              tl.range(start_pid, num_tiles, NUM_SMS, flatten=True)

  For both pointer kernels B is read through (stride_bk, stride_bn): fp16 B is row-major
  (K, N); fp8 B is, as in the tutorial, the (K, N) view of an (N, K) row-major tensor
  (stride_bk = 1, stride_bn = K). Any M, N, K (tails masked).

Kernel `matmul_kernel_descriptor` (autotuned over MATMUL_CONFIGS, key M/N/K/WARP_SPECIALIZE)
  signature : matmul_kernel_descriptor(a_ptr, b_ptr, c_ptr, M, N, K,
                                       BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr,
                                       BLOCK_SIZE_K: constexpr, GROUP_SIZE_M: constexpr,
                                       WARP_SPECIALIZE: constexpr)
  grid      : (cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N), 1, 1)

Kernel `matmul_kernel_descriptor_persistent` (autotuned over DESC_PERSISTENT_CONFIGS,
key M/N/K/WARP_SPECIALIZE)
  signature : matmul_kernel_descriptor_persistent(a_ptr, b_ptr, c_ptr, M, N, K,
                  BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr, BLOCK_SIZE_K: constexpr,
                  GROUP_SIZE_M: constexpr, EPILOGUE_SUBTILE: constexpr, NUM_SMS: constexpr,
                  WARP_SPECIALIZE: constexpr)
  grid      : (min(NUM_SMS, cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)), 1, 1)

  For both descriptor kernels A is (M, K), B is given TRANSPOSED as (N, K), C is (M, N), all
  contiguous row-major; K and N times the element size must be multiples of 16 bytes and
  the bases 16-byte aligned. The descriptors are created in the kernel
  (tl.make_tensor_descriptor), which needs a global-scratch allocator on the host
  (triton.set_allocator in Python). WARP_SPECIALIZE is passed to tl.range(warp_specialize=);
  the benchmark uses False (Triton 3.6 warp-specializes these loops on Blackwell).

Benchmark: M = N = K = 8192, fp16 and fp8 e4m3 (FLOPs = 2 * M * N * K).
"""
import triton
import triton.language as tl

MATMUL_CONFIGS = [
    triton.Config({'BLOCK_SIZE_M': bm, 'BLOCK_SIZE_N': bn, 'BLOCK_SIZE_K': bk, 'GROUP_SIZE_M': 8},
                  num_stages=s, num_warps=w)
    for bm in [128]
    for bn in [128, 256]
    for bk in [64, 128]
    for s in [3, 4]
    for w in [4, 8]
]

DESC_PERSISTENT_CONFIGS = [
    triton.Config({'BLOCK_SIZE_M': bm, 'BLOCK_SIZE_N': bn, 'BLOCK_SIZE_K': bk, 'GROUP_SIZE_M': 8,
                   'EPILOGUE_SUBTILE': sub}, num_stages=s, num_warps=w)
    for bm in [128]
    for bn in [128, 256]
    for bk in [64, 128]
    for s in [2, 3, 4]
    for w in [4, 8]
    for sub in [True, False]
]


@triton.jit
def _tile_coords(tile_id, tiles_per_group, tiles_m, GROUP_SIZE_M: tl.constexpr):
    # Grouped ordering: GROUP_SIZE_M tile-rows are walked column by column.
    group = tile_id // tiles_per_group
    first_m = group * GROUP_SIZE_M
    rows_in_group = min(tiles_m - first_m, GROUP_SIZE_M)
    tile_m = first_m + (tile_id % rows_in_group)
    tile_n = (tile_id % tiles_per_group) // rows_in_group
    return tile_m, tile_n


@triton.autotune(configs=MATMUL_CONFIGS, key=['M', 'N', 'K'])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    tile_m, tile_n = _tile_coords(tl.program_id(axis=0), GROUP_SIZE_M * tiles_n, tiles_m, GROUP_SIZE_M)

    # Rows/cols past the edge are clamped to 0 for the loads (the store is masked).
    rows = tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    cols = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    rows = tl.where(rows < M, rows, 0)
    cols = tl.where(cols < N, cols, 0)
    rows = tl.max_contiguous(tl.multiple_of(rows, BLOCK_SIZE_M), BLOCK_SIZE_M)
    cols = tl.max_contiguous(tl.multiple_of(cols, BLOCK_SIZE_N), BLOCK_SIZE_N)
    ks = tl.arange(0, BLOCK_SIZE_K)
    a_tile = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_tile = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - kb * BLOCK_SIZE_K
        a = tl.load(a_tile, mask=ks[None, :] < k_left, other=0.0)
        b = tl.load(b_tile, mask=ks[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_SIZE_K * stride_ak
        b_tile += BLOCK_SIZE_K * stride_bk

    out_rows = tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    out_cols = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_tile = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
    tl.store(c_tile, acc.to(c_ptr.dtype.element_ty), mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


@triton.autotune(configs=MATMUL_CONFIGS, key=['M', 'N', 'K'])
@triton.jit
def matmul_kernel_persistent(a_ptr, b_ptr, c_ptr, M, N, K,
                             stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                             BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = tiles_m * tiles_n
    tiles_per_group = GROUP_SIZE_M * tiles_n
    ks = tl.arange(0, BLOCK_SIZE_K)
    # A separate counter for the epilogue keeps the prologue (loads of the next tile) and
    # the epilogue (store of this tile) independent once the loop nest is flattened.
    epilogue_tile = start_pid - NUM_SMS

    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        tile_m, tile_n = _tile_coords(tile_id, tiles_per_group, tiles_m, GROUP_SIZE_M)
        rows = tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        cols = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        rows = tl.where(rows < M, rows, 0)
        cols = tl.where(cols < N, cols, 0)
        rows = tl.max_contiguous(tl.multiple_of(rows, BLOCK_SIZE_M), BLOCK_SIZE_M)
        cols = tl.max_contiguous(tl.multiple_of(cols, BLOCK_SIZE_N), BLOCK_SIZE_N)

        acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for kb in range(k_tiles):
            kk = kb * BLOCK_SIZE_K + ks
            a = tl.load(a_ptr + rows[:, None] * stride_am + kk[None, :] * stride_ak,
                        mask=ks[None, :] < K - kb * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptr + kk[:, None] * stride_bk + cols[None, :] * stride_bn,
                        mask=ks[:, None] < K - kb * BLOCK_SIZE_K, other=0.0)
            acc = tl.dot(a, b, acc)

        epilogue_tile += NUM_SMS
        out_m, out_n = _tile_coords(epilogue_tile, tiles_per_group, tiles_m, GROUP_SIZE_M)
        out_rows = out_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        out_cols = out_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        c_tile = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
        tl.store(c_tile, acc.to(c_ptr.dtype.element_ty), mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


@triton.autotune(configs=MATMUL_CONFIGS, key=['M', 'N', 'K', 'WARP_SPECIALIZE'])
@triton.jit
def matmul_kernel_descriptor(a_ptr, b_ptr, c_ptr, M, N, K,
                             BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                             WARP_SPECIALIZE: tl.constexpr):
    out_dtype = c_ptr.dtype.element_ty
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    tile_m, tile_n = _tile_coords(tl.program_id(axis=0), GROUP_SIZE_M * tiles_n, tiles_m, GROUP_SIZE_M)

    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])

    m0 = tile_m * BLOCK_SIZE_M
    n0 = tile_n * BLOCK_SIZE_N
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kb in tl.range(tl.cdiv(K, BLOCK_SIZE_K), warp_specialize=WARP_SPECIALIZE):
        a = a_desc.load([m0, kb * BLOCK_SIZE_K])
        b = b_desc.load([n0, kb * BLOCK_SIZE_K])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([m0, n0], acc.to(out_dtype))


@triton.autotune(configs=DESC_PERSISTENT_CONFIGS, key=['M', 'N', 'K', 'WARP_SPECIALIZE'])
@triton.jit
def matmul_kernel_descriptor_persistent(a_ptr, b_ptr, c_ptr, M, N, K,
                                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                                        BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                                        EPILOGUE_SUBTILE: tl.constexpr, NUM_SMS: tl.constexpr,
                                        WARP_SPECIALIZE: tl.constexpr):
    out_dtype = c_ptr.dtype.element_ty
    start_pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = tiles_m * tiles_n
    tiles_per_group = GROUP_SIZE_M * tiles_n

    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    if EPILOGUE_SUBTILE:
        c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                           block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N // 2])
    else:
        c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                           block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])

    epilogue_tile = start_pid - NUM_SMS
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        tile_m, tile_n = _tile_coords(tile_id, tiles_per_group, tiles_m, GROUP_SIZE_M)
        m0 = tile_m * BLOCK_SIZE_M
        n0 = tile_n * BLOCK_SIZE_N
        acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for kb in range(k_tiles):
            a = a_desc.load([m0, kb * BLOCK_SIZE_K])
            b = b_desc.load([n0, kb * BLOCK_SIZE_K])
            acc = tl.dot(a, b.T, acc)

        epilogue_tile += NUM_SMS
        out_m, out_n = _tile_coords(epilogue_tile, tiles_per_group, tiles_m, GROUP_SIZE_M)
        cm = out_m * BLOCK_SIZE_M
        cn = out_n * BLOCK_SIZE_N
        if EPILOGUE_SUBTILE:
            # (BM, BN) -> (BM, 2, BN/2) -> (BM, BN/2, 2) -> two (BM, BN/2) halves, stored
            # one after the other so the epilogue needs half the staging buffer.
            halves = tl.permute(tl.reshape(acc, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2)), (0, 2, 1))
            left, right = tl.split(halves)
            c_desc.store([cm, cn], left.to(out_dtype))
            c_desc.store([cm, cn + BLOCK_SIZE_N // 2], right.to(out_dtype))
        else:
            c_desc.store([cm, cn], acc.to(out_dtype))


if __name__ == "__main__":
    import torch

    import sys

    assert torch.cuda.is_available(), "run on a GPU (the checker script covers the interpreter)"
    if "--quick" in sys.argv:  # tune over two configs only
        for k in (matmul_kernel, matmul_kernel_persistent, matmul_kernel_descriptor,
                  matmul_kernel_descriptor_persistent):
            k.configs = k.configs[:2]
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    NUM_SMS = torch.cuda.get_device_properties("cuda").multi_processor_count

    def rel(c, ref):
        return ((c.double() - ref).norm() / ref.norm()).item()

    for dt, (M, N, K) in ((torch.float16, (1000, 744, 520)), (torch.float8_e4m3fn, (1024, 768, 512))):
        a = torch.randn(M, K, device="cuda", dtype=torch.float16).to(dt)
        bt = torch.randn(N, K, device="cuda", dtype=torch.float16).to(dt)  # B transposed: (N, K)
        b = bt.T if dt != torch.float16 else bt.T.contiguous()
        ref = a.double() @ bt.double().T
        tol = 1e-2 if dt == torch.float16 else 7e-2  # fp8 output rounding
        tiles = lambda meta: triton.cdiv(M, meta['BLOCK_SIZE_M']) * triton.cdiv(N, meta['BLOCK_SIZE_N'])
        c = torch.empty(M, N, device="cuda", dtype=dt)
        matmul_kernel[lambda meta: (tiles(meta), )](a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride())
        assert rel(c, ref) < tol
        c = torch.empty(M, N, device="cuda", dtype=dt)
        matmul_kernel_persistent[lambda meta: (min(NUM_SMS, tiles(meta)), )](a, b, c, M, N, K, *a.stride(),
                                                                             *b.stride(), *c.stride(),
                                                                             NUM_SMS=NUM_SMS)
        assert rel(c, ref) < tol
        c = torch.empty(M, N, device="cuda", dtype=dt)
        matmul_kernel_descriptor[lambda meta: (tiles(meta), )](a, bt, c, M, N, K, WARP_SPECIALIZE=False)
        assert rel(c, ref) < tol
        c = torch.empty(M, N, device="cuda", dtype=dt)
        matmul_kernel_descriptor_persistent[lambda meta: (min(NUM_SMS, tiles(meta)), )](
            a, bt, c, M, N, K, NUM_SMS=NUM_SMS, WARP_SPECIALIZE=False)
        assert rel(c, ref) < tol
    print("09_persistent_matmul: ok")
