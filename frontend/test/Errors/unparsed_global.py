# RUN: not tessera-ast %s 2>&1 | FileCheck %s
import triton
import triton.language as tl

BROKEN = [1, 2,, 3]


@triton.autotune(configs=[triton.Config({})], key=BROKEN)
@triton.jit
def kernel(x):
    pass

# CHECK: unparsed_global.py:8:51: error: global 'BROKEN' is needed but its definition could not be parsed
# CHECK: unparsed_global.py:5:16: note: expected an expression, found ','
