# Host functions device code runs at compile time: a failed assertion ends
# the compile with its message, at the assert; get_int_dtype of a width no
# integer has is an error naming it.
# RUN: not tessera-frontend %s --kernel bad_width --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=ASSERT
# RUN: not tessera-frontend %s --kernel odd_int --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=WIDTH
import triton
import triton.language as tl


@triton.constexpr_function
def checked_width(bits):
    # ASSERT: host-functions.py:[[# @LINE + 1]]:5: error: assertion failed in a host function: the width is not a power of 2
    assert bits & (bits - 1) == 0, "the width is not a power of 2"
    return bits


@tl.constexpr
def int_of(bits):
    # WIDTH: host-functions.py:[[# @LINE + 1]]:12: error: get_int_dtype: no integer dtype of 12 bits
    return tl.core.get_int_dtype(bits, True)


@triton.jit
def bad_width(out_ptr):
    tl.store(out_ptr, checked_width(12))


@triton.jit
def odd_int(out_ptr):
    tl.store(out_ptr, tl.zeros([1], int_of(12)))
