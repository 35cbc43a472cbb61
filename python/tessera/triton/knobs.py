"""``triton.knobs``: the few of Triton's settings Tessera has a meaning for.

Each group reads its environment variable at access, as Triton's do, and
writing a setting writes the variable (so the runtime, which reads the
environment when the session opens, sees it). Settings Tessera has no
counterpart for raise the not-supported error.
"""
from __future__ import annotations

import os
from typing import Any, Dict, Tuple

from tessera.triton._unsupported import NotSupportedError as _NotSupportedError
from tessera.triton._unsupported import missing_attribute as _missing_attribute

_TRUE = ("1", "true", "yes", "on")


class _Group:
    """One knob group: attribute name -> (environment variable, kind)."""

    _name = ""
    _knobs: Dict[str, Tuple[str, str]] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name not in self._knobs:
            if name.startswith("__"):
                raise AttributeError(name)
            raise _NotSupportedError(f"triton.knobs.{self._name}.{name} is not supported by Tessera",
                                    name=name)
        variable, kind = self._knobs[name]
        value = os.environ.get(variable)
        if kind == "bool":
            return value is not None and value.lower() in _TRUE
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._knobs:
            raise _NotSupportedError(f"triton.knobs.{self._name}.{name} is not supported by Tessera",
                                    name=name)
        variable, kind = self._knobs[name]
        if value is None:
            os.environ.pop(variable, None)
        elif kind == "bool":
            os.environ[variable] = "1" if value else "0"
        else:
            os.environ[variable] = str(value)


class _Cache(_Group):
    _name = "cache"
    _knobs = {"dir": ("TESSERA_CACHE_DIR", "str")}


class _Compilation(_Group):
    _name = "compilation"
    _knobs = {"always_compile": ("TESSERA_DISABLE_CACHE", "bool")}


class _Autotuning(_Group):
    _name = "autotuning"
    _knobs = {"print": ("TRITON_PRINT_AUTOTUNING", "bool"), "cache": ("TRITON_CACHE_AUTOTUNING", "bool")}


class _Runtime(_Group):
    _name = "runtime"
    _knobs = {"interpret": ("TRITON_INTERPRET", "bool")}

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "interpret" and value:
            raise _NotSupportedError("triton.knobs.runtime.interpret: Triton's interpreter is not "
                                    "supported by Tessera", name=name)
        super().__setattr__(name, value)


cache = _Cache()
compilation = _Compilation()
autotuning = _Autotuning()
runtime = _Runtime()

__getattr__ = _missing_attribute(__name__)
