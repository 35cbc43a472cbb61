"""``triton.language.extra.hip.libdevice``: the math library under its AMD path.

Each function is a device function the frontend lowers to a vendor-neutral
extern symbol, which the backend's plugin maps onto its math library (NVIDIA
libdevice, AMD ocml, the host libm), so every spelling of the module works on
every backend.
"""
from __future__ import annotations

from tessera.triton.language._namespace import module_dir as _module_dir
from tessera.triton.language._namespace import module_getattr as _module_getattr

__tessera_symbol__ = "triton.language.extra.hip.libdevice"

__getattr__ = _module_getattr(__name__, __tessera_symbol__, globals())
__dir__ = _module_dir(__tessera_symbol__, globals())
