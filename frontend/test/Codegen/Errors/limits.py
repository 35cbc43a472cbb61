# Inputs past the frontend's limits (Limits.h) and inputs that crashed it:
# each ends at once with an error at its line that names the limit, where
# it used to abort, overflow the stack or never finish.
# RUN: not tessera-frontend %s --kernel e_cdiv_str_div --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CDIV_STR_DIV
# RUN: not tessera-frontend %s --kernel e_cdiv_none_div --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CDIV_NONE_DIV
# RUN: not tessera-frontend %s --kernel e_cdiv_float_div --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CDIV_FLOAT_DIV
# RUN: not tessera-frontend %s --kernel e_broadcast_too_big --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BROADCAST_TOO_BIG
# RUN: not tessera-frontend %s --kernel e_augassign_too_big --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=AUGASSIGN_TOO_BIG
# RUN: not tessera-frontend %s --kernel e_dot_too_big --signature "*fp16" 2>&1 | FileCheck %s --check-prefix=DOT_TOO_BIG
# RUN: not tessera-frontend %s --kernel e_join_too_big --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=JOIN_TOO_BIG
# RUN: not tessera-frontend %s --kernel e_zeros_overflow --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ZEROS_OVERFLOW
# RUN: not tessera-frontend %s --kernel e_reshape_overflow --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=RESHAPE_OVERFLOW
# RUN: not tessera-frontend %s --kernel e_static_range_huge --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STATIC_RANGE_HUGE
# RUN: not tessera-frontend %s --kernel e_static_range_nested --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STATIC_RANGE_NESTED
# RUN: tessera-frontend %s --kernel static_range_int64 --signature "*fp32" | FileCheck %s --check-prefix=STATIC_RANGE_INT64
# RUN: tessera-frontend %s --kernel static_range_at_limit --signature "*fp32" | FileCheck %s --check-prefix=STATIC_RANGE_AT_LIMIT
# RUN: not tessera-frontend %s --kernel e_inline_asm_no_args --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=INLINE_ASM_NO_ARGS
# RUN: not tessera-frontend %s --kernel e_inline_asm_pack --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=INLINE_ASM_PACK
import triton
import triton.language as tl


@triton.jit
def e_cdiv_str_div(p):
    x = tl.cdiv(tl.arange(0, 16), "4")


@triton.jit
def e_cdiv_none_div(p):
    x = tl.cdiv(tl.arange(0, 16), None)


@triton.jit
def e_cdiv_float_div(p):
    x = tl.cdiv(tl.arange(0, 16), 4.0)


@triton.jit
def e_broadcast_too_big(p):
    x = tl.arange(0, 2048)[:, None] + tl.arange(0, 1024)[None, :]


@triton.jit
def e_augassign_too_big(p):
    acc = tl.zeros([2048, 1], tl.float32)
    acc += tl.zeros([1, 1024], tl.float32)


@triton.jit
def e_dot_too_big(p):
    a = tl.zeros([2048, 16], tl.float16)
    b = tl.zeros([16, 1024], tl.float16)
    c = tl.dot(a, b)


@triton.jit
def e_join_too_big(p):
    x = tl.join(tl.zeros([1048576], tl.float32), tl.zeros([1048576], tl.float32))


@triton.jit
def e_zeros_overflow(p):
    x = tl.zeros([2**40, 2**40, 2**40], tl.float32)


@triton.jit
def e_reshape_overflow(p):
    x = tl.reshape(tl.arange(0, 16), (2**40, 2**40))


@triton.jit
def e_static_range_huge(p):
    for i in tl.static_range(2**40):
        tl.store(p + i, 1.0)


@triton.jit
def e_static_range_nested(p):
    for i in tl.static_range(100):
        for j in tl.static_range(100):
            tl.store(p + i + j, 1.0)


@triton.jit
def static_range_int64(p):
    for i in tl.static_range(-2**62 * 2, 9223372036854775807, 2**62):
        tl.store(p, 1.0)


@triton.jit
def static_range_at_limit(p):
    for i in tl.static_range(2):
        for j in tl.static_range(4095):
            pass
    tl.store(p, 1.0)


@triton.jit
def e_inline_asm_no_args(p):
    x = tl.inline_asm_elementwise("mov.b32 $0, 0;", "=r", [], dtype=tl.int32,
                                  is_pure=True, pack=1)


@triton.jit
def e_inline_asm_pack(p):
    x = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r",
                                  [tl.arange(0, 16)], dtype=tl.int32,
                                  is_pure=True, pack=0)

# CDIV_STR_DIV: limits.py:{{[0-9]+}}:35: error: cdiv expects a number or a tensor as the divisor, got constexpr['4']
# CDIV_STR_DIV-NEXT: {{^}}    x = tl.cdiv(tl.arange(0, 16), "4"){{$}}

# CDIV_NONE_DIV: limits.py:{{[0-9]+}}:35: error: cdiv expects a number or a tensor as the divisor, got constexpr[None]

# A float divisor is Triton's (x + 3.0) // 4.0, which needs integers.
# CDIV_FLOAT_DIV: error: '//' needs integer operands, got <[16], fp32>

# BROADCAST_TOO_BIG: error: broadcasting makes a block of shape [2048, 1024] with 2097152 elements; a block has at most 1048576
# BROADCAST_TOO_BIG-NEXT: {{^}}    x = tl.arange(0, 2048)[:, None] + tl.arange(0, 1024)[None, :]{{$}}
# BROADCAST_TOO_BIG-NOT: error

# AUGASSIGN_TOO_BIG: error: broadcasting makes a block of shape [2048, 1024] with 2097152 elements; a block has at most 1048576

# DOT_TOO_BIG: limits.py:{{[0-9]+}}:9: error: this makes a block of shape [2048, 1024] with 2097152 elements; a block has at most 1048576
# DOT_TOO_BIG-NEXT: {{^}}    c = tl.dot(a, b){{$}}

# JOIN_TOO_BIG: error: this makes a block of shape [1048576, 2] with 2097152 elements; a block has at most 1048576

# ZEROS_OVERFLOW: error: a block has at most 1048576 elements, this one would have 9223372036854775807

# RESHAPE_OVERFLOW: error: reshape() cannot change the number of elements of a tensor: [16] has 16 elements, [1099511627776, 1099511627776] has 9223372036854775807

# STATIC_RANGE_HUGE: limits.py:{{[0-9]+}}:14: error: tl.static_range would unroll 1099511627776 more iterations, past the limit of 8192 unrolled iterations per kernel
# STATIC_RANGE_HUGE: note: use tl.range() or range() for a loop that runs that often

# STATIC_RANGE_NESTED: error: tl.static_range would unroll 100 more iterations, past the limit of 8192 unrolled iterations per kernel

# Bounds spanning all of int64 unroll 4 times (the counter overflowed and
# the loop never ended).
# STATIC_RANGE_INT64: func.func @static_range_int64
# STATIC_RANGE_INT64-COUNT-4: tessera.store
# STATIC_RANGE_INT64-NOT: tessera.store

# Every unrolled body counts, the outer ones too: 2 + 2 * 4095 = 8192.
# STATIC_RANGE_AT_LIMIT: func.func @static_range_at_limit

# INLINE_ASM_NO_ARGS: error: inline_asm_elementwise needs at least one tensor argument: the result takes its shape from the arguments

# INLINE_ASM_PACK: error: inline_asm_elementwise: pack must be 1 or more, got 0
