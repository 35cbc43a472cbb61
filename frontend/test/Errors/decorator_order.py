# RUN: not tessera-ast %s 2>&1 | FileCheck %s
import triton
import triton.language as tl

BROKEN = [1, 2,, 3]


@triton.jit
@triton.autotune(configs=[], key=BROKEN)
def kernel(x):
    pass

# CHECK: decorator_order.py:8:2: error: @triton.jit must be the decorator closest to 'def'
# CHECK-NEXT: @triton.jit
# CHECK-NEXT: {{^}} ^
# CHECK-NEXT: decorator_order.py:8:2: note: decorators apply bottom-up
