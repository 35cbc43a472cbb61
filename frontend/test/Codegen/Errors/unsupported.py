# Constructs device code cannot contain are rejected with an error naming
# the construct, at its location, with the source line and a caret.
# RUN: not tessera-frontend %s --kernel brk --signature "i32" 2>&1 | FileCheck %s --check-prefix=BRK
# RUN: not tessera-frontend %s --kernel cont --signature "i32" 2>&1 | FileCheck %s --check-prefix=CONT
# RUN: not tessera-frontend %s --kernel tryk --signature "i32" 2>&1 | FileCheck %s --check-prefix=TRY
# RUN: not tessera-frontend %s --kernel withk --signature "i32" 2>&1 | FileCheck %s --check-prefix=WITH
# RUN: not tessera-frontend %s --kernel raisek --signature "i32" 2>&1 | FileCheck %s --check-prefix=RAISE
# RUN: not tessera-frontend %s --kernel delk --signature "i32" 2>&1 | FileCheck %s --check-prefix=DEL
# RUN: not tessera-frontend %s --kernel globalk --signature "i32" 2>&1 | FileCheck %s --check-prefix=GLOBAL
# RUN: not tessera-frontend %s --kernel importk --signature "i32" 2>&1 | FileCheck %s --check-prefix=IMPORT
# RUN: not tessera-frontend %s --kernel nested --signature "i32" 2>&1 | FileCheck %s --check-prefix=NESTED
# RUN: not tessera-frontend %s --kernel lam --signature "i32" 2>&1 | FileCheck %s --check-prefix=LAMBDA
# RUN: not tessera-frontend %s --kernel fstr --signature "i32" 2>&1 | FileCheck %s --check-prefix=FSTR
# RUN: not tessera-frontend %s --kernel dictk --signature "i32" 2>&1 | FileCheck %s --check-prefix=DICT
# RUN: not tessera-frontend %s --kernel setk --signature "i32" 2>&1 | FileCheck %s --check-prefix=SET
# RUN: not tessera-frontend %s --kernel walrus --signature "i32" 2>&1 | FileCheck %s --check-prefix=WALRUS
# RUN: not tessera-frontend %s --kernel genexp --signature "i32" 2>&1 | FileCheck %s --check-prefix=GEN
# RUN: not tessera-frontend %s --kernel forelse --signature "i32" 2>&1 | FileCheck %s --check-prefix=FORELSE
# RUN: not tessera-frontend %s --kernel whileelse --signature "i32" 2>&1 | FileCheck %s --check-prefix=WHILEELSE
# RUN: not tessera-frontend %s --kernel setitem --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SETITEM
# RUN: not tessera-frontend %s --kernel setattr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SETATTR
# RUN: not tessera-frontend %s --kernel pow --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=POW
# RUN: not tessera-frontend %s --kernel matmul --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=MATMUL
# RUN: not tessera-frontend %s --kernel forover --signature "i32" 2>&1 | FileCheck %s --check-prefix=FOROVER
import triton
import triton.language as tl


@triton.jit
def brk(n):
    for i in range(n):
        # BRK: unsupported.py:[[# @LINE + 4]]:9: error: 'break' is not supported in device code
        # BRK-NEXT: {{^}}        break{{$}}
        # BRK-NEXT: {{^}}        ^{{$}}
        # BRK-NEXT: note: restructure the loop: use a while loop whose condition says when to stop, or mask the rest of the iteration
        break


@triton.jit
def cont(n):
    for i in range(n):
        # CONT: unsupported.py:[[# @LINE + 1]]:9: error: 'continue' is not supported in device code
        continue


@triton.jit
def tryk(n):
    # TRY: unsupported.py:[[# @LINE + 1]]:5: error: 'try' is not supported in device code
    try:
        pass
    except Exception:
        pass


@triton.jit
def withk(n):
    # WITH: unsupported.py:[[# @LINE + 1]]:5: error: 'with' is not supported in device code
    with n:
        pass


@triton.jit
def raisek(n):
    # RAISE: unsupported.py:[[# @LINE + 1]]:5: error: 'raise' is not supported in device code
    raise ValueError("no")


@triton.jit
def delk(n):
    # DEL: unsupported.py:[[# @LINE + 1]]:5: error: 'del' is not supported in device code
    del n


@triton.jit
def globalk(n):
    # GLOBAL: unsupported.py:[[# @LINE + 1]]:5: error: 'global' is not supported in device code
    global X


@triton.jit
def importk(n):
    # IMPORT: unsupported.py:[[# @LINE + 1]]:5: error: 'import' is not supported in device code
    import math


@triton.jit
def nested(n):
    # NESTED: unsupported.py:[[# @LINE + 1]]:5: error: a nested function definition is not supported in device code
    def inner(x):
        return x


@triton.jit
def lam(n):
    # LAMBDA: unsupported.py:[[# @LINE + 2]]:9: error: lambda expressions are not supported in device code
    # LAMBDA: note: define a @triton.jit function instead
    f = lambda x: x + 1


@triton.jit
def fstr(n):
    # FSTR: unsupported.py:[[# @LINE + 1]]:21: error: f-strings are not supported in device code
    tl.static_print(f"{n}")


@triton.jit
def dictk(n):
    # DICT: unsupported.py:[[# @LINE + 1]]:9: error: dicts are not supported in device code
    d = {"a": n}


@triton.jit
def setk(n):
    # SET: unsupported.py:[[# @LINE + 1]]:9: error: sets are not supported in device code
    s = {n}


@triton.jit
def walrus(n):
    # WALRUS: unsupported.py:[[# @LINE + 1]]:9: error: assignment expressions (':=') are not supported in device code
    if (m := n) > 0:
        pass


@triton.jit
def genexp(n):
    # GEN: unsupported.py:[[# @LINE + 1]]:9: error: this kind of comprehension is not supported in device code
    t = (x for x in (1, 2))


@triton.jit
def forelse(n):
    for i in range(n):
        pass
    else:
        # FORELSE: unsupported.py:[[# @LINE + 1]]:9: error: 'else' on a for loop is not supported in device code
        pass


@triton.jit
def whileelse(n):
    while n > 0:
        n -= 1
    else:
        # WHILEELSE: unsupported.py:[[# @LINE + 1]]:9: error: 'else' on a while loop is not supported in device code
        pass


@triton.jit
def setitem(p):
    x = tl.load(p + tl.arange(0, 4))
    # SETITEM: unsupported.py:[[# @LINE + 2]]:5: error: item assignment is not supported in device code: tensors are immutable
    # SETITEM: note: build a new tensor with tl.where
    x[0] = 1.0


@triton.jit
def setattr(p):
    # SETATTR: unsupported.py:[[# @LINE + 1]]:5: error: attribute assignment is not supported in device code
    p.x = 1


@triton.jit
def pow(p):
    x = tl.load(p)
    # POW: unsupported.py:[[# @LINE + 1]]:11: error: the '**' operator is not supported on tensors
    y = x ** 2


@triton.jit
def matmul(p):
    x = tl.load(p + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    # MATMUL: unsupported.py:[[# @LINE + 2]]:11: error: the '@' operator is not supported on tensors
    # MATMUL: note: use tl.dot(a, b)
    y = x @ x


@triton.jit
def forover(n):
    # FOROVER: unsupported.py:[[# @LINE + 1]]:14: error: device code can only loop over range(), tl.range() or tl.static_range()
    for i in (1, 2, 3):
        pass
