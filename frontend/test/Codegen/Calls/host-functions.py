# Host functions device code runs at compile time: @triton.constexpr_function
# and, as real libraries write them, plain functions decorated with
# @tl.constexpr (Triton calls them with the compile-time arguments). Their
# results are constants: a dtype picks the accumulator type, an int a mask.
# packaging.version is the evaluator's own, even where the module search
# path holds a copy of the package.
# RUN: tessera-frontend %s --kernel k --signature "*fp16,*fp32" --module-path %S/Inputs/vendored | FileCheck %s
# triton.cdiv and triton.next_power_of_2 in device code: constants of
# compile-time arguments, tl.cdiv's arithmetic on tensors.
# RUN: tessera-frontend %s --kernel sizes --signature "*i32,i32,16,40" | FileCheck %s --check-prefix=SIZES
# triton.language.standard._log2, which libraries import behind a try (it is
# not public): floor(log2(N)) of a constexpr, in device and host code.
# RUN: tessera-frontend %s --kernel log2 --signature "*i32,40" | FileCheck %s --check-prefix=LOG2
# tl.core.get_int_dtype and tl.core._unwrap_if_constexpr in device code, as
# Inductor's helpers call them: a dtype of the element's width, a value.
# RUN: tessera-frontend %s --kernel int_view --signature "*fp32,16" | FileCheck %s --check-prefix=INTS
import triton
import triton.language as tl
import triton.language.core as core
from packaging.version import Version

try:
    from triton.language.standard import _log2
except ImportError:
    pass

LOG2_OF_1 = tl.constexpr(_log2(1))
SEVEN = tl.constexpr(7)

NEW_TRITON = tl.constexpr(Version(triton.__version__) >= Version("3.2.0"))


def unwrap_if_constexpr(o):
    return o.value if isinstance(o, tl.constexpr) else o


@tl.constexpr
def get_scan_accum_type(inp_dtype: tl.dtype) -> tl.dtype:
    if inp_dtype.is_bf16() or inp_dtype.is_fp16():
        return tl.float32
    if inp_dtype.is_int():
        return tl.int64
    return inp_dtype


@tl.constexpr
def one_zeros(num_bits: tl.constexpr) -> int:
    num_bits = unwrap_if_constexpr(num_bits)
    return 1 << (num_bits - 1)


@tl.constexpr
def get_int_t(num_bits: tl.constexpr, signed: tl.constexpr) -> tl.dtype:
    assert isinstance(tl.float16, tl.dtype)
    return tl.core.get_int_dtype(unwrap_if_constexpr(num_bits), signed)


@triton.constexpr_function
def twice(n):
    # Imports inside a host function bind in its scope.
    import math
    from math import log2 as lg
    return int(math.sqrt(n)) * int(lg(n))


@triton.jit
def k(x_ptr, out_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    # CHECK: arith.extf %{{.*}} : tensor<16xf16> to tensor<16xf32>
    acc = x.to(get_scan_accum_type(x.dtype))
    # CHECK: arith.constant 3.276800e+04 : f32
    # CHECK: arith.constant 4.000000e+00 : f32
    tl.store(out_ptr + offs, acc + one_zeros(16) + twice(4))
    # An unsigned 16-bit view of the halves, when the version check holds.
    # CHECK: arith.bitcast %{{.*}} : tensor<16xf16> to tensor<16xi16>
    if NEW_TRITON:
        bits = x.to(get_int_t(16, False), bitcast=True)
        tl.store(out_ptr + offs, bits.to(tl.float32))


@triton.jit
def sizes(x_ptr, n, BLOCK: tl.constexpr, N: tl.constexpr):
    NUM: tl.constexpr = triton.cdiv(N, BLOCK)
    offs = tl.arange(0, BLOCK)
    # Three stores (cdiv(40, 16)), each of cdiv(n, 16) + 64.
    # SIZES-COUNT-3: arith.constant 64 : i32
    for i in tl.static_range(NUM):
        tl.store(x_ptr + i * BLOCK + offs, triton.cdiv(n, BLOCK) + triton.next_power_of_2(N))
    # SIZES: arith.divsi %{{.*}}, %{{.*}} : tensor<16xi32>
    tl.store(x_ptr + offs, triton.cdiv(offs, 3))


@triton.jit
def log2(x_ptr, N: tl.constexpr):
    # LOG2: arith.constant 5 : i32
    n_dims: core.constexpr = _log2(N)
    # LOG2: arith.constant 0 : i32
    tl.store(x_ptr, n_dims)
    tl.store(x_ptr + 1, LOG2_OF_1)


@triton.jit
def int_view(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    # INTS: arith.bitcast %{{.*}} : tensor<16xf32> to tensor<16xi32>
    bits = x.to(tl.core.get_int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True), bitcast=True)
    # INTS: arith.constant 7 : i32
    seven = tl.core._unwrap_if_constexpr(SEVEN)
    tl.store(x_ptr + offs, (bits + seven).to(tl.float32))
