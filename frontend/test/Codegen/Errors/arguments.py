# Bad arguments to jit functions and tl builtins (compile-time options, block
# pointer and descriptor operands, dot operands, hints, reductions), each
# reported with the source line and a caret.
# RUN: not tessera-frontend %s --kernel e_multiple_values --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=MULTIPLE_VALUES
# RUN: not tessera-frontend %s --kernel e_not_constexpr --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=NOT_CONSTEXPR
# RUN: not tessera-frontend %s --kernel e_volatile_runtime --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=VOLATILE_RUNTIME
# RUN: not tessera-frontend %s --kernel e_cache_not_string --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CACHE_NOT_STRING
# RUN: not tessera-frontend %s --kernel e_not_dtype --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=NOT_DTYPE
# RUN: not tessera-frontend %s --kernel e_negative_shape --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=NEGATIVE_SHAPE
# RUN: not tessera-frontend %s --kernel e_star_params --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STAR_PARAMS
# RUN: not tessera-frontend %s --kernel e_constexpr_runtime --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CONSTEXPR_RUNTIME
# RUN: not tessera-frontend %s --kernel e_augassign_subscript --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=AUGASSIGN_SUBSCRIPT
# RUN: not tessera-frontend %s --kernel e_augassign_types --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=AUGASSIGN_TYPES
# RUN: not tessera-frontend %s --kernel e_boundary_range --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BOUNDARY_RANGE
# RUN: not tessera-frontend %s --kernel e_boundary_dup --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BOUNDARY_DUP
# RUN: not tessera-frontend %s --kernel e_block_ptr_float --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BLOCK_PTR_FLOAT
# RUN: not tessera-frontend %s --kernel e_block_ptr_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BLOCK_PTR_BLOCK
# RUN: not tessera-frontend %s --kernel e_block_ptr_i64_offset --signature "*fp32,i64" 2>&1 | FileCheck %s --check-prefix=BLOCK_PTR_I64_OFFSET
# RUN: not tessera-frontend %s --kernel e_block_ptr_base --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BLOCK_PTR_BASE
# RUN: not tessera-frontend %s --kernel e_advance_ptr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ADVANCE_PTR
# RUN: not tessera-frontend %s --kernel e_desc_base --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DESC_BASE
# RUN: not tessera-frontend %s --kernel e_desc_ndim --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DESC_NDIM
# RUN: not tessera-frontend %s --kernel e_desc_block_rank --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DESC_BLOCK_RANK
# RUN: not tessera-frontend %s --kernel e_desc_store_shape --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DESC_STORE_SHAPE
# RUN: not tessera-frontend %s --kernel e_desc_atomic --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DESC_ATOMIC
# RUN: not tessera-frontend %s --kernel e_sem --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SEM
# RUN: not tessera-frontend %s --kernel e_scope --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SCOPE
# RUN: not tessera-frontend %s --kernel e_sqrt_rn_int --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SQRT_RN_INT
# RUN: not tessera-frontend %s --kernel e_precision --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=PRECISION
# RUN: not tessera-frontend %s --kernel e_dot_scalar --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DOT_SCALAR
# RUN: not tessera-frontend %s --kernel e_dot_acc --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DOT_ACC
# RUN: not tessera-frontend %s --kernel e_dot_rhs --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DOT_RHS
# RUN: not tessera-frontend %s --kernel e_dot_uint8 --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DOT_UINT8
# RUN: not tessera-frontend %s --kernel e_index_slice --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=INDEX_SLICE
# RUN: not tessera-frontend %s --kernel e_index_type --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=INDEX_TYPE
# RUN: not tessera-frontend %s --kernel e_too_many_indices --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TOO_MANY_INDICES
# RUN: not tessera-frontend %s --kernel e_block_too_big --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BLOCK_TOO_BIG
# RUN: not tessera-frontend %s --kernel e_cdiv_string --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CDIV_STRING
# RUN: not tessera-frontend %s --kernel e_maximum_string --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=MAXIMUM_STRING
# RUN: not tessera-frontend %s --kernel e_multiple_of_runtime --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=MULTIPLE_OF_RUNTIME
# RUN: not tessera-frontend %s --kernel e_multiple_of_zero --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=MULTIPLE_OF_ZERO
# RUN: not tessera-frontend %s --kernel e_reduce_empty --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=REDUCE_EMPTY
# RUN: not tessera-frontend %s --kernel e_combine_arity --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=COMBINE_ARITY
# RUN: not tessera-frontend %s --kernel e_scan_shapes --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SCAN_SHAPES
# RUN: not tessera-frontend %s --kernel e_histogram_mask --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=HISTOGRAM_MASK
# RUN: not tessera-frontend %s --kernel e_compare_ptr_float --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=COMPARE_PTR_FLOAT
# RUN: not tessera-frontend %s --kernel e_atomic_value_shape --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ATOMIC_VALUE_SHAPE
# RUN: not tessera-frontend %s --kernel e_interleave_types --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=INTERLEAVE_TYPES
import triton
import triton.language as tl


@triton.jit
def two(a, b):
    return a


@triton.jit
def star_args(*xs):
    return 0


@triton.jit
def add(a, b):
    return a + b


@triton.jit
def add3(a, b):
    return a + b, a


@triton.jit
def e_multiple_values(p):
    x = two(1, a=2)


@triton.jit
def e_not_constexpr(p, n):
    x = tl.arange(0, n)


@triton.jit
def e_volatile_runtime(p, n):
    x = tl.load(p, volatile=n > 0)


@triton.jit
def e_cache_not_string(p):
    x = tl.load(p, cache_modifier=3)


@triton.jit
def e_not_dtype(p):
    x = tl.zeros([4], 3)


@triton.jit
def e_negative_shape(p):
    x = tl.zeros([-4], tl.float32)


@triton.jit
def e_star_params(p):
    x = star_args(1, 2)


@triton.jit
def e_constexpr_runtime(p):
    x: tl.constexpr = p


@triton.jit
def e_augassign_subscript(p):
    t = (1, 2)
    t[0] += 1


@triton.jit
def e_augassign_types(p):
    x = tl.arange(0, 4)
    x += "s"


@triton.jit
def e_boundary_range(p):
    bp = tl.make_block_ptr(p, (16,), (1,), (0,), (16,), (0,))
    x = tl.load(bp, boundary_check=(1,))


@triton.jit
def e_boundary_dup(p):
    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0, 0), (16, 16), (1, 0))
    x = tl.load(bp, boundary_check=(0, 0))


@triton.jit
def e_block_ptr_float(p):
    bp = tl.make_block_ptr(p, (16.0,), (1,), (0,), (16,), (0,))


@triton.jit
def e_block_ptr_block(p):
    bp = tl.make_block_ptr(p, (tl.arange(0, 4),), (1,), (0,), (16,), (0,))


@triton.jit
def e_block_ptr_i64_offset(p, off):
    bp = tl.make_block_ptr(p, (16,), (1,), (off,), (16,), (0,))


@triton.jit
def e_block_ptr_base(p):
    bp = tl.make_block_ptr(3, (16,), (1,), (0,), (16,), (0,))


@triton.jit
def e_advance_ptr(p):
    q = tl.advance(p, (1,))


@triton.jit
def e_desc_base(p):
    d = tl.make_tensor_descriptor(p + tl.arange(0, 4), [16], [1], [16])


@triton.jit
def e_desc_ndim(p):
    d = tl.make_tensor_descriptor(p, [2, 2, 2, 2, 2, 2], [32, 16, 8, 4, 2, 1], [2, 2, 2, 2, 2, 2])


@triton.jit
def e_desc_block_rank(p):
    d = tl.make_tensor_descriptor(p, [16, 16], [16, 1], [16])


@triton.jit
def e_desc_store_shape(p):
    d = tl.make_tensor_descriptor(p, [16, 16], [16, 1], [16, 16])
    d.store([0, 0], tl.zeros([8, 16], tl.float32))


@triton.jit
def e_desc_atomic(p):
    d = tl.make_tensor_descriptor(p, [16], [1], [16])
    d.atomic_add([0], tl.zeros([16], tl.float32))


@triton.jit
def e_sem(p):
    tl.atomic_add(p, 1.0, sem="sometimes")


@triton.jit
def e_scope(p):
    tl.atomic_add(p, 1.0, scope="planet")


@triton.jit
def e_sqrt_rn_int(p):
    x = tl.sqrt_rn(tl.arange(0, 4))


@triton.jit
def e_precision(p):
    a = tl.zeros([16, 16], tl.float32)
    c = tl.dot(a, a, input_precision="exact")


@triton.jit
def e_dot_scalar(p):
    a = tl.zeros([16, 16], tl.float32)
    c = tl.dot(a, 1.0)


@triton.jit
def e_dot_acc(p):
    a = tl.zeros([16, 16], tl.float16)
    c = tl.dot(a, a, tl.zeros([16, 32], tl.float32))


@triton.jit
def e_dot_rhs(p):
    a = tl.zeros([16, 16], tl.float16)
    b = tl.zeros([16, 16], tl.int16)
    c = tl.dot(a, b)


@triton.jit
def e_dot_uint8(p):
    a = tl.zeros([16, 16], tl.uint8)
    c = tl.dot(a, a)


@triton.jit
def e_index_slice(p):
    x = tl.arange(0, 4)[1:]


@triton.jit
def e_index_type(p):
    x = tl.arange(0, 4)[0]


@triton.jit
def e_too_many_indices(p):
    x = tl.arange(0, 4)[:, :, None]


@triton.jit
def e_block_too_big(p):
    x = tl.zeros([2097152], tl.float32)


@triton.jit
def e_cdiv_string(p):
    x = tl.cdiv("a", 2)


@triton.jit
def e_maximum_string(p):
    x = tl.maximum("a", 1)


@triton.jit
def e_multiple_of_runtime(p, n):
    x = tl.multiple_of(tl.arange(0, 4), n)


@triton.jit
def e_multiple_of_zero(p):
    x = tl.multiple_of(tl.arange(0, 4), 0)


@triton.jit
def e_reduce_empty(p):
    x = tl.reduce((), 0, add)


@triton.jit
def e_combine_arity(p):
    x = tl.reduce(tl.arange(0, 4), 0, add3)


@triton.jit
def e_scan_shapes(p):
    x = tl.associative_scan((tl.arange(0, 4), tl.arange(0, 8)), 0, add)


@triton.jit
def e_histogram_mask(p):
    x = tl.histogram(tl.arange(0, 4), 4, mask=tl.arange(0, 4))


@triton.jit
def e_compare_ptr_float(p):
    x = p < 1.0


@triton.jit
def e_atomic_value_shape(p):
    tl.atomic_add(p, tl.zeros([4], tl.float32))


@triton.jit
def e_interleave_types(p):
    x = tl.interleave(tl.zeros([4], tl.float32), tl.zeros([4], tl.int32))

# The diagnostics, in the order of the RUN lines above.
# MULTIPLE_VALUES: arguments.py:75:9: error: 'two' got multiple values for argument 'a'
# MULTIPLE_VALUES-NEXT: {{^}}    x = two(1, a=2){{$}}
# MULTIPLE_VALUES-NEXT: {{^}}        ^{{$}}
# NOT_CONSTEXPR: arguments.py:80:22: error: arange's end must be a constexpr integer, got int32
# NOT_CONSTEXPR-NEXT: {{^}}    x = tl.arange(0, n){{$}}
# NOT_CONSTEXPR-NEXT: {{^}}                     ^{{$}}
# VOLATILE_RUNTIME: arguments.py:85:29: error: volatile must be a constexpr bool, got int1
# VOLATILE_RUNTIME-NEXT: {{^}}    x = tl.load(p, volatile=n > 0){{$}}
# VOLATILE_RUNTIME-NEXT: {{^}}                            ^{{$}}
# CACHE_NOT_STRING: arguments.py:90:35: error: cache_modifier must be a constexpr string, got constexpr[3]
# CACHE_NOT_STRING-NEXT: {{^}}    x = tl.load(p, cache_modifier=3){{$}}
# CACHE_NOT_STRING-NEXT: {{^}}                                  ^{{$}}
# NOT_DTYPE: arguments.py:95:23: error: dtype must be a dtype (such as tl.float32), got constexpr[3]
# NOT_DTYPE-NEXT: {{^}}    x = tl.zeros([4], 3){{$}}
# NOT_DTYPE-NEXT: {{^}}                      ^{{$}}
# NEGATIVE_SHAPE: arguments.py:100:18: error: the shape must be a tuple of constexpr non-negative integers, got tuple(constexpr[-4])
# NEGATIVE_SHAPE-NEXT: {{^}}    x = tl.zeros([-4], tl.float32){{$}}
# NEGATIVE_SHAPE-NEXT: {{^}}                 ^{{$}}
# STAR_PARAMS: arguments.py:59:15: error: jit functions with *args or **kwargs parameters are not supported
# STAR_PARAMS-NEXT: {{^}}def star_args(*xs):{{$}}
# STAR_PARAMS-NEXT: {{^}}              ^{{$}}
# CONSTEXPR_RUNTIME: arguments.py:110:23: error: a tl.constexpr variable needs a compile-time value, got pointer<fp32>
# CONSTEXPR_RUNTIME-NEXT: {{^}}    x: tl.constexpr = p{{$}}
# CONSTEXPR_RUNTIME-NEXT: {{^}}                      ^{{$}}
# AUGASSIGN_SUBSCRIPT: arguments.py:116:5: error: augmented assignment to this target is not supported in device code; tensors are immutable
# AUGASSIGN_SUBSCRIPT-NEXT: {{^}}    t[0] += 1{{$}}
# AUGASSIGN_SUBSCRIPT-NEXT: {{^}}    ^{{$}}
# AUGASSIGN_TYPES: arguments.py:122:5: error: expected a tensor or a number, got constexpr['s']
# AUGASSIGN_TYPES-NEXT: {{^}}    x += "s"{{$}}
# AUGASSIGN_TYPES-NEXT: {{^}}    ^{{$}}
# BOUNDARY_RANGE: arguments.py:128:36: error: boundary_check dimension 1 is out of range for a rank-1 block
# BOUNDARY_RANGE-NEXT: {{^}}    x = tl.load(bp, boundary_check=(1,)){{$}}
# BOUNDARY_RANGE-NEXT: {{^}}                                   ^{{$}}
# BOUNDARY_DUP: arguments.py:134:36: error: duplicate dimension in boundary_check
# BOUNDARY_DUP-NEXT: {{^}}    x = tl.load(bp, boundary_check=(0, 0)){{$}}
# BOUNDARY_DUP-NEXT: {{^}}                                   ^{{$}}
# BLOCK_PTR_FLOAT: arguments.py:139:31: error: unsupported element in shape/strides/offsets: constexpr[16.0]
# BLOCK_PTR_FLOAT-NEXT: {{^}}    bp = tl.make_block_ptr(p, (16.0,), (1,), (0,), (16,), (0,)){{$}}
# BLOCK_PTR_FLOAT-NEXT: {{^}}                              ^{{$}}
# BLOCK_PTR_BLOCK: arguments.py:144:31: error: expected a scalar in shape/strides/offsets, got <[4], int32>
# BLOCK_PTR_BLOCK-NEXT: {{^}}    bp = tl.make_block_ptr(p, (tl.arange(0, 4),), (1,), (0,), (16,), (0,)){{$}}
# BLOCK_PTR_BLOCK-NEXT: {{^}}                              ^{{$}}
# BLOCK_PTR_I64_OFFSET: arguments.py:149:44: error: offsets are 32-bit: this one is a 64-bit integer
# BLOCK_PTR_I64_OFFSET-NEXT: {{^}}    bp = tl.make_block_ptr(p, (16,), (1,), (off,), (16,), (0,)){{$}}
# BLOCK_PTR_I64_OFFSET-NEXT: {{^}}                                           ^{{$}}
# BLOCK_PTR_I64_OFFSET-NEXT: arguments.py:149:44: note: add a `.to(tl.int32)` or use regular indexing for 64-bit support
# BLOCK_PTR_BASE: arguments.py:154:28: error: expected `base` to be a pointer to a scalar, got constexpr[3]
# BLOCK_PTR_BASE-NEXT: {{^}}    bp = tl.make_block_ptr(3, (16,), (1,), (0,), (16,), (0,)){{$}}
# BLOCK_PTR_BASE-NEXT: {{^}}                           ^{{$}}
# ADVANCE_PTR: arguments.py:159:20: error: advance() needs a block pointer, got pointer<fp32>
# ADVANCE_PTR-NEXT: {{^}}    q = tl.advance(p, (1,)){{$}}
# ADVANCE_PTR-NEXT: {{^}}                   ^{{$}}
# DESC_BASE: arguments.py:164:35: error: expected `base` to be a pointer to a scalar, got <[4], pointer<fp32>>
# DESC_BASE-NEXT: {{^}}    d = tl.make_tensor_descriptor(p + tl.arange(0, 4), [16], [1], [16]){{$}}
# DESC_BASE-NEXT: {{^}}                                  ^{{$}}
# DESC_NDIM: arguments.py:169:38: error: expected 1 <= ndim <= 5 but got 6 dimensions
# DESC_NDIM-NEXT: {{^}}    d = tl.make_tensor_descriptor(p, [2, 2, 2, 2, 2, 2], [32, 16, 8, 4, 2, 1], [2, 2, 2, 2, 2, 2]){{$}}
# DESC_NDIM-NEXT: {{^}}                                     ^{{$}}
# DESC_BLOCK_RANK: arguments.py:174:57: error: expected block_shape to have 2 dimensions but got 1
# DESC_BLOCK_RANK-NEXT: {{^}}    d = tl.make_tensor_descriptor(p, [16, 16], [16, 1], [16]){{$}}
# DESC_BLOCK_RANK-NEXT: {{^}}                                                        ^{{$}}
# DESC_STORE_SHAPE: arguments.py:180:21: error: the stored value has type <[8, 16], fp32> but the descriptor's block is <[16, 16], fp32>
# DESC_STORE_SHAPE-NEXT: {{^}}    d.store([0, 0], tl.zeros([8, 16], tl.float32)){{$}}
# DESC_STORE_SHAPE-NEXT: {{^}}                    ^{{$}}
# DESC_ATOMIC: arguments.py:186:5: error: descriptor atomics, gathers and scatters are not supported yet
# DESC_ATOMIC-NEXT: {{^}}    d.atomic_add([0], tl.zeros([16], tl.float32)){{$}}
# DESC_ATOMIC-NEXT: {{^}}    ^{{$}}
# SEM: arguments.py:191:31: error: memory semantic 'sometimes' is not supported (acquire, release, acq_rel, relaxed)
# SEM-NEXT: {{^}}    tl.atomic_add(p, 1.0, sem="sometimes"){{$}}
# SEM-NEXT: {{^}}                              ^{{$}}
# SCOPE: arguments.py:196:33: error: memory scope 'planet' is not supported (gpu, cta, sys)
# SCOPE-NEXT: {{^}}    tl.atomic_add(p, 1.0, scope="planet"){{$}}
# SCOPE-NEXT: {{^}}                                ^{{$}}
# SQRT_RN_INT: arguments.py:201:20: error: expected dtype [fp32] but got int32
# SQRT_RN_INT-NEXT: {{^}}    x = tl.sqrt_rn(tl.arange(0, 4)){{$}}
# SQRT_RN_INT-NEXT: {{^}}                   ^{{$}}
# SQRT_RN_INT-NEXT: arguments.py:201:20: note: convert the argument with .to(tl.float32) first
# PRECISION: arguments.py:207:38: error: input_precision must be one of tf32, tf32x3, ieee, bf16x3, bf16x6; got 'exact'
# PRECISION-NEXT: {{^}}    c = tl.dot(a, a, input_precision="exact"){{$}}
# PRECISION-NEXT: {{^}}                                     ^{{$}}
# DOT_SCALAR: arguments.py:213:9: error: both operands of dot must be blocks, got <[16, 16], fp32> and constexpr[1.0]
# DOT_SCALAR-NEXT: {{^}}    c = tl.dot(a, 1.0){{$}}
# DOT_SCALAR-NEXT: {{^}}        ^{{$}}
# DOT_ACC: arguments.py:219:22: error: the accumulator has type <[16, 32], fp32>, incompatible with the product's shape
# DOT_ACC-NEXT: {{^}}    c = tl.dot(a, a, tl.zeros([16, 32], tl.float32)){{$}}
# DOT_ACC-NEXT: {{^}}                     ^{{$}}
# DOT_RHS: arguments.py:226:9: error: unsupported rhs dtype int16 for dot
# DOT_RHS-NEXT: {{^}}    c = tl.dot(a, b){{$}}
# DOT_RHS-NEXT: {{^}}        ^{{$}}
# DOT_UINT8: arguments.py:232:9: error: integer dot supports int8 operands only
# DOT_UINT8-NEXT: {{^}}    c = tl.dot(a, a){{$}}
# DOT_UINT8-NEXT: {{^}}        ^{{$}}
# INDEX_SLICE: arguments.py:237:25: error: unsupported tensor index: only ':' slices (whole dimensions) are supported
# INDEX_SLICE-NEXT: {{^}}    x = tl.arange(0, 4)[1:]{{$}}
# INDEX_SLICE-NEXT: {{^}}                        ^{{$}}
# INDEX_SLICE-NEXT: arguments.py:237:25: note: use tl.arange offsets and masks to address part of a tensor
# INDEX_TYPE: arguments.py:242:25: error: unsupported tensor index of type constexpr[0]
# INDEX_TYPE-NEXT: {{^}}    x = tl.arange(0, 4)[0]{{$}}
# INDEX_TYPE-NEXT: {{^}}                        ^{{$}}
# INDEX_TYPE-NEXT: arguments.py:242:25: note: tensors can be indexed with None, ':' and '...' only; use tl.arange offsets and masks to address elements
# A ':' past the rank does nothing (as in Triton); a None past it has no
# dimension to go before.
# TOO_MANY_INDICES: arguments.py:247:31: error: None at index position 2 is past the rank 1 of the tensor it expands
# TOO_MANY_INDICES-NEXT: {{^}}    x = tl.arange(0, 4)[:, :, None]{{$}}
# TOO_MANY_INDICES-NEXT: {{^}}                              ^{{$}}
# BLOCK_TOO_BIG: arguments.py:252:18: error: a block has at most 1048576 elements, this one would have 2097152
# BLOCK_TOO_BIG-NEXT: {{^}}    x = tl.zeros([2097152], tl.float32){{$}}
# BLOCK_TOO_BIG-NEXT: {{^}}                 ^{{$}}
# CDIV_STRING: arguments.py:257:9: error: unsupported operand types for +: 'str' and 'int'
# CDIV_STRING-NEXT: {{^}}    x = tl.cdiv("a", 2){{$}}
# CDIV_STRING-NEXT: {{^}}        ^{{$}}
# MAXIMUM_STRING: arguments.py:262:9: error: cannot convert constexpr['a'] to a tensor
# MAXIMUM_STRING-NEXT: {{^}}    x = tl.maximum("a", 1){{$}}
# MAXIMUM_STRING-NEXT: {{^}}        ^{{$}}
# MULTIPLE_OF_RUNTIME: arguments.py:267:41: error: values element 0 must have type `constexpr[int]`, got int32
# MULTIPLE_OF_RUNTIME-NEXT: {{^}}    x = tl.multiple_of(tl.arange(0, 4), n){{$}}
# MULTIPLE_OF_RUNTIME-NEXT: {{^}}                                        ^{{$}}
# MULTIPLE_OF_ZERO: arguments.py:272:41: error: values element 0 must be positive, got 0
# MULTIPLE_OF_ZERO-NEXT: {{^}}    x = tl.multiple_of(tl.arange(0, 4), 0){{$}}
# MULTIPLE_OF_ZERO-NEXT: {{^}}                                        ^{{$}}
# REDUCE_EMPTY: arguments.py:277:9: error: nothing to reduce
# REDUCE_EMPTY-NEXT: {{^}}    x = tl.reduce((), 0, add){{$}}
# REDUCE_EMPTY-NEXT: {{^}}        ^{{$}}
# COMBINE_ARITY: arguments.py:282:9: error: the combine function must return 1 value(s), it returns 2
# COMBINE_ARITY-NEXT: {{^}}    x = tl.reduce(tl.arange(0, 4), 0, add3){{$}}
# COMBINE_ARITY-NEXT: {{^}}        ^{{$}}
# SCAN_SHAPES: arguments.py:287:9: error: all scan inputs must have the same shape
# SCAN_SHAPES-NEXT: {{^}}    x = tl.associative_scan((tl.arange(0, 4), tl.arange(0, 8)), 0, add){{$}}
# SCAN_SHAPES-NEXT: {{^}}        ^{{$}}
# HISTOGRAM_MASK: arguments.py:292:9: error: the mask must have boolean scalar type
# HISTOGRAM_MASK-NEXT: {{^}}    x = tl.histogram(tl.arange(0, 4), 4, mask=tl.arange(0, 4)){{$}}
# HISTOGRAM_MASK-NEXT: {{^}}        ^{{$}}
# COMPARE_PTR_FLOAT: arguments.py:297:9: error: invalid operands of type pointer<fp32> and fp32
# COMPARE_PTR_FLOAT-NEXT: {{^}}    x = p < 1.0{{$}}
# COMPARE_PTR_FLOAT-NEXT: {{^}}        ^{{$}}
# ATOMIC_VALUE_SHAPE: arguments.py:302:5: error: the value of atomic_add has type <[4], fp32> but the pointer is pointer<fp32>
# ATOMIC_VALUE_SHAPE-NEXT: {{^}}    tl.atomic_add(p, tl.zeros([4], tl.float32)){{$}}
# ATOMIC_VALUE_SHAPE-NEXT: {{^}}    ^{{$}}
# INTERLEAVE_TYPES: arguments.py:307:9: error: join needs operands of the same type, got <[4], fp32> and <[4], int32>
# INTERLEAVE_TYPES-NEXT: {{^}}    x = tl.interleave(tl.zeros([4], tl.float32), tl.zeros([4], tl.int32)){{$}}
# INTERLEAVE_TYPES-NEXT: {{^}}        ^{{$}}
# Shifts and bitwise operators of a float are Python's TypeError (they ended
# the process with std::bad_variant_access; found by fuzzing signatures).
# RUN: not tessera-frontend %s --kernel e_not_constexpr --signature "*fp32,1.5>>2" 2>&1 | FileCheck %s --check-prefix=FLOAT_SHIFT
# RUN: not tessera-frontend %s --kernel e_not_constexpr --signature "*fp32,2^1.0" 2>&1 | FileCheck %s --check-prefix=FLOAT_XOR
# An empty sequence repeated any number of times is empty at once (it
# looped that many times).
# RUN: tessera-frontend %s --kernel e_not_constexpr --signature "*fp32,len(''*44044444444444)+len(()*44044444444444)+8" | FileCheck %s --check-prefix=EMPTY_REPEAT
# EMPTY_REPEAT: tessera.make_range {end = 8 : i32, start = 0 : i32}
# FLOAT_SHIFT: error: invalid signature: cannot evaluate '1.5>>2': unsupported operand types for >>: 'float' and 'int'
# FLOAT_XOR: error: invalid signature: cannot evaluate '2^1.0': unsupported operand types for ^: 'int' and 'float'
