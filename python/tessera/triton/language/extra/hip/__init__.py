"""``triton.language.extra.hip``: the hip-specific language module.

Only its math library (``libdevice``) and the names Tessera's frontend
knows under this path are provided.
"""
from __future__ import annotations

from tessera.triton.language._namespace import module_dir as _module_dir
from tessera.triton.language._namespace import module_getattr as _module_getattr

__tessera_symbol__ = "triton.language.extra.hip"

from tessera.triton.language.extra.hip import libdevice  # noqa: E402,F401

__getattr__ = _module_getattr(__name__, __tessera_symbol__, globals())
__dir__ = _module_dir(__tessera_symbol__, globals())
