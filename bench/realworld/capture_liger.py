"""Capture the Triton kernels of Liger-Kernel's ops, forward and backward.

Every op module of the installed wheel is driven through its public
functional interface or its nn.Module on small CUDA inputs, in fp32 and in
bf16 (fp16 where the op is used that way), and backward is run through a
scalar loss so the backward kernels compile too.

    python3 capture_liger.py OUT_DIR [--shard I/N] [--deadline S] [--dry]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

START = time.time()
sys.path.insert(0, str(Path(__file__).resolve().parent))
from rw_driver import Case, parse_args, run_cases  # noqa: E402

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

DEV = "cuda"


def rnd(*shape: int, dtype: torch.dtype = torch.float32,
        grad: bool = True, scale: float = 1.0) -> torch.Tensor:
    t = torch.randn(*shape, device=DEV, dtype=dtype) * scale
    return t.requires_grad_(grad)


def backward(*outs: Any) -> None:
    loss = None
    for o in outs:
        if isinstance(o, torch.Tensor) and o.requires_grad:
            term = o.float().sum() if o.dim() else o.float()
            loss = term if loss is None else loss + term
    if loss is not None:
        loss.backward()


def F() -> Any:
    from liger_kernel.transformers import functional
    return functional


DTYPES = (torch.float32, torch.bfloat16)


def dn(dt: torch.dtype) -> str:
    return str(dt).replace("torch.", "")


# ---------------------------------------------------------------------------
def rms_norm(dt: torch.dtype, mode: str, offset: float) -> None:
    x = rnd(4, 33, 1024, dtype=dt)
    w = rnd(1024, dtype=dt)
    y = F().liger_rms_norm(x, w, 1e-6, offset=offset, casting_mode=mode,
                           in_place=False)
    backward(y)


def rms_norm_module(dt: torch.dtype) -> None:
    from liger_kernel.transformers import LigerRMSNorm
    m = LigerRMSNorm(2048, eps=1e-6).to(DEV, dt)
    backward(m(rnd(2, 16, 2048, dtype=dt)))


def fused_add_rms_norm(dt: torch.dtype) -> None:
    x, r, w = rnd(64, 768, dtype=dt), rnd(64, 768, dtype=dt), rnd(768,
                                                                  dtype=dt)
    backward(*F().liger_fused_add_rms_norm(x, r, w, 1e-6, in_place=False))


def modulated_rms_norm(dt: torch.dtype) -> None:
    x, w = rnd(2, 32, 512, dtype=dt), rnd(512, dtype=dt)
    scale, shift = rnd(2, 512, dtype=dt), rnd(2, 512, dtype=dt)
    backward(F().liger_modulated_rms_norm(x, w, scale, shift, in_place=False))


def layer_norm(dt: torch.dtype) -> None:
    x, w, b = rnd(8, 100, 1000, dtype=dt), rnd(1000, dtype=dt), rnd(
        1000, dtype=dt)
    backward(F().liger_layer_norm(x, w, b, 1e-5))


def poly_norm(dt: torch.dtype) -> None:
    x, w = rnd(4, 64, 512, dtype=dt), rnd(3, dtype=dt)
    b = torch.randn((), device=DEV, dtype=dt).requires_grad_(True)
    backward(F().liger_poly_norm(x, w, b, in_place=False))


def group_norm(dt: torch.dtype) -> None:
    x = rnd(4, 32, 64, dtype=dt)
    w, b = rnd(32, dtype=dt), rnd(32, dtype=dt)
    backward(F().liger_group_norm(x, w, b, 32, 8, 1e-6))


def swiglu(dt: torch.dtype) -> None:
    a, b = rnd(4, 128, 1024, dtype=dt), rnd(4, 128, 1024, dtype=dt)
    backward(F().liger_swiglu(a, b))


def geglu(dt: torch.dtype) -> None:
    a, b = rnd(4, 128, 1024, dtype=dt), rnd(4, 128, 1024, dtype=dt)
    backward(F().liger_geglu(a, b))


def relu_squared(dt: torch.dtype) -> None:
    backward(F().liger_relu_squared(rnd(4, 64, 700, dtype=dt)))


def dyt(dt: torch.dtype) -> None:
    x = rnd(4, 64, 1024, dtype=dt)
    alpha = rnd(1, dtype=dt)
    gamma, beta = rnd(1024, dtype=dt), rnd(1024, dtype=dt)
    backward(F().liger_dyt(x, alpha, gamma, beta))


def softmax(dt: torch.dtype) -> None:
    backward(F().liger_softmax(rnd(64, 1000, dtype=dt)))
    backward(F().liger_softmax(rnd(4, 40000, dtype=dt)))


def sparsemax(dt: torch.dtype) -> None:
    backward(F().liger_sparsemax(rnd(32, 300, dtype=dt), dim=-1))


def rope(dt: torch.dtype) -> None:
    bsz, nq, nk, seq, hd = 2, 8, 2, 64, 128
    q = rnd(bsz, nq, seq, hd, dtype=dt)
    k = rnd(bsz, nk, seq, hd, dtype=dt)
    cos, sin = rnd(1, seq, hd, dtype=dt, grad=False), rnd(1, seq, hd,
                                                          dtype=dt,
                                                          grad=False)
    backward(*F().liger_rope(q, k, cos, sin))


def qwen2vl_mrope(dt: torch.dtype) -> None:
    bsz, nq, nk, seq, hd = 2, 8, 2, 32, 128
    q = rnd(bsz, nq, seq, hd, dtype=dt)
    k = rnd(bsz, nk, seq, hd, dtype=dt)
    cos = rnd(3, bsz, seq, hd, dtype=dt, grad=False)
    sin = rnd(3, bsz, seq, hd, dtype=dt, grad=False)
    backward(*F().liger_qwen2vl_mrope(q, k, cos, sin, [16, 24, 24]))


def llama4_rope(dt: torch.dtype) -> None:
    from liger_kernel.ops.llama4_rope import LigerLlama4RopeFunction
    bsz, seq, nq, nk, hd = 2, 32, 8, 2, 128
    q = rnd(bsz, seq, nq, hd, dtype=dt)
    k = rnd(bsz, seq, nk, hd, dtype=dt)
    freqs = torch.polar(torch.ones(seq, hd // 2, device=DEV),
                        torch.randn(seq, hd // 2, device=DEV))
    backward(*LigerLlama4RopeFunction.apply(q, k, freqs))


def cross_entropy(dt: torch.dtype, variant: str) -> None:
    x = rnd(64, 4000, dtype=dt)
    t = torch.randint(0, 4000, (64,), device=DEV)
    t[::7] = -100
    kw: dict[str, Any] = {}
    if variant == "smooth":
        kw = {"label_smoothing": 0.1}
    elif variant == "zloss":
        kw = {"lse_square_scale": 1e-4, "return_z_loss": True}
    elif variant == "softcap":
        kw = {"softcap": 30.0, "reduction": "sum"}
    elif variant == "weight":
        kw = {"weight": torch.rand(4000, device=DEV, dtype=torch.float32)}
    elif variant == "accuracy":
        kw = {"return_token_accuracy": True, "reduction": "none"}
    out = F().liger_cross_entropy(x, t, **kw)
    backward(out.loss if hasattr(out, "loss") else
             (out[0] if isinstance(out, tuple) else out))


def fused_linear_ce(dt: torch.dtype, bias: bool) -> None:
    x = rnd(64, 256, dtype=dt)
    w = rnd(2000, 256, dtype=dt, scale=0.05)
    b = rnd(2000, dtype=dt) if bias else None
    t = torch.randint(0, 2000, (64,), device=DEV)
    out = F().liger_fused_linear_cross_entropy(x, w, t, bias=b,
                                               label_smoothing=0.05)
    backward(out.loss if hasattr(out, "loss") else
             (out[0] if isinstance(out, tuple) else out))


def kl_div(dt: torch.dtype, log_target: bool) -> None:
    x = torch.log_softmax(rnd(32, 3000, dtype=dt, grad=False), -1)
    x.requires_grad_(True)
    y = torch.softmax(rnd(32, 3000, dtype=dt, grad=False), -1)
    if log_target:
        y = y.log()
    backward(F().liger_kl_div(x, y, reduction="batchmean",
                              log_target=log_target))


def jsd(dt: torch.dtype, labels: bool) -> None:
    x = torch.log_softmax(rnd(32, 3000, dtype=dt, grad=False), -1)
    x.requires_grad_(True)
    y = torch.log_softmax(rnd(32, 3000, dtype=dt, grad=False), -1)
    lab = torch.randint(0, 3000, (32,), device=DEV) if labels else None
    backward(F().liger_jsd(x, y, shift_labels=lab, beta=0.3))


def tvd(dt: torch.dtype) -> None:
    x = torch.softmax(rnd(32, 3000, dtype=dt, grad=False), -1)
    x.requires_grad_(True)
    y = torch.softmax(rnd(32, 3000, dtype=dt, grad=False), -1)
    backward(F().liger_tvd(x, y))


def fused_linear_jsd(dt: torch.dtype) -> None:
    xs, xt = rnd(64, 256, dtype=dt), rnd(64, 256, dtype=dt, grad=False)
    ws = rnd(1000, 256, dtype=dt, scale=0.05)
    wt = rnd(1000, 256, dtype=dt, scale=0.05, grad=False)
    backward(F().liger_fused_linear_jsd(xs, ws, xt, wt))


def fused_linear_kl_div(dt: torch.dtype) -> None:
    from liger_kernel.transformers import functional as fn
    if not hasattr(fn, "liger_fused_linear_kl_div"):
        raise RuntimeError("no liger_fused_linear_kl_div in this wheel")
    x = rnd(64, 256, dtype=dt)
    w = rnd(1000, 256, dtype=dt, scale=0.05)
    target = torch.log_softmax(rnd(64, 1000, grad=False), -1).to(dt)
    backward(fn.liger_fused_linear_kl_div(x, w, target))


def fused_ce_tvd(dt: torch.dtype) -> None:
    from liger_kernel.ops.fused_ce_tvd import LigerFusedCETVDFunction
    s, te = rnd(32, 2000, dtype=dt), rnd(32, 2000, dtype=dt, grad=False)
    t = torch.randint(0, 2000, (32,), device=DEV)
    backward(*LigerFusedCETVDFunction.apply(s, te, t, -100))


def multi_token_attention(dt: torch.dtype) -> None:
    scores = rnd(2, 4, 64, 64, dtype=dt)
    w = rnd(4, 4, 3, 3, dtype=dt, scale=0.1)
    b = rnd(4, dtype=dt)
    backward(F().liger_multi_token_attention(scores, w, b, padding=1))
    if dt == torch.float32:
        backward(F().liger_multi_token_attention(scores, w, b, padding=1,
                                                 sparse=True))


def neighborhood_attention(dt: torch.dtype) -> None:
    q, k, v = (rnd(1, 2, 64, 32, dtype=dt) for _ in range(3))
    backward(F().liger_fused_neighborhood_attention(q, k, v, kernel_size=7))


def grpo(dt: torch.dtype, loss_type: str, level: str) -> None:
    from liger_kernel.transformers.grpo_loss import triton_grpo_loss
    B, L, V = 2, 16, 500
    logits = rnd(B, L + 1, V, dtype=dt)
    old, ref = rnd(B, L, grad=False), rnd(B, L, grad=False)
    ids = torch.randint(0, V, (B, L), device=DEV)
    adv = rnd(B, grad=False)
    mask = torch.ones(B, L, device=DEV, dtype=torch.int32)
    out = triton_grpo_loss(logits, old, ref, ids, adv, mask,
                           loss_type=loss_type, inplace=False,
                           importance_sampling_level=level, reduce=True,
                           max_completion_length=L)
    backward(out[0] if isinstance(out, tuple) else out)


def selective_log_softmax(dt: torch.dtype) -> None:
    from liger_kernel.ops.grpo_loss import fused_selective_log_softmax
    logits = rnd(2, 17, 500, dtype=dt, grad=False)
    ids = torch.randint(0, 500, (2, 16), device=DEV)
    fused_selective_log_softmax(logits, ids)


def mhc(dt: torch.dtype) -> None:
    from liger_kernel.transformers.mhc import LigerMHC
    layer = nn.Linear(128, 128, bias=False).to(DEV, dt)
    m = LigerMHC(layer, hc=4, c=128, phi_dtype=dt,
                 allow_fp32=(dt == torch.float32)).to(DEV)
    backward(m(rnd(2, 16, 4, 128, dtype=dt)))


def attn_res(dt: torch.dtype) -> None:
    v = rnd(4, 2, 16, 256, dtype=dt)
    wq, wn = rnd(256, dtype=dt, scale=0.02), rnd(256, dtype=dt)
    backward(F().liger_attn_res(v, wq, wn))


def fused_moe(dt: torch.dtype) -> None:
    from liger_kernel.ops.fused_moe import LigerFusedMoEFunction
    T, H, I, E, K = 64, 128, 256, 4, 2
    x = rnd(T, H, dtype=dt)
    gu = rnd(E, 2 * I, H, dtype=dt, scale=0.05)
    dp = rnd(E, H, I, dtype=dt, scale=0.05)
    idx = torch.stack([torch.randperm(E, device=DEV)[:K] for _ in range(T)]
                      ).to(torch.int32)
    wts = torch.softmax(torch.randn(T, K, device=DEV), -1).to(dt)
    backward(LigerFusedMoEFunction.apply(x, gu, dp, idx, wts))


def tiled_mlp(dt: torch.dtype) -> None:
    from types import SimpleNamespace
    from liger_kernel.transformers.tiled_mlp import (LigerTiledGEGLUMLP,
                                                     LigerTiledSwiGLUMLP)
    for cls, act in ((LigerTiledSwiGLUMLP, "silu"),
                     (LigerTiledGEGLUMLP, "gelu_pytorch_tanh")):
        cfg = SimpleNamespace(hidden_size=256, intermediate_size=512,
                              hidden_act=act, hidden_activation=act)
        m = cls(cfg, num_shards=2).to(DEV, dt)
        backward(m(rnd(2, 64, 256, dtype=dt)))


def swiglu_mlp_module(dt: torch.dtype) -> None:
    from types import SimpleNamespace
    from liger_kernel.transformers.swiglu import LigerSwiGLUMLP
    cfg = SimpleNamespace(hidden_size=256, intermediate_size=512,
                          hidden_act="silu")
    m = LigerSwiGLUMLP(cfg).to(DEV, dt)
    backward(m(rnd(2, 32, 256, dtype=dt)))


def build_cases() -> list[Case]:
    cases: list[Case] = []

    def add(name: str, fn: Callable[[], None]) -> None:
        cases.append(Case(name, fn))

    for dt in DTYPES:
        d = dn(dt)
        for mode in ("llama", "gemma", "none"):
            add(f"rms-norm-{mode}-{d}",
                lambda dt=dt, mode=mode: rms_norm(dt, mode,
                                                  1.0 if mode == "gemma"
                                                  else 0.0))
        add(f"rms-norm-module-{d}", lambda dt=dt: rms_norm_module(dt))
        add(f"fused-add-rms-norm-{d}", lambda dt=dt: fused_add_rms_norm(dt))
        add(f"modulated-rms-norm-{d}", lambda dt=dt: modulated_rms_norm(dt))
        add(f"layer-norm-{d}", lambda dt=dt: layer_norm(dt))
        add(f"poly-norm-{d}", lambda dt=dt: poly_norm(dt))
        add(f"group-norm-{d}", lambda dt=dt: group_norm(dt))
        add(f"swiglu-{d}", lambda dt=dt: swiglu(dt))
        add(f"geglu-{d}", lambda dt=dt: geglu(dt))
        add(f"swiglu-mlp-module-{d}", lambda dt=dt: swiglu_mlp_module(dt))
        add(f"relu-squared-{d}", lambda dt=dt: relu_squared(dt))
        add(f"dyt-{d}", lambda dt=dt: dyt(dt))
        add(f"softmax-{d}", lambda dt=dt: softmax(dt))
        add(f"sparsemax-{d}", lambda dt=dt: sparsemax(dt))
        add(f"rope-{d}", lambda dt=dt: rope(dt))
        add(f"qwen2vl-mrope-{d}", lambda dt=dt: qwen2vl_mrope(dt))
        add(f"llama4-rope-{d}", lambda dt=dt: llama4_rope(dt))
        for v in ("plain", "smooth", "zloss", "softcap", "weight",
                  "accuracy"):
            add(f"cross-entropy-{v}-{d}",
                lambda dt=dt, v=v: cross_entropy(dt, v))
        for bias in (False, True):
            add(f"fused-linear-ce-{'bias' if bias else 'nobias'}-{d}",
                lambda dt=dt, bias=bias: fused_linear_ce(dt, bias))
        for lt in (False, True):
            add(f"kl-div-{'logt' if lt else 'prob'}-{d}",
                lambda dt=dt, lt=lt: kl_div(dt, lt))
        for lab in (False, True):
            add(f"jsd-{'labels' if lab else 'nolabels'}-{d}",
                lambda dt=dt, lab=lab: jsd(dt, lab))
        add(f"tvd-{d}", lambda dt=dt: tvd(dt))
        add(f"fused-linear-jsd-{d}", lambda dt=dt: fused_linear_jsd(dt))
        add(f"fused-linear-kl-div-{d}", lambda dt=dt: fused_linear_kl_div(dt))
        add(f"fused-ce-tvd-{d}", lambda dt=dt: fused_ce_tvd(dt))
        add(f"multi-token-attention-{d}",
            lambda dt=dt: multi_token_attention(dt))
        add(f"neighborhood-attention-{d}",
            lambda dt=dt: neighborhood_attention(dt))
        for lt, lvl in (("grpo", "token"), ("dapo", "token"),
                        ("bnpo", "sequence")):
            add(f"grpo-{lt}-{lvl}-{d}",
                lambda dt=dt, lt=lt, lvl=lvl: grpo(dt, lt, lvl))
        add(f"selective-log-softmax-{d}",
            lambda dt=dt: selective_log_softmax(dt))
        add(f"mhc-{d}", lambda dt=dt: mhc(dt))
        add(f"attn-res-{d}", lambda dt=dt: attn_res(dt))
        add(f"fused-moe-{d}", lambda dt=dt: fused_moe(dt))
        add(f"tiled-mlp-{d}", lambda dt=dt: tiled_mlp(dt))
    # fp16 for the ops models run in half precision.
    for name, fn in (("rms-norm-llama-float16",
                      lambda: rms_norm(torch.float16, "llama", 0.0)),
                     ("layer-norm-float16", lambda: layer_norm(torch.float16)),
                     ("swiglu-float16", lambda: swiglu(torch.float16)),
                     ("rope-float16", lambda: rope(torch.float16)),
                     ("cross-entropy-plain-float16",
                      lambda: cross_entropy(torch.float16, "plain"))):
        add(name, fn)
    return cases


def main() -> int:
    global DEV
    args = parse_args(__doc__ or "")
    recorder = None
    if args.dry:
        DEV = "cpu"
    else:
        import rw_capture

        recorder = rw_capture.Recorder(args.out_dir, "liger")
        recorder.install()
    torch.manual_seed(0)
    os.environ.setdefault("LIGER_FUSED_MOE_AUTOTUNE", "0")
    run_cases("liger", build_cases(), args, recorder, START,
              sync=(torch.cuda.synchronize if DEV == "cuda" else
                    (lambda: None)))
    if recorder:
        import rw_capture

        print(rw_capture.summary(recorder), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
