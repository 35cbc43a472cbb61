"""Errors a Triton user meets: each names what is wrong (the parameter, the
option, the name) and compile errors point into the user's file."""
from __future__ import annotations

import inspect
import os

import numpy as np
import pytest

import triton
import triton.language as tl
from tessera import _binding

pytestmark = pytest.mark.device

NOT_CONSTEXPR = 3


def _C_error_type():
    """tessera._C.TesseraError (looked up late: collection needs no binding)."""
    return _binding.load().TesseraError


@triton.jit
def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def test_missing_argument_names_it(lib):
    x = lib.asarray(np.ones(4), "fp32")
    with pytest.raises(TypeError, match="'n'"):
        copy[(1, )](x, x, BLOCK=4)


def test_unsupported_argument_type_names_the_parameter(lib):
    x = lib.asarray(np.ones(4), "fp32")
    with pytest.raises(TypeError, match="x_ptr"):
        copy[(1, )]({"not": "a tensor"}, x, 4, BLOCK=4)
    with pytest.raises(TypeError, match="n"):
        copy[(1, )](x, x, object(), BLOCK=4)


def test_tuples_are_constants_only(lib):
    x = lib.asarray(np.ones(4), "fp32")
    # A tuple of constants is a tl.constexpr argument; a run-time parameter
    # takes none, and a tuple holding a tensor is no constant.
    with pytest.raises(Exception, match="argument 'n': a tuple can only be passed to a tl.constexpr"):
        copy[(1, )](x, x, (4, ), BLOCK=4)
    with pytest.raises(Exception, match="argument 'BLOCK': a tl.constexpr parameter cannot take a tuple"):
        copy[(1, )](x, x, 4, BLOCK=(x, ))


def test_unsupported_dtype_names_the_parameter(lib):
    if lib.name != "numpy":
        pytest.skip("complex arrays are a NumPy case")
    x = np.ones(4, np.complex64)
    out = np.ones(4, np.float32)
    with pytest.raises(TypeError, match="x_ptr"):
        copy[(1, )](x, out, 4, BLOCK=4)


def test_tensor_on_the_wrong_device_names_the_parameter(lib):
    if lib.name != "torch":
        pytest.skip("needs torch devices")
    import torch
    good = lib.asarray(np.ones(4), "fp32")
    if triton.runtime.driver.active.get_current_target().backend == "cpu":
        if not torch.cuda.is_available():
            pytest.skip("no second torch device type on this machine")
        wrong = torch.ones(4, device="cuda")
    else:
        wrong = torch.ones(4)
    with pytest.raises(ValueError, match="out_ptr"):
        copy[(1, )](good, wrong, 4, BLOCK=4)


def test_unexpected_keyword_and_unsupported_option(lib):
    x = lib.asarray(np.ones(4), "fp32")
    with pytest.raises(TypeError, match="unexpected keyword argument 'BLOCKK'"):
        copy[(1, )](x, x, 4, BLOCK=4, BLOCKK=4)
    with pytest.raises(TypeError, match="'enable_fp_fusion' of Triton's kernel call is not supported"):
        copy[(1, )](x, x, 4, BLOCK=4, enable_fp_fusion=False)


@triton.jit
def bad_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, undefined_name + offs)  # noqa: F821


def _line_of(fn, text: str) -> int:
    lines, first = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return first + i
    raise AssertionError(text)


def test_compile_error_points_into_the_users_file(lib):
    x = lib.asarray(np.ones(4), "fp32")
    with pytest.raises(_C_error_type()) as info:
        bad_kernel[(1, )](x, BLOCK=4)
    message = str(info.value)
    line = _line_of(bad_kernel.fn, "undefined_name")
    assert f"{os.path.basename(__file__)}:{line}:" in message, message
    assert "undefined_name" in message and "^" in message
    assert isinstance(info.value, triton.CompilationError)


@triton.jit
def reads_plain_global(x_ptr):
    tl.store(x_ptr, NOT_CONSTEXPR)


def test_non_constexpr_global_is_refused_at_its_use(lib):
    x = lib.asarray(np.ones(1), "fp32")
    with pytest.raises(_C_error_type()) as info:
        reads_plain_global[(1, )](x)
    message = str(info.value)
    assert "NOT_CONSTEXPR" in message and "tl.constexpr" in message
    assert f"{os.path.basename(__file__)}:{_line_of(reads_plain_global.fn, 'NOT_CONSTEXPR)')}:" in message


def not_a_jit_function(x):
    return x


@triton.jit
def calls_host_function(x_ptr):
    tl.store(x_ptr, not_a_jit_function(1.0))


def test_calling_a_host_function_from_device_code(lib):
    x = lib.asarray(np.ones(1), "fp32")
    with pytest.raises(_C_error_type(), match="not_a_jit_function"):
        calls_host_function[(1, )](x)


def test_host_calls_of_device_code_are_refused():
    with pytest.raises(RuntimeError, match="launch it with copy\\[grid\\]"):
        copy(1, 2, 3)
    with pytest.raises(RuntimeError, match="host code"):
        tl.arange(0, 4)
