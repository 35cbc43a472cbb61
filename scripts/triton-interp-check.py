#!/usr/bin/env python3
"""Check the conformance kernel files (conformance/kernels/*.py) with the real Triton.

Two modes, each in its own process because `@triton.jit` picks interpreter or compiler
when a kernel file is imported:

  interp (default)  sets TRITON_INTERPRET=1, imports every kernel file, launches its kernels
                    on small CPU-sized shapes (odd sizes included, to exercise the masks) and
                    compares each output with a float64 reference computed with torch/NumPy,
                    by relative norm error ||out - ref|| / ||ref||. Outputs are poisoned with
                    NaN before every launch. Autotuned kernels are launched through the
                    autotuner's underlying jit function with one small explicit config (the
                    interpreter would otherwise time every config); their config lists are
                    checked statically against the kernel signature.
  --compile         compiles every kernel with Triton's own compiler for NVIDIA targets
                    (default sm_90 and sm_80) without a GPU: ASTSource + GPUTarget, through
                    PTX and the ptxas bundled with Triton, using the benchmark-sized constexprs.

Needs: triton==3.6.0, torch (the CPU build is enough) and numpy<2.4 (Triton 3.6's interpreter
calls int() on 1-element arrays, which NumPy 2.4 rejects).

Usage:  python scripts/triton-interp-check.py [--only SUBSTR] [--compile] [--arch 90 --arch 80]
Prints one row per case and a closing line 'N passed, N failed, N skipped'; exits 1 on failure.
"""
import argparse
import importlib.util
import math
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
KERNELS = REPO / "conformance" / "kernels"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernels-dir", default=str(KERNELS))
    p.add_argument("--only", action="append", default=[], help="run only cases whose id contains this")
    p.add_argument("--compile", action="store_true", help="compile-only mode (no interpreter)")
    p.add_argument("--device", default="cpu",
                   help="'cpu' (default): Triton interpreter; 'cuda': the same cases compiled and run on a GPU")
    p.add_argument("--arch", action="append", type=int, default=[], help="CUDA capability for --compile")
    p.add_argument("-v", "--verbose", action="store_true", help="print tracebacks of failures")
    return p.parse_args()


ARGS = parse_args()
if not ARGS.compile and ARGS.device == "cpu":
    os.environ["TRITON_INTERPRET"] = "1"
else:
    os.environ.pop("TRITON_INTERPRET", None)
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="tessera-triton-cache-"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


def load_kernel_file(stem):
    path = Path(ARGS.kernels_dir) / f"{stem}.py"
    spec = importlib.util.spec_from_file_location(f"conformance_{stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ----------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------
GEN = torch.Generator().manual_seed(20240601)
DEV = ARGS.device
if DEV != "cpu":
    # global scratch for tensor descriptors created inside kernels
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=DEV))


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN, dtype=torch.float32).to(dtype).to(DEV)


def rand(*shape, dtype=torch.float32):
    return torch.rand(*shape, generator=GEN, dtype=torch.float32).to(dtype).to(DEV)


def poison(*shape, dtype=torch.float32):
    return torch.full(shape, float("nan"), dtype=dtype, device=DEV)


def rel_err(out, ref):
    out = out.double()
    ref = ref.double()
    if not torch.isfinite(out).all():
        return math.inf
    denom = ref.norm().item()
    num = (out - ref).norm().item()
    return num / denom if denom > 0 else num


def unwrap(kernel):
    """The jit function under an @triton.autotune wrapper (or the kernel itself)."""
    return getattr(kernel, "fn", kernel) if isinstance(kernel, triton.runtime.Autotuner) else kernel


def check_configs(kernel):
    """Static check of an autotuned kernel's configs against its signature."""
    assert isinstance(kernel, triton.runtime.Autotuner), "expected an autotuned kernel"
    names = set(unwrap(kernel).arg_names)
    assert kernel.configs, "empty config list"
    for cfg in kernel.configs:
        extra = set(cfg.kwargs) - names
        assert not extra, f"config sets unknown parameters {extra}"
    for key in kernel.keys:
        assert key in names, f"autotune key {key} is not a kernel parameter"
    return len(kernel.configs)


class Unsupported(Exception):
    """A case that the interpreter cannot run; the message says why."""


# ----------------------------------------------------------------------------------------
# reference pieces
# ----------------------------------------------------------------------------------------
def philox_uniform_ref(seed, offsets):
    """NumPy model of tl.rand(seed, offsets) for int32 offsets and a non-negative seed:
    Philox-4x32, 10 rounds, counter (offset, 0, 0, 0), key (seed lo, seed hi); the first
    word, read as int32 and folded to [0, 2^31), times 4.6566127342e-10 in fp32."""
    mask32 = np.uint64(0xFFFFFFFF)
    c0 = offsets.astype(np.uint64) & mask32
    c1 = np.zeros_like(c0)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    k0 = np.uint64(seed & 0xFFFFFFFF)
    k1 = np.uint64((seed >> 32) & 0xFFFFFFFF)
    mul_a, mul_b = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    key_a, key_b = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
    for _ in range(10):
        prod_b = mul_b * c2  # both < 2^32: the full product fits in 64 bits
        prod_a = mul_a * c0
        n0 = (prod_b >> np.uint64(32)) ^ c1 ^ k0
        n2 = (prod_a >> np.uint64(32)) ^ c3 ^ k1
        c1 = prod_b & mask32
        c3 = prod_a & mask32
        c0, c2 = n0 & mask32, n2 & mask32
        k0 = (k0 + key_a) & mask32
        k1 = (k1 + key_b) & mask32
    signed = c0.astype(np.uint32).view(np.int32).astype(np.int64)
    folded = np.where(signed < 0, -signed - 1, signed)
    return folded.astype(np.float32) * np.float32(4.6566127342e-10)


def attention_ref(q, k, v, causal, sm_scale):
    s = (q.double() @ k.double().transpose(-1, -2)) * sm_scale
    if causal:
        n = q.shape[-2]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
    return torch.softmax(s, -1) @ v.double(), torch.logsumexp(s, -1) / math.log(2)


FP8 = torch.float8_e4m3fn


# ----------------------------------------------------------------------------------------
# interpreter cases: each returns a list of (output name, rel error, tolerance)
# ----------------------------------------------------------------------------------------
CASES = []


def case(stem, kernel, name):
    def register(fn):
        CASES.append((stem, kernel, name, fn))
        return fn
    return register


# ---- 01 vector add ---------------------------------------------------------------------
for _n, _bs in ((1, 1024), (1000, 1024), (4097, 1024), (1000, 128)):
    @case("01_vector_add", "add_kernel", f"n={_n} BLOCK_SIZE={_bs}")
    def _(m, n=_n, bs=_bs):
        x, y, out = randn(n), randn(n), poison(n)
        m.add_kernel[(triton.cdiv(n, bs), )](x, y, out, n, BLOCK_SIZE=bs)
        return [("out", rel_err(out, x.double() + y.double()), 1e-7)]


# ---- 02 fused softmax --------------------------------------------------------------------
for _rows, _cols, _progs, _dt in ((1, 1, 1, torch.float32), (7, 33, 3, torch.float32),
                                  (64, 1000, 8, torch.float32), (13, 129, 13, torch.float16)):
    @case("02_fused_softmax", "softmax_kernel", f"{_rows}x{_cols} {str(_dt)[6:]} grid={_progs}")
    def _(m, rows=_rows, cols=_cols, progs=_progs, dt=_dt):
        x = (randn(rows, cols) * 4).to(dt)
        y = poison(rows, cols, dtype=dt)
        m.softmax_kernel[(progs, )](y, x, x.stride(0), y.stride(0), rows, cols,
                                    BLOCK_SIZE=triton.next_power_of_2(cols), num_stages=2, num_warps=8)
        tol = 1e-6 if dt == torch.float32 else 1e-3
        return [("y", rel_err(y, torch.softmax(x.double(), dim=1)), tol)]


# ---- 03 matmul ---------------------------------------------------------------------------
def _mm03(m, a, b, act, bm, bn, bk, group):
    M, K = a.shape
    N = b.shape[1]
    c = poison(M, N, dtype=torch.float16)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), )
    unwrap(m.matmul_kernel)[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                  c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                                  BLOCK_SIZE_K=bk, GROUP_SIZE_M=group, ACTIVATION=act)
    return c


@case("03_matmul", "matmul_kernel", "autotune configs")
def _(m):
    check_configs(m.matmul_kernel)
    return []


for _M, _N, _K, _act, _blk in ((64, 64, 64, "", (32, 32, 32, 2)), (67, 45, 39, "", (16, 32, 16, 2)),
                               (67, 45, 39, "leaky_relu", (32, 16, 16, 4)), (16, 16, 16, "", (16, 16, 16, 8))):
    @case("03_matmul", "matmul_kernel", f"fp16 {_M}x{_N}x{_K} act={_act or 'none'} blocks={_blk}")
    def _(m, M=_M, N=_N, K=_K, act=_act, blk=_blk):
        a, b = randn(M, K, dtype=torch.float16), randn(K, N, dtype=torch.float16)
        c = _mm03(m, a, b, act, *blk)
        ref = a.double() @ b.double()
        if act == "leaky_relu":
            ref = torch.nn.functional.leaky_relu(ref, 0.01)
        return [("c", rel_err(c, ref), 2e-3)]


@case("03_matmul", "matmul_kernel", "fp8e4m3 (B transposed) 48x40x64 blocks=(16, 16, 32, 2)")
def _(m):
    M, N, K = 48, 40, 64
    a = randn(M, K).to(FP8)
    b = randn(N, K).to(FP8).T  # (K, N) view of an (N, K) tensor, as the tutorial passes it
    c = _mm03(m, a, b, "", 16, 16, 32, 2)
    return [("c", rel_err(c, a.double() @ b.double()), 2e-3)]


# ---- 04 dropout --------------------------------------------------------------------------
@case("04_low_memory_dropout", "dropout_kernel", "n=1000 p=0.3")
def _(m):
    n, p = 1000, 0.3
    x = randn(n)
    keep = (rand(n) > p).to(torch.int8)
    out = poison(n)
    m.dropout_kernel[(triton.cdiv(n, 256), )](x, keep, out, n, p, BLOCK_SIZE=256)
    ref = torch.where(keep != 0, x.double() / (1 - torch.tensor(p, dtype=torch.float32).double()), 0.0)
    return [("out", rel_err(out, ref), 1e-7)]


for _n, _p, _seed in ((4099, 0.5, 123), (1000, 0.25, 7)):
    @case("04_low_memory_dropout", "seeded_dropout_kernel", f"n={_n} p={_p} seed={_seed}")
    def _(m, n=_n, p=_p, seed=_seed):
        x = randn(n)
        out = poison(n)
        m.seeded_dropout_kernel[(triton.cdiv(n, 1024), )](x, out, n, p, seed, BLOCK_SIZE=1024)
        u = philox_uniform_ref(seed, np.arange(n, dtype=np.int64))
        keep = torch.from_numpy(u > np.float32(p)).to(DEV)
        scale = 1.0 / (1.0 - np.float32(p))
        ref = torch.where(keep, x.double() * scale, 0.0)
        mask_mismatch = int(((out != 0) != keep).sum())  # x is never exactly 0 here
        again = poison(n)
        m.seeded_dropout_kernel[(triton.cdiv(n, 1024), )](x, again, n, p, seed, BLOCK_SIZE=1024)
        return [("out", rel_err(out, ref), 1e-6), ("mask mismatches vs Philox model", mask_mismatch, 0),
                ("re-run differs", int((again != out).sum()), 0)]


# ---- 05 layer norm -----------------------------------------------------------------------
def _ln_fwd(m, x, w, b, eps, bs):
    M, N = x.shape
    y = poison(M, N, dtype=x.dtype)
    mean, rstd = poison(M), poison(M)
    m._layer_norm_fwd_fused[(M, )](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=bs)
    return y, mean, rstd


for _M, _N, _dt, _bs in ((37, 100, torch.float32, 128), (19, 300, torch.float16, 64), (1, 1, torch.float32, 1)):
    @case("05_layer_norm", "_layer_norm_fwd_fused", f"{_M}x{_N} {str(_dt)[6:]} BLOCK_SIZE={_bs}")
    def _(m, M=_M, N=_N, dt=_dt, bs=_bs):
        eps = 1e-5
        x = (randn(M, N) * 2 + 0.5).to(dt)
        w, b = rand(N, dtype=dt), randn(N, dtype=dt)
        y, mean, rstd = _ln_fwd(m, x, w, b, eps, bs)
        xd = x.double()
        mu = xd.mean(1)
        var = xd.var(1, unbiased=False)
        ref = torch.nn.functional.layer_norm(xd, (N, ), w.double(), b.double(), eps)
        tol = 1e-5 if dt == torch.float32 else 1e-3
        return [("y", rel_err(y, ref), tol), ("mean", rel_err(mean, mu), 1e-5),
                ("rstd", rel_err(rstd, 1 / torch.sqrt(var + eps)), 1e-5)]


for _M, _N, _dt, _group in ((37, 100, torch.float32, 8), (50, 64, torch.float16, 16), (5, 33, torch.float32, 64)):
    @case("05_layer_norm", "_layer_norm_bwd_dx_fused + _layer_norm_bwd_dwdb",
          f"{_M}x{_N} {str(_dt)[6:]} GROUP_SIZE_M={_group}")
    def _(m, M=_M, N=_N, dt=_dt, group=_group):
        eps = 1e-5
        x = randn(M, N, dtype=dt)
        w, b = rand(N, dtype=dt), randn(N, dtype=dt)
        dy = randn(M, N, dtype=dt)
        bs = triton.next_power_of_2(N)
        _, mean, rstd = _ln_fwd(m, x, w, b, eps, bs)
        lock = torch.zeros(2 * group, dtype=torch.int32, device=DEV)
        pdw, pdb = poison(group, N), poison(group, N)
        dx = poison(M, N, dtype=dt)
        m._layer_norm_bwd_dx_fused[(M, )](dx, dy, pdw, pdb, x, w, mean, rstd, lock, x.stride(0), N,
                                          GROUP_SIZE_M=group, BLOCK_SIZE_N=bs)
        dw, db = poison(N, dtype=dt), poison(N, dtype=dt)
        m._layer_norm_bwd_dwdb[(triton.cdiv(N, 16), )](pdw, pdb, dw, db, min(group, M), N,
                                                       BLOCK_SIZE_M=4, BLOCK_SIZE_N=16)
        xr, wr, br = (t.double().requires_grad_(True) for t in (x, w, b))
        torch.nn.functional.layer_norm(xr, (N, ), wr, br, eps).backward(dy.double())
        tol = 1e-5 if dt == torch.float32 else 2e-3
        return [("dx", rel_err(dx, xr.grad), tol), ("dw", rel_err(dw, wr.grad), tol),
                ("db", rel_err(db, br.grad), tol), ("locks released", int(lock[:group].sum()), 0)]


# ---- 06 fused attention ------------------------------------------------------------------
@case("06_fused_attention", "_attn_fwd/_attn_fwd_desc", "autotune configs")
def _(m):
    check_configs(m._attn_fwd)
    check_configs(m._attn_fwd_desc)
    return []


for _Z, _H, _N, _D, _causal, _bm, _bn in ((1, 2, 64, 32, False, 32, 16), (1, 2, 64, 32, True, 32, 16),
                                          (2, 1, 96, 64, True, 32, 32), (1, 1, 128, 16, False, 64, 32)):
    for _desc in (False, True):
        _kname = "_attn_fwd_desc" if _desc else "_attn_fwd"

        @case("06_fused_attention", _kname,
              f"Z={_Z} H={_H} N_CTX={_N} D={_D} causal={_causal} BLOCK_M={_bm} BLOCK_N={_bn}")
        def _(m, Z=_Z, H=_H, N=_N, D=_D, causal=_causal, bm=_bm, bn=_bn, desc=_desc):
            q, k, v = (randn(Z, H, N, D, dtype=torch.float16) for _ in range(3))
            sm_scale = 1.0 / math.sqrt(D)
            o = poison(Z, H, N, D, dtype=torch.float16)
            lse = poison(Z * H, N)
            grid = (N // bm, Z * H, 1)
            stage = 3 if causal else 1
            if desc:
                unwrap(m._attn_fwd_desc)[grid](q, k, v, sm_scale, lse, o, Z, H, N, HEAD_DIM=D, BLOCK_M=bm,
                                               BLOCK_N=bn, STAGE=stage)
            else:
                unwrap(m._attn_fwd)[grid](q, k, v, sm_scale, lse, o, *q.stride(), *k.stride(), *v.stride(),
                                          *o.stride(), Z, H, N, HEAD_DIM=D, BLOCK_M=bm, BLOCK_N=bn, STAGE=stage)
            o_ref, lse_ref = attention_ref(q, k, v, causal, sm_scale)
            return [("o", rel_err(o, o_ref), 2e-3), ("M (log2-sum-exp)", rel_err(lse.view(Z, H, N), lse_ref), 1e-5)]


@case("06_fused_attention", "_attn_fwd", "strided (non-contiguous) Q/K/V/O, causal")
def _(m):
    Z, H, N, D = 1, 2, 64, 32
    base = [randn(Z, N, H, D, dtype=torch.float16) for _ in range(3)]
    q, k, v = (t.transpose(1, 2) for t in base)  # (Z, H, N, D) views with a head stride of D
    o = poison(Z, N, H, D, dtype=torch.float16).transpose(1, 2)
    lse = poison(Z * H, N)
    sm_scale = 0.3
    unwrap(m._attn_fwd)[(N // 32, Z * H, 1)](q, k, v, sm_scale, lse, o, *q.stride(), *k.stride(), *v.stride(),
                                             *o.stride(), Z, H, N, HEAD_DIM=D, BLOCK_M=32, BLOCK_N=16, STAGE=3)
    o_ref, _ = attention_ref(q, k, v, True, sm_scale)
    return [("o", rel_err(o, o_ref), 2e-3)]


# Backward blocks (BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2) = (32, 64, 64, 32), slice factor 2: the
# masked diagonal steps use 16-row/16-column slices, the smallest tl.dot accepts on GPUs.
for _Z, _H, _N, _D, _causal in ((1, 2, 64, 32, False), (1, 2, 128, 32, True), (2, 1, 192, 16, True)):
    @case("06_fused_attention", "_attn_bwd_preprocess + _attn_bwd",
          f"Z={_Z} H={_H} N_CTX={_N} D={_D} causal={_causal} blocks=(32, 64, 64, 32) slice=2")
    def _(m, Z=_Z, H=_H, N=_N, D=_D, causal=_causal):
        q, k, v = (randn(Z, H, N, D, dtype=torch.float16) for _ in range(3))
        do = randn(Z, H, N, D, dtype=torch.float16)
        sm_scale = 1.0 / math.sqrt(D)
        o = poison(Z, H, N, D, dtype=torch.float16)
        lse = poison(Z * H, N)
        unwrap(m._attn_fwd)[(N // 32, Z * H, 1)](q, k, v, sm_scale, lse, o, *q.stride(), *k.stride(), *v.stride(),
                                                 *o.stride(), Z, H, N, HEAD_DIM=D, BLOCK_M=32, BLOCK_N=16,
                                                 STAGE=3 if causal else 1)
        delta = poison(Z * H, N)
        m._attn_bwd_preprocess[(N // 32, Z * H)](o, do, delta, Z, H, N, BLOCK_M=32, HEAD_DIM=D)
        dq, dk, dv = (poison(Z, H, N, D, dtype=torch.float16) for _ in range(3))
        m._attn_bwd[(N // 64, 1, Z * H)](q, k, v, sm_scale, do, dq, dk, dv, lse, delta, *q.stride(), H, N,
                                         BLOCK_M1=32, BLOCK_N1=64, BLOCK_M2=64, BLOCK_N2=32, BLK_SLICE_FACTOR=2,
                                         HEAD_DIM=D, CAUSAL=causal)
        qr, kr, vr = (t.double().requires_grad_(True) for t in (q, k, v))
        o_ref, _ = attention_ref(qr, kr, vr, causal, sm_scale)
        o_ref.backward(do.double())
        delta_ref = (o.double() * do.double()).sum(-1).reshape(Z * H, N)
        return [("delta", rel_err(delta, delta_ref), 1e-5), ("dq", rel_err(dq, qr.grad), 1e-2),
                ("dk", rel_err(dk, kr.grad), 1e-2), ("dv", rel_err(dv, vr.grad), 1e-2)]


# ---- 07 extern functions -----------------------------------------------------------------
@case("07_extern_functions", "asin_kernel", "n=1000 fp32")
def _(m):
    n = 1000
    x = rand(n) * 2 - 1
    y = poison(n)
    try:
        m.asin_kernel[(triton.cdiv(n, 256), )](x, y, n, BLOCK_SIZE=256)
    except Exception as e:  # the interpreter has no extern_elementwise
        # triton.language.extra.libdevice holds stubs that the compiler binds to the target's
        # library; the interpreter patches tl.math but not these stubs, so the call returns
        # None ("cannot convert None ... to tensor"); a direct extern_elementwise raises
        # NotImplementedError in the interpreter's builder.
        if "cannot convert None" in repr(e) or "extern_elementwise not supported" in repr(e):
            raise Unsupported("Triton 3.6 interpreter cannot run libdevice/extern functions: "
                              "the libdevice stubs return None and extern_elementwise is not implemented")
        raise
    return [("y", rel_err(y, torch.asin(x.double())), 1e-6)]


# ---- 08 grouped GEMM ---------------------------------------------------------------------
def _group_args(As, Bs, Cs, shapes):
    ptrs = [torch.tensor([t.data_ptr() for t in ts], dtype=torch.int64, device=DEV) for ts in (As, Bs, Cs)]
    sizes = torch.tensor([v for (mm, nn, kk) in shapes for v in (mm, nn, kk)], dtype=torch.int32, device=DEV)
    lds = torch.tensor([v for a, b, c in zip(As, Bs, Cs) for v in (a.stride(0), b.stride(0), c.stride(0))],
                       dtype=torch.int32, device=DEV)
    return ptrs + [sizes, lds]


GROUP_SHAPES = [(40, 24, 40), (17, 33, 20), (64, 64, 64), (1, 8, 5)]


@case("08_grouped_gemm", "grouped_matmul_kernel", "autotune configs")
def _(m):
    check_configs(m.grouped_matmul_kernel)
    check_configs(m.grouped_matmul_desc_kernel)
    return []


for _sms in (3, 64):
    @case("08_grouped_gemm", "grouped_matmul_kernel", f"fp16 group={GROUP_SHAPES} NUM_SM={_sms} blocks=16")
    def _(m, sms=_sms):
        # A with a padded leading dimension, to exercise lda != K
        As = [randn(mm, kk + 3, dtype=torch.float16)[:, :kk] for (mm, nn, kk) in GROUP_SHAPES]
        Bs = [randn(kk, nn, dtype=torch.float16) for (mm, nn, kk) in GROUP_SHAPES]
        Cs = [poison(mm, nn, dtype=torch.float16) for (mm, nn, kk) in GROUP_SHAPES]
        unwrap(m.grouped_matmul_kernel)[(sms, )](*_group_args(As, Bs, Cs, GROUP_SHAPES), len(GROUP_SHAPES),
                                                 NUM_SM=sms, BLOCK_SIZE_M=16, BLOCK_SIZE_N=16, BLOCK_SIZE_K=16)
        return [(f"C[{i}]", rel_err(c, a.double() @ b.double()), 2e-3) for i, (a, b, c) in enumerate(zip(As, Bs, Cs))]


# descriptor rules: leading dims * element size multiple of 16 bytes
DESC_GROUP_SHAPES = [(40, 24, 48), (17, 40, 32), (64, 64, 64), (1, 16, 16)]

for _fp8 in (False, True):
    @case("08_grouped_gemm", "grouped_matmul_desc_kernel",
          f"{'fp8e4m3' if _fp8 else 'fp16'} (B transposed) group={DESC_GROUP_SHAPES} NUM_SM=3 "
          f"blocks=16x16x{32 if _fp8 else 16}")
    def _(m, fp8=_fp8):
        dt = FP8 if fp8 else torch.float16
        As = [randn(mm, kk).to(dt) for (mm, nn, kk) in DESC_GROUP_SHAPES]
        Bts = [randn(nn, kk).to(dt) for (mm, nn, kk) in DESC_GROUP_SHAPES]
        Cs = [poison(mm, nn, dtype=torch.float16) for (mm, nn, kk) in DESC_GROUP_SHAPES]
        unwrap(m.grouped_matmul_desc_kernel)[(3, )](*_group_args(As, Bts, Cs, DESC_GROUP_SHAPES),
                                                    len(DESC_GROUP_SHAPES), NUM_SM=3, BLOCK_SIZE_M=16,
                                                    BLOCK_SIZE_N=16, BLOCK_SIZE_K=32 if fp8 else 16, FP8=fp8)
        return [(f"C[{i}]", rel_err(c, a.double() @ bt.double().T), 2e-3)
                for i, (a, bt, c) in enumerate(zip(As, Bts, Cs))]


# ---- 09 persistent matmul ----------------------------------------------------------------
@case("09_persistent_matmul", "(all)", "autotune configs")
def _(m):
    for k in (m.matmul_kernel, m.matmul_kernel_persistent, m.matmul_kernel_descriptor,
              m.matmul_kernel_descriptor_persistent):
        check_configs(k)
    return []


def _mm09_inputs(M, N, K, dt):
    a = randn(M, K).to(dt)
    bt = randn(N, K).to(dt)  # B transposed, (N, K) row-major
    b = bt.T if dt == FP8 else bt.T.contiguous()  # the pointer kernels read B as (K, N)
    ref = a.double() @ bt.double().T
    # fp8 e4m3 output keeps 3 mantissa bits: round-to-nearest-even gives ~2.7% relative norm
    # error on these inputs.
    tol = 2e-3 if dt == torch.float16 else 4e-2
    return a, b, bt, ref, tol


def fp8_ulps(out, ref):
    """Largest |out - ref| in units of the e4m3 spacing at ref (<= 0.5 for exact RTNE)."""
    mag = ref.abs().clamp(min=2.0 ** -6)
    ulp = torch.exp2(torch.floor(torch.log2(mag)) - 3)
    d = (out.double() - ref).abs() / ulp
    return d.max().item() if torch.isfinite(d).all() else math.inf


def mm09_result(c, ref, tol):
    if c.dtype != FP8:
        return [("c", rel_err(c, ref), tol)]
    # Triton 3.6's interpreter rounds fp32 -> fp8 by adding the cut-off bit to the 3-bit
    # mantissa without carrying into the exponent: a value whose mantissa rounds up from
    # 0b111 comes out as half the correct power of two (7.99 -> 4.0 instead of 8.0). Those
    # elements are counted (informational) and left out of the error metrics.
    out = c.double()
    rtne = ref.to(FP8).double()
    pow2 = (rtne != 0) & (torch.exp2(torch.round(torch.log2(rtne.abs()))) == rtne.abs())
    carry_bug = pow2 & (out * 2 == rtne)
    keep = ~carry_bug
    return [("c", rel_err(out[keep], ref[keep]), tol), ("max fp8 ulps", fp8_ulps(out[keep], ref[keep]), 1.0),
            ("interpreter fp8 carry-bug elements", int(carry_bug.sum()), math.inf)]


BLK09_16 = dict(BLOCK_SIZE_M=16, BLOCK_SIZE_N=16, BLOCK_SIZE_K=32, GROUP_SIZE_M=2)
BLK09_8 = dict(BLOCK_SIZE_M=16, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=2)  # fp8: >= 16-byte half tiles

for _dt, (_M, _N, _K) in ((torch.float16, (50, 40, 72)), (torch.float16, (16, 16, 16)), (FP8, (50, 48, 64))):
    _dn = "fp16" if _dt == torch.float16 else "fp8e4m3"
    BLK09 = BLK09_16 if _dt == torch.float16 else BLK09_8
    _bn = BLK09["BLOCK_SIZE_N"]

    @case("09_persistent_matmul", "matmul_kernel", f"{_dn} {_M}x{_N}x{_K}")
    def _(m, M=_M, N=_N, K=_K, dt=_dt, BLK09=BLK09, bn=_bn):
        a, b, bt, ref, tol = _mm09_inputs(M, N, K, dt)
        c = poison(M, N, dtype=dt)
        unwrap(m.matmul_kernel)[(triton.cdiv(M, 16) * triton.cdiv(N, bn), )](
            a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(), **BLK09)
        return mm09_result(c, ref, tol)

    @case("09_persistent_matmul", "matmul_kernel_persistent", f"{_dn} {_M}x{_N}x{_K} NUM_SMS=3")
    def _(m, M=_M, N=_N, K=_K, dt=_dt, BLK09=BLK09, bn=_bn):
        a, b, bt, ref, tol = _mm09_inputs(M, N, K, dt)
        c = poison(M, N, dtype=dt)
        grid = (min(3, triton.cdiv(M, 16) * triton.cdiv(N, bn)), )
        unwrap(m.matmul_kernel_persistent)[grid](a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(),
                                                 NUM_SMS=3, **BLK09)
        return mm09_result(c, ref, tol)

    _esz = 2 if _dt == torch.float16 else 1
    if (_K * _esz) % 16 == 0 and (_N * _esz) % 16 == 0:  # descriptor stride rule
        @case("09_persistent_matmul", "matmul_kernel_descriptor", f"{_dn} {_M}x{_N}x{_K}")
        def _(m, M=_M, N=_N, K=_K, dt=_dt, BLK09=BLK09, bn=_bn):
            a, b, bt, ref, tol = _mm09_inputs(M, N, K, dt)
            c = poison(M, N, dtype=dt)
            unwrap(m.matmul_kernel_descriptor)[(triton.cdiv(M, 16) * triton.cdiv(N, bn), )](
                a, bt, c, M, N, K, WARP_SPECIALIZE=False, **BLK09)
            return mm09_result(c, ref, tol)

        for _sub in (False, True):
            @case("09_persistent_matmul", "matmul_kernel_descriptor_persistent",
                  f"{_dn} {_M}x{_N}x{_K} NUM_SMS=3 EPILOGUE_SUBTILE={_sub}")
            def _(m, M=_M, N=_N, K=_K, dt=_dt, sub=_sub, BLK09=BLK09, bn=_bn):
                a, b, bt, ref, tol = _mm09_inputs(M, N, K, dt)
                c = poison(M, N, dtype=dt)
                grid = (min(3, triton.cdiv(M, 16) * triton.cdiv(N, bn)), )
                unwrap(m.matmul_kernel_descriptor_persistent)[grid](a, bt, c, M, N, K, EPILOGUE_SUBTILE=sub,
                                                                    NUM_SMS=3, WARP_SPECIALIZE=False, **BLK09)
                return mm09_result(c, ref, tol)


# ----------------------------------------------------------------------------------------
# compile-only cases: (stem, kernel, signature, constexprs, options) at benchmark sizes
# ----------------------------------------------------------------------------------------
def compile_cases():
    p16, p32, i32, i64 = "*fp16", "*fp32", "i32", "*i64"
    out = []

    def add(stem, kernel, sig, consts, **opts):
        out.append((stem, kernel, sig, consts, opts))

    add("01_vector_add", "add_kernel", dict(x_ptr=p32, y_ptr=p32, out_ptr=p32, n_elements=i32),
        dict(BLOCK_SIZE=1024), num_warps=4)
    add("02_fused_softmax", "softmax_kernel",
        dict(output_ptr=p32, input_ptr=p32, input_row_stride=i32, output_row_stride=i32, n_rows=i32, n_cols=i32),
        dict(BLOCK_SIZE=8192, num_stages=4), num_warps=8)
    mm = dict(M=i32, N=i32, K=i32, stride_am=i32, stride_ak=i32, stride_bk=i32, stride_bn=i32, stride_cm=i32,
              stride_cn=i32)
    blk = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8)
    add("03_matmul", "matmul_kernel", dict(a_ptr=p16, b_ptr=p16, c_ptr=p16, **mm),
        dict(blk, ACTIVATION=""), num_warps=8, num_stages=3)
    add("03_matmul", "matmul_kernel", dict(a_ptr=p16, b_ptr=p16, c_ptr=p16, **mm),
        dict(blk, ACTIVATION="leaky_relu"), num_warps=8, num_stages=3)
    add("03_matmul", "matmul_kernel", dict(a_ptr="*fp8e4nv", b_ptr="*fp8e4nv", c_ptr=p16, **mm),
        dict(blk, BLOCK_SIZE_K=128, ACTIVATION=""), num_warps=8, num_stages=3)
    add("04_low_memory_dropout", "dropout_kernel",
        dict(x_ptr=p32, x_keep_ptr="*i8", output_ptr=p32, n_elements=i32, p="fp32"), dict(BLOCK_SIZE=1024))
    add("04_low_memory_dropout", "seeded_dropout_kernel",
        dict(x_ptr=p32, output_ptr=p32, n_elements=i32, p="fp32", seed=i32), dict(BLOCK_SIZE=1024))
    add("05_layer_norm", "_layer_norm_fwd_fused",
        dict(X=p16, Y=p16, W=p16, B=p16, Mean=p32, Rstd=p32, stride=i32, N=i32, eps="fp32"),
        dict(BLOCK_SIZE=8192), num_warps=8)
    add("05_layer_norm", "_layer_norm_bwd_dx_fused",
        dict(DX=p16, DY=p16, DW=p32, DB=p32, X=p16, W=p16, Mean=p32, Rstd=p32, Lock="*i32", stride=i32, N=i32),
        dict(GROUP_SIZE_M=96, BLOCK_SIZE_N=8192), num_warps=8)
    add("05_layer_norm", "_layer_norm_bwd_dwdb",
        dict(DW=p32, DB=p32, FINAL_DW=p16, FINAL_DB=p16, M=i32, N=i32), dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=128))
    strides = {f"stride_{t}{d}": i32 for t, ds in (("q", "zhmk"), ("k", "zhnk"), ("v", "zhnk"), ("o", "zhmk"))
               for d in ds}
    for causal in (False, True):
        for hd in (64, 128):
            stage = 3 if causal else 1
            add("06_fused_attention", "_attn_fwd",
                dict(Q=p16, K=p16, V=p16, sm_scale="fp32", M=p32, Out=p16, **strides, Z=i32, H=i32, N_CTX=i32),
                dict(HEAD_DIM=hd, BLOCK_M=128, BLOCK_N=64, STAGE=stage), num_warps=8, num_stages=3)
            add("06_fused_attention", "_attn_fwd_desc",
                dict(Q=p16, K=p16, V=p16, sm_scale="fp32", M=p32, Out=p16, Z=i32, H=i32, N_CTX=i32),
                dict(HEAD_DIM=hd, BLOCK_M=128, BLOCK_N=128, STAGE=stage), num_warps=8, num_stages=3)
            add("06_fused_attention", "_attn_bwd",
                dict(Q=p16, K=p16, V=p16, sm_scale="fp32", DO=p16, DQ=p16, DK=p16, DV=p16, M=p32, D=p32,
                     stride_z=i32, stride_h=i32, stride_tok=i32, stride_d=i32, H=i32, N_CTX=i32),
                dict(BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2, HEAD_DIM=hd,
                     CAUSAL=causal), num_warps=4, num_stages=5)
    add("06_fused_attention", "_attn_bwd_preprocess", dict(O=p16, DO=p16, Delta=p32, Z=i32, H=i32, N_CTX=i32),
        dict(BLOCK_M=128, HEAD_DIM=128))
    add("07_extern_functions", "asin_kernel", dict(x_ptr=p32, y_ptr=p32, n_elements=i32), dict(BLOCK_SIZE=1024))
    grp = dict(group_a_ptrs=i64, group_b_ptrs=i64, group_c_ptrs=i64, group_gemm_sizes="*i32", g_lds="*i32",
               group_size=i32)
    add("08_grouped_gemm", "grouped_matmul_kernel", grp,
        dict(NUM_SM=132, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32))
    for fp8 in (False, True):
        add("08_grouped_gemm", "grouped_matmul_desc_kernel", grp,
            dict(NUM_SM=132, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, FP8=fp8))
    for dt in ("fp16", "fp8e4nv"):
        pd = "*" + dt
        bk = 64 if dt == "fp16" else 128
        b = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8)
        add("09_persistent_matmul", "matmul_kernel", dict(a_ptr=pd, b_ptr=pd, c_ptr=pd, **mm), b,
            num_warps=8, num_stages=3)
        add("09_persistent_matmul", "matmul_kernel_persistent", dict(a_ptr=pd, b_ptr=pd, c_ptr=pd, **mm),
            dict(b, NUM_SMS=132), num_warps=8, num_stages=3)
        add("09_persistent_matmul", "matmul_kernel_descriptor", dict(a_ptr=pd, b_ptr=pd, c_ptr=pd, M=i32, N=i32,
                                                                     K=i32), dict(b, WARP_SPECIALIZE=False),
            num_warps=8, num_stages=3)
        for sub in (True, False):
            add("09_persistent_matmul", "matmul_kernel_descriptor_persistent",
                dict(a_ptr=pd, b_ptr=pd, c_ptr=pd, M=i32, N=i32, K=i32),
                dict(b, EPILOGUE_SUBTILE=sub, NUM_SMS=132, WARP_SPECIALIZE=False), num_warps=8, num_stages=3)
    return out


# ----------------------------------------------------------------------------------------
# driver
# ----------------------------------------------------------------------------------------
def selected(ident):
    return not ARGS.only or any(s in ident for s in ARGS.only)


def describe(exc):
    """One line for a failure: the innermost cause's type and last message line (a Triton
    CompilationError's own text is mostly the source excerpt)."""
    root = exc
    while root.__cause__ is not None:
        root = root.__cause__
    lines = [ln.strip() for ln in str(root).splitlines() if ln.strip() and set(ln.strip()) != {"^"}]
    return f"{type(root).__name__}: {lines[-1] if lines else ''}"


def fmt_err(e):
    if isinstance(e, int):
        return str(e)
    return "inf" if e == math.inf else f"{e:.2e}"


def run_interp():
    modules = {}
    rows = []
    passed = failed = skipped = 0
    t_all = time.time()
    for stem, kernel, name, fn in CASES:
        ident = f"{stem}:{kernel}:{name}"
        if not selected(ident):
            continue
        t0 = time.time()
        detail = ""
        try:
            if stem not in modules:
                modules[stem] = load_kernel_file(stem)
            results = fn(modules[stem])
            bad = [(o, e, t) for (o, e, t) in results if not (e <= t)]
            status = "FAIL" if bad else "PASS"
            worst = max(results, key=lambda r: (r[1] / r[2]) if r[2] else (math.inf if r[1] else 0),
                        default=None)
            detail = ", ".join(f"{o}={fmt_err(e)}" for o, e, _ in results)
            if bad:
                detail = "over tolerance: " + ", ".join(f"{o}={fmt_err(e)} (tol {fmt_err(t)})" for o, e, t in bad)
            err_col = fmt_err(worst[1]) if worst else "-"
            tol_col = fmt_err(worst[2]) if worst else "-"
        except Unsupported as e:
            status, err_col, tol_col, detail = "SKIP", "-", "-", str(e)
        except Exception as e:  # noqa: BLE001
            status, err_col, tol_col = "FAIL", "-", "-"
            detail = describe(e)
            if ARGS.verbose:
                traceback.print_exc()
        dt = time.time() - t0
        passed += status == "PASS"
        failed += status == "FAIL"
        skipped += status == "SKIP"
        rows.append((stem, kernel, name, err_col, tol_col, status, f"{dt:.2f}", detail))
        print(f"{status:4s} {dt:6.2f}s  {stem} {kernel} [{name}] worst={err_col} tol={tol_col}  {detail}",
              flush=True)
    print_table(["file", "kernel", "case", "worst err", "tol", "result", "s"], [r[:7] for r in rows])
    print(f"total {time.time() - t_all:.1f}s")
    return passed, failed, skipped


def run_compile():
    from triton.backends.compiler import GPUTarget
    archs = ARGS.arch or [90, 80]
    modules = {}
    rows = []
    passed = failed = skipped = 0
    for stem, kernel, sig, consts, opts in compile_cases():
        for arch in archs:
            ident = f"{stem}:{kernel}:sm_{arch}"
            if not selected(ident):
                continue
            if arch < 89 and ("fp8e4nv" in "".join(sig.values()) or consts.get("FP8")):
                continue  # fp8 e4m3 needs sm_89+ (Triton rejects the type for sm_80)
            t0 = time.time()
            desc = ", ".join(f"{k}={v}" for k, v in consts.items())
            try:
                if stem not in modules:
                    modules[stem] = load_kernel_file(stem)
                fn = unwrap(getattr(modules[stem], kernel))
                full_sig = dict(sig)
                for k in consts:
                    full_sig[k] = "constexpr"
                missing = [a for a in fn.arg_names if a not in full_sig]
                assert not missing, f"test harness signature misses {missing}"
                full_sig = {a: full_sig[a] for a in fn.arg_names}
                src = triton.compiler.ASTSource(fn=fn, signature=full_sig, constexprs=consts)
                compiled = triton.compile(src, target=GPUTarget("cuda", arch, 32), options=opts)
                size = len(compiled.asm.get("cubin", b""))
                smem = compiled.metadata.shared
                status, detail = "PASS", f"cubin {size} B, shared {smem} B"
            except Exception as e:  # noqa: BLE001
                status = "FAIL"
                detail = describe(e)[:300]
                if ARGS.verbose:
                    traceback.print_exc()
            dt = time.time() - t0
            passed += status == "PASS"
            failed += status == "FAIL"
            rows.append((stem, kernel, f"sm_{arch}", desc, status, f"{dt:.2f}", detail))
            print(f"{status:4s} {dt:6.2f}s  {stem} {kernel} sm_{arch} [{desc}] {detail}", flush=True)
    print_table(["file", "kernel", "target", "constexprs", "result", "s", "detail"], rows)
    return passed, failed, skipped


def print_table(header, rows):
    if not rows:
        return
    widths = [min(max(len(str(r[i])) for r in rows + [header]), 70) for i in range(len(header))]
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths))
    print()
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join(str(c)[:w].ljust(w) for c, w in zip(r, widths)))
    print()


def main():
    print(f"triton {triton.__version__}, torch {torch.__version__}, numpy {np.__version__}, "
          f"mode {'compile' if ARGS.compile else 'interpreter' if DEV == 'cpu' else 'device ' + DEV}", flush=True)
    if DEV != "cpu":
        print(f"device: {torch.cuda.get_device_name()}", flush=True)
    passed, failed, skipped = run_compile() if ARGS.compile else run_interp()
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
