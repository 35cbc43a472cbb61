"""Errors for the parts of Triton's API that Tessera does not provide.

Every module of the compatibility package ends with
``__getattr__ = missing_attribute(__name__)`` so that a name it lacks fails
loudly, naming itself, instead of being a silent ``None``. The error is an
``AttributeError`` (so ``hasattr(tl, "dot_scaled")`` and ``getattr(m, n,
default)`` probes keep working) except inside ``from M import NAME``, where
Python would replace an ``AttributeError`` by a generic "cannot import name"
and lose the explanation; there it is an ``ImportError`` with the same text.
"""
from __future__ import annotations

import dis
import sys
from typing import Callable, NoReturn

from tessera.triton import _triton_api

_IMPORT_FROM = dis.opmap.get("IMPORT_FROM")


class NotSupportedError(AttributeError):
    """A name of Triton's API that Tessera does not provide."""


class NotSupportedImportError(ImportError):
    """The same, raised while executing ``from M import NAME``."""


def _public_name(module: str) -> str:
    # tessera.triton.language -> triton.language
    return module[len("tessera."):] if module.startswith("tessera.triton") else module


def describe_missing(module: str, name: str) -> str:
    """The message for ``module.name`` that Tessera lacks."""
    public = _public_name(module)
    qualified = f"{public}.{name}"
    known = _triton_api.NAMES.get(public)
    if known is not None and name in known:
        return (f"{qualified} is part of Triton {_triton_api.TRITON_VERSION}'s API "
                "but Tessera does not support it")
    if qualified in _triton_api.SUBMODULES:
        return (f"{qualified} is a module of Triton {_triton_api.TRITON_VERSION} "
                "that Tessera does not support")
    return (f"module '{public}' has no attribute '{name}' (Tessera does not "
            "support it, and Triton "
            f"{_triton_api.TRITON_VERSION} does not define it either)")


def _called_from_import(depth: int) -> bool:
    """True when the frame `depth` levels up executes ``IMPORT_FROM``."""
    if _IMPORT_FROM is None:
        return False
    try:
        frame = sys._getframe(depth)
        code = frame.f_code.co_code
        return code[frame.f_lasti] == _IMPORT_FROM
    except (ValueError, IndexError, AttributeError):
        return False


def raise_missing(module: str, name: str, depth: int = 2) -> NoReturn:
    """Raises the error for ``module.name`` (see the module docstring)."""
    message = describe_missing(module, name)
    if _called_from_import(depth + 1):
        raise NotSupportedImportError(message, name=_public_name(module))
    raise NotSupportedError(message, name=name)


def missing_attribute(module: str) -> Callable[[str], NoReturn]:
    """A module ``__getattr__`` that raises for every name it is asked."""

    def __getattr__(name: str) -> NoReturn:
        if name.startswith("__") and name.endswith("__"):
            # Python's own probes (__path__, __wrapped__, ...): plain error.
            raise AttributeError(f"module '{_public_name(module)}' has no attribute '{name}'")
        raise_missing(module, name, depth=2)

    return __getattr__
