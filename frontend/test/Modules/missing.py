# An import that cannot be resolved fails only the kernel that uses a name
# from it, at the use, with a note at the import; a module that does not
# parse is reported with its own error.
# RUN: tessera-frontend %s --kernel fine --signature "*fp32" --module-path %S/Inputs | FileCheck %s --check-prefix=FINE
# RUN: not tessera-frontend %s --kernel uses_missing --signature "*fp32" --module-path %S/Inputs 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not tessera-frontend %s --kernel uses_broken --signature "*fp32" --module-path %S/Inputs 2>&1 | FileCheck %s --check-prefix=BROKEN
import triton
import triton.language as tl

import nosuchpkg.helpers as nh
from mypkg.broken import bad


# FINE-LABEL: func.func @fine
@triton.jit
def fine(p):
    offs = tl.arange(0, 16)
    tl.store(p + offs, tl.load(p + offs))


@triton.jit
def uses_missing(p):
    offs = tl.arange(0, 16)
    # MISSING: missing.py:[[@LINE+3]]:{{[0-9]+}}: error: 'nosuchpkg.helpers.twice' cannot be used: module 'nosuchpkg' was not found (searched {{.*}}Inputs
    # MISSING: missing.py:10:{{[0-9]+}}: note: 'nh' is imported here
    # MISSING-NOT: error
    tl.store(p + offs, nh.twice(tl.load(p + offs)))


@triton.jit
def uses_broken(p):
    offs = tl.arange(0, 16)
    # BROKEN: error: {{.*}}module 'mypkg.broken' does not compile:
    # BROKEN: broken.py:7:{{[0-9]+}}: error:
    tl.store(p + offs, bad(tl.load(p + offs)))
