"""Capture the Triton kernels of FlagGems' ops.

Each case builds its inputs with plain PyTorch, then runs one or a few
torch ops inside `flag_gems.use_gems()`, which routes them to FlagGems'
Triton implementations (the same registration `flag_gems.enable()` makes),
so FlagGems' own dispatch, autotuning and generated pointwise code compile
the kernels with the specializations a real program launches. A few of
FlagGems' fused ops that have no torch op are called directly.

    python3 capture_flaggems.py OUT_DIR [--shard I/N] [--deadline S] [--dry]
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
import torch.nn.functional as F  # noqa: E402

DEV = "cuda"
DRY = False
F32, F16, BF16 = torch.float32, torch.float16, torch.bfloat16
ALL_FP = (F32, F16, BF16)


def rnd(*shape: int, dtype: torch.dtype = F32, grad: bool = False,
        pos: bool = False) -> torch.Tensor:
    t = torch.randn(*shape, device=DEV, dtype=dtype)
    if pos:
        t = t.abs() + 0.5
    return t.requires_grad_(grad)


def ints(*shape: int, high: int = 100, dtype: torch.dtype = torch.int64,
         low: int = 0) -> torch.Tensor:
    return torch.randint(low, high, shape, device=DEV, dtype=dtype)


def gems_ctx() -> Any:
    if DRY:
        import contextlib
        return contextlib.nullcontext()
    import flag_gems
    return flag_gems.use_gems()


def run_op(make: Callable[[], tuple], op: Callable[..., Any],
           backward: bool = False) -> None:
    args = make()
    with gems_ctx():
        out = op(*args)
        if backward:
            outs = out if isinstance(out, (tuple, list)) else (out,)
            loss = sum(o.float().sum() for o in outs
                       if isinstance(o, torch.Tensor) and o.requires_grad)
            loss.backward()
    if DEV == "cuda":
        torch.cuda.synchronize()


def dn(dt: torch.dtype) -> str:
    return str(dt).replace("torch.", "")


UNARY = {
    "abs": torch.abs, "neg": torch.neg, "exp": torch.exp,
    "exp2": torch.exp2, "expm1": torch.expm1, "log": lambda x: torch.log(
        x.abs() + 1), "log1p": lambda x: torch.log1p(x.abs()),
    "log10": lambda x: torch.log10(x.abs() + 1),
    "sqrt": lambda x: torch.sqrt(x.abs()), "rsqrt": lambda x: torch.rsqrt(
        x.abs() + 1), "sin": torch.sin, "cos": torch.cos, "tan": torch.tan,
    "tanh": torch.tanh, "atan": torch.atan, "asinh": torch.asinh,
    "sinh": torch.sinh, "cosh": torch.cosh,
    "acos": lambda x: torch.acos(x.clamp(-1, 1)), "sigmoid": torch.sigmoid,
    "relu": torch.relu, "relu6": F.relu6, "gelu": F.gelu,
    "gelu-tanh": lambda x: F.gelu(x, approximate="tanh"), "silu": F.silu,
    "erf": torch.erf, "reciprocal": torch.reciprocal, "floor": torch.floor,
    "ceil": torch.ceil, "round": torch.round, "trunc": torch.trunc,
    "isnan": torch.isnan, "isinf": torch.isinf, "isfinite": torch.isfinite,
    "logical-not": torch.logical_not, "square": torch.square,
    "logsigmoid": F.logsigmoid, "softplus": F.softplus, "elu": F.elu,
    "celu": F.celu, "selu": F.selu, "hardsigmoid": F.hardsigmoid,
    "hardswish": F.hardswish, "leaky-relu": F.leaky_relu,
    "hardtanh": F.hardtanh, "softshrink": F.softshrink,
    "nan-to-num": torch.nan_to_num, "sgn": torch.sgn,
    "signbit": torch.signbit, "logit": lambda x: torch.logit(
        torch.sigmoid(x), 1e-6), "angle": torch.angle, "i0": torch.i0,
    "clamp": lambda x: torch.clamp(x, -0.5, 0.5),
    "clamp-min": lambda x: torch.clamp_min(x, 0.1),
    "pow-scalar": lambda x: torch.pow(x, 3.0),
    "rpow": lambda x: torch.pow(2.0, x), "threshold": lambda x: F.threshold(
        x, 0.1, 20.0), "to-int": lambda x: x.to(torch.int32),
    "to-other": lambda x: x.to(torch.float16 if x.dtype != torch.float16
                               else torch.float32),
    "contiguous-t": lambda x: x.t().contiguous(),
    "zeros-like": torch.zeros_like, "ones-like": torch.ones_like,
    "full-like": lambda x: torch.full_like(x, 3.0),
    "rand-like": torch.rand_like, "randn-like": torch.randn_like,
    "fill": lambda x: x.clone().fill_(2.0),
    "uniform": lambda x: x.clone().uniform_(),
    "normal": lambda x: x.clone().normal_(),
    "exponential": lambda x: x.clone().exponential_(),
    "bernoulli": lambda x: torch.bernoulli(torch.sigmoid(x)),
}

BINARY = {
    "add": torch.add, "add-alpha": lambda a, b: torch.add(a, b, alpha=2),
    "sub": torch.sub, "mul": torch.mul, "div": torch.div,
    "div-floor": lambda a, b: torch.div(a, b, rounding_mode="floor"),
    "div-trunc": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "pow": lambda a, b: torch.pow(a.abs(), b), "maximum": torch.maximum,
    "minimum": torch.minimum, "fmin": torch.fmin, "eq": torch.eq,
    "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt,
    "ge": torch.ge, "logical-and": torch.logical_and,
    "logical-or": torch.logical_or, "logical-xor": torch.logical_xor,
    "remainder": torch.remainder, "atan2": torch.atan2,
    "hypot": torch.hypot, "copysign": torch.copysign,
    "lerp": lambda a, b: torch.lerp(a, b, 0.3),
    "where": lambda a, b: torch.where(a > 0, a, b),
    "addcmul": lambda a, b: torch.addcmul(a, a, b, value=0.5),
    "addcdiv": lambda a, b: torch.addcdiv(a, a, b.abs() + 1, value=0.5),
    "logaddexp": torch.logaddexp, "isclose": torch.isclose,
    "add-scalar": lambda a, b: a + 3.5, "mul-bcast": lambda a, b: a * b[0],
    "eq-scalar": lambda a, b: a == 0.5, "prelu": lambda a, b: F.prelu(
        a, torch.tensor([0.25], device=a.device, dtype=a.dtype)),
    "polar": lambda a, b: torch.polar(a.float().abs(), b.float()),
}

INT_BINARY = {
    "bitwise-and": torch.bitwise_and, "bitwise-or": torch.bitwise_or,
    "bitwise-xor": torch.bitwise_xor,
    "bitwise-not": lambda a, b: torch.bitwise_not(a),
    "shift-left": lambda a, b: torch.bitwise_left_shift(a, b % 8),
    "shift-right": lambda a, b: torch.bitwise_right_shift(a, b % 8),
    "floor-divide": lambda a, b: torch.floor_divide(a, b + 1),
    "remainder": lambda a, b: torch.remainder(a, b + 1),
    "add": torch.add, "mul": torch.mul,
}

REDUCE = {
    "sum": lambda x: x.sum(), "sum-dim": lambda x: x.sum(-1),
    "sum-dim0": lambda x: x.sum(0), "mean": lambda x: x.mean(),
    "mean-dim": lambda x: x.mean(-1), "prod": lambda x: (x * 0.01 + 1).prod(
        -1), "amax": lambda x: x.amax(-1), "amin": lambda x: x.amin(0),
    "max": lambda x: x.max(), "max-dim": lambda x: x.max(-1),
    "min-dim": lambda x: x.min(0), "argmax": lambda x: x.argmax(-1),
    "argmin": lambda x: x.argmin(0), "all": lambda x: (x > -10).all(),
    "any-dim": lambda x: (x > 2).any(-1), "std": lambda x: x.std(-1),
    "var": lambda x: x.var(0), "var-mean": lambda x: torch.var_mean(x, -1),
    "norm2": lambda x: torch.linalg.vector_norm(x, 2, -1),
    "norm1": lambda x: torch.linalg.vector_norm(x, 1),
    "norm-inf": lambda x: torch.linalg.vector_norm(x, float("inf"), -1),
    "logsumexp": lambda x: torch.logsumexp(x, -1),
    "count-nonzero": lambda x: torch.count_nonzero(x > 0, -1),
    "cumsum": lambda x: torch.cumsum(x, -1), "cumsum-0": lambda x:
    torch.cumsum(x, 0), "cumprod": lambda x: torch.cumprod(x * 0.01 + 1, -1),
    "cummax": lambda x: torch.cummax(x, -1), "cummin": lambda x:
    torch.cummin(x, 0), "aminmax": lambda x: torch.aminmax(x),
    "trace": lambda x: torch.trace(x), "softmax": lambda x: torch.softmax(
        x, -1), "softmax-0": lambda x: torch.softmax(x, 0),
    "log-softmax": lambda x: torch.log_softmax(x, -1),
    "sort": lambda x: torch.sort(x, -1), "sort-desc": lambda x: torch.sort(
        x, 0, descending=True), "argsort": lambda x: torch.argsort(x, -1),
    "topk": lambda x: torch.topk(x, 5, -1), "topk-large": lambda x:
    torch.topk(x.flatten(), 64), "quantile": lambda x: torch.quantile(
        x.float(), 0.3, dim=-1), "flip": lambda x: torch.flip(x, (0, 1)),
    "roll": lambda x: torch.roll(x, 5, 1), "tril": torch.tril,
    "triu": lambda x: torch.triu(x, 1), "diag": lambda x: torch.diag(x),
    "diagonal": lambda x: torch.diagonal(x).clone(),
    "repeat": lambda x: x.repeat(2, 3), "tile": lambda x: torch.tile(x, (2,)),
    "repeat-interleave": lambda x: torch.repeat_interleave(x, 2, dim=0),
    "nonzero": lambda x: torch.nonzero(x > 1),
    "masked-select": lambda x: torch.masked_select(x, x > 0),
    "unique": lambda x: torch.unique((x * 4).round()),
}


def norm_cases(dt: torch.dtype) -> list[tuple[str, Callable[[], tuple],
                                              Callable[..., Any], bool]]:
    c = 512
    return [
        ("layer-norm", lambda: (rnd(64, c, dtype=dt, grad=True),
                                rnd(c, dtype=dt, grad=True),
                                rnd(c, dtype=dt, grad=True)),
         lambda x, w, b: F.layer_norm(x, (c,), w, b), True),
        ("rms-norm", lambda: (rnd(64, c, dtype=dt, grad=True),
                              rnd(c, dtype=dt, grad=True)),
         lambda x, w: F.rms_norm(x, (c,), w, 1e-6), True),
        ("group-norm", lambda: (rnd(4, 32, 16, 16, dtype=dt, grad=True),
                                rnd(32, dtype=dt, grad=True),
                                rnd(32, dtype=dt, grad=True)),
         lambda x, w, b: F.group_norm(x, 8, w, b), True),
        ("batch-norm", lambda: (rnd(8, 16, 12, 12, dtype=dt, grad=True),
                                rnd(16, dtype=dt, grad=True),
                                rnd(16, dtype=dt, grad=True)),
         lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
         True),
        ("instance-norm", lambda: (rnd(4, 8, 16, 16, dtype=dt),),
         lambda x: F.instance_norm(x), False),
        ("softmax-bwd", lambda: (rnd(128, 1000, dtype=dt, grad=True),),
         lambda x: torch.softmax(x, -1), True),
        ("log-softmax-bwd", lambda: (rnd(128, 1000, dtype=dt, grad=True),),
         lambda x: torch.log_softmax(x, -1), True),
        ("dropout", lambda: (rnd(1024, 256, dtype=dt, grad=True),),
         lambda x: F.dropout(x, 0.2, training=True), True),
        ("weight-norm", lambda: (rnd(64, 32, dtype=dt, grad=True),
                                 rnd(64, 1, dtype=dt, grad=True, pos=True)),
         lambda v, g: torch._weight_norm(v, g, 0), True),
        ("glu", lambda: (rnd(64, 512, dtype=dt, grad=True),),
         lambda x: F.glu(x, -1), True),
        ("gelu-bwd", lambda: (rnd(64, 512, dtype=dt, grad=True),),
         F.gelu, True),
        ("silu-bwd", lambda: (rnd(64, 512, dtype=dt, grad=True),),
         F.silu, True),
        ("sdpa", lambda: (rnd(1, 4, 128, 64, dtype=dt),
                          rnd(1, 4, 128, 64, dtype=dt),
                          rnd(1, 4, 128, 64, dtype=dt)),
         lambda q, k, v: F.scaled_dot_product_attention(q, k, v,
                                                        is_causal=True),
         False),
    ]


def matmul_cases(dt: torch.dtype) -> list[tuple[str, Callable[[], tuple],
                                                Callable[..., Any], bool]]:
    return [
        ("mm", lambda: (rnd(256, 512, dtype=dt), rnd(512, 384, dtype=dt)),
         torch.mm, False),
        ("mm-odd", lambda: (rnd(100, 200, dtype=dt), rnd(200, 72, dtype=dt)),
         torch.mm, False),
        ("mm-bwd", lambda: (rnd(128, 256, dtype=dt, grad=True),
                            rnd(256, 64, dtype=dt, grad=True)),
         torch.mm, True),
        ("bmm", lambda: (rnd(4, 128, 64, dtype=dt), rnd(4, 64, 96, dtype=dt)),
         torch.bmm, False),
        ("baddbmm", lambda: (rnd(4, 128, 96, dtype=dt),
                             rnd(4, 128, 64, dtype=dt),
                             rnd(4, 64, 96, dtype=dt)),
         lambda c, a, b: torch.baddbmm(c, a, b, alpha=0.5), False),
        ("addmm", lambda: (rnd(384, dtype=dt), rnd(256, 512, dtype=dt),
                           rnd(512, 384, dtype=dt)), torch.addmm, False),
        ("linear", lambda: (rnd(64, 256, dtype=dt), rnd(128, 256, dtype=dt),
                            rnd(128, dtype=dt)), F.linear, False),
        ("mv", lambda: (rnd(512, 256, dtype=dt), rnd(256, dtype=dt)),
         torch.mv, False),
        ("addmv", lambda: (rnd(512, dtype=dt), rnd(512, 256, dtype=dt),
                           rnd(256, dtype=dt)), torch.addmv, False),
        ("dot", lambda: (rnd(4096, dtype=dt), rnd(4096, dtype=dt)),
         torch.dot, False),
        ("vdot", lambda: (rnd(4096, dtype=dt), rnd(4096, dtype=dt)),
         torch.vdot, False),
        ("outer", lambda: (rnd(300, dtype=dt), rnd(200, dtype=dt)),
         torch.outer, False),
        ("addr", lambda: (rnd(300, 200, dtype=dt), rnd(300, dtype=dt),
                          rnd(200, dtype=dt)), torch.addr, False),
        ("kron", lambda: (rnd(8, 8, dtype=dt), rnd(4, 4, dtype=dt)),
         torch.kron, False),
    ]


def index_cases() -> list[tuple[str, Callable[[], tuple],
                                Callable[..., Any], bool]]:
    def scatter(x, i, s):
        return torch.scatter(x, 1, i, s)

    def index_put(x, i, v):
        y = x.clone()
        y.index_put_((i[:, 0],), v, accumulate=True)
        return y
    return [
        ("index-select", lambda: (rnd(1000, 64), ints(100, high=1000)),
         lambda x, i: torch.index_select(x, 0, i), False),
        ("gather", lambda: (rnd(64, 100), ints(64, 10, high=100)),
         lambda x, i: torch.gather(x, 1, i), False),
        ("scatter", lambda: (rnd(64, 100), ints(64, 10, high=100),
                             rnd(64, 10)), scatter, False),
        ("scatter-add", lambda: (rnd(64, 100), ints(64, 10, high=100),
                                 rnd(64, 10)),
         lambda x, i, s: x.clone().scatter_add_(1, i, s), False),
        ("scatter-reduce", lambda: (rnd(64, 100), ints(64, 10, high=100),
                                    rnd(64, 10)),
         lambda x, i, s: x.scatter_reduce(1, i, s, "amax"), False),
        ("index-add", lambda: (rnd(100, 32), ints(20, high=100),
                               rnd(20, 32)),
         lambda x, i, s: x.index_add(0, i, s), False),
        ("index-put", lambda: (rnd(100, 32), ints(20, 1, high=100),
                               rnd(20, 32)), index_put, False),
        ("index-tensor", lambda: (rnd(100, 32), ints(20, high=100)),
         lambda x, i: x[i], False),
        ("masked-fill", lambda: (rnd(100, 32),),
         lambda x: x.masked_fill(x > 0.5, -1.0), False),
        ("masked-scatter", lambda: (rnd(100, 32), rnd(3200)),
         lambda x, s: x.masked_scatter(x > 0, s), False),
        ("embedding", lambda: (ints(16, 32, high=1000),
                               rnd(1000, 128, grad=True)),
         lambda i, w: F.embedding(i, w), True),
        ("one-hot", lambda: (ints(256, high=10),),
         lambda i: F.one_hot(i, 10), False),
        ("isin", lambda: (ints(1000, high=50), ints(20, high=50)),
         torch.isin, False),
        ("bincount", lambda: (ints(1000, high=64),), torch.bincount, False),
        ("select-scatter", lambda: (rnd(16, 32), rnd(32)),
         lambda x, s: torch.select_scatter(x, s, 0, 3), False),
        ("slice-scatter", lambda: (rnd(16, 32), rnd(16, 8)),
         lambda x, s: torch.slice_scatter(x, s, 1, 0, 16, 2), False),
        ("diag-embed", lambda: (rnd(4, 16),), torch.diag_embed, False),
        ("cat", lambda: (rnd(16, 32), rnd(16, 17)),
         lambda a, b: torch.cat([a, b], 1), False),
        ("stack", lambda: (rnd(16, 32), rnd(16, 32)),
         lambda a, b: torch.stack([a, b], 0), False),
        ("hstack-vstack", lambda: (rnd(16, 32), rnd(16, 32)),
         lambda a, b: (torch.hstack([a, b]), torch.vstack([a, b])), False),
        ("pad-constant", lambda: (rnd(4, 16, 16),),
         lambda x: F.pad(x, (1, 2, 3, 4), value=0.5), False),
        ("pad-reflect", lambda: (rnd(2, 4, 16, 16),),
         lambda x: F.pad(x, (2, 2, 2, 2), mode="reflect"), False),
        ("pad-replicate", lambda: (rnd(2, 4, 16),),
         lambda x: F.pad(x, (3, 3), mode="replicate"), False),
        ("arange-linspace", lambda: (),
         lambda: (torch.arange(0, 1000, 3, device=DEV),
                  torch.linspace(0, 1, 500, device=DEV),
                  torch.logspace(0, 2, 50, device=DEV)), False),
        ("factories", lambda: (),
         lambda: (torch.zeros(100, 100, device=DEV),
                  torch.ones(77, device=DEV, dtype=F16),
                  torch.full((33, 9), 2.5, device=DEV),
                  torch.eye(64, device=DEV),
                  torch.rand(1000, device=DEV),
                  torch.randn(1000, device=DEV, dtype=BF16),
                  torch.randperm(1000, device=DEV)), False),
        ("multinomial", lambda: (torch.rand(16, 100, device=DEV),),
         lambda p: torch.multinomial(p, 4), False),
    ]


def nn_cases() -> list[tuple[str, Callable[[], tuple],
                             Callable[..., Any], bool]]:
    return [
        ("mse-loss", lambda: (rnd(64, 100, grad=True), rnd(64, 100)),
         F.mse_loss, True),
        ("nll-loss", lambda: (torch.log_softmax(rnd(64, 100), -1)
                              .requires_grad_(True), ints(64, high=100)),
         F.nll_loss, True),
        ("cross-entropy", lambda: (rnd(64, 100, grad=True),
                                   ints(64, high=100)),
         F.cross_entropy, True),
        ("soft-margin", lambda: (rnd(64, 10), torch.sign(rnd(64, 10))),
         F.soft_margin_loss, False),
        ("margin-ranking", lambda: (rnd(64), rnd(64), torch.sign(rnd(64))),
         F.margin_ranking_loss, False),
        ("avg-pool2d", lambda: (rnd(2, 8, 32, 32, grad=True),),
         lambda x: F.avg_pool2d(x, 3, 2, 1), True),
        ("max-pool2d", lambda: (rnd(2, 8, 32, 32, grad=True),),
         lambda x: F.max_pool2d(x, 3, 2, 1), True),
        ("conv1d", lambda: (rnd(2, 8, 64), rnd(16, 8, 3)),
         lambda x, w: F.conv1d(x, w, padding=1), False),
        ("conv2d", lambda: (rnd(2, 8, 32, 32), rnd(16, 8, 3, 3), rnd(16)),
         lambda x, w, b: F.conv2d(x, w, b, padding=1), False),
        ("conv2d-depthwise", lambda: (rnd(2, 8, 32, 32), rnd(8, 1, 3, 3)),
         lambda x, w: F.conv2d(x, w, padding=1, groups=8), False),
        ("conv3d", lambda: (rnd(1, 4, 8, 16, 16), rnd(8, 4, 3, 3, 3)),
         lambda x, w: F.conv3d(x, w, padding=1), False),
        ("upsample-nearest2d", lambda: (rnd(2, 4, 16, 16),),
         lambda x: F.interpolate(x, scale_factor=2, mode="nearest"), False),
        ("upsample-bicubic2d", lambda: (rnd(2, 4, 16, 16),),
         lambda x: F.interpolate(x, scale_factor=2, mode="bicubic",
                                 align_corners=False), False),
        ("upsample-linear1d", lambda: (rnd(2, 4, 16),),
         lambda x: F.interpolate(x, scale_factor=2, mode="linear"), False),
        ("pixel-unshuffle", lambda: (rnd(2, 4, 16, 16),),
         lambda x: F.pixel_unshuffle(x, 2), False),
        ("copy-strided", lambda: (rnd(64, 64), rnd(64, 64).t()),
         lambda a, b: a.copy_(b), False),
    ]


def fused_cases() -> list[tuple[str, Callable[[], tuple],
                                Callable[..., Any], bool]]:
    def fg() -> Any:
        import flag_gems
        return flag_gems

    def need_gems(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*a: Any) -> Any:
            if DRY:
                return None
            return fn(*a)
        return wrapped

    def topk_softmax(g):
        t = g.shape[0]
        w = torch.empty(t, 2, device=DEV, dtype=F32)
        i = torch.empty(t, 2, device=DEV, dtype=torch.int32)
        s = torch.empty(t, 2, device=DEV, dtype=torch.int32)
        fg().topk_softmax(w, i, s, g)
        return w

    def rope(q, k, cos, sin, pos):
        return fg().apply_rotary_pos_emb(q, k, cos, sin, pos)

    return [
        ("silu-and-mul", lambda: (rnd(64, 512, dtype=BF16),
                                  rnd(64, 512, dtype=BF16)),
         need_gems(lambda a, b: fg().silu_and_mul(a, b)), False),
        ("gelu-and-mul", lambda: (rnd(64, 512, dtype=F16),
                                  rnd(64, 512, dtype=F16)),
         need_gems(lambda a, b: fg().gelu_and_mul(a, b, "tanh")), False),
        ("fused-add-rms-norm", lambda: (rnd(64, 1024, dtype=BF16),
                                        rnd(64, 1024, dtype=BF16),
                                        rnd(1024, dtype=BF16)),
         need_gems(lambda x, r, w: fg().fused_add_rms_norm(x, r, [1024], w)),
         False),
        ("skip-layer-norm", lambda: (rnd(64, 768, dtype=F16),
                                     rnd(64, 768, dtype=F16),
                                     rnd(768, dtype=F16),
                                     rnd(768, dtype=F16)),
         need_gems(lambda x, r, w, b: fg().skip_layer_norm(x, r, [768], w,
                                                           b)), False),
        ("rotary-embedding", lambda: (rnd(32, 8, 128, dtype=BF16),
                                      rnd(32, 2, 128, dtype=BF16),
                                      rnd(64, 64, dtype=BF16),
                                      rnd(64, 64, dtype=BF16),
                                      ints(32, high=64)),
         need_gems(rope), False),
        ("topk-softmax", lambda: (rnd(64, 16),), need_gems(topk_softmax),
         False),
        ("outer-fused", lambda: (rnd(300, grad=True), rnd(200, grad=True)),
         need_gems(lambda a, b: fg().outer(a, b)), False),
        ("cross-entropy-fused", lambda: (rnd(64, 1000, dtype=BF16),
                                         ints(64, high=1000)),
         need_gems(lambda x, t: fg().cross_entropy_loss(x, t,
                                                        label_smoothing=0.1)),
         False),
        ("swiglu-geglu-reglu", lambda: (rnd(64, 1024, dtype=BF16),),
         need_gems(lambda x: (fg().swiglu(x), fg().geglu(x), fg().reglu(x))),
         False),
        ("bincount-fused", lambda: (ints(5000, high=300),),
         need_gems(lambda i: fg().bincount(i)), False),
        ("moe-align-block-size", lambda: (ints(64, 2, high=8,
                                               dtype=torch.int32),),
         need_gems(lambda i: fg().moe_align_block_size(i, 16, 8)), False),
        ("moe-sum", lambda: (rnd(32, 2, 256, dtype=BF16),
                             torch.empty(32, 256, device=DEV, dtype=BF16)),
         need_gems(lambda i, o: fg().moe_sum(i, o)), False),
        ("grouped-topk", lambda: (rnd(32, 64), rnd(64)),
         need_gems(lambda s, b: fg().grouped_topk(s, 8, 2, 4, True, 1.0, b)),
         False),
        ("instance-norm-fused", lambda: (rnd(4, 8, 16, 16),),
         need_gems(lambda x: fg().instance_norm(x)), False),
        ("weight-norm-fused", lambda: (rnd(64, 32), rnd(64, 1, pos=True)),
         need_gems(lambda v, g: fg().weight_norm(v, g, 0)), False),
    ]


def build_cases() -> list[Case]:
    cases: list[Case] = []

    def add(name: str, make: Callable[[], tuple], op: Callable[..., Any],
            bwd: bool = False) -> None:
        cases.append(Case(name, lambda: run_op(make, op, bwd)))

    for dt in (F16, BF16, F32):
        for name, make, op, bwd in matmul_cases(dt):
            add(f"{name}-{dn(dt)}", make, op, bwd)
    for dt in ALL_FP:
        for name, make, op, bwd in norm_cases(dt):
            add(f"{name}-{dn(dt)}", make, op, bwd)
    for dt in ALL_FP:
        for name, op in UNARY.items():
            add(f"unary-{name}-{dn(dt)}",
                lambda dt=dt: (rnd(67, 129, dtype=dt),), op)
        for name, op in BINARY.items():
            add(f"binary-{name}-{dn(dt)}",
                lambda dt=dt: (rnd(67, 129, dtype=dt),
                               rnd(67, 129, dtype=dt)), op)
        for name, op in REDUCE.items():
            add(f"reduce-{name}-{dn(dt)}",
                lambda dt=dt: (rnd(130, 257, dtype=dt),), op)
    for idt in (torch.int32, torch.int64, torch.int16):
        for name, op in INT_BINARY.items():
            add(f"int-{name}-{dn(idt)}",
                lambda idt=idt: (ints(67, 129, high=1000, low=-1000,
                                      dtype=idt),
                                 ints(67, 129, high=1000, dtype=idt)), op)
    add("binary-broadcast-3d-float32",
        lambda: (rnd(4, 1, 33), rnd(1, 50, 33)), torch.add)
    add("unary-large-1d-float32", lambda: (rnd(1 << 20),), torch.exp)
    add("reduce-large-sum-float32", lambda: (rnd(1 << 22),),
        lambda x: x.sum())
    add("reduce-long-rows-softmax-float32", lambda: (rnd(4, 50000),),
        lambda x: torch.softmax(x, -1))
    add("reduce-long-cumsum-float32", lambda: (rnd(200000),),
        lambda x: torch.cumsum(x, 0))
    add("reduce-sort-long-float32", lambda: (rnd(8, 5000),),
        lambda x: torch.sort(x, -1))
    for name, make, op, bwd in index_cases() + nn_cases() + fused_cases():
        add(name, make, op, bwd)
    return cases


def main() -> int:
    global DEV, DRY
    args = parse_args(__doc__ or "")
    DRY = args.dry
    recorder = None
    if DRY:
        DEV = "cpu"
    else:
        import rw_capture

        cache = Path(os.environ.get("FLAGGEMS_CACHE_DIR",
                                    str(Path.home() / ".flaggems")))
        recorder = rw_capture.Recorder(args.out_dir, "flaggems",
                                       generated_roots={"flaggems": cache})
        recorder.install()
        import flag_gems  # noqa: F401  (import before timing the cases)
    torch.manual_seed(0)
    run_cases("flaggems", build_cases(), args, recorder, START,
              sync=(torch.cuda.synchronize if DEV == "cuda" else
                    (lambda: None)))
    if recorder:
        import rw_capture

        print(rw_capture.summary(recorder), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
