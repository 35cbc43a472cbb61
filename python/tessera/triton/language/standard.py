"""``triton.language.standard``: the same names as ``triton.language``.

Triton defines part of the language here; Tessera's frontend folds
``triton.language.standard.NAME`` into ``triton.language.NAME``, so this module
resolves names exactly as ``triton.language`` does.
"""
from __future__ import annotations

from tessera.triton.language._constexpr import _unwrap
from tessera.triton.language._constexpr import constexpr, constexpr_type  # noqa: F401
from tessera.triton.language._dtypes import (  # noqa: F401
    bfloat16, float8e4b8, float8e4b15, float8e4nv, float8e5, float8e5b16, float16, float32,
    float64, int1, int8, int16, int32, int64, pi32_t, uint8, uint16, uint32, uint64, void)
from tessera.triton.language._dtypes import block_type, dtype, pointer_type  # noqa: F401
from tessera.triton.language._namespace import module_dir as _module_dir
from tessera.triton.language._namespace import module_getattr as _module_getattr

__tessera_symbol__ = "triton.language.standard"


def _log2(i: int) -> int:
    """floor(log2(i)), 0 for i <= 1: Triton's constexpr helper of its
    sorting networks, which libraries import; callable on the host and, on
    constexprs, in device code."""
    i = int(_unwrap(i))
    return i.bit_length() - 1 if i > 1 else 0


_log2.__tessera_symbol__ = "triton.language.standard._log2"  # type: ignore[attr-defined]

__getattr__ = _module_getattr(__name__, __tessera_symbol__, globals())
__dir__ = _module_dir(__tessera_symbol__, globals())
