"""The device-code names of the language as host objects.

``tl.load``, ``tl.sum``, ``libdevice.asin``... are compiled by Tessera's
frontend; on the host they exist only to be referenced (imported, stored in
globals, passed around) and handed to the frontend by qualified name. Calling
one on the host is an error that says so.

The names come from the frontend itself (``tessera._C.language_names()``)
where the binding exports that table, so the host namespace never promises
what the compiler lacks. Elsewhere (a binding without the table, or none)
the public names of Triton 3.6's language modules stand in, and a name the
frontend does not know is reported when the kernel compiles, at its line.
"""
from __future__ import annotations

import functools
from typing import Any, FrozenSet, Optional

from tessera import _binding
from tessera.triton import _triton_api

_LANGUAGE = "triton.language"
_LIBDEVICE = "triton.language.extra.libdevice"

# Submodules whose functions the frontend folds into triton.language.
FOLDED_SUBMODULES = ("core", "math", "standard", "random")


class DeviceFunction:
    """A function of the Triton language, callable only in device code."""

    def __init__(self, symbol: str) -> None:
        self.__tessera_symbol__ = symbol
        module, _, name = symbol.rpartition(".")
        self.__name__ = name
        self.__qualname__ = name
        self.__module__ = module
        self.__doc__ = (f"{symbol}: a Triton-language function, compiled by Tessera "
                        "inside @triton.jit functions.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"{self.__tessera_symbol__}() was called from host code; it is a Triton-language "
            "function and runs only inside a @triton.jit function (did you forget @triton.jit?)")

    def __getattr__(self, name: str) -> "DeviceFunction":
        # Namespaces such as tl.PropagateNan.ALL: a child the frontend knows.
        if name.startswith("__"):
            raise AttributeError(name)
        child = f"{self.__tessera_symbol__}.{name}"
        if child in names():
            value = DeviceFunction(child)
            setattr(self, name, value)
            return value
        raise AttributeError(f"{self.__tessera_symbol__} has no attribute '{name}' that Tessera supports")

    def __repr__(self) -> str:
        return f"<triton-language function {self.__tessera_symbol__}>"

    def __reduce__(self):
        return (DeviceFunction, (self.__tessera_symbol__, ))


def _canonical(name: str) -> str:
    """Folds the submodules the frontend folds, so both spellings match."""
    for sub in FOLDED_SUBMODULES:
        prefix = f"{_LANGUAGE}.{sub}."
        if name.startswith(prefix):
            return f"{_LANGUAGE}.{name[len(prefix):]}"
    if name.startswith("triton.language.libdevice."):
        return _LIBDEVICE + name[len("triton.language.libdevice"):]
    if name.startswith("triton.language.extra."):
        rest = name[len("triton.language.extra."):]
        target, _, tail = rest.partition(".")
        if tail.startswith("libdevice."):
            return f"{_LIBDEVICE}.{tail[len('libdevice.'):]}"
    return name


def _fallback_names() -> FrozenSet[str]:
    found = set()
    for module in (_LANGUAGE, _LIBDEVICE):
        for name in _triton_api.NAMES.get(module, ()):
            qualified = f"{module}.{name}"
            if qualified not in _triton_api.SUBMODULES:  # modules are not functions
                found.add(qualified)
    return frozenset(found)


@functools.lru_cache(maxsize=None)
def names() -> FrozenSet[str]:
    """Every qualified name device code may use, in canonical spelling."""
    table = _frontend_table()
    if table is not None:
        return frozenset(_canonical(n) for n in table)
    return _fallback_names()


def _frontend_table() -> Optional[list]:
    if not _binding.available():
        return None
    language_names = getattr(_binding.load(), "language_names", None)
    return list(language_names()) if language_names is not None else None


def from_frontend() -> bool:
    """True when names() is the frontend's table rather than Triton's list."""
    return _frontend_table() is not None


def lookup(module: str, name: str) -> Optional[DeviceFunction]:
    """The device function `module.name` if the frontend knows it."""
    qualified = f"{module}.{name}"
    if _canonical(qualified) in names():
        return DeviceFunction(qualified)
    return None


def names_in(module: str) -> FrozenSet[str]:
    """The attribute names of `module` that are device functions."""
    canonical = _canonical(module + ".x")[:-2]
    prefix = canonical + "."
    return frozenset(n[len(prefix):] for n in names()
                     if n.startswith(prefix) and "." not in n[len(prefix):])
