"""Kernels whose globals come from the live interpreter: helpers imported
from another package (re-exports, relative imports, submodules), kernels
defined inside functions (closure constants), module-level code around
imports, constexpr globals and host functions called at compile time."""
from __future__ import annotations

import math
import sys

import numpy as np
import pytest

import triton
import triton.language as tl

import pkg
import pkg.ext as ext
from pkg.utils import helper
from pkg.sub import deep

# Module-level code the frontend never evaluates: the interpreter did.
try:
    import a_module_that_does_not_exist  # noqa: F401
    HAVE_OPTIONAL = tl.constexpr(True)
except ImportError:
    HAVE_OPTIONAL = tl.constexpr(False)

if sys.version_info >= (3, 0):
    BIAS = tl.constexpr(10.0)
else:
    BIAS = tl.constexpr(-1.0)

pytestmark = pytest.mark.device
BLOCK = 64


@triton.jit
def apply_helpers(x_ptr, out_ptr, n, WHICH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if WHICH == 0:
        y = helper(x)                      # from pkg.utils import helper
    elif WHICH == 1:
        y = ext.helper(x)                  # import pkg.ext as ext (relative import inside)
    elif WHICH == 2:
        y = pkg.helper(x)                  # a re-export of the package
    elif WHICH == 3:
        y = pkg.sub.deep.negate(x)         # an attribute chain through a subpackage
    elif WHICH == 4:
        y = deep.negate(x) * deep.Consts.FACTOR
    elif WHICH == 5:
        y = ext.twice_offset(x)            # helper -> helper through a module global
    else:
        y = ext.sqrt_of(x)                 # libdevice chosen by try/except ImportError
    if HAVE_OPTIONAL:
        y = y * 0.0
    tl.store(out_ptr + offs, y + BIAS, mask=mask)


EXPECTED = {
    0: lambda x: x * 3, 1: lambda x: x * 3 + 2, 2: lambda x: x * 3, 3: lambda x: -x,
    4: lambda x: -x * 5, 5: lambda x: x + 2, 6: np.sqrt,
}


@pytest.mark.parametrize("which", sorted(EXPECTED))
def test_helpers_from_a_package(lib, rng, which):
    n = 100
    values = rng.uniform(0.5, 2.0, n)
    x = lib.asarray(values, "fp32")
    out = lib.poisoned((n, ), "fp32")
    apply_helpers[(triton.cdiv(n, BLOCK), )](x, out, n, WHICH=which, BLOCK=BLOCK)
    ref = EXPECTED[which](values.astype(np.float32).astype(np.float64)) + 10.0
    # fp32 arithmetic against a float64 reference: adding BIAS (10) costs up
    # to half an fp32 ulp of 10 absolute, whatever is left after cancellation
    # (-5x + 10 with x near 2), and a fused multiply-add may round once less.
    np.testing.assert_allclose(lib.numpy(out), ref, rtol=1e-6, atol=2e-6)


def test_kernel_defined_inside_a_test_with_closure_constants(lib, rng):
    SCALE = tl.constexpr(0.5)
    offset = tl.constexpr(4)

    @triton.jit
    def scale_and_shift(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) * SCALE + offset, mask=mask)

    values = rng.standard_normal(77)
    x = lib.asarray(values, "fp32")
    scale_and_shift[(2, )](x, 77, BLOCK=64)
    np.testing.assert_allclose(lib.numpy(x), values.astype(np.float32) * 0.5 + 4, rtol=1e-6)


def test_kernels_made_by_a_factory_keep_their_own_closures(lib):
    def make_fill(value):
        VALUE = tl.constexpr(value)

        @triton.jit
        def fill(out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, tl.full([BLOCK], VALUE, tl.float32), mask=offs < n)

        return fill

    fill_one, fill_two = make_fill(1.0), make_fill(2.0)
    a = lib.poisoned((8, ), "fp32")
    b = lib.poisoned((8, ), "fp32")
    fill_one[(1, )](a, 8, BLOCK=8)
    fill_two[(1, )](b, 8, BLOCK=8)
    assert np.all(lib.numpy(a) == 1.0) and np.all(lib.numpy(b) == 2.0)


@triton.constexpr_function
def log2_of(n):
    return int(math.log2(n))


@triton.jit
def store_log2(out_ptr, N: tl.constexpr):
    tl.store(out_ptr, log2_of(N))


def test_constexpr_function_runs_at_compile_time(lib):
    out = lib.asarray(np.zeros(1), "i32")
    store_log2[(1, )](out, N=64)
    assert lib.numpy(out)[0] == 6


def _unwrap(o):
    return o.value if isinstance(o, tl.constexpr) else o


@tl.constexpr
def accumulator_type(dtype):
    # A library's compile-time helper: a plain function decorated with
    # @tl.constexpr, calling another plain function.
    return tl.float32 if _unwrap(dtype).is_fp16() else tl.float64


@triton.jit
def widen(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(accumulator_type(x.dtype)) * 2)


def test_constexpr_decorated_host_helpers(lib):
    x = lib.asarray(np.array([1.5, -2.0, 0.25, 4.0]), "fp16")
    out = lib.poisoned((4, ), "fp32")
    widen[(1, )](x, out, BLOCK=4)
    np.testing.assert_array_equal(lib.numpy(out), np.array([3.0, -4.0, 0.5, 8.0], np.float32))


@triton.jit
def cast_to(x_ptr, out_ptr, n, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(DTYPE), mask=mask)


@pytest.mark.parametrize("dtype,name", [(tl.float16, "fp16"), (tl.int32, "i32")])
def test_dtype_constexpr_arguments(lib, dtype, name):
    x = lib.asarray(np.array([1.25, -2.5, 3.75]), "fp32")
    out = lib.poisoned((3, ), name)
    cast_to[(1, )](x, out, 3, DTYPE=dtype, BLOCK=4)
    expected = np.array([1.25, -2.5, 3.75]).astype(np.float16 if name == "fp16" else np.int32)
    np.testing.assert_array_equal(lib.numpy(out), expected)


def test_tl_constexpr_values_as_arguments(lib):
    x = lib.asarray(np.arange(4.0), "fp32")
    out = lib.poisoned((4, ), "fp32")
    cast_to[(1, )](x, out, tl.constexpr(4), DTYPE=tl.constexpr(tl.float32), BLOCK=tl.constexpr(4))
    np.testing.assert_array_equal(lib.numpy(out), np.arange(4.0))


def test_grid_as_a_function_of_meta(lib):
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (triton.cdiv(meta["n"], meta["BLOCK"]), )

    x = lib.asarray(np.ones(200), "fp32")
    out = lib.poisoned((200, ), "fp32")
    apply_helpers[grid](x, out, 200, WHICH=3, BLOCK=64)
    assert seen["n"] == 200 and seen["BLOCK"] == 64 and seen["WHICH"] == 3
    np.testing.assert_allclose(lib.numpy(out), np.full(200, 9.0))


def test_warmup_and_the_launch_handle(lib):
    x = lib.asarray(np.ones(10), "fp32")
    out = lib.poisoned((10, ), "fp32")
    compiled = apply_helpers.warmup(x, out, 10, WHICH=0, BLOCK=16, grid=(1, ))
    assert compiled.name == "apply_helpers"
    assert isinstance(compiled.n_regs, int) and isinstance(compiled.n_spills, int)
    assert "tessera" in compiled.asm and "llvm" in compiled.asm
    assert "apply_helpers" in compiled.asm["tessera"]
    handle = apply_helpers[(1, )](x, out, 10, WHICH=0, BLOCK=16)
    assert handle.name == "apply_helpers"
    np.testing.assert_allclose(lib.numpy(out), np.full(10, 13.0))
    # Warmup with dtypes instead of tensors, as Triton's MockTensor allows.
    try:
        import torch
    except ImportError:
        return
    compiled = apply_helpers.warmup(torch.float32, torch.float32, 10, WHICH=1, BLOCK=16, grid=(1, ))
    assert compiled.name == "apply_helpers"


CHANGING = tl.constexpr(1.0)


@triton.jit
def add_changing(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr) + CHANGING)


def test_rebinding_a_global_after_compiling_is_an_error(lib):
    global CHANGING
    x = lib.asarray(np.zeros(1), "fp32")
    add_changing[(1, )](x)
    assert lib.numpy(x)[0] == 1.0
    saved = CHANGING
    try:
        CHANGING = tl.constexpr(2.0)
        with pytest.raises(RuntimeError, match="global variable 'CHANGING' changed"):
            add_changing[(1, )](x)
    finally:
        CHANGING = saved
    add_changing[(1, )](x)  # the compiled value is back
    assert lib.numpy(x)[0] == 2.0


from triton.language import target_info  # noqa: E402
from triton.language.target_info import is_cuda  # noqa: E402


@triton.jit
def store_target_kind(out_ptr):
    if is_cuda():
        tl.store(out_ptr, 1)
    elif target_info.is_hip():
        tl.store(out_ptr, 2)
    else:
        tl.store(out_ptr, 3)


def test_target_info_predicates_in_device_code(lib):
    out = lib.asarray(np.zeros(1), "i32")
    store_target_kind[(1, )](out)
    backend = triton.runtime.driver.active.get_current_target().backend
    assert lib.numpy(out)[0] == {"cuda": 1, "hip": 2}.get(backend, 3)
