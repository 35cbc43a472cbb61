# RUN: tessera-ast %s --dump-module | FileCheck %s
# RUN: tessera-ast %s --dump-ast --kernel _layer_norm_bwd_dx_fused | FileCheck %s --check-prefix=AST
# Layer norm backward with a spin lock on tl.atomic_cas.
import triton
import triton.language as tl

try:
    import torch
except ImportError:
    torch = None

GROUP_SIZE_M = 64
BLOCK_SIZE_N = max(triton.next_power_of_2(1000), 16)


@triton.jit
def _layer_norm_bwd_dx_fused(DX, DY, DW, X, W, Mean, Rstd, Lock, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw = tl.load(DW, mask=mask)
    tl.atomic_xchg(Lock, 0)

# CHECK: import torch = torch
# CHECK: global GROUP_SIZE_M = 64
# CHECK: global BLOCK_SIZE_N = 1024
# CHECK: jit _layer_norm_bwd_dx_fused(DX, DY, DW, X, W, Mean, Rstd, Lock, stride, N, GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr)

# AST: FunctionDef '_layer_norm_bwd_dx_fused' <17:1-32:28>
# AST-NEXT: decorator: Attribute 'jit' <16:2-16:12>
# AST-NEXT: value: Name 'triton' <16:2-16:8>
# AST-NEXT: param: 'DX' <17:30-17:32>
# AST: AugAssign Add <23:5-23:20>
# AST-NEXT: target: Name 'Lock' <23:5-23:9>
# AST-NEXT: value: Name 'lock_id' <23:13-23:20>
# AST: While <25:5-26:13>
# AST-NEXT: test: Compare Eq <25:11-25:41>
# AST-NEXT: left: Call <25:11-25:36>
# AST-NEXT: func: Attribute 'atomic_cas' <25:11-25:24>
# AST-NEXT: value: Name 'tl' <25:11-25:13>
# AST-NEXT: arg: Name 'Lock' <25:25-25:29>
# AST-NEXT: arg: IntLiteral 0 <25:31-25:32>
# AST-NEXT: arg: IntLiteral 1 <25:34-25:35>
# AST-NEXT: comparator: IntLiteral 1 <25:40-25:41>
# AST-NEXT: body:
# AST-NEXT: Pass <26:9-26:13>
# AST: If <28:5-31:44>
