"""``triton.compiler.errors``: what a failed compilation raises.

A kernel that does not compile raises :class:`CompilationError` (the
binding raises this class, constructed with the compiler's text: the user's
file, line and column, the source line and a caret). It derives from
``tessera._C.TesseraError`` when the binding is built, so ``except
TesseraError`` catches it too.
"""
from __future__ import annotations


from tessera import _binding
from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.errors import TritonError


def _bases() -> tuple:
    if _binding.available():
        return (TritonError, _binding.load().TesseraError)
    return (TritonError, )


class CompilationError(*_bases()):  # type: ignore[misc]
    """A kernel failed to compile; str() is the compiler's diagnostic."""

    source_line_count_max_in_message = 12


class CompileTimeAssertionFailure(CompilationError):
    """A ``tl.static_assert`` failed while compiling."""


__getattr__ = _missing_attribute(__name__)
