"""``triton.language.extra``: the math library and the per-target modules."""
from __future__ import annotations

from tessera.triton.language._namespace import module_dir as _module_dir
from tessera.triton.language._namespace import module_getattr as _module_getattr

__tessera_symbol__ = "triton.language.extra"

from tessera.triton.language.extra import cuda, hip, libdevice  # noqa: E402,F401

__getattr__ = _module_getattr(__name__, __tessera_symbol__, globals())
__dir__ = _module_dir(__tessera_symbol__, globals())
