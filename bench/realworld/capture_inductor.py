"""Capture the Triton kernels torch.compile (Inductor) generates.

Each case compiles a small function or module with `torch.compile` and runs
it (forward, and backward where the case says so) on small CUDA inputs, so
Inductor generates, autotunes and compiles its Triton kernels with the
specializations a real program launches. Inductor compiles in this process
(TORCHINDUCTOR_COMPILE_THREADS=1) so the recorder sees every compilation.

    python3 capture_inductor.py OUT_DIR [--shard I/N] [--deadline S] [--dry]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

START = time.time()
os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
os.environ.setdefault("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rw_driver import Case, parse_args, run_cases  # noqa: E402

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

DEV = "cuda"
DRY = False

FP = (torch.float32, torch.float16, torch.bfloat16)


def rnd(*shape: int, dtype: torch.dtype = torch.float32,
        grad: bool = False) -> torch.Tensor:
    t = torch.randn(*shape, device=DEV, dtype=dtype)
    return t.requires_grad_(grad)


def run_compiled(fn: Callable[..., Any], inputs: Callable[[], tuple],
                 backward: bool = False, mode: Optional[str] = None,
                 dynamic: Optional[bool] = None,
                 options: Optional[dict[str, Any]] = None,
                 calls: int = 1) -> None:
    """Compiles `fn`, runs it on fresh inputs `calls` times (a second call
    with other sizes exercises dynamic shapes), then backward if asked."""
    torch._dynamo.reset()
    if DRY:
        compiled = fn
    elif options is not None:
        compiled = torch.compile(fn, dynamic=dynamic, options=options)
    else:
        compiled = torch.compile(fn, mode=mode, dynamic=dynamic)
    for i in range(calls):
        args = inputs() if i == 0 else inputs_again(inputs, i)
        out = compiled(*args)
        if backward:
            outs = out if isinstance(out, (tuple, list)) else (out,)
            loss = sum(o.float().sum() for o in outs
                       if isinstance(o, torch.Tensor) and o.requires_grad)
            loss.backward()
    if DEV == "cuda":
        torch.cuda.synchronize()


def inputs_again(inputs: Callable[..., tuple], i: int) -> tuple:
    try:
        return inputs(i)  # type: ignore[call-arg]
    except TypeError:
        return inputs()


# ---------------------------------------------------------------------------
# The cases. Each returns nothing; errors are recorded by the driver.
# ---------------------------------------------------------------------------
def dname(dtype: torch.dtype) -> str:
    return str(dtype).replace("torch.", "")


def pointwise_chain(dtype: torch.dtype) -> None:
    def f(x, y, z):
        a = x * 2.0 + y.sin() - torch.exp(z * 0.1)
        b = torch.where(a > 0, a, a * 0.01)
        return torch.sigmoid(b) * torch.tanh(y) + torch.rsqrt(z.abs() + 1)
    run_compiled(f, lambda: (rnd(1024, 512, dtype=dtype),
                             rnd(1024, 512, dtype=dtype),
                             rnd(1024, 512, dtype=dtype)))


def broadcast_bias_gelu(dtype: torch.dtype) -> None:
    def f(x, b):
        return F.gelu(x + b, approximate="tanh") * F.silu(x)
    run_compiled(f, lambda: (rnd(64, 300, 257, dtype=dtype),
                             rnd(257, dtype=dtype)))


def int_bitwise() -> None:
    def f(a, b):
        c = (a & 0xFF) ^ (b << 2) | (a >> 1)
        return c % 7, (a // 3).to(torch.int64), torch.clamp(c, -5, 100)
    run_compiled(f, lambda: (torch.randint(-1000, 1000, (4096,), device=DEV,
                                           dtype=torch.int32),
                             torch.randint(0, 100, (4096,), device=DEV,
                                           dtype=torch.int32)))


def casts_and_nans() -> None:
    def f(x):
        y = x.to(torch.float16).to(torch.float32)
        return torch.isnan(x) | torch.isinf(y), torch.nan_to_num(x), \
            x.to(torch.bfloat16), x.to(torch.int8), x.round(), x.floor()
    run_compiled(f, lambda: (rnd(3000),))


def reductions(dtype: torch.dtype) -> None:
    def f(x):
        return (x.sum(-1), x.mean(0), x.amax(-1), x.amin(0), x.prod(-1),
                torch.logsumexp(x, -1), x.norm(dim=-1), x.abs().max())
    run_compiled(f, lambda: (rnd(512, 1000, dtype=dtype),))


def big_split_reduction() -> None:
    def f(x):
        return x.sum(), (x * x).mean(), x.max()
    run_compiled(f, lambda: (rnd(4 * 1024 * 1024),))


def var_std_welford(dtype: torch.dtype) -> None:
    def f(x):
        return torch.var_mean(x, dim=-1), x.std(0), x.var(dim=(0, 1))
    run_compiled(f, lambda: (rnd(32, 64, 777, dtype=dtype),))


def softmax(dtype: torch.dtype) -> None:
    def f(x):
        return torch.softmax(x, -1), torch.log_softmax(x * 0.5, dim=1)
    run_compiled(f, lambda: (rnd(256, 1000, dtype=dtype, grad=True),),
                 backward=True)


def online_softmax_long_rows() -> None:
    def f(x):
        return torch.softmax(x, -1)
    run_compiled(f, lambda: (rnd(8, 32768),))


def layer_norm(dtype: torch.dtype) -> None:
    m = nn.LayerNorm(768).to(DEV, dtype)

    def f(x):
        return m(x)
    run_compiled(f, lambda: (rnd(4, 128, 768, dtype=dtype, grad=True),),
                 backward=True)


def rms_norm(dtype: torch.dtype) -> None:
    w = torch.ones(1024, device=DEV, dtype=dtype, requires_grad=True)

    def f(x):
        var = x.float().pow(2).mean(-1, keepdim=True)
        manual = (x.float() * torch.rsqrt(var + 1e-6)).to(x.dtype) * w
        return manual, F.rms_norm(x, (1024,), w, 1e-5)
    run_compiled(f, lambda: (rnd(2, 64, 1024, dtype=dtype, grad=True),),
                 backward=True)


def batch_norm_train() -> None:
    m = nn.BatchNorm2d(32).to(DEV).train()

    def f(x):
        return F.relu(m(x))
    run_compiled(f, lambda: (rnd(8, 32, 28, 28, grad=True),), backward=True)


def group_norm(dtype: torch.dtype) -> None:
    m = nn.GroupNorm(8, 64).to(DEV, dtype)

    def f(x):
        return m(x)
    run_compiled(f, lambda: (rnd(4, 64, 16, 16, dtype=dtype, grad=True),),
                 backward=True)


def instance_norm() -> None:
    def f(x):
        return F.instance_norm(x)
    run_compiled(f, lambda: (rnd(4, 16, 32, 32),))


def arg_reductions(dtype: torch.dtype) -> None:
    def f(x):
        return x.argmax(-1), x.argmin(0), torch.max(x, dim=1), \
            torch.min(x, dim=0)
    run_compiled(f, lambda: (rnd(300, 513, dtype=dtype),))


def scans(dtype: torch.dtype) -> None:
    def f(x):
        return torch.cumsum(x, -1), torch.cumprod(x * 0.01 + 1, dim=1), \
            torch.logcumsumexp(x, -1)
    run_compiled(f, lambda: (rnd(64, 1000, dtype=dtype),))


def long_scan() -> None:
    def f(x):
        return torch.cumsum(x, 0)
    run_compiled(f, lambda: (rnd(100000),))


def sort_topk() -> None:
    def f(x):
        s, i = torch.sort(x, dim=-1)
        return s, i, torch.argsort(x, dim=-1, descending=True), \
            torch.topk(x, 4, dim=-1)
    run_compiled(f, lambda: (rnd(128, 64),))


def embedding_index(dtype: torch.dtype) -> None:
    emb = nn.Embedding(5000, 256).to(DEV, dtype)

    def f(idx, x, src):
        e = emb(idx)
        g = torch.gather(x, 1, idx[:, :8] % 64)
        s = torch.zeros(64, 64, device=DEV, dtype=x.dtype).scatter_add(
            1, idx[:, :8] % 64, src)
        sel = torch.index_select(x, 0, idx[:, 0] % 64)
        return e.sum(1), g, s, sel
    run_compiled(f, lambda: (torch.randint(0, 5000, (64, 32), device=DEV),
                             rnd(64, 64, dtype=dtype),
                             rnd(64, 8, dtype=dtype)))


def embedding_backward() -> None:
    emb = nn.Embedding(1000, 128).to(DEV)

    def f(idx):
        return emb(idx)
    run_compiled(f, lambda: (torch.randint(0, 1000, (16, 64), device=DEV),),
                 backward=True)


def index_put_masked() -> None:
    def f(x, idx, v, m):
        y = x.clone()
        y[idx] = v
        y = y.masked_fill(m, -1.0)
        return y, y * 2
    run_compiled(f, lambda: (rnd(1000, 16), torch.randint(0, 1000, (100,),
                                                          device=DEV),
                             rnd(100, 16), torch.rand(1000, 16,
                                                      device=DEV) > 0.5))


def dropout_rng(dtype: torch.dtype) -> None:
    def f(x):
        return F.dropout(x, p=0.1, training=True), torch.rand_like(x), \
            torch.randn_like(x) * 2, torch.bernoulli(torch.sigmoid(x))
    run_compiled(f, lambda: (rnd(1024, 1024, dtype=dtype),))


def randint_case() -> None:
    def f(x):
        return x + torch.randint(0, 10, x.shape, device=x.device)
    run_compiled(f, lambda: (torch.zeros(4096, device=DEV,
                                         dtype=torch.int64),))


def cat_stack_pad() -> None:
    def f(a, b):
        c = torch.cat([a, b * 2], dim=1)
        d = torch.stack([a, b], dim=0).sum(0)
        return F.pad(c, (1, 2, 3, 4)), d.flip(0), torch.roll(a, 3, 1)
    run_compiled(f, lambda: (rnd(100, 77), rnd(100, 77)))


def transpose_tiled(dtype: torch.dtype) -> None:
    def f(x):
        return (x[0].t().contiguous() + 1), x.permute(0, 2, 1).contiguous()
    run_compiled(f, lambda: (rnd(8, 512, 384, dtype=dtype),))


def pooling_interp() -> None:
    def f(x):
        return F.max_pool2d(x, 3, 2, 1), F.avg_pool2d(x, 2), \
            F.interpolate(x, scale_factor=2, mode="bilinear",
                          align_corners=False), F.adaptive_avg_pool2d(x, 1)
    run_compiled(f, lambda: (rnd(2, 16, 32, 32, grad=True),), backward=True)


def bucketize_search() -> None:
    def f(x, b):
        return torch.bucketize(x, b), torch.searchsorted(b, x)
    run_compiled(f, lambda: (rnd(4096), torch.linspace(-3, 3, 64,
                                                       device=DEV)))


def histc_case() -> None:
    def f(x):
        return torch.histc(x, bins=32, min=-3, max=3)
    run_compiled(f, lambda: (rnd(10000),))


def matmul_templates(dtype: torch.dtype, tma: bool = False) -> None:
    opts: dict[str, Any] = {"max_autotune": True,
                            "max_autotune_gemm_backends": "TRITON",
                            "epilogue_fusion": True}
    if tma:
        opts["triton.enable_persistent_tma_matmul"] = True

    def f(a, b, bias, x, y):
        mm = torch.relu(a @ b + bias)
        return mm, torch.bmm(x, y) * 0.5
    run_compiled(f, lambda: (rnd(256, 512, dtype=dtype),
                             rnd(512, 384, dtype=dtype),
                             rnd(384, dtype=dtype),
                             rnd(4, 128, 64, dtype=dtype),
                             rnd(4, 64, 128, dtype=dtype)), options=opts)


def addmm_mode(dtype: torch.dtype) -> None:
    lin = nn.Linear(512, 256).to(DEV, dtype)

    def f(x):
        return F.gelu(lin(x))
    run_compiled(f, lambda: (rnd(128, 512, dtype=dtype, grad=True),),
                 backward=True, mode="max-autotune-no-cudagraphs")


def native_matmul() -> None:
    def f(a, b):
        return (a @ b).relu()
    run_compiled(f, lambda: (rnd(128, 256), rnd(256, 64)),
                 options={"triton.native_matmul": True})


def block_ptr_pointwise() -> None:
    def f(x, y):
        return (x + y.t()).relu()
    run_compiled(f, lambda: (rnd(512, 512), rnd(512, 512)),
                 options={"triton.use_block_ptr": True})


def tensor_descriptor_pointwise() -> None:
    def f(x, y):
        return (x * y).sum(-1), x + 1
    run_compiled(f, lambda: (rnd(512, 512), rnd(512, 512)),
                 options={"triton.use_tensor_descriptor": True})


def cooperative_reduction() -> None:
    def f(x):
        return x.sum(-1), x.amax(-1)
    run_compiled(f, lambda: (rnd(4, 200000),),
                 options={"triton.cooperative_reductions": True,
                          "triton.force_cooperative_reductions": True})


def coordinate_descent() -> None:
    def f(x, w):
        return torch.softmax(x @ w, -1).sum(0)
    run_compiled(f, lambda: (rnd(512, 256), rnd(256, 1000)),
                 options={"coordinate_descent_tuning": True})


def attention_manual(dtype: torch.dtype) -> None:
    def f(q, k, v):
        s = (q @ k.transpose(-2, -1)) * (q.shape[-1] ** -0.5)
        causal = torch.ones(s.shape[-2], s.shape[-1], device=q.device,
                            dtype=torch.bool).tril()
        s = s.masked_fill(~causal, float("-inf"))
        return torch.softmax(s.float(), -1).to(q.dtype) @ v
    run_compiled(f, lambda: (rnd(2, 4, 128, 64, dtype=dtype, grad=True),
                             rnd(2, 4, 128, 64, dtype=dtype, grad=True),
                             rnd(2, 4, 128, 64, dtype=dtype, grad=True)),
                 backward=True)


def flex_attention_case(dtype: torch.dtype) -> None:
    from torch.nn.attention.flex_attention import (create_block_mask,
                                                   flex_attention)

    def causal(b, h, q_idx, kv_idx):
        return q_idx >= kv_idx

    block_mask = None if DRY else create_block_mask(causal, 1, 1, 256, 256,
                                                    device=DEV)

    def f(q, k, v):
        if DRY:
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return flex_attention(q, k, v, block_mask=block_mask)
    run_compiled(f, lambda: (rnd(1, 2, 256, 64, dtype=dtype, grad=True),
                             rnd(1, 2, 256, 64, dtype=dtype, grad=True),
                             rnd(1, 2, 256, 64, dtype=dtype, grad=True)),
                 backward=True)


def sdpa_math() -> None:
    def f(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    run_compiled(f, lambda: (rnd(2, 4, 64, 32), rnd(2, 4, 64, 32),
                             rnd(2, 4, 64, 32)))


def mlp_training(dtype: torch.dtype) -> None:
    model = nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.LayerNorm(512),
                          nn.Dropout(0.1), nn.Linear(512, 10)).to(DEV, dtype)

    def f(x, y):
        return F.cross_entropy(model(x).float(), y)
    run_compiled(f, lambda: (rnd(64, 256, dtype=dtype),
                             torch.randint(0, 10, (64,), device=DEV)),
                 backward=True)


def transformer_block() -> None:
    layer = nn.TransformerEncoderLayer(128, 4, 256, dropout=0.0,
                                       batch_first=True).to(DEV)

    def f(x):
        return layer(x)
    run_compiled(f, lambda: (rnd(2, 64, 128, grad=True),), backward=True)


def conv_block() -> None:
    conv = nn.Conv2d(16, 32, 3, padding=1).to(DEV)
    bn = nn.BatchNorm2d(32).to(DEV)

    def f(x):
        return F.relu(bn(conv(x)))
    run_compiled(f, lambda: (rnd(4, 16, 32, 32, grad=True),), backward=True,
                 mode="max-autotune-no-cudagraphs")


def adam_step() -> None:
    params = [torch.randn(1000, device=DEV, requires_grad=True)
              for _ in range(4)]
    for p in params:
        p.grad = torch.randn_like(p)
    opt = torch.optim.Adam(params, lr=1e-3, foreach=True)

    def step():
        opt.step()
    if DRY:
        step()
        return
    torch._dynamo.reset()
    torch.compile(step)()
    torch.compile(step)()


def losses() -> None:
    def f(x, y, t):
        return (F.mse_loss(x, t), F.smooth_l1_loss(x, t),
                F.binary_cross_entropy_with_logits(x, (t > 0).float()),
                F.kl_div(F.log_softmax(x, -1), F.softmax(t, -1),
                         reduction="batchmean"),
                F.nll_loss(F.log_softmax(x, -1), y))
    run_compiled(f, lambda: (rnd(64, 100, grad=True),
                             torch.randint(0, 100, (64,), device=DEV),
                             rnd(64, 100)), backward=True)


def dynamic_pointwise() -> None:
    def f(x, y):
        return (x * y + 1).relu().sum(-1)

    def inputs(i: int = 0):
        n = 1000 + 37 * i
        return rnd(n, 129), rnd(n, 129)
    run_compiled(f, inputs, dynamic=True, calls=3)


def dynamic_softmax_norm() -> None:
    m = nn.LayerNorm(256).to(DEV)

    def f(x):
        return torch.softmax(m(x), -1)

    def inputs(i: int = 0):
        return (rnd(17 + 5 * i, 256),)
    run_compiled(f, inputs, dynamic=True, calls=3)


def dynamic_reduction_cols() -> None:
    def f(x):
        return x.sum(-1), x.amax(0), torch.cumsum(x, -1)

    def inputs(i: int = 0):
        return (rnd(64, 300 + 100 * i),)
    run_compiled(f, inputs, dynamic=True, calls=3)


def complex_index_math() -> None:
    def f(x):
        n = x.shape[0]
        idx = torch.arange(n, device=x.device)
        return x[idx.flip(0)] + x[(idx * 7) % n], torch.tril(x @ x.t())[::2]
    run_compiled(f, lambda: (rnd(128, 128),))


def pixel_shuffle_unfold() -> None:
    def f(x):
        return F.pixel_shuffle(x, 2), F.unfold(x, 3, padding=1).sum(-1)
    run_compiled(f, lambda: (rnd(2, 16, 12, 12),))


def fp8_cast() -> None:
    def f(x):
        s = x.abs().amax() / 448.0
        return (x / s).to(torch.float8_e4m3fn), s
    run_compiled(f, lambda: (rnd(256, 256),))


def gpt_block_max_autotune() -> None:
    d = 256
    qkv = nn.Linear(d, 3 * d).to(DEV, torch.bfloat16)
    proj = nn.Linear(d, d).to(DEV, torch.bfloat16)
    ln = nn.LayerNorm(d).to(DEV, torch.bfloat16)

    def f(x):
        b, t, _ = x.shape
        q, k, v = qkv(ln(x)).view(b, t, 3, 4, d // 4).unbind(2)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))
        s = (q @ k.transpose(-2, -1)) * (d // 4) ** -0.5
        a = torch.softmax(s.float(), -1).to(x.dtype) @ v
        return x + proj(a.transpose(1, 2).reshape(b, t, d))
    run_compiled(f, lambda: (rnd(2, 128, d, dtype=torch.bfloat16,
                                 grad=True),), backward=True,
                 options={"max_autotune": True,
                          "max_autotune_gemm_backends": "TRITON"})


def dynamic_mm_templates() -> None:
    def f(a, b):
        return torch.relu(a @ b)

    def inputs(i: int = 0):
        return (rnd(128 + 64 * i, 256, dtype=torch.float16),
                rnd(256, 128, dtype=torch.float16))
    run_compiled(f, inputs, dynamic=True, calls=2,
                 options={"max_autotune": True,
                          "max_autotune_gemm_backends": "TRITON"})


def combo_kernels() -> None:
    def f(a, b, c):
        return a.sin() + 1, b.cos() * 2, c.exp().sum(-1), (a * 3).relu()
    run_compiled(f, lambda: (rnd(1000), rnd(300, 40), rnd(64, 128)),
                 options={"combo_kernels": True})


def multi_kernel_reduction() -> None:
    def f(x):
        return torch.softmax(x, -1), x.sum(-1)
    run_compiled(f, lambda: (rnd(64, 3000),),
                 options={"triton.multi_kernel": 1})


def nd_tiling() -> None:
    def f(x, y):
        return x.permute(0, 2, 1) + y, (x * 2).transpose(1, 2).contiguous()
    run_compiled(f, lambda: (rnd(8, 96, 200), rnd(8, 200, 96)),
                 options={"triton.prefer_nd_tiling": True,
                          "triton.max_tiles": 3})


def non_persistent_reductions() -> None:
    m = nn.LayerNorm(512).to(DEV)

    def f(x):
        return torch.softmax(m(x), -1)
    run_compiled(f, lambda: (rnd(128, 512, grad=True),), backward=True,
                 options={"triton.persistent_reductions": False})


def grouped_mm_template() -> None:
    def f(a, b, offs):
        return torch._grouped_mm(a, b, offs=offs)
    if DRY:
        return
    run_compiled(f, lambda: (rnd(256, 128, dtype=torch.bfloat16),
                             rnd(4, 128, 64, dtype=torch.bfloat16)
                             .transpose(-2, -1).contiguous()
                             .transpose(-2, -1),
                             torch.tensor([64, 128, 192, 256], device=DEV,
                                          dtype=torch.int32)),
                 options={"max_autotune": True,
                          "max_autotune_gemm_backends": "TRITON"})


def scaled_mm_fp8() -> None:
    def f(a, b, sa, sb):
        return torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16)
    if DRY:
        return
    run_compiled(f, lambda: (rnd(128, 256).to(torch.float8_e4m3fn),
                             rnd(128, 256).to(torch.float8_e4m3fn).t(),
                             torch.tensor(1.0, device=DEV),
                             torch.tensor(1.0, device=DEV)),
                 options={"max_autotune": True,
                          "max_autotune_gemm_backends": "TRITON"})


def int_mm() -> None:
    def f(a, b):
        return torch._int_mm(a, b)
    if DRY:
        return
    run_compiled(f, lambda: (torch.randint(-8, 8, (128, 256), device=DEV,
                                           dtype=torch.int8),
                             torch.randint(-8, 8, (256, 128), device=DEV,
                                           dtype=torch.int8)),
                 options={"max_autotune": True,
                          "max_autotune_gemm_backends": "TRITON"})


def build_cases() -> list[Case]:
    cases: list[Case] = []

    def add(name: str, fn: Callable[[], None]) -> None:
        cases.append(Case(name, fn))

    # Expensive (max-autotune) cases first, so shards start them early.
    for dt in (torch.float16, torch.bfloat16, torch.float32):
        add(f"mm-templates-{dname(dt)}", lambda dt=dt: matmul_templates(dt))
    add("mm-templates-tma-fp16",
        lambda: matmul_templates(torch.float16, tma=True))
    add("addmm-max-autotune-bf16", lambda: addmm_mode(torch.bfloat16))
    add("conv-bn-relu-max-autotune", conv_block)
    for dt in (torch.float16, torch.bfloat16):
        add(f"flex-attention-{dname(dt)}",
            lambda dt=dt: flex_attention_case(dt))
    for dt in FP:
        add(f"pointwise-chain-{dname(dt)}", lambda dt=dt: pointwise_chain(dt))
        add(f"reductions-{dname(dt)}", lambda dt=dt: reductions(dt))
        add(f"softmax-{dname(dt)}", lambda dt=dt: softmax(dt))
        add(f"layer-norm-{dname(dt)}", lambda dt=dt: layer_norm(dt))
        add(f"rms-norm-{dname(dt)}", lambda dt=dt: rms_norm(dt))
        add(f"argmax-argmin-{dname(dt)}", lambda dt=dt: arg_reductions(dt))
        add(f"dropout-rng-{dname(dt)}", lambda dt=dt: dropout_rng(dt))
    for dt in (torch.float32, torch.float16):
        add(f"bias-gelu-{dname(dt)}", lambda dt=dt: broadcast_bias_gelu(dt))
        add(f"var-std-welford-{dname(dt)}", lambda dt=dt: var_std_welford(dt))
        add(f"group-norm-{dname(dt)}", lambda dt=dt: group_norm(dt))
        add(f"cumsum-{dname(dt)}", lambda dt=dt: scans(dt))
        add(f"embedding-index-scatter-{dname(dt)}",
            lambda dt=dt: embedding_index(dt))
        add(f"transpose-tiled-{dname(dt)}", lambda dt=dt: transpose_tiled(dt))
        add(f"attention-manual-{dname(dt)}",
            lambda dt=dt: attention_manual(dt))
        add(f"mlp-training-{dname(dt)}", lambda dt=dt: mlp_training(dt))
    for name, fn in [
        ("int-bitwise", int_bitwise), ("casts-nans", casts_and_nans),
        ("big-split-reduction", big_split_reduction),
        ("online-softmax-long-rows", online_softmax_long_rows),
        ("batch-norm-train", batch_norm_train),
        ("instance-norm", instance_norm), ("long-scan", long_scan),
        ("sort-topk", sort_topk), ("embedding-backward", embedding_backward),
        ("index-put-masked", index_put_masked), ("randint", randint_case),
        ("cat-stack-pad-flip-roll", cat_stack_pad),
        ("pooling-interpolate", pooling_interp),
        ("bucketize-searchsorted", bucketize_search), ("histc", histc_case),
        ("native-matmul", native_matmul),
        ("block-ptr-pointwise", block_ptr_pointwise),
        ("tensor-descriptor-pointwise", tensor_descriptor_pointwise),
        ("cooperative-reduction", cooperative_reduction),
        ("coordinate-descent", coordinate_descent),
        ("sdpa-math", sdpa_math), ("transformer-block", transformer_block),
        ("adam-foreach-step", adam_step), ("losses", losses),
        ("dynamic-pointwise", dynamic_pointwise),
        ("dynamic-softmax-layernorm", dynamic_softmax_norm),
        ("dynamic-reduction-scan", dynamic_reduction_cols),
        ("index-math", complex_index_math),
        ("pixel-shuffle-unfold", pixel_shuffle_unfold),
        ("fp8-cast", fp8_cast),
        ("gpt-block-bf16-max-autotune", gpt_block_max_autotune),
        ("dynamic-mm-templates", dynamic_mm_templates),
        ("combo-kernels", combo_kernels),
        ("multi-kernel-reduction", multi_kernel_reduction),
        ("nd-tiling", nd_tiling),
        ("non-persistent-reductions", non_persistent_reductions),
        ("grouped-mm-template", grouped_mm_template),
        ("scaled-mm-fp8", scaled_mm_fp8), ("int-mm", int_mm),
    ]:
        add(name, fn)
    return cases


def main() -> int:
    global DEV, DRY
    args = parse_args(__doc__ or "")
    DRY = args.dry
    recorder = None
    cache = Path(os.environ.get("TORCHINDUCTOR_CACHE_DIR",
                                "/tmp/torchinductor_" + os.environ.get(
                                    "USER", "root")))
    if DRY:
        DEV = "cpu"
    else:
        import rw_capture

        recorder = rw_capture.Recorder(args.out_dir, "inductor",
                                       generated_roots={"inductor": cache})
        recorder.install()
    torch.manual_seed(0)
    run_cases("inductor", build_cases(), args, recorder, START,
              sync=(torch.cuda.synchronize if DEV == "cuda" else
                    (lambda: None)))
    if recorder:
        import rw_capture

        print(rw_capture.summary(recorder), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
