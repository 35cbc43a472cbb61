"""``triton.language.standard``: the same names as ``triton.language``.

Triton defines part of the language here; Tessera's frontend folds
``triton.language.standard.NAME`` into ``triton.language.NAME``, so this module
resolves names exactly as ``triton.language`` does.
"""
from __future__ import annotations

from tessera.triton.language._constexpr import constexpr, constexpr_type  # noqa: F401
from tessera.triton.language._dtypes import (  # noqa: F401
    bfloat16, float8e4b8, float8e4b15, float8e4nv, float8e5, float8e5b16, float16, float32,
    float64, int1, int8, int16, int32, int64, pi32_t, uint8, uint16, uint32, uint64, void)
from tessera.triton.language._dtypes import block_type, dtype, pointer_type  # noqa: F401
from tessera.triton.language._namespace import module_dir as _module_dir
from tessera.triton.language._namespace import module_getattr as _module_getattr

__tessera_symbol__ = "triton.language.standard"

__getattr__ = _module_getattr(__name__, __tessera_symbol__, globals())
__dir__ = _module_dir(__tessera_symbol__, globals())
