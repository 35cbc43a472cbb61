"""``triton.backends.compiler``: ``GPUTarget``, what ``triton.compile``
compiles for (``GPUTarget("cuda", 90, 32)``, ``GPUTarget("hip", "gfx942",
64)``, ``GPUTarget("cpu", "", 1)``)."""
from __future__ import annotations

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.runtime.driver import GPUTarget  # noqa: F401

__getattr__ = _missing_attribute(__name__)
