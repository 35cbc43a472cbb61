# Errors in the driver's inputs: AOT signatures, --constexpr values and
# --autotune-config; each exits 1 with a message (located at the kernel or its
# decorator where one applies).
# RUN: not tessera-frontend %s --kernel plain --signature "*fp99,i32,16" 2>&1 | FileCheck %s --check-prefix=POINTEE
# RUN: not tessera-frontend %s --kernel plain --signature "*fp32:7,i32,16" 2>&1 | FileCheck %s --check-prefix=SPEC
# RUN: not tessera-frontend %s --kernel plain --signature "*fp32,i32,'x" 2>&1 | FileCheck %s --check-prefix=LITERAL
# RUN: not tessera-frontend %s --kernel plain --signature "*fp32,i32,16,4" 2>&1 | FileCheck %s --check-prefix=COUNT
# RUN: not tessera-frontend %s --kernel plain --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not tessera-frontend %s --kernel plain --signature "*fp32,i32" --constexpr BLOCK 2>&1 | FileCheck %s --check-prefix=NAMEVALUE
# RUN: not tessera-frontend %s --kernel plain --signature "*fp32,i32" --constexpr "BLOCK=*fp32" 2>&1 | FileCheck %s --check-prefix=NOTVALUE
# RUN: not tessera-frontend %s --kernel plain --signature "*fp32,i32,16" --constexpr BLOCK=3 2>&1 | FileCheck %s --check-prefix=TWICE
# RUN: not tessera-frontend %s --kernel plain --signature "*fp32,i32,16" --autotune-config 0 2>&1 | FileCheck %s --check-prefix=NOTUNE
# RUN: not tessera-frontend %s --kernel tuned --signature "*fp32,i32" --autotune-config 2 2>&1 | FileCheck %s --check-prefix=RANGE
# RUN: not tessera-frontend %s --kernel nope --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=NOKERNEL

import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 16}), triton.Config({"BLOCK": 32})], key=["n"])
@triton.jit
def tuned(p, n, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), 1.0)


@triton.jit
def plain(p, n, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), 1.0)

# POINTEE: error: invalid signature: unknown pointee type 'fp99' in '*fp99'
# SPEC: error: invalid signature: unknown specialization ':7' in '*fp32:7' (expected :16 or :1)
# LITERAL: error: invalid signature: cannot parse ''x' as a value
# COUNT: error: the signature has 4 entries but kernel 'plain' has 3 parameters
# MISSING: error: no value or type for parameter 'BLOCK' of kernel 'plain' (a tl.constexpr: give it with --constexpr BLOCK=VALUE)
# NAMEVALUE: error: expected NAME=VALUE, got 'BLOCK'
# NOTVALUE: error: 'BLOCK=*fp32' does not give a value
# TWICE: error: parameter 'BLOCK' is given both in the signature ('16') and by name
# NOTUNE: errors.py:27:5: error: --autotune-config given, but kernel 'plain' has no @triton.autotune decorator
# NOTUNE-NEXT: {{^}}def plain(p, n, BLOCK: tl.constexpr):{{$}}
# NOTUNE-NEXT: {{^}}    ^{{$}}
# RANGE: errors.py:20:2: error: autotune config 2 does not exist: kernel 'tuned' has 2 configs
# RANGE-NEXT: {{^}}@triton.autotune(
# RANGE-NEXT: {{^}} ^{{$}}
# NOKERNEL: error: no @triton.jit function named 'nope' in {{.*}}errors.py
