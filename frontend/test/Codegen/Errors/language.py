# Misuses of the language in device code: operators, subscripts, attributes,
# comprehensions, unpacking, calls and constexpr values. Each is reported
# with the source line and a caret.
# RUN: not tessera-frontend %s --kernel e_need_tensor --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=NEED_TENSOR
# RUN: not tessera-frontend %s --kernel e_positional --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=POSITIONAL
# RUN: not tessera-frontend %s --kernel e_int_kw --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=INT_KW
# RUN: not tessera-frontend %s --kernel e_comp_target --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=COMP_TARGET
# RUN: not tessera-frontend %s --kernel e_method_attr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=METHOD_ATTR
# RUN: not tessera-frontend %s --kernel e_slice --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SLICE
# RUN: not tessera-frontend %s --kernel e_starred --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STARRED
# RUN: not tessera-frontend %s --kernel e_tuple_attr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TUPLE_ATTR
# RUN: not tessera-frontend %s --kernel e_ellipsis --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ELLIPSIS
# RUN: not tessera-frontend %s --kernel e_unary --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=UNARY
# RUN: not tessera-frontend %s --kernel e_bytes --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BYTES
# RUN: not tessera-frontend %s --kernel e_unsplat --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=UNSPLAT
# RUN: not tessera-frontend %s --kernel e_add_ptrs --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ADD_PTRS
# RUN: not tessera-frontend %s --kernel e_assign_method --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ASSIGN_METHOD
# RUN: not tessera-frontend %s --kernel e_broadcast_rank --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BROADCAST_RANK
# RUN: not tessera-frontend %s --kernel e_broadcast_size --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BROADCAST_SIZE
# RUN: not tessera-frontend %s --kernel e_compare_desc --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=COMPARE_DESC
# RUN: not tessera-frontend %s --kernel e_to_tensor --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TO_TENSOR
# RUN: not tessera-frontend %s --kernel e_pass_method --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=PASS_METHOD
# RUN: not tessera-frontend %s --kernel e_return_dtype --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=RETURN_DTYPE
# RUN: not tessera-frontend %s --kernel e_subscript_dtype --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SUBSCRIPT_DTYPE
# RUN: not tessera-frontend %s --kernel e_unpack_tensor --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=UNPACK_TENSOR
# RUN: not tessera-frontend %s --kernel e_comp_iter --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=COMP_ITER
# RUN: not tessera-frontend %s --kernel e_comp_if --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=COMP_IF
# RUN: not tessera-frontend %s --kernel e_dtype_method --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DTYPE_METHOD
# RUN: not tessera-frontend %s --kernel e_dtype_lt --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DTYPE_LT
# RUN: not tessera-frontend %s --kernel e_scalar_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SCALAR_BLOCK
# RUN: not tessera-frontend %s --kernel e_min_empty --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=MIN_EMPTY
# RUN: not tessera-frontend %s --kernel e_big_literal --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BIG_LITERAL
# RUN: not tessera-frontend %s --kernel e_isinstance_arg --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ISINSTANCE_ARG
# RUN: not tessera-frontend %s --kernel e_isinstance_cls --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ISINSTANCE_CLS
# RUN: not tessera-frontend %s --kernel e_dict_key --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DICT_KEY
# RUN: not tessera-frontend %s --kernel e_len --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=LEN
# RUN: not tessera-frontend %s --kernel e_nested_comp --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=NESTED_COMP
# RUN: not tessera-frontend %s --kernel e_star_call --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STAR_CALL
# RUN: not tessera-frontend %s --kernel e_star_tuple --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STAR_TUPLE
# RUN: not tessera-frontend %s --kernel e_tuple_slice_step --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TUPLE_SLICE_STEP
# RUN: not tessera-frontend %s --kernel e_starred_target --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STARRED_TARGET
# RUN: not tessera-frontend %s --kernel e_string_index --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STRING_INDEX
# RUN: not tessera-frontend %s --kernel e_string_index_type --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=STRING_INDEX_TYPE
# RUN: not tessera-frontend %s --kernel e_desc_attr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DESC_ATTR
# RUN: not tessera-frontend %s --kernel e_tensor_attr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TENSOR_ATTR
# RUN: not tessera-frontend %s --kernel e_combine_count --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=COMBINE_COUNT
# RUN: not tessera-frontend %s --kernel e_combine_type --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=COMBINE_TYPE
# RUN: not tessera-frontend %s --kernel e_constexpr_call --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CONSTEXPR_CALL
# RUN: not tessera-frontend %s --kernel e_unknown_method --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=UNKNOWN_METHOD
# RUN: not tessera-frontend %s --kernel e_in_tensor --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=IN_TENSOR
# RUN: not tessera-frontend %s --kernel e_invert_float --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=INVERT_FLOAT
# RUN: not tessera-frontend %s --kernel e_minus_ptr --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=MINUS_PTR
# RUN: not tessera-frontend %s --kernel e_not_callable --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=NOT_CALLABLE
import triton
import triton.language as tl

GDICT = tl.constexpr({"a": 1})


@triton.jit
def e_need_tensor(p):
    tl.store(p, "text")


@triton.jit
def two(a, b):
    return a


@triton.jit
def e_positional(p):
    x = two(1, 2, 3)


@triton.jit
def e_int_kw(p):
    x = int(3, base=10)


@triton.jit
def e_comp_target(p):
    t = [a + b for a, b in ((1, 2), (3, 4))]


@triton.jit
def e_method_attr(p):
    x = tl.arange(0, 4).to.y


@triton.jit
def e_slice(p):
    s = slice(1, 2)
    y = (1, 2)[s]


@triton.jit
def e_starred(p):
    t = (1, 2)
    y = *t


@triton.jit
def e_tuple_attr(p):
    y = (1, 2).x


@triton.jit
def e_ellipsis(p):
    x = tl.arange(0, 4)[..., None, ...]


@triton.jit
def e_unary(p):
    x = -(1, 2)


@triton.jit
def e_bytes(p):
    x = b"abc"


@triton.jit
def e_unsplat(p):
    x = tl.reshape(tl.arange(0, 4), ())


@triton.jit
def e_add_ptrs(p):
    q = p + p


@triton.jit
def e_assign_method(p):
    f = tl.arange(0, 4).to


@triton.jit
def e_broadcast_rank(p):
    x = tl.broadcast_to(tl.zeros([4, 4], tl.float32), 4)


@triton.jit
def e_broadcast_size(p):
    x = tl.broadcast_to(tl.zeros([4, 2], tl.float32), 4, 4)


@triton.jit
def e_compare_desc(p):
    d = tl.make_tensor_descriptor(p, [16], [1], [16])
    x = d < 3


@triton.jit
def e_to_tensor(p):
    x = tl.to_tensor("s")


@triton.jit
def e_pass_method(p):
    x = two(tl.arange(0, 4).to, 1)


@triton.jit
def ret_dtype():
    return tl.float32


@triton.jit
def e_return_dtype(p):
    x = ret_dtype()


@triton.jit
def e_subscript_dtype(p):
    x = tl.float32[0]


@triton.jit
def e_unpack_tensor(p):
    a, b = tl.arange(0, 4)


@triton.jit
def e_comp_iter(p):
    t = [a for a in tl.arange(0, 4)]


@triton.jit
def e_comp_if(p):
    t = [a for a in (1, 2) if a > 1]


@triton.jit
def e_dtype_method(p):
    x = tl.float32.is_fp32(1)


@triton.jit
def e_dtype_lt(p):
    x = tl.float32 < tl.float16


@triton.jit
def e_scalar_block(p):
    x = tl.full([4], tl.arange(0, 4), tl.float32)


@triton.jit
def e_min_empty(p):
    x = min()


@triton.jit
def e_big_literal(p):
    x = 99999999999999999999


@triton.jit
def e_isinstance_arg(p):
    x = isinstance(p, 3)


@triton.jit
def e_isinstance_cls(p):
    x = isinstance(p, tl.block_type)


@triton.jit
def e_dict_key(p):
    x = GDICT["b"]


@triton.jit
def e_len(p):
    x = len(tl.arange(0, 4))


@triton.jit
def e_nested_comp(p):
    t = [a for a in (1, 2) for b in (3, 4)]


@triton.jit
def e_star_call(p):
    x = two(*p)


@triton.jit
def e_star_tuple(p):
    t = (*p, 1)


@triton.jit
def e_tuple_slice_step(p):
    x = (1, 2, 3)[::0]


@triton.jit
def e_starred_target(p):
    a, *b = (1, 2, 3)


@triton.jit
def e_string_index(p):
    x = "abc"[7]


@triton.jit
def e_string_index_type(p):
    x = "abc"["a"]


@triton.jit
def e_desc_attr(p):
    d = tl.make_tensor_descriptor(p, [16], [1], [16])
    x = d.nope


@triton.jit
def e_tensor_attr(p):
    x = tl.arange(0, 4).nope


@triton.jit
def e_combine_count(p):
    x = tl.reduce((tl.arange(0, 4), tl.arange(0, 4)), 0, pair)


@triton.jit
def e_combine_type(p):
    x = tl.reduce(tl.arange(0, 4), 0, to_float)


@triton.jit
def e_constexpr_call(p):
    x = tl.constexpr(p)


@triton.jit
def e_unknown_method(p):
    x = tl.float32.is_nope()


@triton.jit
def e_in_tensor(p):
    x = tl.arange(0, 4) in (1, 2)


@triton.jit
def e_invert_float(p):
    x = ~tl.zeros([4], tl.float32)


@triton.jit
def e_minus_ptr(p):
    x = -p


@triton.jit
def e_not_callable(p):
    x = p(1)

# The diagnostics, in the order of the RUN lines above.
# NEED_TENSOR: language.py:62:17: error: value must be a tensor, got constexpr['text']
# NEED_TENSOR-NEXT: {{^}}    tl.store(p, "text"){{$}}
# NEED_TENSOR-NEXT: {{^}}                ^{{$}}
# POSITIONAL: language.py:72:9: error: 'two' takes 2 positional arguments but 3 were given
# POSITIONAL-NEXT: {{^}}    x = two(1, 2, 3){{$}}
# POSITIONAL-NEXT: {{^}}        ^{{$}}
# INT_KW: language.py:77:9: error: int() takes no keyword arguments in device code
# INT_KW-NEXT: {{^}}    x = int(3, base=10){{$}}
# INT_KW-NEXT: {{^}}        ^{{$}}
# COMP_TARGET: language.py:82:20: error: a comprehension in device code must bind a single name
# COMP_TARGET-NEXT: {{^}}    t = [a + b for a, b in ((1, 2), (3, 4))]{{$}}
# COMP_TARGET-NEXT: {{^}}                   ^{{$}}
# METHOD_ATTR: language.py:87:28: error: a method has no attribute 'y'
# METHOD_ATTR-NEXT: {{^}}    x = tl.arange(0, 4).to.y{{$}}
# METHOD_ATTR-NEXT: {{^}}                           ^{{$}}
# SLICE: language.py:92:9: error: name 'slice' is not defined
# SLICE-NEXT: {{^}}    s = slice(1, 2){{$}}
# SLICE-NEXT: {{^}}        ^{{$}}
# STARRED: language.py:99:9: error: a starred expression is only allowed in a call or in a tuple
# STARRED-NEXT: {{^}}    y = *t{{$}}
# STARRED-NEXT: {{^}}        ^{{$}}
# TUPLE_ATTR: language.py:104:16: error: a tuple has no attribute 'x'
# TUPLE_ATTR-NEXT: {{^}}    y = (1, 2).x{{$}}
# TUPLE_ATTR-NEXT: {{^}}               ^{{$}}
# ELLIPSIS: language.py:109:25: error: an index can only have a single '...'
# ELLIPSIS-NEXT: {{^}}    x = tl.arange(0, 4)[..., None, ...]{{$}}
# ELLIPSIS-NEXT: {{^}}                        ^{{$}}
# UNARY: language.py:114:9: error: bad operand type for unary -: 'tuple'
# UNARY-NEXT: {{^}}    x = -(1, 2){{$}}
# UNARY-NEXT: {{^}}        ^{{$}}
# BYTES: language.py:119:9: error: bytes literals are not supported in device code
# BYTES-NEXT: {{^}}    x = b"abc"{{$}}
# BYTES-NEXT: {{^}}        ^{{$}}
# UNSPLAT: language.py:124:9: error: can only convert single-element tensors to scalars, got <[4], int32>
# UNSPLAT-NEXT: {{^}}    x = tl.reshape(tl.arange(0, 4), ()){{$}}
# UNSPLAT-NEXT: {{^}}        ^{{$}}
# ADD_PTRS: language.py:129:11: error: cannot add pointers together
# ADD_PTRS-NEXT: {{^}}    q = p + p{{$}}
# ADD_PTRS-NEXT: {{^}}          ^{{$}}
# ASSIGN_METHOD: language.py:134:9: error: cannot assign a bound method to a variable
# ASSIGN_METHOD-NEXT: {{^}}    f = tl.arange(0, 4).to{{$}}
# ASSIGN_METHOD-NEXT: {{^}}        ^{{$}}
# BROADCAST_RANK: language.py:139:9: error: cannot broadcast, rank mismatch: [4, 4], [4]
# BROADCAST_RANK-NEXT: {{^}}    x = tl.broadcast_to(tl.zeros([4, 4], tl.float32), 4){{$}}
# BROADCAST_RANK-NEXT: {{^}}        ^{{$}}
# BROADCAST_SIZE: language.py:144:9: error: cannot broadcast, the expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 1: [4, 2], [4, 4]
# BROADCAST_SIZE-NEXT: {{^}}    x = tl.broadcast_to(tl.zeros([4, 2], tl.float32), 4, 4){{$}}
# BROADCAST_SIZE-NEXT: {{^}}        ^{{$}}
# COMPARE_DESC: language.py:150:13: error: cannot compare tensor_descriptor<fp32[16]> and constexpr[3] with '<'
# COMPARE_DESC-NEXT: {{^}}    x = d < 3{{$}}
# COMPARE_DESC-NEXT: {{^}}            ^{{$}}
# TO_TENSOR: language.py:155:9: error: cannot convert constexpr['s'] to a tensor
# TO_TENSOR-NEXT: {{^}}    x = tl.to_tensor("s"){{$}}
# TO_TENSOR-NEXT: {{^}}        ^{{$}}
# PASS_METHOD: language.py:160:9: error: cannot pass a bound method as an argument
# PASS_METHOD-NEXT: {{^}}    x = two(tl.arange(0, 4).to, 1){{$}}
# PASS_METHOD-NEXT: {{^}}        ^{{$}}
# RETURN_DTYPE: language.py:165:12: error: cannot return a value of type dtype fp32 from a jit function
# RETURN_DTYPE-NEXT: {{^}}    return tl.float32{{$}}
# RETURN_DTYPE-NEXT: {{^}}           ^{{$}}
# RETURN_DTYPE-NEXT: language.py:170:9: note: in the call to 'ret_dtype' here
# SUBSCRIPT_DTYPE: language.py:175:9: error: cannot subscript a value of type dtype fp32
# SUBSCRIPT_DTYPE-NEXT: {{^}}    x = tl.float32[0]{{$}}
# SUBSCRIPT_DTYPE-NEXT: {{^}}        ^{{$}}
# UNPACK_TENSOR: language.py:180:5: error: cannot unpack a value of type <[4], int32>
# UNPACK_TENSOR-NEXT: {{^}}    a, b = tl.arange(0, 4){{$}}
# UNPACK_TENSOR-NEXT: {{^}}    ^{{$}}
# COMP_ITER: language.py:185:21: error: comprehensions in device code iterate over tuples only, got <[4], int32>
# COMP_ITER-NEXT: {{^}}    t = [a for a in tl.arange(0, 4)]{{$}}
# COMP_ITER-NEXT: {{^}}                    ^{{$}}
# COMP_IF: language.py:190:31: error: conditions in comprehensions are not supported in device code
# COMP_IF-NEXT: {{^}}    t = [a for a in (1, 2) if a > 1]{{$}}
# COMP_IF-NEXT: {{^}}                              ^{{$}}
# DTYPE_METHOD: language.py:195:9: error: dtype method 'is_fp32' is not supported in device code
# DTYPE_METHOD-NEXT: {{^}}    x = tl.float32.is_fp32(1){{$}}
# DTYPE_METHOD-NEXT: {{^}}        ^{{$}}
# DTYPE_LT: language.py:200:22: error: dtypes can only be compared with == and !=
# DTYPE_LT-NEXT: {{^}}    x = tl.float32 < tl.float16{{$}}
# DTYPE_LT-NEXT: {{^}}                     ^{{$}}
# SCALAR_BLOCK: language.py:205:9: error: expected a scalar, got a block of type <[4], int32>
# SCALAR_BLOCK-NEXT: {{^}}    x = tl.full([4], tl.arange(0, 4), tl.float32){{$}}
# SCALAR_BLOCK-NEXT: {{^}}        ^{{$}}
# MIN_EMPTY: language.py:210:9: error: expected at least 1 argument
# MIN_EMPTY-NEXT: {{^}}    x = min(){{$}}
# MIN_EMPTY-NEXT: {{^}}        ^{{$}}
# BIG_LITERAL: language.py:215:9: error: integer literal does not fit in 64 bits
# BIG_LITERAL-NEXT: {{^}}    x = 99999999999999999999{{$}}
# BIG_LITERAL-NEXT: {{^}}        ^{{$}}
# ISINSTANCE_ARG: language.py:220:9: error: isinstance() arg 2 must be a class, got constexpr[3]
# ISINSTANCE_ARG-NEXT: {{^}}    x = isinstance(p, 3){{$}}
# ISINSTANCE_ARG-NEXT: {{^}}        ^{{$}}
# ISINSTANCE_CLS: language.py:225:9: error: isinstance() with class 'triton.language.block_type' is not supported in device code
# ISINSTANCE_CLS-NEXT: {{^}}    x = isinstance(p, tl.block_type){{$}}
# ISINSTANCE_CLS-NEXT: {{^}}        ^{{$}}
# DICT_KEY: language.py:230:15: error: key is not in the dict
# DICT_KEY-NEXT: {{^}}    x = GDICT["b"]{{$}}
# DICT_KEY-NEXT: {{^}}              ^{{$}}
# LEN: language.py:235:9: error: len() is not defined for <[4], int32>
# LEN-NEXT: {{^}}    x = len(tl.arange(0, 4)){{$}}
# LEN-NEXT: {{^}}        ^{{$}}
# LEN-NEXT: language.py:235:9: note: use x.shape[0] or x.numel
# NESTED_COMP: language.py:240:9: error: nested comprehensions are not supported in device code
# NESTED_COMP-NEXT: {{^}}    t = [a for a in (1, 2) for b in (3, 4)]{{$}}
# NESTED_COMP-NEXT: {{^}}        ^{{$}}
# STAR_CALL: language.py:245:13: error: only tuples can be unpacked with '*' in a call, got pointer<fp32>
# STAR_CALL-NEXT: {{^}}    x = two(*p){{$}}
# STAR_CALL-NEXT: {{^}}            ^{{$}}
# STAR_TUPLE: language.py:250:10: error: only tuples can be unpacked with '*', got pointer<fp32>
# STAR_TUPLE-NEXT: {{^}}    t = (*p, 1){{$}}
# STAR_TUPLE-NEXT: {{^}}         ^{{$}}
# TUPLE_SLICE_STEP: language.py:255:19: error: slice step cannot be zero
# TUPLE_SLICE_STEP-NEXT: {{^}}    x = (1, 2, 3)[::0]{{$}}
# TUPLE_SLICE_STEP-NEXT: {{^}}                  ^{{$}}
# STARRED_TARGET: language.py:260:8: error: starred assignment targets are not supported in device code
# STARRED_TARGET-NEXT: {{^}}    a, *b = (1, 2, 3){{$}}
# STARRED_TARGET-NEXT: {{^}}       ^{{$}}
# STRING_INDEX: language.py:265:15: error: string index out of range
# STRING_INDEX-NEXT: {{^}}    x = "abc"[7]{{$}}
# STRING_INDEX-NEXT: {{^}}              ^{{$}}
# STRING_INDEX_TYPE: language.py:270:15: error: string indices must be integers
# STRING_INDEX_TYPE-NEXT: {{^}}    x = "abc"["a"]{{$}}
# STRING_INDEX_TYPE-NEXT: {{^}}              ^{{$}}
# DESC_ATTR: language.py:276:11: error: tensor descriptor has no attribute 'nope'
# DESC_ATTR-NEXT: {{^}}    x = d.nope{{$}}
# DESC_ATTR-NEXT: {{^}}          ^{{$}}
# TENSOR_ATTR: language.py:281:25: error: tensor has no attribute 'nope'
# TENSOR_ATTR-NEXT: {{^}}    x = tl.arange(0, 4).nope{{$}}
# TENSOR_ATTR-NEXT: {{^}}                        ^{{$}}
# COMBINE_COUNT: language.py:286:58: error: name 'pair' is not defined
# COMBINE_COUNT-NEXT: {{^}}    x = tl.reduce((tl.arange(0, 4), tl.arange(0, 4)), 0, pair){{$}}
# COMBINE_COUNT-NEXT: {{^}}                                                         ^{{$}}
# COMBINE_TYPE: language.py:291:39: error: name 'to_float' is not defined
# COMBINE_TYPE-NEXT: {{^}}    x = tl.reduce(tl.arange(0, 4), 0, to_float){{$}}
# COMBINE_TYPE-NEXT: {{^}}                                      ^{{$}}
# CONSTEXPR_CALL: language.py:296:9: error: tl.constexpr() needs a compile-time value, got pointer<fp32>
# CONSTEXPR_CALL-NEXT: {{^}}    x = tl.constexpr(p){{$}}
# CONSTEXPR_CALL-NEXT: {{^}}        ^{{$}}
# UNKNOWN_METHOD: language.py:301:9: error: dtype method 'is_nope' is not supported in device code
# UNKNOWN_METHOD-NEXT: {{^}}    x = tl.float32.is_nope(){{$}}
# UNKNOWN_METHOD-NEXT: {{^}}        ^{{$}}
# IN_TENSOR: language.py:306:28: error: 'in' is not supported on tensors
# IN_TENSOR-NEXT: {{^}}    x = tl.arange(0, 4) in (1, 2){{$}}
# IN_TENSOR-NEXT: {{^}}                           ^{{$}}
# INVERT_FLOAT: language.py:311:9: error: wrong type argument to unary invert (<[4], fp32>)
# INVERT_FLOAT-NEXT: {{^}}    x = ~tl.zeros([4], tl.float32){{$}}
# INVERT_FLOAT-NEXT: {{^}}        ^{{$}}
# MINUS_PTR: language.py:316:9: error: wrong type argument to unary minus (pointer<fp32>)
# MINUS_PTR-NEXT: {{^}}    x = -p{{$}}
# MINUS_PTR-NEXT: {{^}}        ^{{$}}
# NOT_CALLABLE: language.py:321:9: error: a value of type pointer<fp32> is not callable
# NOT_CALLABLE-NEXT: {{^}}    x = p(1){{$}}
# NOT_CALLABLE-NEXT: {{^}}        ^{{$}}
