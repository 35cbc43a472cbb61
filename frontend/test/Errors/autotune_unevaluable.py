# RUN: not tessera-ast %s 2>&1 | FileCheck %s
import torch
import triton
import triton.language as tl


def get_configs():
    major = torch.cuda.get_device_capability()[0]
    return [triton.Config({'BLOCK': 128}, num_warps=4 if major >= 9 else 8)]


@triton.autotune(configs=get_configs(), key=['n'])
@triton.jit
def kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass

# CHECK: autotune_unevaluable.py:8:13: error: cannot evaluate call to 'torch.cuda.get_device_capability' at compile time
# CHECK-NEXT: {{^}}    major = torch.cuda.get_device_capability()[0]
# CHECK-NEXT: {{^}}            ^
# CHECK-NEXT: autotune_unevaluable.py:12:26: note: in call to 'get_configs'
