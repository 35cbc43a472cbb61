"""``triton.backends``: the target description programs import.

Triton's backends are its compiler plugins; Tessera's are C++ plugins
(``tessera plugins``), so only ``backends.compiler.GPUTarget`` is here.
"""
from __future__ import annotations

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.backends import compiler  # noqa: F401

__getattr__ = _missing_attribute(__name__)
