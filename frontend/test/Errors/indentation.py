# RUN: not tessera-ast %s 2>&1 | FileCheck %s
import triton


@triton.jit
def kernel(x):
    if x:
        y = 1
      z = 2
    return y

# CHECK: indentation.py:9:7: error: unindent does not match any outer indentation level
