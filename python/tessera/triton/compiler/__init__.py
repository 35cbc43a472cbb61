"""``triton.compiler``: the compile error class programs catch.

Tessera compiles through its own frontend; Triton's ``compile`` and its
ASTSource/IRSource are not provided.
"""
from __future__ import annotations

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.compiler.errors import CompilationError, CompileTimeAssertionFailure  # noqa: F401

__getattr__ = _missing_attribute(__name__)
