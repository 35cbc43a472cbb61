"""``triton.compiler``: ahead-of-time compilation and the compile errors.

``compile``/``ASTSource`` compile a jit function for a signature
(compiler.py); Triton's IRSource (compiling Triton IR files) is not
provided: Tessera compiles Triton source.
"""
from __future__ import annotations

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.compiler.errors import CompilationError, CompileTimeAssertionFailure  # noqa: F401
from tessera.triton.compiler.compiler import ASTSource, compile  # noqa: F401
from tessera.triton.runtime.driver import GPUTarget  # noqa: F401

__getattr__ = _missing_attribute(__name__)
