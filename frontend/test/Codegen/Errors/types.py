# Type and shape errors, and Triton's rules on variables: each kernel below
# is rejected with the error Triton's rules call for, at its location, with
# the source line, a caret and, where one helps, a hint.
# RUN: not tessera-frontend %s --kernel ptr_float --signature "*fp32,fp32" 2>&1 | FileCheck %s --check-prefix=PTR_FLOAT
# RUN: not tessera-frontend %s --kernel neg_unsigned --signature "u32" 2>&1 | FileCheck %s --check-prefix=NEG_UNSIGNED
# RUN: not tessera-frontend %s --kernel out_of_range --signature "*i8" 2>&1 | FileCheck %s --check-prefix=OUT_OF_RANGE
# RUN: not tessera-frontend %s --kernel float_floordiv --signature "fp32" 2>&1 | FileCheck %s --check-prefix=FLOAT_FLOORDIV
# RUN: not tessera-frontend %s --kernel float_bitwise --signature "fp32" 2>&1 | FileCheck %s --check-prefix=FLOAT_BITWISE
# RUN: not tessera-frontend %s --kernel mixed_sign_div --signature "i32,u32" 2>&1 | FileCheck %s --check-prefix=MIXED_SIGN_DIV
# RUN: not tessera-frontend %s --kernel branch_types --signature "i32" 2>&1 | FileCheck %s --check-prefix=BRANCH_TYPES
# RUN: not tessera-frontend %s --kernel both_branch_types --signature "i32" 2>&1 | FileCheck %s --check-prefix=BOTH_BRANCH_TYPES
# RUN: not tessera-frontend %s --kernel loop_type --signature "i32" 2>&1 | FileCheck %s --check-prefix=LOOP_TYPE
# RUN: not tessera-frontend %s --kernel use_ret --signature "i32" 2>&1 | FileCheck %s --check-prefix=USE_RET
# RUN: not tessera-frontend %s --kernel kernel_ret --signature "i32" 2>&1 | FileCheck %s --check-prefix=KERNEL_RET
# RUN: not tessera-frontend %s --kernel fp8_to_int --signature "*fp8e4nv" 2>&1 | FileCheck %s --check-prefix=FP8_TO_INT
# RUN: not tessera-frontend %s --kernel bitcast_size --signature "fp32" 2>&1 | FileCheck %s --check-prefix=BITCAST_SIZE
# RUN: not tessera-frontend %s --kernel shapes --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SHAPES
# RUN: not tessera-frontend %s --kernel store_bigger --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STORE_BIGGER
# RUN: not tessera-frontend %s --kernel dot_shape --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DOT_SHAPE
# RUN: not tessera-frontend %s --kernel dot_dtype --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DOT_DTYPE
# RUN: not tessera-frontend %s --kernel reshape_numel --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=RESHAPE_NUMEL
# RUN: not tessera-frontend %s --kernel bad_permute --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_PERMUTE
# RUN: not tessera-frontend %s --kernel if_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=IF_BLOCK
# RUN: not tessera-frontend %s --kernel constexpr_loop --signature "i32" 2>&1 | FileCheck %s --check-prefix=CONSTEXPR_LOOP
# RUN: not tessera-frontend %s --kernel ann_reassign --signature "i32" 2>&1 | FileCheck %s --check-prefix=ANN_REASSIGN
# RUN: not tessera-frontend %s --kernel string_var --signature "i32" 2>&1 | FileCheck %s --check-prefix=STRING_VAR
# RUN: not tessera-frontend %s --kernel unpack --signature "i32" 2>&1 | FileCheck %s --check-prefix=UNPACK
# RUN: not tessera-frontend %s --kernel ifexp_types --signature "i32" 2>&1 | FileCheck %s --check-prefix=IFEXP_TYPES
# RUN: not tessera-frontend %s --kernel exp_fp16 --signature "*fp16" 2>&1 | FileCheck %s --check-prefix=EXP_FP16
# RUN: not tessera-frontend %s --kernel trans_1d --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TRANS_1D
# RUN: not tessera-frontend %s --kernel tensor_index --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TENSOR_INDEX
# RUN: not tessera-frontend %s --kernel tuple_index --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TUPLE_INDEX
import triton
import triton.language as tl


@triton.jit
def ptr_float(p, x):
    q = p + x


@triton.jit
def neg_unsigned(u):
    y = u + (-1)


@triton.jit
def out_of_range(p):
    x = tl.load(p)
    y = x + 300


@triton.jit
def float_floordiv(x):
    y = x // 2


@triton.jit
def float_bitwise(x):
    y = x & 1


@triton.jit
def mixed_sign_div(a, u):
    y = a // u


@triton.jit
def branch_types(n):
    x = 0
    if n > 0:
        x = 1.0


@triton.jit
def both_branch_types(n):
    if n > 0:
        x = 1.0
    else:
        x = 1


@triton.jit
def loop_type(n):
    acc = 0
    for i in range(n):
        acc = acc + 0.5


@triton.jit
def ret_types(n):
    if n > 0:
        return 1
    return 1.0


@triton.jit
def use_ret(n):
    y = ret_types(n)


@triton.jit
def kernel_ret(n):
    return n


@triton.jit
def fp8_to_int(p):
    x = tl.load(p)
    y = x.to(tl.int32)


@triton.jit
def bitcast_size(x):
    y = x.to(tl.int16, bitcast=True)


@triton.jit
def shapes(p):
    a = tl.arange(0, 16)
    b = tl.arange(0, 32)
    c = a + b


@triton.jit
def store_bigger(p):
    tl.store(p + tl.arange(0, 16), tl.zeros([4, 16], tl.float32))


@triton.jit
def dot_shape(p):
    a = tl.zeros([16, 32], tl.float16)
    b = tl.zeros([16, 16], tl.float16)
    c = tl.dot(a, b)


@triton.jit
def dot_dtype(p):
    a = tl.zeros([16, 16], tl.float16)
    b = tl.zeros([16, 16], tl.float32)
    c = tl.dot(a, b)


@triton.jit
def reshape_numel(p):
    a = tl.zeros([16, 16], tl.float16)
    c = tl.reshape(a, (16, 8))


@triton.jit
def bad_permute(p):
    a = tl.zeros([16, 16], tl.float16)
    c = tl.permute(a, (0, 0))


@triton.jit
def if_block(p):
    x = tl.arange(0, 4)
    if x > 0:
        pass


@triton.jit
def constexpr_loop(n):
    K: tl.constexpr = 4
    for i in range(n):
        K = K + 1


@triton.jit
def ann_reassign(n):
    K: tl.constexpr = 4
    K: tl.constexpr = 5


@triton.jit
def string_var(n):
    s = "abc"


@triton.jit
def unpack(n):
    a, b = n, n, n


@triton.jit
def ifexp_types(n):
    y = 1 if n > 0 else 2.0


@triton.jit
def exp_fp16(p):
    x = tl.load(p)
    y = tl.exp(x)


@triton.jit
def trans_1d(p):
    x = tl.arange(0, 4)
    y = x.T


@triton.jit
def tensor_index(p):
    x = tl.arange(0, 4)
    y = x[0]


@triton.jit
def tuple_index(p):
    t = (1, 2)
    y = t[5]

# The diagnostics, in the order of the RUN lines above.
# PTR_FLOAT: types.py:39:11: error: invalid operands of type pointer<fp32> and fp32
# PTR_FLOAT-NEXT: {{^}}    q = p + x{{$}}
# PTR_FLOAT-NEXT: {{^}}          ^{{$}}
# NEG_UNSIGNED: types.py:44:11: error: cannot perform a binary operation between an unsigned tensor and a negative scalar; cast one of them explicitly
# NEG_UNSIGNED-NEXT: {{^}}    y = u + (-1){{$}}
# NEG_UNSIGNED-NEXT: {{^}}          ^{{$}}
# OUT_OF_RANGE: types.py:50:11: error: scalar 300 is out of range for type int8
# OUT_OF_RANGE-NEXT: {{^}}    y = x + 300{{$}}
# OUT_OF_RANGE-NEXT: {{^}}          ^{{$}}
# FLOAT_FLOORDIV: types.py:55:11: error: '//' needs integer operands, got fp32
# FLOAT_FLOORDIV-NEXT: {{^}}    y = x // 2{{$}}
# FLOAT_FLOORDIV-NEXT: {{^}}          ^{{$}}
# FLOAT_FLOORDIV-NEXT: types.py:55:11: note: use '/' for floating-point division (and tl.floor to round)
# FLOAT_BITWISE: types.py:60:11: error: invalid operands of type fp32 and fp32 for '&'
# FLOAT_BITWISE-NEXT: {{^}}    y = x & 1{{$}}
# FLOAT_BITWISE-NEXT: {{^}}          ^{{$}}
# FLOAT_BITWISE-NEXT: types.py:60:11: note: bitwise operators and shifts need integer (or boolean) operands
# MIXED_SIGN_DIV: types.py:65:11: error: cannot use /, // or % with triton.language.int32 and triton.language.uint32 because they have different signedness; cast them to the same signedness
# MIXED_SIGN_DIV-NEXT: {{^}}    y = a // u{{$}}
# MIXED_SIGN_DIV-NEXT: {{^}}          ^{{$}}
# BRANCH_TYPES: types.py:71:5: error: the initial value of 'x' has type int32, but the then branch redefines it as fp32
# BRANCH_TYPES-NEXT: {{^}}    if n > 0:{{$}}
# BRANCH_TYPES-NEXT: {{^}}    ^{{$}}
# BRANCH_TYPES-NEXT: types.py:71:5: note: a variable keeps its type across the branches of an if with a run-time condition
# BOTH_BRANCH_TYPES: types.py:77:5: error: mismatched type for 'x' between the then branch (fp32) and the else branch (int32)
# BOTH_BRANCH_TYPES-NEXT: {{^}}    if n > 0:{{$}}
# BOTH_BRANCH_TYPES-NEXT: {{^}}    ^{{$}}
# LOOP_TYPE: types.py:86:5: error: loop-carried variable 'acc' has initial type int32 but is reassigned to fp32 in the loop
# LOOP_TYPE-NEXT: {{^}}    for i in range(n):{{$}}
# LOOP_TYPE-NEXT: {{^}}    ^{{$}}
# LOOP_TYPE-NEXT: types.py:86:5: note: make sure the type stays the same, e.g. with .to()
# USE_RET: types.py:94:5: error: inconsistent return types: int32 and fp32
# USE_RET-NEXT: {{^}}    return 1.0{{$}}
# USE_RET-NEXT: {{^}}    ^{{$}}
# USE_RET-NEXT: types.py:99:9: note: in the call to 'ret_types' here
# KERNEL_RET: types.py:104:5: error: a kernel cannot return a value
# KERNEL_RET-NEXT: {{^}}    return n{{$}}
# KERNEL_RET-NEXT: {{^}}    ^{{$}}
# KERNEL_RET-NEXT: types.py:104:5: note: store results through a pointer argument
# FP8_TO_INT: types.py:110:9: error: cannot cast a value of type fp8e4nv to int32
# FP8_TO_INT-NEXT: {{^}}    y = x.to(tl.int32){{$}}
# FP8_TO_INT-NEXT: {{^}}        ^{{$}}
# BITCAST_SIZE: types.py:115:9: error: cannot bitcast data-type of size 32 to data-type of size 16
# BITCAST_SIZE-NEXT: {{^}}    y = x.to(tl.int16, bitcast=True){{$}}
# BITCAST_SIZE-NEXT: {{^}}        ^{{$}}
# SHAPES: types.py:122:11: error: incompatible shapes: dimension 0 is 16 on the left and 32 on the right ([16] vs [32])
# SHAPES-NEXT: {{^}}    c = a + b{{$}}
# SHAPES-NEXT: {{^}}          ^{{$}}
# STORE_BIGGER: types.py:127:36: error: the stored value does not fit the block of pointers it is stored through: <[4, 16], fp32> vs <[16], pointer<fp32>>
# STORE_BIGGER-NEXT: {{^}}    tl.store(p + tl.arange(0, 16), tl.zeros([4, 16], tl.float32)){{$}}
# STORE_BIGGER-NEXT: {{^}}                                   ^{{$}}
# DOT_SHAPE: types.py:134:9: error: the reduction dimensions of dot differ: <[16, 32], fp16> is 16x32 and <[16, 16], fp16> is 16x16
# DOT_SHAPE-NEXT: {{^}}    c = tl.dot(a, b){{$}}
# DOT_SHAPE-NEXT: {{^}}        ^{{$}}
# DOT_DTYPE: types.py:141:9: error: both operands of dot must have the same dtype, got fp16 and fp32
# DOT_DTYPE-NEXT: {{^}}    c = tl.dot(a, b){{$}}
# DOT_DTYPE-NEXT: {{^}}        ^{{$}}
# RESHAPE_NUMEL: types.py:147:9: error: reshape() cannot change the number of elements of a tensor: [16, 16] has 256 elements, [16, 8] has 128
# RESHAPE_NUMEL-NEXT: {{^}}    c = tl.reshape(a, (16, 8)){{$}}
# RESHAPE_NUMEL-NEXT: {{^}}        ^{{$}}
# BAD_PERMUTE: types.py:153:9: error: permute dims must be a permutation of 0, 1, ..., n-1, but were [0, 0]
# BAD_PERMUTE-NEXT: {{^}}    c = tl.permute(a, (0, 0)){{$}}
# BAD_PERMUTE-NEXT: {{^}}        ^{{$}}
# IF_BLOCK: types.py:159:8: error: the truth value of a tensor with more than one element is ambiguous
# IF_BLOCK-NEXT: {{^}}    if x > 0:{{$}}
# IF_BLOCK-NEXT: {{^}}       ^{{$}}
# IF_BLOCK-NEXT: types.py:159:8: note: reduce it first (tl.max, tl.sum, ...) or use tl.where
# CONSTEXPR_LOOP: types.py:166:5: error: 'K' holds a compile-time value before the loop and cannot be reassigned in it
# CONSTEXPR_LOOP-NEXT: {{^}}    for i in range(n):{{$}}
# CONSTEXPR_LOOP-NEXT: {{^}}    ^{{$}}
# CONSTEXPR_LOOP-NEXT: types.py:166:5: note: give it a tensor value before the loop
# ANN_REASSIGN: types.py:173:5: error: 'K' is already defined; a constexpr cannot be reassigned
# ANN_REASSIGN-NEXT: {{^}}    K: tl.constexpr = 5{{$}}
# ANN_REASSIGN-NEXT: {{^}}    ^{{$}}
# STRING_VAR: types.py:178:9: error: cannot assign constexpr['abc'] to a variable in device code
# STRING_VAR-NEXT: {{^}}    s = "abc"{{$}}
# STRING_VAR-NEXT: {{^}}        ^{{$}}
# STRING_VAR-NEXT: types.py:178:9: note: annotate the target (`x: tl.constexpr = ...`) to keep a compile-time value
# UNPACK: types.py:183:5: error: cannot unpack 3 values into 2 targets
# UNPACK-NEXT: {{^}}    a, b = n, n, n{{$}}
# UNPACK-NEXT: {{^}}    ^{{$}}
# IFEXP_TYPES: types.py:188:9: error: a conditional expression with a run-time condition has inconsistent types int32 and fp32
# IFEXP_TYPES-NEXT: {{^}}    y = 1 if n > 0 else 2.0{{$}}
# IFEXP_TYPES-NEXT: {{^}}        ^{{$}}
# EXP_FP16: types.py:194:16: error: expected dtype [fp32, fp64] but got fp16
# EXP_FP16-NEXT: {{^}}    y = tl.exp(x){{$}}
# EXP_FP16-NEXT: {{^}}               ^{{$}}
# EXP_FP16-NEXT: types.py:194:16: note: convert the argument with .to(tl.float32) first
# TRANS_1D: types.py:200:11: error: '.T' transposes 2-D tensors only; this one has rank 1
# TRANS_1D-NEXT: {{^}}    y = x.T{{$}}
# TRANS_1D-NEXT: {{^}}          ^{{$}}
# TRANS_1D-NEXT: types.py:200:11: note: use tl.permute for other ranks
# TENSOR_INDEX: types.py:206:11: error: unsupported tensor index of type constexpr[0]
# TENSOR_INDEX-NEXT: {{^}}    y = x[0]{{$}}
# TENSOR_INDEX-NEXT: {{^}}          ^{{$}}
# TENSOR_INDEX-NEXT: types.py:206:11: note: tensors can be indexed with None, ':' and '...' only; use tl.arange offsets and masks to address elements
# TUPLE_INDEX: types.py:212:11: error: tuple index 5 is out of range for a tuple of 2 elements
# TUPLE_INDEX-NEXT: {{^}}    y = t[5]{{$}}
# TUPLE_INDEX-NEXT: {{^}}          ^{{$}}
