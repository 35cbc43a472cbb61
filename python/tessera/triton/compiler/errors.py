"""``triton.compiler.errors``: what a failed compilation raises.

A kernel that does not compile raises :class:`CompilationError`, whose text
is the compiler's (the user's file, line and column, the source line and a
caret). It derives from ``tessera._C.TesseraError`` when the binding is
built, so ``except TesseraError`` catches it too.
"""
from __future__ import annotations

import re

from tessera import _binding
from tessera.triton._unsupported import missing_attribute
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


# The compiler's diagnostics start with the user's `file:line:col: error:`.
_DIAGNOSTIC = re.compile(r"^[^\n]*?:\d+:\d+: error: ", re.MULTILINE)


def as_compilation_error(error: BaseException) -> BaseException:
    """The binding's error for a failed compilation, as Triton's class.

    The binding raises one error type for compile and launch failures; a
    compile error is recognised by the compiler's diagnostic form (the
    user's file, line and column), anything else is returned unchanged.
    """
    if isinstance(error, CompilationError) or not _DIAGNOSTIC.search(str(error)):
        return error
    text = str(error)
    kind = CompileTimeAssertionFailure if "static_assert" in text or "static assertion" in text \
        else CompilationError
    converted = kind(text)
    converted.__cause__ = error
    return converted


__getattr__ = missing_attribute(__name__)
