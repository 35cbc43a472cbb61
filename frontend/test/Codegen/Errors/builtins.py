# Misuses of tl builtins: each is reported at the call (or the argument
# concerned) with Triton's rule, the source line and a caret.
# RUN: not tessera-frontend %s --kernel arange_pow2 --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ARANGE_POW2
# RUN: not tessera-frontend %s --kernel arange_runtime --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=ARANGE_RUNTIME
# RUN: not tessera-frontend %s --kernel arange_order --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ARANGE_ORDER
# RUN: not tessera-frontend %s --kernel bad_axis --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_AXIS
# RUN: not tessera-frontend %s --kernel other_no_mask --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=OTHER_NO_MASK
# RUN: not tessera-frontend %s --kernel boundary_tensor --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BOUNDARY_TENSOR
# RUN: not tessera-frontend %s --kernel bad_cache --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_CACHE
# RUN: not tessera-frontend %s --kernel bad_evict --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_EVICT
# RUN: not tessera-frontend %s --kernel int_mask --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=INT_MASK
# RUN: not tessera-frontend %s --kernel block_mask --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BLOCK_MASK
# RUN: not tessera-frontend %s --kernel static_fail --signature "*fp32,48" 2>&1 | FileCheck %s --check-prefix=STATIC_FAIL
# RUN: not tessera-frontend %s --kernel static_runtime --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=STATIC_RUNTIME
# RUN: not tessera-frontend %s --kernel libdevice_types --signature "*fp16" 2>&1 | FileCheck %s --check-prefix=LIBDEVICE_TYPES
# RUN: not tessera-frontend %s --kernel unknown_tl --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=UNKNOWN_TL
# RUN: not tessera-frontend %s --kernel bad_kwarg --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_KWARG
# RUN: not tessera-frontend %s --kernel too_many --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=TOO_MANY
# RUN: not tessera-frontend %s --kernel missing_arg --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=MISSING_ARG
# RUN: not tessera-frontend %s --kernel desc_stride --signature "*fp16,i32" 2>&1 | FileCheck %s --check-prefix=DESC_STRIDE
# RUN: not tessera-frontend %s --kernel desc_small --signature "*fp16,i32" 2>&1 | FileCheck %s --check-prefix=DESC_SMALL
# RUN: not tessera-frontend %s --kernel advance_unused --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ADVANCE_UNUSED
# RUN: not tessera-frontend %s --kernel atomic_fp16 --signature "*fp16" 2>&1 | FileCheck %s --check-prefix=ATOMIC_FP16
# RUN: not tessera-frontend %s --kernel cas_width --signature "*i8" 2>&1 | FileCheck %s --check-prefix=CAS_WIDTH
# RUN: not tessera-frontend %s --kernel reduce_host_fn --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=REDUCE_HOST_FN
# RUN: not tessera-frontend %s --kernel hist_float --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=HIST_FLOAT
# RUN: not tessera-frontend %s --kernel noinline_block --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=NOINLINE_BLOCK
# RUN: not tessera-frontend %s --kernel dot_1d --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=DOT_1D
# RUN: not tessera-frontend %s --kernel hint_values --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=HINT_VALUES
# RUN: not tessera-frontend %s --kernel sqrt_rn_f64 --signature "*fp64" 2>&1 | FileCheck %s --check-prefix=SQRT_RN_F64
# RUN: not tessera-frontend %s --kernel cat_reorder --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=CAT_REORDER
# RUN: not tessera-frontend %s --kernel split_odd --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=SPLIT_ODD
# RUN: not tessera-frontend %s --kernel rounding --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ROUNDING
# RUN: not tessera-frontend %s --kernel rounding_up --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ROUNDING_UP
# RUN: not tessera-frontend %s --kernel range_outside --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=RANGE_OUTSIDE
# RUN: not tessera-frontend %s --kernel bad_shape --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_SHAPE
# RUN: not tessera-frontend %s --kernel print_prefix --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=PRINT_PREFIX
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def arange_pow2(p):
    x = tl.arange(0, 12)


@triton.jit
def arange_runtime(p, n):
    x = tl.arange(0, n)


@triton.jit
def arange_order(p):
    x = tl.arange(8, 4)


@triton.jit
def bad_axis(p):
    x = tl.program_id(3)


@triton.jit
def other_no_mask(p):
    x = tl.load(p + tl.arange(0, 4), other=0.0)


@triton.jit
def boundary_tensor(p):
    x = tl.load(p + tl.arange(0, 4), boundary_check=(0,))


@triton.jit
def bad_cache(p):
    x = tl.load(p, cache_modifier=".wb")


@triton.jit
def bad_evict(p):
    tl.store(p, 1.0, eviction_policy="evict_sometimes")


@triton.jit
def int_mask(p):
    x = tl.load(p + tl.arange(0, 4), mask=tl.arange(0, 4))


@triton.jit
def block_mask(p):
    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0, 0), (16, 16), (1, 0))
    x = tl.load(bp, mask=True)


@triton.jit
def static_fail(p, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")


@triton.jit
def static_runtime(p, n):
    tl.static_assert(n > 0)


@triton.jit
def libdevice_types(p):
    x = tl.load(p)
    y = libdevice.asin(x)


@triton.jit
def unknown_tl(p):
    x = tl.no_such_function(p)


@triton.jit
def bad_kwarg(p):
    x = tl.load(p, maskk=True)


@triton.jit
def too_many(p):
    x = tl.arange(0, 4, 8)


@triton.jit
def missing_arg(p):
    x = tl.full((4,), 1.0)


@triton.jit
def desc_stride(p, n):
    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[1, n], block_shape=[16, 16])


@triton.jit
def desc_small(p, n):
    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[n, 1], block_shape=[16, 2])


@triton.jit
def advance_unused(p):
    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0, 0), (16, 16), (1, 0))
    tl.advance(bp, (16, 0))


@triton.jit
def atomic_fp16(p):
    tl.atomic_max(p, 1.0)


@triton.jit
def cas_width(p):
    tl.atomic_cas(p, 0, 1)


@triton.jit
def reduce_host_fn(p):
    x = tl.reduce(tl.arange(0, 4), 0, max)


@triton.jit
def hist_float(p):
    h = tl.histogram(tl.zeros([16], tl.float32), 4)


@triton.jit
def noinline_fn(x):
    return x


@triton.jit(noinline=True)
def keep(x):
    return x


@triton.jit
def noinline_block(p):
    y = keep(tl.arange(0, 4))


@triton.jit
def dot_1d(p):
    c = tl.dot(tl.zeros([16], tl.float16), tl.zeros([16], tl.float16))


@triton.jit
def hint_values(p):
    x = tl.multiple_of(tl.arange(0, 4), (16, 16))


@triton.jit
def sqrt_rn_f64(p):
    x = tl.load(p)
    y = tl.sqrt_rn(x)


@triton.jit
def cat_reorder(p):
    a = tl.arange(0, 4)
    b = tl.cat(a, a)


@triton.jit
def split_odd(p):
    a, b = tl.split(tl.zeros([4, 4], tl.float32))


@triton.jit
def rounding(p):
    x = tl.load(p)
    y = x.to(tl.float16, fp_downcast_rounding="rtn")


@triton.jit
def rounding_up(p):
    x = tl.load(p)
    y = x.to(tl.float64, fp_downcast_rounding="rtz")


@triton.jit
def range_outside(p):
    r = tl.range(0, 4)


@triton.jit
def bad_shape(p):
    x = tl.zeros([3, 4], tl.float32)


@triton.jit
def print_prefix(p):
    tl.device_print(p)

# The diagnostics, in the order of the RUN lines above.
# ARANGE_POW2: builtins.py:45:9: error: arange's range (12) must be a power of 2
# ARANGE_POW2-NEXT: {{^}}    x = tl.arange(0, 12){{$}}
# ARANGE_POW2-NEXT: {{^}}        ^{{$}}
# ARANGE_RUNTIME: builtins.py:50:22: error: arange's end must be a constexpr integer, got int32
# ARANGE_RUNTIME-NEXT: {{^}}    x = tl.arange(0, n){{$}}
# ARANGE_RUNTIME-NEXT: {{^}}                     ^{{$}}
# ARANGE_ORDER: builtins.py:55:9: error: arange's end (4) must be greater than its start (8)
# ARANGE_ORDER-NEXT: {{^}}    x = tl.arange(8, 4){{$}}
# ARANGE_ORDER-NEXT: {{^}}        ^{{$}}
# BAD_AXIS: builtins.py:60:23: error: program_id axis must be 0, 1, or 2 but got 3
# BAD_AXIS-NEXT: {{^}}    x = tl.program_id(3){{$}}
# BAD_AXIS-NEXT: {{^}}                      ^{{$}}
# OTHER_NO_MASK: builtins.py:65:44: error: `other` cannot be provided without `mask`
# OTHER_NO_MASK-NEXT: {{^}}    x = tl.load(p + tl.arange(0, 4), other=0.0){{$}}
# OTHER_NO_MASK-NEXT: {{^}}                                           ^{{$}}
# BOUNDARY_TENSOR: builtins.py:70:9: error: `padding_option` and `boundary_check` apply only to block pointers; a tensor of pointers is guarded by `mask`
# BOUNDARY_TENSOR-NEXT: {{^}}    x = tl.load(p + tl.arange(0, 4), boundary_check=(0,)){{$}}
# BOUNDARY_TENSOR-NEXT: {{^}}        ^{{$}}
# BAD_CACHE: builtins.py:75:35: error: cache modifier '.wb' is not supported by loads (.ca, .cg, .cv)
# BAD_CACHE-NEXT: {{^}}    x = tl.load(p, cache_modifier=".wb"){{$}}
# BAD_CACHE-NEXT: {{^}}                                  ^{{$}}
# BAD_EVICT: builtins.py:80:38: error: eviction policy 'evict_sometimes' is not supported (evict_first, evict_last)
# BAD_EVICT-NEXT: {{^}}    tl.store(p, 1.0, eviction_policy="evict_sometimes"){{$}}
# BAD_EVICT-NEXT: {{^}}                                     ^{{$}}
# INT_MASK: builtins.py:85:43: error: the mask must have boolean type, got <[4], int32>
# INT_MASK-NEXT: {{^}}    x = tl.load(p + tl.arange(0, 4), mask=tl.arange(0, 4)){{$}}
# INT_MASK-NEXT: {{^}}                                          ^{{$}}
# BLOCK_MASK: builtins.py:91:9: error: `mask` and `other` arguments cannot be specified for loading block pointers
# BLOCK_MASK-NEXT: {{^}}    x = tl.load(bp, mask=True){{$}}
# BLOCK_MASK-NEXT: {{^}}        ^{{$}}
# BLOCK_MASK-NEXT: builtins.py:91:9: note: use boundary_check and padding_option
# STATIC_FAIL: builtins.py:96:5: error: static_assert failed: BLOCK must be a multiple of 32
# STATIC_FAIL-NEXT: {{^}}    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32"){{$}}
# STATIC_FAIL-NEXT: {{^}}    ^{{$}}
# STATIC_RUNTIME: builtins.py:101:22: error: static_assert's condition could not be determined at compile time (got int1)
# STATIC_RUNTIME-NEXT: {{^}}    tl.static_assert(n > 0){{$}}
# STATIC_RUNTIME-NEXT: {{^}}                     ^{{$}}
# STATIC_RUNTIME-NEXT: builtins.py:101:22: note: make it depend on constexpr values only
# LIBDEVICE_TYPES: builtins.py:107:9: error: libdevice.asin has no overload for (fp16); it accepts (fp32), (fp64)
# LIBDEVICE_TYPES-NEXT: {{^}}    y = libdevice.asin(x){{$}}
# LIBDEVICE_TYPES-NEXT: {{^}}        ^{{$}}
# LIBDEVICE_TYPES-NEXT: builtins.py:107:9: note: convert the arguments with .to(...) first
# UNKNOWN_TL: builtins.py:112:9: error: 'triton.language.no_such_function' is not supported in device code
# UNKNOWN_TL-NEXT: {{^}}    x = tl.no_such_function(p){{$}}
# UNKNOWN_TL-NEXT: {{^}}        ^{{$}}
# BAD_KWARG: builtins.py:117:26: error: load() got an unexpected keyword argument 'maskk'
# BAD_KWARG-NEXT: {{^}}    x = tl.load(p, maskk=True){{$}}
# BAD_KWARG-NEXT: {{^}}                         ^{{$}}
# TOO_MANY: builtins.py:122:25: error: arange() takes at most 2 positional arguments but 3 were given
# TOO_MANY-NEXT: {{^}}    x = tl.arange(0, 4, 8){{$}}
# TOO_MANY-NEXT: {{^}}                        ^{{$}}
# MISSING_ARG: builtins.py:127:9: error: full() missing required argument 'dtype'
# MISSING_ARG-NEXT: {{^}}    x = tl.full((4,), 1.0){{$}}
# MISSING_ARG-NEXT: {{^}}        ^{{$}}
# DESC_STRIDE: builtins.py:132:60: error: the last stride of a tensor descriptor must be the constant 1, got int32
# DESC_STRIDE-NEXT: {{^}}    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[1, n], block_shape=[16, 16]){{$}}
# DESC_STRIDE-NEXT: {{^}}                                                           ^{{$}}
# DESC_SMALL: builtins.py:137:80: error: descriptor block shape must have at least 16 bytes in the last dimension, but got 2 * 2 = 4 bytes
# DESC_SMALL-NEXT: {{^}}    d = tl.make_tensor_descriptor(p, shape=[n, n], strides=[n, 1], block_shape=[16, 2]){{$}}
# DESC_SMALL-NEXT: {{^}}                                                                               ^{{$}}
# ADVANCE_UNUSED: builtins.py:143:5: error: the result of advance() is not being used
# ADVANCE_UNUSED-NEXT: {{^}}    tl.advance(bp, (16, 0)){{$}}
# ADVANCE_UNUSED-NEXT: {{^}}    ^{{$}}
# ADVANCE_UNUSED-NEXT: builtins.py:143:5: note: advance returns the moved block pointer; assign it (ptr = tl.advance(ptr, offsets))
# ATOMIC_FP16: builtins.py:148:5: error: atomic_max does not support fp16
# ATOMIC_FP16-NEXT: {{^}}    tl.atomic_max(p, 1.0){{$}}
# ATOMIC_FP16-NEXT: {{^}}    ^{{$}}
# CAS_WIDTH: builtins.py:153:5: error: atomic_cas only supports elements with width {16, 32, 64}, not int8
# CAS_WIDTH-NEXT: {{^}}    tl.atomic_cas(p, 0, 1){{$}}
# CAS_WIDTH-NEXT: {{^}}    ^{{$}}
# REDUCE_HOST_FN: builtins.py:158:39: error: combine_fn must be a @triton.jit function, got constexpr[builtins.max]
# REDUCE_HOST_FN-NEXT: {{^}}    x = tl.reduce(tl.arange(0, 4), 0, max){{$}}
# REDUCE_HOST_FN-NEXT: {{^}}                                      ^{{$}}
# HIST_FLOAT: builtins.py:163:9: error: histogram only supports integer input, got <[16], fp32>
# HIST_FLOAT-NEXT: {{^}}    h = tl.histogram(tl.zeros([16], tl.float32), 4){{$}}
# HIST_FLOAT-NEXT: {{^}}        ^{{$}}
# NOINLINE_BLOCK: builtins.py:178:9: error: function 'keep' is marked noinline, but was called with the non-scalar argument 'x' (<[4], int32>)
# NOINLINE_BLOCK-NEXT: {{^}}    y = keep(tl.arange(0, 4)){{$}}
# NOINLINE_BLOCK-NEXT: {{^}}        ^{{$}}
# DOT_1D: builtins.py:183:9: error: the operands of dot must have equal ranks >= 2, got <[16], fp16> and <[16], fp16>
# DOT_1D-NEXT: {{^}}    c = tl.dot(tl.zeros([16], tl.float16), tl.zeros([16], tl.float16)){{$}}
# DOT_1D-NEXT: {{^}}        ^{{$}}
# HINT_VALUES: builtins.py:188:9: error: the shape of the input to multiple_of does not match the length of values
# HINT_VALUES-NEXT: {{^}}    x = tl.multiple_of(tl.arange(0, 4), (16, 16)){{$}}
# HINT_VALUES-NEXT: {{^}}        ^{{$}}
# SQRT_RN_F64: builtins.py:194:20: error: expected dtype [fp32] but got fp64
# SQRT_RN_F64-NEXT: {{^}}    y = tl.sqrt_rn(x){{$}}
# SQRT_RN_F64-NEXT: {{^}}                   ^{{$}}
# SQRT_RN_F64-NEXT: builtins.py:194:20: note: convert the argument with .to(tl.float32) first
# CAT_REORDER: builtins.py:200:9: error: tl.cat may reorder elements: call it with can_reorder=True
# CAT_REORDER-NEXT: {{^}}    b = tl.cat(a, a){{$}}
# CAT_REORDER-NEXT: {{^}}        ^{{$}}
# SPLIT_ODD: builtins.py:205:12: error: split needs a tensor whose last dimension is 2, got <[4, 4], fp32>
# SPLIT_ODD-NEXT: {{^}}    a, b = tl.split(tl.zeros([4, 4], tl.float32)){{$}}
# SPLIT_ODD-NEXT: {{^}}           ^{{$}}
# ROUNDING: builtins.py:211:47: error: invalid rounding mode 'rtn'; the supported rounding modes are 'rtne' and 'rtz'
# ROUNDING-NEXT: {{^}}    y = x.to(tl.float16, fp_downcast_rounding="rtn"){{$}}
# ROUNDING-NEXT: {{^}}                                              ^{{$}}
# ROUNDING_UP: builtins.py:217:9: error: fp_downcast_rounding should be set only for truncating fp conversions; the source scalar type is fp32 and the destination type is fp64
# ROUNDING_UP-NEXT: {{^}}    y = x.to(tl.float64, fp_downcast_rounding="rtz"){{$}}
# ROUNDING_UP-NEXT: {{^}}        ^{{$}}
# RANGE_OUTSIDE: builtins.py:222:9: error: range iterators can only be used as the iterator of a for loop in device code
# RANGE_OUTSIDE-NEXT: {{^}}    r = tl.range(0, 4){{$}}
# RANGE_OUTSIDE-NEXT: {{^}}        ^{{$}}
# BAD_SHAPE: builtins.py:227:18: error: shape element 3 must be a power of 2
# BAD_SHAPE-NEXT: {{^}}    x = tl.zeros([3, 4], tl.float32){{$}}
# BAD_SHAPE-NEXT: {{^}}                 ^{{$}}
# PRINT_PREFIX: builtins.py:232:21: error: the first argument of device_print must be a string, got pointer<fp32>
# PRINT_PREFIX-NEXT: {{^}}    tl.device_print(p){{$}}
# PRINT_PREFIX-NEXT: {{^}}                    ^{{$}}
