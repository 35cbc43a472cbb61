# RUN: tessera-ast %s --dump-module | FileCheck %s
# Attention-shaped file: configs at module level (with a conditional), a
# filter function and prune_configs_by, constexpr constants.
import os

import triton
import triton.language as tl
from triton.language.extra import libdevice

NUM_STAGES_OPTIONS = [2, 3, 4]
if "TESSERA_LIT_NEVER_SET_THIS" in os.environ:
    NUM_STAGES_OPTIONS = [1]

LOG2E: tl.constexpr = 1.4426950408889634
FP8 = tl.constexpr(False)

configs = [
    triton.Config({'BLOCK_M': BM, 'BLOCK_N': BN}, num_stages=s, num_warps=w) \
    for BM in [64, 128]\
    for BN in [32, 64, 128]\
    for s in NUM_STAGES_OPTIONS \
    for w in [4, 8]\
]


def keep(conf):
    BLOCK_M = conf.kwargs["BLOCK_M"]
    BLOCK_N = conf.kwargs["BLOCK_N"]
    return not (BLOCK_M * BLOCK_N < 128 * 128 and conf.num_warps == 8)


def prune_invalid_configs(configs, named_args, **kwargs):
    N_CTX = kwargs["N_CTX"]
    return [conf for conf in configs if conf.kwargs.get("BLOCK_M", 0) <= N_CTX]


@triton.autotune(configs=list(filter(keep, configs)), key=["N_CTX", "HEAD_DIM"],
                 prune_configs_by={'early_config_prune': prune_invalid_configs})
@triton.jit
def _attn_fwd(sm_scale, M, Out, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    qk_scale = sm_scale * LOG2E
    lo, hi = 0, N_CTX
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=True):
        m_ij = tl.maximum(m_i, libdevice.exp2(qk_scale))
        m_i = m_ij
    tl.store(M + offs_m, m_i)

# CHECK: import os = os
# CHECK: import libdevice = triton.language.extra.libdevice
# CHECK: global NUM_STAGES_OPTIONS = [2, 3, 4]
# CHECK: constexpr LOG2E = 1.4426950408889634
# CHECK: constexpr FP8 = False
# CHECK: global configs = [Config({'BLOCK_M': 64, 'BLOCK_N': 32}, num_warps=4, num_stages=2, num_ctas=1),
# CHECK: host def keep(conf)
# CHECK: host def prune_invalid_configs(configs, named_args, **kwargs)
# CHECK: jit _attn_fwd(sm_scale, M, Out, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr)
# CHECK-NEXT: decorator autotune triton.autotune
# CHECK-NEXT: key = ['N_CTX', 'HEAD_DIM']
# CHECK-NEXT: prune_configs_by = {'early_config_prune': <function prune_invalid_configs at 32:1>}
# CHECK-NEXT: configs: 21
# CHECK-NEXT: [0] Config({'BLOCK_M': 64, 'BLOCK_N': 32}, num_warps=4, num_stages=2, num_ctas=1)
# CHECK-NEXT: [1] Config({'BLOCK_M': 64, 'BLOCK_N': 32}, num_warps=4, num_stages=3, num_ctas=1)
# CHECK: [20] Config({'BLOCK_M': 128, 'BLOCK_N': 128}, num_warps=8, num_stages=4, num_ctas=1)
# CHECK-NEXT: decorator jit triton.jit
