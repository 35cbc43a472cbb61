"""``triton.backends``: the target description programs import.

Triton's backends are its Python compiler plugins, listed in ``backends``;
Tessera's targets are C++ plugins (``tessera plugins``), so ``backends`` is
empty (PyTorch reads it to decide whether Triton compiles for the CPU: it
does not offer Inductor a Triton CPU backend) and only
``backends.compiler.GPUTarget`` is here, what ``triton.compile`` targets.
"""
from __future__ import annotations

from typing import Any, Dict

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.backends import compiler  # noqa: F401

#: Triton's backend plugins by name: none (see the module docstring).
backends: Dict[str, Any] = {}

__getattr__ = _missing_attribute(__name__)
