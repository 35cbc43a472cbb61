"""Access to the compiled binding, ``tessera._C``.

The pure-Python layers import the binding through :func:`load` so that a
package installed without it (a source checkout that was never built) fails
with one message saying what to do, instead of an ``ImportError`` deep inside
``triton.language``.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Optional

_module: Optional[ModuleType] = None
_error: Optional[BaseException] = None


def load() -> ModuleType:
    """Returns ``tessera._C``, importing it on first use."""
    global _module, _error
    if _module is not None:
        return _module
    if _error is None:
        try:
            _module = importlib.import_module("tessera._C")
            return _module
        except ImportError as e:  # remembered: importing again costs time
            _error = e
    raise ImportError(
        "tessera._C, Tessera's compiled runtime, cannot be imported "
        f"({_error}); install the package with `pip install ./python` (or "
        "build it and put the build's python folder on PYTHONPATH)") from _error


def available() -> bool:
    """True when the binding imports; the pure-Python layers that can work
    without it (names of the language, program building) ask this."""
    try:
        load()
    except ImportError:
        return False
    return True
