"""Shared pieces of the port of Triton's language tests (test_core.py).

Kernels whose body depends on the test case are written as source text and
imported from a file (Tessera compiles a kernel from its source, as Triton
does, so a kernel must live in a file); each distinct text is written once
per test session. Arrays are NumPy arrays on the cpu backend and torch
tensors elsewhere (bfloat16 and fp8 always need torch).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import textwrap
from typing import Any, Dict, Optional, Sequence

import numpy as np
import pytest

import arrays

BACKEND = os.environ.get("TESSERA_BACKEND", "cpu")

INT_DTYPES = ["int8", "int16", "int32", "int64"]
UINT_DTYPES = ["uint8", "uint16", "uint32", "uint64"]
FLOAT_DTYPES = ["float16", "float32", "float64"]
INTEGRAL_DTYPES = INT_DTYPES + UINT_DTYPES
DTYPES = INTEGRAL_DTYPES + FLOAT_DTYPES
DTYPES_WITH_BF16 = DTYPES + ["bfloat16"]

# NumPy / Triton-language names -> the signature names of tests/arrays.py.
SIGNATURE = {
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16",
    "uint32": "u32", "uint64": "u64", "float16": "fp16", "float32": "fp32", "float64": "fp64",
    "bfloat16": "bf16", "bool": "i1", "float8e4nv": "fp8e4nv", "float8e5": "fp8e5",
}

_KERNEL_DIR = tempfile.mkdtemp(prefix="tessera-core-kernels-")

HEADER = """\
import triton
import triton.language as tl
from triton.language.extra import libdevice
"""


def kernel_from_source(source: str, name: str = "kernel", prelude: str = "") -> Any:
    """The jit function `name` of a module made of `prelude` and `source`
    (both dedented), imported from its own file."""
    text = HEADER + textwrap.dedent(prelude) + "\n\n" + textwrap.dedent(source)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    module_name = f"tessera_core_{digest}"
    module = sys.modules.get(module_name)
    if module is None:
        path = os.path.join(_KERNEL_DIR, f"{module_name}.py")
        if not os.path.exists(path):
            with open(path, "w") as f:
                f.write(text)
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return getattr(module, name)


def _lib_for(dtype: str) -> arrays.ArrayLib:
    needs_torch = dtype in ("bfloat16", "float8e4nv", "float8e5") or BACKEND != "cpu"
    lib = arrays.make_lib("torch" if needs_torch else "numpy", BACKEND)
    if lib is None:
        pytest.skip(f"{dtype} arrays need PyTorch" if needs_torch else "no array library")
    if not lib.supports(SIGNATURE[dtype]):
        pytest.skip(f"{lib.name} has no {dtype} arrays")
    return lib


def to_device(values: Any, dtype: Optional[str] = None) -> Any:
    """A device array holding `values` (NumPy), in `dtype` (default: theirs)."""
    values = np.asarray(values)
    if dtype is None:
        dtype = "bool" if values.dtype == np.bool_ else values.dtype.name
    return _lib_for(dtype).asarray(values, SIGNATURE[dtype])


def empty(shape: Sequence[int], dtype: str) -> Any:
    """A device array of `shape` filled with a sentinel (NaN for floats)."""
    return _lib_for(dtype).poisoned(tuple(shape), SIGNATURE[dtype])


def to_numpy(array: Any) -> np.ndarray:
    if isinstance(array, np.ndarray):
        return array
    return arrays.TorchLib(None).numpy(array)


def numpy_dtype(dtype: str) -> Any:
    return np.float32 if dtype == "bfloat16" else np.dtype(dtype if dtype != "bool" else np.bool_)


def random(shape: Any, dtype: str, rng: np.random.Generator, low: Optional[float] = None,
           high: Optional[float] = None) -> np.ndarray:
    """Random values of `dtype`: integers in a range that keeps sums and
    products of two of them representable, floats normally distributed."""
    shape = (shape, ) if isinstance(shape, int) else tuple(shape)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype in INTEGRAL_DTYPES:
        info = np.iinfo(dtype)
        bits = info.bits
        lo = info.min if low is None else max(info.min, int(low))
        hi = info.max if high is None else min(info.max, int(high))
        if low is None and high is None:
            span = 2**(bits // 2 - 1) if dtype in INT_DTYPES else 2**(bits // 2)
            lo, hi = (-span, span - 1) if dtype in INT_DTYPES else (0, span - 1)
        hi = min(hi, 2**63 - 1)
        return rng.integers(lo, hi, shape, endpoint=True, dtype=np.int64).astype(dtype)
    values = rng.standard_normal(shape)
    if low is not None or high is not None:
        values = np.clip(values * 10, low if low is not None else -np.inf, high if high is not None else np.inf)
    if dtype == "bfloat16":
        return round_to_bf16(values.astype(np.float32))
    return values.astype(dtype)


def round_to_bf16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16 (ties to even)."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32)


# Triton's computation type of a binary operation (its documented rules,
# implemented here): fp64 wins, then fp32; fp16 wins over bf16 and integers
# (fp32 for / and %); bf16 stays bf16 only with bf16 (fp32 for / and %, and
# with any other type); integers promote to the wider, unsigned on a tie of
# widths with mixed signedness.
def promote(a: str, b: str, div_or_mod: bool = False) -> str:
    if "float64" in (a, b):
        return "float64"
    if "float32" in (a, b):
        return "float32"
    if "float16" in (a, b):
        return "float32" if div_or_mod else "float16"
    if a == "bfloat16" and b == "bfloat16":
        return "float32" if div_or_mod else "bfloat16"
    if "bfloat16" in (a, b):
        return "float32"
    bits_a, bits_b = np.iinfo(a).bits, np.iinfo(b).bits
    unsigned_a, unsigned_b = a in UINT_DTYPES, b in UINT_DTYPES
    if unsigned_a == unsigned_b:
        return a if bits_a >= bits_b else b
    unsigned, signed = (a, b) if unsigned_a else (b, a)
    return unsigned if np.iinfo(unsigned).bits >= np.iinfo(signed).bits else signed


def assert_close(actual: Any, expected: Any, rtol: float = 1e-2, atol: float = 7e-3, exact: bool = False,
                 message: str = "") -> None:
    actual = to_numpy(actual)
    expected = np.asarray(expected)
    if exact:
        np.testing.assert_array_equal(actual, expected.astype(actual.dtype) if actual.dtype != np.bool_ else expected,
                                      err_msg=message)
        return
    np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=atol,
                               equal_nan=True, err_msg=message)


def compile_error_type() -> type:
    from tessera import _binding
    return _binding.load().TesseraError


def needs(condition: bool, reason: str) -> None:
    if not condition:
        pytest.skip(reason)


def not_applicable(reason: str) -> None:
    """Skips a case that does not apply to Tessera (marked so the README's
    counts can tell them from environment skips)."""
    pytest.skip(f"not applicable: {reason}")


def device_hint_dict() -> Dict[str, Any]:
    return {"backend": BACKEND}
