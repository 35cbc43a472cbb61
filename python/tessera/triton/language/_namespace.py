"""What every module of the language namespace shares: attribute lookup.

A language module (``triton.language``, its ``core``/``math``/... views,
``extra.libdevice`` and the per-target copies) defines the host objects it
owns (dtypes, ``constexpr``) and gets every other name from the frontend's
list through :func:`module_getattr`; names the frontend lacks raise the
not-supported error.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List

from tessera.triton._unsupported import raise_missing
from tessera.triton.language import _symbols


def module_getattr(module_name: str, symbol: str, namespace: Dict[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` resolving device functions of `symbol`.

    `module_name` is the module's real name (``tessera.triton.language``),
    `symbol` its name in the language (``triton.language``); found names are
    cached in `namespace` (the module's globals) so each is built once.
    """

    def __getattr__(name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"module '{symbol}' has no attribute '{name}'")
        value = _symbols.lookup(symbol, name)
        if value is None:
            raise_missing(module_name, name, depth=2)
        namespace[name] = value
        return value

    return __getattr__


def module_dir(symbol: str, namespace: Dict[str, Any]) -> Callable[[], List[str]]:
    """A module ``__dir__`` listing its own names and the device functions."""

    def __dir__() -> List[str]:
        return sorted(set(namespace) | _symbols.names_in(symbol))

    return __dir__
