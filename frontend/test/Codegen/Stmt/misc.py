# return of tuples, pass, assert (a device assert only with --debug, as in
# Triton), static_assert and static_print, docstrings.
# RUN: tessera-frontend %s --kernel k --signature "*fp32,i32" | FileCheck %s
# RUN: tessera-frontend %s --kernel k --signature "*fp32,i32" --debug | FileCheck %s --check-prefix=DEBUG
# RUN: tessera-frontend %s --kernel k --signature "*fp32,i32" 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
import triton
import triton.language as tl


@triton.jit
def two(x):
    """A docstring is skipped."""
    pass
    return x, x + 1


@triton.jit
def k(p, n):
    tl.static_assert(n.dtype == tl.int32, "n is an int32")
    tl.static_print("n is", n.dtype, "and p is", p.dtype)
    a, b = two(n)
    # CHECK-NOT: tessera.assert
    # DEBUG: %[[C:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
    # DEBUG: tessera.assert %[[C]], "b must exceed a" {file = "{{.*}}misc.py", function = "k", line = [[# @LINE + 1]] : i32} : i1
    assert b > a, "b must exceed a"
    # DEBUG: tessera.assert %{{.*}}, "" {file = "{{.*}}misc.py", function = "k", line = [[# @LINE + 1]] : i32} : tensor<4xi1>
    tl.device_assert(tl.arange(0, 4) < 4)
    tl.store(p + a, 1.0)
    # PRINT: n is int32 and p is pointer<fp32>
