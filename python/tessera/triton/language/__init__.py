"""``triton.language`` on Tessera: the names device code uses, as host values.

Dtypes (``tl.float16``), ``tl.constexpr`` and the type classes are real host
objects; every other name the frontend knows (``tl.load``, ``tl.sum``, ...)
is a :class:`~tessera.triton.language._symbols.DeviceFunction` that device
code references and host code cannot call. A name the frontend does not know
raises an error saying Tessera does not support it.
"""
from __future__ import annotations

from typing import Any as _Any

from tessera.triton.language._constexpr import constexpr, constexpr_type
from tessera.triton.language._dtypes import (
    bfloat16, block_type, dtype, float8e4b8, float8e4b15, float8e4nv, float8e5, float8e5b16,
    float16, float32, float64, int1, int8, int16, int32, int64, pi32_t, pointer_type, uint8,
    uint16, uint32, uint64, void)
from tessera.triton.language._namespace import module_dir as _module_dir
from tessera.triton.language._namespace import module_getattr as _module_getattr

__tessera_symbol__ = "triton.language"

#: Triton's limit on the elements of one block.
TRITON_MAX_TENSOR_NUMEL = 1048576


class tensor:
    """The type of block values in device code (for annotations and
    ``isinstance`` in host helpers); host code cannot create one."""

    __tessera_symbol__ = "triton.language.tensor"

    def __init__(self, *args: _Any, **kwargs: _Any) -> None:
        raise RuntimeError("triton.language.tensor values exist only inside @triton.jit "
                           "functions; host code passes torch tensors or NumPy arrays")


# Submodules, imported after the names above so that they can use them.
from tessera.triton.language import core, extra, math, random, standard  # noqa: E402

_device_getattr = _module_getattr(__name__, __tessera_symbol__, globals())


def __getattr__(name: str) -> _Any:
    if name == "target_info":  # imported on demand: it opens the session
        import importlib
        return importlib.import_module(f"{__name__}.target_info")
    return _device_getattr(name)


__dir__ = _module_dir(__tessera_symbol__, globals())
