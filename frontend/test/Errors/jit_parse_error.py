# RUN: not tessera-ast %s 2>&1 | FileCheck %s
# A syntax error inside a jit function is reported with a caret; the broken
# host code around it is skipped silently.
import triton
import triton.language as tl

async def host_only():
    await something()

@triton.jit
def kernel(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, N
    tl.store(x_ptr + offs, 0)

print(f"{'nested'}", end="")

@triton.jit
def other(x):
    return x +* 2

# CHECK: jit_parse_error.py:13:5: error: expected ')' to close the call, found name 'tl'
# CHECK-NEXT: {{^}}    tl.store(x_ptr + offs, 0)
# CHECK-NEXT: {{^}}    ^~
# CHECK: jit_parse_error.py:19:15: error: expected an expression, found '*'
# CHECK-NEXT: {{^}}    return x +* 2
# CHECK-NEXT: {{^}}              ^
# CHECK-NOT: error
