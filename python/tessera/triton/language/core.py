"""``triton.language.core``: the same names as ``triton.language``.

Triton defines part of the language here; Tessera's frontend folds
``triton.language.core.NAME`` into ``triton.language.NAME``, so this module
resolves names exactly as ``triton.language`` does.
"""
from __future__ import annotations

from tessera.triton.language._constexpr import _unwrap
from tessera.triton.language._constexpr import constexpr, constexpr_type  # noqa: F401
from tessera.triton.language._dtypes import (  # noqa: F401
    bfloat16, float8e4b8, float8e4b15, float8e4nv, float8e5, float8e5b16, float16, float32,
    float64, int1, int8, int16, int32, int64, pi32_t, uint8, uint16, uint32, uint64, void)
from tessera.triton.language._dtypes import block_type, dtype, pointer_type  # noqa: F401
from tessera.triton.language import TRITON_MAX_TENSOR_NUMEL, tensor  # noqa: F401
from tessera.triton.language._namespace import module_dir as _module_dir
from tessera.triton.language._namespace import module_getattr as _module_getattr

__tessera_symbol__ = "triton.language.core"


def get_int_dtype(bitwidth: int, signed: bool) -> dtype:
    """The integer dtype of `bitwidth` bits (int1 for 1), on the host and,
    on constexprs, in device code."""
    bitwidth = int(_unwrap(bitwidth))
    signed = bool(_unwrap(signed))
    if bitwidth == 1:
        return int1
    table = {8: (int8, uint8), 16: (int16, uint16), 32: (int32, uint32), 64: (int64, uint64)}
    if bitwidth not in table:
        raise ValueError(f"get_int_dtype: no integer dtype of {bitwidth} bits")
    return table[bitwidth][0 if signed else 1]


def _unwrap_if_constexpr(o: object) -> object:
    """The value a tl.constexpr wraps, else `o` itself."""
    return _unwrap(o)


get_int_dtype.__tessera_symbol__ = "triton.language.core.get_int_dtype"  # type: ignore[attr-defined]
_unwrap_if_constexpr.__tessera_symbol__ = "triton.language.core._unwrap_if_constexpr"  # type: ignore[attr-defined]

__getattr__ = _module_getattr(__name__, __tessera_symbol__, globals())
__dir__ = _module_dir(__tessera_symbol__, globals())
