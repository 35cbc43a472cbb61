"""Triton's Python API on Tessera (``import triton`` once Tessera is active).

``python -m tessera SCRIPT.py`` or :func:`tessera.activate` make ``triton``
and its submodules resolve to this package, so unmodified Triton programs
run on Tessera. What Triton has and this package does not provide raises an
error that names it and says Tessera does not support it.
"""
from __future__ import annotations

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton import _triton_api

__version__ = _triton_api.TRITON_VERSION
__tessera_symbol__ = "triton"

from tessera.triton.errors import TritonError  # noqa: E402
from tessera.triton.runtime import (Config, InterpreterError, JITFunction, KernelInterface,  # noqa: E402
                                    MockTensor, OutOfResources, TensorWrapper, autotune, heuristics,
                                    reinterpret)
from tessera.triton.runtime.jit import constexpr_function, jit  # noqa: E402
from tessera.triton.compiler import CompilationError, compile  # noqa: E402
from tessera.triton._allocation import set_allocator  # noqa: E402
from tessera.triton import language, testing, tools, knobs, runtime, compiler, errors, backends  # noqa: E402,F401


def cdiv(x: int, y: int) -> int:
    """Ceiling division, ``(x + y - 1) // y`` (host and device code)."""
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    """The smallest power of 2 >= n (1 for n <= 1; host and device code)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


# Device code calls these too; the frontend knows them by name.
cdiv.__tessera_symbol__ = "triton.cdiv"  # type: ignore[attr-defined]
next_power_of_2.__tessera_symbol__ = "triton.next_power_of_2"  # type: ignore[attr-defined]


def must_use_result(x: object, s: bool = True) -> object:
    """Triton's marker for language functions whose result must be used;
    a no-op decorator on the host."""
    return x


__all__ = ["CompilationError", "Config", "compile", "InterpreterError", "JITFunction", "KernelInterface",
           "MockTensor", "OutOfResources", "TensorWrapper", "TritonError", "autotune", "cdiv",
           "compiler", "constexpr_function", "errors", "heuristics", "jit", "knobs", "language",
           "must_use_result", "next_power_of_2", "reinterpret", "runtime", "set_allocator",
           "testing", "tools"]

__getattr__ = _missing_attribute(__name__)
