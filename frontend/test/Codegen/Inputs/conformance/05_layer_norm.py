"""Conformance kernel 05: layer normalization, forward and backward (mirrors Triton tutorial 05).

Forward, per row r of X (M rows of N features):
    mean_r = sum(X[r]) / N,  var_r = sum((X[r] - mean_r)^2) / N,  rstd_r = 1 / sqrt(var_r + eps)
    Y[r]   = (X[r] - mean_r) * rstd_r * W + B
Backward, with xhat = (X[r] - mean_r) * rstd_r and g = W * DY[r]:
    DX[r]  = rstd_r * (g - (xhat * mean(xhat * g) + mean(g)))
    DW     = sum_r DY[r] * xhat_r,    DB = sum_r DY[r]

Kernel `_layer_norm_fwd_fused`
  signature : (X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: constexpr)
              X, Y : fp16 (benchmark) / fp32 / bf16, row-major, row stride `stride` (elements)
              W, B : length-N weight and bias (same type as X)
              Mean, Rstd : fp32, length M (written)
              stride, N : int32;  eps : fp32 (1e-5)
  constexprs: BLOCK_SIZE = min(65536 // sizeof(X element), next_power_of_2(N));
              the kernel loops over the row in BLOCK_SIZE chunks, so any N works
  grid      : (M, 1, 1)
  launch    : num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
  benchmark : fp16, M = 4096, N = 8192 (bytes moved = 2 * 2 * M * N, Mean/Rstd ignored)

Kernel `_layer_norm_bwd_dx_fused`
  signature : (DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
               GROUP_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr)
              DX, DY, X, W : as in the forward; DX written
              DW, DB : fp32 scratch of shape (GROUP_SIZE_M, N): row g accumulates the
                       partial sums of all rows r with r % GROUP_SIZE_M == g
              Lock   : int32 array of 2 * GROUP_SIZE_M, ZEROED before the launch;
                       Lock[g] is a spin lock, Lock[GROUP_SIZE_M + g] says whether
                       DW[g]/DB[g] already hold data (first writer stores, later ones add)
  constexprs: BLOCK_SIZE_N = next_power_of_2(N) (the whole row is one block; N must fit);
              GROUP_SIZE_M = 64 (N > 8192), 96 (N > 4096), 128 (N > 1024), else 256
  grid      : (M, 1, 1);  launch: num_warps = min(max(BLOCK_SIZE_N // 256, 1), 8)
  The lock is taken with tl.atomic_cas(Lock, 0, 1) in a spin loop and released with
  tl.atomic_xchg(Lock, 0) after a barrier, so that the whole block's stores precede it.

Kernel `_layer_norm_bwd_dwdb`
  signature : (DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr)
              DW, DB : the fp32 (GROUP_SIZE_M, N) partials
              M : number of partial rows that were written = min(GROUP_SIZE_M, rows of X)
              FINAL_DW, FINAL_DB : length N, W's element type (written)
  constexprs: BLOCK_SIZE_M = 32, BLOCK_SIZE_N = 128
  grid      : (cdiv(N, BLOCK_SIZE_N), 1, 1)
"""
import triton
import triton.language as tl

# Launch defaults for the column-sum kernel.
DWDB_BLOCK_SIZE_M = 32
DWDB_BLOCK_SIZE_N = 128


@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    lanes = tl.arange(0, BLOCK_SIZE)

    # Pass 1: mean.
    total = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        cols = start + lanes
        total += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(total, axis=0) / N

    # Pass 2: variance around the mean (two-pass for accuracy).
    sq = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        cols = start + lanes
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        centered = tl.where(cols < N, x - mean, 0.0)
        sq += centered * centered
    var = tl.sum(sq, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)

    # Pass 3: normalize and apply the affine transform.
    for start in range(0, N, BLOCK_SIZE):
        cols = start + lanes
        ok = cols < N
        w = tl.load(W + cols, mask=ok)
        b = tl.load(B + cols, mask=ok)
        x = tl.load(X + cols, mask=ok, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(Y + cols, y.to(Y.dtype.element_ty), mask=ok)


@triton.jit
def _layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    ok = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride

    # Rows r with the same r % GROUP_SIZE_M share one partial-sum row and one lock.
    slot = row % GROUP_SIZE_M
    Lock += slot
    Count = Lock + GROUP_SIZE_M
    DW = DW + slot * N + cols
    DB = DB + slot * N + cols

    x = tl.load(X + cols, mask=ok, other=0.0).to(tl.float32)
    dy = tl.load(DY + cols, mask=ok, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=ok).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)

    xhat = tl.where(ok, (x - mean) * rstd, 0.0)
    g = tl.where(ok, w * dy, 0.0)
    c_xg = tl.sum(xhat * g, axis=0) / N
    c_g = tl.sum(g, axis=0) / N
    dx = (g - (xhat * c_xg + c_g)) * rstd
    tl.store(DX + cols, dx.to(DX.dtype.element_ty), mask=ok)

    part_dw = dy * xhat
    part_db = dy
    # Critical section: accumulate into the shared partial-sum row.
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    seen = tl.load(Count)
    if seen == 0:
        tl.atomic_xchg(Count, 1)
    else:
        part_dw += tl.load(DW, mask=ok)
        part_db += tl.load(DB, mask=ok)
    tl.store(DW, part_dw, mask=ok)
    tl.store(DB, part_db, mask=ok)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N,
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for start in range(0, M, BLOCK_SIZE_M):
        rows = start + tl.arange(0, BLOCK_SIZE_M)
        ok = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=ok, other=0.0)
        db += tl.load(DB + offs, mask=ok, other=0.0)
    col_ok = cols < N
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0).to(FINAL_DW.dtype.element_ty), mask=col_ok)
    tl.store(FINAL_DB + cols, tl.sum(db, axis=0).to(FINAL_DB.dtype.element_ty), mask=col_ok)


if __name__ == "__main__":
    import torch

    dev = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = torch.float16 if dev == "cuda" else torch.float32
    M, N, eps = 97, 300, 1e-5
    x = torch.randn(M, N, device=dev, dtype=dtype)
    w = torch.rand(N, device=dev, dtype=dtype)
    b = torch.rand(N, device=dev, dtype=dtype)
    dy = torch.randn(M, N, device=dev, dtype=dtype)
    y = torch.empty_like(x)
    mean = torch.empty(M, device=dev, dtype=torch.float32)
    rstd = torch.empty(M, device=dev, dtype=torch.float32)
    bs = min(65536 // x.element_size(), triton.next_power_of_2(N))
    nw = min(max(bs // 256, 1), 8)
    _layer_norm_fwd_fused[(M, )](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=bs, num_warps=nw)
    group = 256
    lock = torch.zeros(2 * group, device=dev, dtype=torch.int32)
    pdw = torch.empty(group, N, device=dev, dtype=torch.float32)
    pdb = torch.empty(group, N, device=dev, dtype=torch.float32)
    dx = torch.empty_like(x)
    _layer_norm_bwd_dx_fused[(M, )](dx, dy, pdw, pdb, x, w, mean, rstd, lock, x.stride(0), N,
                                    GROUP_SIZE_M=group, BLOCK_SIZE_N=bs, num_warps=nw)
    dw = torch.empty_like(w)
    db = torch.empty_like(b)
    _layer_norm_bwd_dwdb[(triton.cdiv(N, DWDB_BLOCK_SIZE_N), )](pdw, pdb, dw, db, min(group, M), N,
                                                                BLOCK_SIZE_M=DWDB_BLOCK_SIZE_M,
                                                                BLOCK_SIZE_N=DWDB_BLOCK_SIZE_N)
    xr = x.double().requires_grad_(True)
    wr = w.double().requires_grad_(True)
    br = b.double().requires_grad_(True)
    yr = torch.nn.functional.layer_norm(xr, (N, ), wr, br, eps)
    yr.backward(dy.double())
    tol = 2e-2 if dtype == torch.float16 else 1e-4
    for got, ref in ((y, yr), (dx, xr.grad), (dw, wr.grad), (db, br.grad)):
        err = ((got.double() - ref).norm() / ref.norm()).item()
        assert err < tol, err
    print("05_layer_norm: ok")
