# Names: undefined names, globals that are not compile-time constants, host
# functions, calls inside callees (a note names the call site).
# RUN: not tessera-frontend %s --kernel undefined --signature "i32" 2>&1 | FileCheck %s --check-prefix=UNDEF
# RUN: not tessera-frontend %s --kernel plain_global --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=GLOBAL
# RUN: not tessera-frontend %s --kernel host_call --signature "i32" 2>&1 | FileCheck %s --check-prefix=HOST
# RUN: not tessera-frontend %s --kernel deep --signature "i32" 2>&1 | FileCheck %s --check-prefix=DEEP
# RUN: not tessera-frontend %s --kernel recursive --signature "i32" 2>&1 | FileCheck %s --check-prefix=REC
# RUN: not tessera-frontend %s --kernel loop_var --signature "i32" 2>&1 | FileCheck %s --check-prefix=LOOPVAR
# RUN: not tessera-frontend %s --kernel one_branch --signature "i32" 2>&1 | FileCheck %s --check-prefix=ONEBRANCH
# RUN: not tessera-frontend %s --kernel missing --signature "i32" 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not tessera-frontend %s --kernel nope --signature "i32" 2>&1 | FileCheck %s --check-prefix=NOKERNEL
# RUN: not tessera-frontend %s --kernel undefined --signature "*fp99" 2>&1 | FileCheck %s --check-prefix=BADSIG
import triton
import triton.language as tl

SCALE = 2.0
OK = tl.constexpr(3)


def host_helper(x):
    return x + 1


@triton.jit
def undefined(n):
    # UNDEF: names.py:[[# @LINE + 3]]:12: error: name 'nope' is not defined
    # UNDEF-NEXT: {{^}}    return nope + n{{$}}
    # UNDEF-NEXT: {{^}}           ^{{$}}
    return nope + n


@triton.jit
def plain_global(p):
    # GLOBAL: names.py:[[# @LINE + 2]]:22: error: cannot access global variable 'SCALE' from a @triton.jit function: only compile-time constants are visible in device code
    # GLOBAL-NEXT: {{^}}    tl.store(p, OK * SCALE){{$}}
    tl.store(p, OK * SCALE)


@triton.jit
def host_call(n):
    # HOST: names.py:[[# @LINE + 2]]:9: error: cannot call host function 'host_helper' from a @triton.jit function
    # HOST: note: decorate it with @triton.jit, or with @triton.constexpr_function to run it at compile time
    x = host_helper(n)


@triton.jit
def inner(x):
    # DEEP: names.py:[[# @LINE + 1]]:16: error: name 'oops' is not defined
    return x + oops


@triton.jit
def middle(x):
    # DEEP: names.py:[[# @LINE + 1]]:12: note: in the call to 'inner' here
    return inner(x)


@triton.jit
def deep(n):
    # DEEP: names.py:[[# @LINE + 1]]:9: note: in the call to 'middle' here
    y = middle(n)


@triton.jit
def rec(x):
    # REC: names.py:[[# @LINE + 1]]:12: error: recursive call to 'rec': jit functions cannot recurse
    return rec(x)


@triton.jit
def recursive(n):
    y = rec(n)


@triton.jit
def loop_var(n):
    for i in range(n):
        pass
    # LOOPVAR: names.py:[[# @LINE + 1]]:9: error: name 'i' is not defined
    y = i + 1


@triton.jit
def one_branch(n):
    if n > 0:
        only = 1
    # ONEBRANCH: names.py:[[# @LINE + 1]]:9: error: name 'only' is not defined
    y = only + 1


@triton.jit
def two(a, b):
    return a + b


@triton.jit
def missing(n):
    # MISSING: names.py:[[# @LINE + 1]]:9: error: 'two' is missing argument 'b'
    y = two(n)

# NOKERNEL: error: no @triton.jit function named 'nope' in {{.*}}names.py
# BADSIG: error: invalid signature: unknown pointee type 'fp99' in '*fp99'
