# Bad arguments to tl builtins (shapes, dtypes, options), each reported at
# the call or at the argument concerned, with the source line and a caret.
# RUN: not tessera-frontend %s --kernel e_not_yet --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=NOT_YET
# RUN: not tessera-frontend %s --kernel e_float_arg --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=FLOAT_ARG
# RUN: not tessera-frontend %s --kernel e_other_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=OTHER_BLOCK
# RUN: not tessera-frontend %s --kernel e_store_block_mask --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STORE_BLOCK_MASK
# RUN: not tessera-frontend %s --kernel e_advance_rank --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ADVANCE_RANK
# RUN: not tessera-frontend %s --kernel e_reduce_shapes --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=REDUCE_SHAPES
# RUN: not tessera-frontend %s --kernel e_arange_big --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ARANGE_BIG
# RUN: not tessera-frontend %s --kernel e_fdiv_int --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=FDIV_INT
# RUN: not tessera-frontend %s --kernel e_expand_dup --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=EXPAND_DUP
# RUN: not tessera-frontend %s --kernel e_order --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ORDER
# RUN: not tessera-frontend %s --kernel e_desc_load_ptr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DESC_LOAD_PTR
# RUN: not tessera-frontend %s --kernel e_block_ptr_len --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BLOCK_PTR_LEN
# RUN: not tessera-frontend %s --kernel e_desc_strides --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=DESC_STRIDES
# RUN: not tessera-frontend %s --kernel e_fdiv_types --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=FDIV_TYPES
# RUN: not tessera-frontend %s --kernel e_fma_int --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=FMA_INT
# RUN: not tessera-frontend %s --kernel e_hist_2d --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=HIST_2D
# RUN: not tessera-frontend %s --kernel e_broadcast_all --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BROADCAST_ALL
# RUN: not tessera-frontend %s --kernel e_dot_int --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DOT_INT
# RUN: not tessera-frontend %s --kernel e_axis --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=AXIS
# RUN: not tessera-frontend %s --kernel e_join_types --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=JOIN_TYPES
# RUN: not tessera-frontend %s --kernel e_imprecise --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=IMPRECISE
# RUN: not tessera-frontend %s --kernel e_rounds --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ROUNDS
# RUN: not tessera-frontend %s --kernel e_bins --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BINS
# RUN: not tessera-frontend %s --kernel e_philox_counter --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=PHILOX_COUNTER
# RUN: not tessera-frontend %s --kernel e_precision_both --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=PRECISION_BOTH
# RUN: not tessera-frontend %s --kernel e_out_bf16 --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=OUT_BF16
# RUN: not tessera-frontend %s --kernel e_nan_int_block --signature "*i32" 2>&1 | FileCheck %s --check-prefix=NAN_INT_BLOCK
# RUN: not tessera-frontend %s --kernel e_nan_int_desc --signature "*i32" 2>&1 | FileCheck %s --check-prefix=NAN_INT_DESC
# RUN: not tessera-frontend %s --kernel e_permute_len --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=PERMUTE_LEN
# RUN: not tessera-frontend %s --kernel e_propagate --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=PROPAGATE
# RUN: not tessera-frontend %s --kernel e_argmax_axis --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ARGMAX_AXIS
# RUN: not tessera-frontend %s --kernel e_scan_axis --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SCAN_AXIS
# RUN: not tessera-frontend %s --kernel e_scan_scalar --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SCAN_SCALAR
# RUN: not tessera-frontend %s --kernel e_reduce_scalar --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=REDUCE_SCALAR
# RUN: not tessera-frontend %s --kernel e_static_assert_args --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STATIC_ASSERT_ARGS
# RUN: not tessera-frontend %s --kernel e_scalar_mask_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SCALAR_MASK_BLOCK
# RUN: not tessera-frontend %s --kernel e_offset_float --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=OFFSET_FLOAT
# RUN: not tessera-frontend %s --kernel e_atomic_block_ptr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ATOMIC_BLOCK_PTR
# RUN: not tessera-frontend %s --kernel e_cas_block_ptr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CAS_BLOCK_PTR
# RUN: not tessera-frontend %s --kernel e_print_nonascii --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=PRINT_NONASCII
# RUN: not tessera-frontend %s --kernel e_seed_float --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SEED_FLOAT
# RUN: not tessera-frontend %s --kernel e_scalar_value_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SCALAR_VALUE_BLOCK
# RUN: not tessera-frontend %s --kernel e_atomic_shape --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ATOMIC_SHAPE
# RUN: not tessera-frontend %s --kernel e_assume_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ASSUME_BLOCK
# RUN: not tessera-frontend %s --kernel e_cat_types --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CAT_TYPES
# RUN: not tessera-frontend %s --kernel e_cat_rank --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CAT_RANK
# RUN: not tessera-frontend %s --kernel e_trans_1d --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TRANS_1D
# RUN: not tessera-frontend %s --kernel e_uniform --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=UNIFORM
# RUN: not tessera-frontend %s --kernel e_xor_sum_float --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=XOR_SUM_FLOAT
# RUN: not tessera-frontend %s --kernel e_lhs_dtype --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=LHS_DTYPE
# RUN: not tessera-frontend %s --kernel e_unsupported_ptr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=UNSUPPORTED_PTR
import triton
import triton.language as tl

GDICT = tl.constexpr({"a": 1})


@triton.jit
def e_not_yet(p):
    x = tl.map_elementwise(tl.arange(0, 4))


@triton.jit
def e_float_arg(p):
    x = tl.exp(tl.arange(0, 4))


@triton.jit
def e_other_block(p):
    x = tl.load(p, mask=True, other=tl.zeros([4], tl.float32))


@triton.jit
def e_store_block_mask(p):
    bp = tl.make_block_ptr(p, (16,), (1,), (0,), (16,), (0,))
    tl.store(bp, tl.zeros([16], tl.float32), mask=True)


@triton.jit
def e_advance_rank(p):
    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0, 0), (16, 16), (1, 0))
    bp = tl.advance(bp, (16,))


@triton.jit
def e_reduce_shapes(p):
    a, b = tl.reduce((tl.arange(0, 4), tl.arange(0, 8)), 0, two)


@triton.jit
def e_arange_big(p):
    x = tl.arange(0, 2**33)


@triton.jit
def e_fdiv_int(p):
    x = tl.fdiv(tl.arange(0, 4), 2.0)


@triton.jit
def e_expand_dup(p):
    x = tl.expand_dims(tl.arange(0, 4), (0, 0))


@triton.jit
def e_order(p):
    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0, 0), (16, 16), (1, 1))


@triton.jit
def e_desc_load_ptr(p):
    x = tl.load_tensor_descriptor(p, [0])


@triton.jit
def e_block_ptr_len(p):
    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0,), (16, 16), (1, 0))


@triton.jit
def e_desc_strides(p, n):
    d = tl.make_tensor_descriptor(p, [n, n], [1], [16, 16])


@triton.jit
def e_fdiv_types(p):
    x = tl.fdiv(tl.zeros([4], tl.float16), tl.zeros([4], tl.float32))


@triton.jit
def e_fma_int(p):
    x = tl.fma(tl.arange(0, 4), 2, 3)


@triton.jit
def e_hist_2d(p):
    h = tl.histogram(tl.zeros([4, 4], tl.int32), 4)


@triton.jit
def e_broadcast_all(p):
    x = tl.inline_asm_elementwise("", "=r,r,r", [tl.zeros([4], tl.int32), tl.zeros([8], tl.int32)], tl.int32, True, 1)


@triton.jit
def e_dot_int(p):
    a = tl.zeros([16, 16], tl.int16)
    c = tl.dot(a, a)


@triton.jit
def e_axis(p):
    s = tl.sum(tl.zeros([4, 4], tl.float32), axis=2)


@triton.jit
def e_join_types(p):
    x = tl.join(tl.zeros([4], tl.float32), tl.zeros([4], tl.int32))


@triton.jit
def e_imprecise(p):
    a = tl.zeros([16, 16], tl.float8e4nv)
    c = tl.dot(a, a, max_num_imprecise_acc=32)


@triton.jit
def e_rounds(p):
    x = tl.rand(1, tl.arange(0, 4), n_rounds=-1)


@triton.jit
def e_bins(p):
    h = tl.histogram(tl.arange(0, 4), 0)


@triton.jit
def e_philox_counter(p):
    a, b, c, d = tl.philox(1, tl.zeros([4], tl.int8), 0, 0, 0)


@triton.jit
def e_precision_both(p):
    a = tl.zeros([16, 16], tl.float32)
    c = tl.dot(a, a, input_precision="ieee", allow_tf32=True)


@triton.jit
def e_out_bf16(p):
    a = tl.zeros([16, 16], tl.float16)
    c = tl.dot(a, a, out_dtype=tl.bfloat16)


@triton.jit
def e_nan_int_block(p):
    bp = tl.make_block_ptr(p, (16,), (1,), (0,), (16,), (0,))
    x = tl.load(bp, padding_option="nan")


@triton.jit
def e_nan_int_desc(p):
    d = tl.make_tensor_descriptor(p, [16], [1], [16], padding_option="nan")


@triton.jit
def e_permute_len(p):
    x = tl.permute(tl.zeros([4, 4], tl.float32), (0,))


@triton.jit
def e_propagate(p):
    x = tl.maximum(p, p, propagate_nan="yes")


@triton.jit
def e_argmax_axis(p):
    v, i = tl.max(tl.zeros([4], tl.float32), return_indices=True)


@triton.jit
def e_scan_axis(p):
    x = tl.cumsum(tl.zeros([4], tl.float32), axis=1)


@triton.jit
def e_scan_scalar(p):
    x = tl.cumsum(tl.load(p))


@triton.jit
def e_reduce_scalar(p):
    x = tl.sum(tl.load(p))


@triton.jit
def e_static_assert_args(p):
    tl.static_assert()


@triton.jit
def e_scalar_mask_block(p):
    x = tl.load(p, mask=tl.arange(0, 4) < 2)


@triton.jit
def e_offset_float(p):
    x = tl.rand(1, tl.zeros([4], tl.float32))


@triton.jit
def e_atomic_block_ptr(p):
    bp = tl.make_block_ptr(p, (16,), (1,), (0,), (16,), (0,))
    tl.atomic_add(bp, 1.0)


@triton.jit
def e_cas_block_ptr(p):
    bp = tl.make_block_ptr(p, (16,), (1,), (0,), (16,), (0,))
    tl.atomic_cas(bp, 0, 1)


@triton.jit
def e_print_nonascii(p):
    tl.device_print("é", p)


@triton.jit
def e_seed_float(p):
    x = tl.rand(1.5, tl.arange(0, 4))


@triton.jit
def e_scalar_value_block(p):
    tl.store(p, tl.zeros([4], tl.float32))


@triton.jit
def e_atomic_shape(p):
    tl.atomic_add(p + tl.arange(0, 4), tl.zeros([8], tl.float32))


@triton.jit
def e_assume_block(p):
    tl.assume(tl.arange(0, 4) > 0)


@triton.jit
def e_cat_types(p):
    x = tl.cat(tl.zeros([4], tl.float32), tl.zeros([8], tl.float32), can_reorder=True)


@triton.jit
def e_cat_rank(p):
    x = tl.cat(tl.zeros([4, 4], tl.float32), tl.zeros([4, 4], tl.float32), can_reorder=True)


@triton.jit
def e_trans_1d(p):
    x = tl.trans(tl.arange(0, 4))


@triton.jit
def e_uniform(p):
    x = tl.uint_to_uniform_float(tl.zeros([4], tl.int8))


@triton.jit
def e_xor_sum_float(p):
    x = tl.xor_sum(tl.zeros([4], tl.float32))


@triton.jit
def e_lhs_dtype(p):
    a = tl.zeros([16, 16], tl.int32)
    c = tl.dot(a, a)


@triton.jit
def e_unsupported_ptr(p):
    x = tl.load(3)

# The diagnostics, in the order of the RUN lines above.
# NOT_YET: builtin_args.py:62:9: error: triton.language.map_elementwise is not supported by Tessera yet
# NOT_YET-NEXT: {{^}}    x = tl.map_elementwise(tl.arange(0, 4)){{$}}
# NOT_YET-NEXT: {{^}}        ^{{$}}
# FLOAT_ARG: builtin_args.py:67:16: error: expected dtype [fp32, fp64] but got int32
# FLOAT_ARG-NEXT: {{^}}    x = tl.exp(tl.arange(0, 4)){{$}}
# FLOAT_ARG-NEXT: {{^}}               ^{{$}}
# FLOAT_ARG-NEXT: builtin_args.py:67:16: note: convert the argument with .to(tl.float32) first
# OTHER_BLOCK: builtin_args.py:72:37: error: `other` cannot be a block when the pointer is a scalar
# OTHER_BLOCK-NEXT: {{^}}    x = tl.load(p, mask=True, other=tl.zeros([4], tl.float32)){{$}}
# OTHER_BLOCK-NEXT: {{^}}                                    ^{{$}}
# STORE_BLOCK_MASK: builtin_args.py:78:5: error: a `mask` cannot be specified for storing through block pointers
# STORE_BLOCK_MASK-NEXT: {{^}}    tl.store(bp, tl.zeros([16], tl.float32), mask=True){{$}}
# STORE_BLOCK_MASK-NEXT: {{^}}    ^{{$}}
# STORE_BLOCK_MASK-NEXT: builtin_args.py:78:5: note: use boundary_check
# ADVANCE_RANK: builtin_args.py:84:25: error: advance() needs one offset per dimension of the block
# ADVANCE_RANK-NEXT: {{^}}    bp = tl.advance(bp, (16,)){{$}}
# ADVANCE_RANK-NEXT: {{^}}                        ^{{$}}
# REDUCE_SHAPES: builtin_args.py:89:61: error: name 'two' is not defined
# REDUCE_SHAPES-NEXT: {{^}}    a, b = tl.reduce((tl.arange(0, 4), tl.arange(0, 8)), 0, two){{$}}
# REDUCE_SHAPES-NEXT: {{^}}                                                            ^{{$}}
# ARANGE_BIG: builtin_args.py:94:9: error: arange must fit in int32
# ARANGE_BIG-NEXT: {{^}}    x = tl.arange(0, 2**33){{$}}
# ARANGE_BIG-NEXT: {{^}}        ^{{$}}
# FDIV_INT: builtin_args.py:99:9: error: both operands of fdiv must have floating scalar type
# FDIV_INT-NEXT: {{^}}    x = tl.fdiv(tl.arange(0, 4), 2.0){{$}}
# FDIV_INT-NEXT: {{^}}        ^{{$}}
# EXPAND_DUP: builtin_args.py:104:9: error: expand_dims received duplicate axes
# EXPAND_DUP-NEXT: {{^}}    x = tl.expand_dims(tl.arange(0, 4), (0, 0)){{$}}
# EXPAND_DUP-NEXT: {{^}}        ^{{$}}
# ORDER: builtin_args.py:109:68: error: expected a permutation of (0, 1, ..., len(order)-1) in order
# ORDER-NEXT: {{^}}    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0, 0), (16, 16), (1, 1)){{$}}
# ORDER-NEXT: {{^}}                                                                   ^{{$}}
# DESC_LOAD_PTR: builtin_args.py:114:9: error: expected a tensor descriptor, got pointer<fp32>
# DESC_LOAD_PTR-NEXT: {{^}}    x = tl.load_tensor_descriptor(p, [0]){{$}}
# DESC_LOAD_PTR-NEXT: {{^}}        ^{{$}}
# BLOCK_PTR_LEN: builtin_args.py:119:10: error: expected shape, strides, offsets, block_shape and order to have the same length
# BLOCK_PTR_LEN-NEXT: {{^}}    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0,), (16, 16), (1, 0)){{$}}
# BLOCK_PTR_LEN-NEXT: {{^}}         ^{{$}}
# DESC_STRIDES: builtin_args.py:124:46: error: expected 2 strides but got 1
# DESC_STRIDES-NEXT: {{^}}    d = tl.make_tensor_descriptor(p, [n, n], [1], [16, 16]){{$}}
# DESC_STRIDES-NEXT: {{^}}                                             ^{{$}}
# FDIV_TYPES: builtin_args.py:129:9: error: fdiv needs operands of the same type, got <[4], fp16> and <[4], fp32>
# FDIV_TYPES-NEXT: {{^}}    x = tl.fdiv(tl.zeros([4], tl.float16), tl.zeros([4], tl.float32)){{$}}
# FDIV_TYPES-NEXT: {{^}}        ^{{$}}
# FMA_INT: builtin_args.py:134:9: error: fma needs floating-point operands, got <[4], int32>
# FMA_INT-NEXT: {{^}}    x = tl.fma(tl.arange(0, 4), 2, 3){{$}}
# FMA_INT-NEXT: {{^}}        ^{{$}}
# HIST_2D: builtin_args.py:139:9: error: histogram only supports 1D input, got <[4, 4], int32>
# HIST_2D-NEXT: {{^}}    h = tl.histogram(tl.zeros([4, 4], tl.int32), 4){{$}}
# HIST_2D-NEXT: {{^}}        ^{{$}}
# BROADCAST_ALL: builtin_args.py:144:9: error: incompatible shapes for broadcasting: dimension 0 is 4 in one operand and 8 in another
# BROADCAST_ALL-NEXT: {{^}}    x = tl.inline_asm_elementwise("", "=r,r,r", [tl.zeros([4], tl.int32), tl.zeros([8], tl.int32)], tl.int32, True, 1){{$}}
# BROADCAST_ALL-NEXT: {{^}}        ^{{$}}
# DOT_INT: builtin_args.py:150:9: error: unsupported lhs dtype int16 for dot
# DOT_INT-NEXT: {{^}}    c = tl.dot(a, a){{$}}
# DOT_INT-NEXT: {{^}}        ^{{$}}
# AXIS: builtin_args.py:155:9: error: invalid axis 2; expected -2 <= axis < 2
# AXIS-NEXT: {{^}}    s = tl.sum(tl.zeros([4, 4], tl.float32), axis=2){{$}}
# AXIS-NEXT: {{^}}        ^{{$}}
# JOIN_TYPES: builtin_args.py:160:9: error: join needs operands of the same type, got <[4], fp32> and <[4], int32>
# JOIN_TYPES-NEXT: {{^}}    x = tl.join(tl.zeros([4], tl.float32), tl.zeros([4], tl.int32)){{$}}
# JOIN_TYPES-NEXT: {{^}}        ^{{$}}
# IMPRECISE: builtin_args.py:166:9: error: max_num_imprecise_acc (32) must be <= K (16)
# IMPRECISE-NEXT: {{^}}    c = tl.dot(a, a, max_num_imprecise_acc=32){{$}}
# IMPRECISE-NEXT: {{^}}        ^{{$}}
# ROUNDS: builtin_args.py:171:9: error: n_rounds must not be negative
# ROUNDS-NEXT: {{^}}    x = tl.rand(1, tl.arange(0, 4), n_rounds=-1){{$}}
# ROUNDS-NEXT: {{^}}        ^{{$}}
# BINS: builtin_args.py:176:9: error: num_bins must be positive
# BINS-NEXT: {{^}}    h = tl.histogram(tl.arange(0, 4), 0){{$}}
# BINS-NEXT: {{^}}        ^{{$}}
# PHILOX_COUNTER: builtin_args.py:181:18: error: only 32-bit Philox counters are supported, got <[4], int8>
# PHILOX_COUNTER-NEXT: {{^}}    a, b, c, d = tl.philox(1, tl.zeros([4], tl.int8), 0, 0, 0){{$}}
# PHILOX_COUNTER-NEXT: {{^}}                 ^{{$}}
# PRECISION_BOTH: builtin_args.py:187:9: error: only one of input_precision and allow_tf32 can be specified
# PRECISION_BOTH-NEXT: {{^}}    c = tl.dot(a, a, input_precision="ieee", allow_tf32=True){{$}}
# PRECISION_BOTH-NEXT: {{^}}        ^{{$}}
# OUT_BF16: builtin_args.py:193:9: error: out_dtype=bfloat16 is unsupported
# OUT_BF16-NEXT: {{^}}    c = tl.dot(a, a, out_dtype=tl.bfloat16){{$}}
# OUT_BF16-NEXT: {{^}}        ^{{$}}
# OUT_BF16-NEXT: builtin_args.py:193:9: note: use out_dtype=tl.float32 (or tl.float16) and convert with .to(tl.bfloat16)
# NAN_INT_BLOCK: builtin_args.py:199:36: error: padding option 'nan' is not supported for integer block pointers
# NAN_INT_BLOCK-NEXT: {{^}}    x = tl.load(bp, padding_option="nan"){{$}}
# NAN_INT_BLOCK-NEXT: {{^}}                                   ^{{$}}
# NAN_INT_DESC: builtin_args.py:204:70: error: padding option 'nan' is not supported for integer blocks
# NAN_INT_DESC-NEXT: {{^}}    d = tl.make_tensor_descriptor(p, [16], [1], [16], padding_option="nan"){{$}}
# NAN_INT_DESC-NEXT: {{^}}                                                                     ^{{$}}
# PERMUTE_LEN: builtin_args.py:209:9: error: permute dims must have the same length as the input shape: got 1 dims for a rank-2 tensor
# PERMUTE_LEN-NEXT: {{^}}    x = tl.permute(tl.zeros([4, 4], tl.float32), (0,)){{$}}
# PERMUTE_LEN-NEXT: {{^}}        ^{{$}}
# PROPAGATE: builtin_args.py:214:9: error: propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got constexpr['yes']
# PROPAGATE-NEXT: {{^}}    x = tl.maximum(p, p, propagate_nan="yes"){{$}}
# PROPAGATE-NEXT: {{^}}        ^{{$}}
# ARGMAX_AXIS: builtin_args.py:219:12: error: returning indices needs an axis
# ARGMAX_AXIS-NEXT: {{^}}    v, i = tl.max(tl.zeros([4], tl.float32), return_indices=True){{$}}
# ARGMAX_AXIS-NEXT: {{^}}           ^{{$}}
# SCAN_AXIS: builtin_args.py:224:9: error: scan axis 1 must be < the inputs' rank (1)
# SCAN_AXIS-NEXT: {{^}}    x = tl.cumsum(tl.zeros([4], tl.float32), axis=1){{$}}
# SCAN_AXIS-NEXT: {{^}}        ^{{$}}
# SCAN_SCALAR: builtin_args.py:229:9: error: scans need block operands, got fp32
# SCAN_SCALAR-NEXT: {{^}}    x = tl.cumsum(tl.load(p)){{$}}
# SCAN_SCALAR-NEXT: {{^}}        ^{{$}}
# REDUCE_SCALAR: builtin_args.py:234:9: error: reductions need block operands, got fp32
# REDUCE_SCALAR-NEXT: {{^}}    x = tl.sum(tl.load(p)){{$}}
# REDUCE_SCALAR-NEXT: {{^}}        ^{{$}}
# STATIC_ASSERT_ARGS: builtin_args.py:239:5: error: static_assert requires one or two positional arguments only
# STATIC_ASSERT_ARGS-NEXT: {{^}}    tl.static_assert(){{$}}
# STATIC_ASSERT_ARGS-NEXT: {{^}}    ^{{$}}
# SCALAR_MASK_BLOCK: builtin_args.py:244:25: error: the mask cannot be a block when the pointer is a scalar
# SCALAR_MASK_BLOCK-NEXT: {{^}}    x = tl.load(p, mask=tl.arange(0, 4) < 2){{$}}
# SCALAR_MASK_BLOCK-NEXT: {{^}}                        ^{{$}}
# OFFSET_FLOAT: builtin_args.py:249:9: error: the offset must be an integer tensor, got <[4], fp32>
# OFFSET_FLOAT-NEXT: {{^}}    x = tl.rand(1, tl.zeros([4], tl.float32)){{$}}
# OFFSET_FLOAT-NEXT: {{^}}        ^{{$}}
# ATOMIC_BLOCK_PTR: builtin_args.py:255:5: error: the pointer argument of atomic_add must be a pointer or a tensor of pointers, got pointer<<[16], fp32>>
# ATOMIC_BLOCK_PTR-NEXT: {{^}}    tl.atomic_add(bp, 1.0){{$}}
# ATOMIC_BLOCK_PTR-NEXT: {{^}}    ^{{$}}
# CAS_BLOCK_PTR: builtin_args.py:261:5: error: the pointer argument of atomic_cas must be a pointer or a tensor of pointers, got pointer<<[16], fp32>>
# CAS_BLOCK_PTR-NEXT: {{^}}    tl.atomic_cas(bp, 0, 1){{$}}
# CAS_BLOCK_PTR-NEXT: {{^}}    ^{{$}}
# PRINT_NONASCII: builtin_args.py:266:5: error: the prefix of device_print must be an ascii string
# PRINT_NONASCII-NEXT: {{^}}    tl.device_print("é", p){{$}}
# SEED_FLOAT: builtin_args.py:271:9: error: the seed must be an integer, got fp32
# SEED_FLOAT-NEXT: {{^}}    x = tl.rand(1.5, tl.arange(0, 4)){{$}}
# SEED_FLOAT-NEXT: {{^}}        ^{{$}}
# SCALAR_VALUE_BLOCK: builtin_args.py:276:17: error: the value cannot be a block when the pointer is a scalar
# SCALAR_VALUE_BLOCK-NEXT: {{^}}    tl.store(p, tl.zeros([4], tl.float32)){{$}}
# SCALAR_VALUE_BLOCK-NEXT: {{^}}                ^{{$}}
# ATOMIC_SHAPE: builtin_args.py:281:5: error: cannot broadcast, the expanded size of the tensor (4) must match the existing size (8) at non-singleton dimension 0: [8], [4]
# ATOMIC_SHAPE-NEXT: {{^}}    tl.atomic_add(p + tl.arange(0, 4), tl.zeros([8], tl.float32)){{$}}
# ATOMIC_SHAPE-NEXT: {{^}}    ^{{$}}
# ASSUME_BLOCK: builtin_args.py:286:5: error: tl.assume needs a scalar boolean condition, got <[4], int1>
# ASSUME_BLOCK-NEXT: {{^}}    tl.assume(tl.arange(0, 4) > 0){{$}}
# ASSUME_BLOCK-NEXT: {{^}}    ^{{$}}
# CAT_TYPES: builtin_args.py:291:9: error: tl.cat needs operands of the same type, got <[4], fp32> and <[8], fp32>
# CAT_TYPES-NEXT: {{^}}    x = tl.cat(tl.zeros([4], tl.float32), tl.zeros([8], tl.float32), can_reorder=True){{$}}
# CAT_TYPES-NEXT: {{^}}        ^{{$}}
# CAT_RANK: builtin_args.py:296:9: error: tl.cat supports rank-1 tensors only, got <[4, 4], fp32>
# CAT_RANK-NEXT: {{^}}    x = tl.cat(tl.zeros([4, 4], tl.float32), tl.zeros([4, 4], tl.float32), can_reorder=True){{$}}
# CAT_RANK-NEXT: {{^}}        ^{{$}}
# TRANS_1D: builtin_args.py:301:9: error: tl.trans invoked with a 0- or 1-dimensional tensor
# TRANS_1D-NEXT: {{^}}    x = tl.trans(tl.arange(0, 4)){{$}}
# TRANS_1D-NEXT: {{^}}        ^{{$}}
# UNIFORM: builtin_args.py:306:9: error: uint_to_uniform_float expects 32- or 64-bit integers, got <[4], int8>
# UNIFORM-NEXT: {{^}}    x = tl.uint_to_uniform_float(tl.zeros([4], tl.int8)){{$}}
# UNIFORM-NEXT: {{^}}        ^{{$}}
# XOR_SUM_FLOAT: builtin_args.py:311:9: error: xor_sum only supported for integers
# XOR_SUM_FLOAT-NEXT: {{^}}    x = tl.xor_sum(tl.zeros([4], tl.float32)){{$}}
# XOR_SUM_FLOAT-NEXT: {{^}}        ^{{$}}
# LHS_DTYPE: builtin_args.py:317:9: error: unsupported lhs dtype int32 for dot
# LHS_DTYPE-NEXT: {{^}}    c = tl.dot(a, a){{$}}
# LHS_DTYPE-NEXT: {{^}}        ^{{$}}
# UNSUPPORTED_PTR: builtin_args.py:322:17: error: unsupported pointer type constexpr[3] in tl.load
# UNSUPPORTED_PTR-NEXT: {{^}}    x = tl.load(3){{$}}
# UNSUPPORTED_PTR-NEXT: {{^}}                ^{{$}}
