"""Making ``import triton`` resolve to Tessera's compatibility package.

A meta-path finder placed first on ``sys.meta_path`` answers every import of
``triton`` or ``triton.X`` with the module ``tessera.triton[.X]``: the same
module object under both names, so ``triton.language is
tessera.triton.language`` and isinstance checks agree whichever name a
program used. A submodule Tessera does not provide fails with an
ImportError that names it (``try: import triton.X except ImportError:``
falls back as it would without Triton). The real Triton, installed or not,
is never imported.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
import warnings
from types import ModuleType
from typing import Optional, Sequence

_PREFIX = "triton"
_TARGET = "tessera.triton"
_lock = threading.Lock()


def _target_name(fullname: str) -> str:
    return _TARGET + fullname[len(_PREFIX):]


class _AliasLoader(importlib.abc.Loader):
    """Hands the import system a module that already exists."""

    def __init__(self, module: ModuleType) -> None:
        self._module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self._module

    def exec_module(self, module: ModuleType) -> None:
        pass  # already executed under its tessera.triton name


class TritonAliasFinder(importlib.abc.MetaPathFinder):
    """Resolves ``triton[.X]`` to ``tessera.triton[.X]``."""

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname != _PREFIX and not fullname.startswith(_PREFIX + "."):
            return None
        wanted = _target_name(fullname)
        try:
            module = importlib.import_module(wanted)
        except ModuleNotFoundError as e:
            if e.name is not None and (wanted == e.name or wanted.startswith(e.name + ".")):
                from tessera.triton._unsupported import describe_missing
                parent, _, child = fullname.rpartition(".")
                raise ModuleNotFoundError(
                    f"No module named '{fullname}': {describe_missing(_TARGET + parent[len(_PREFIX):], child)}",
                    name=fullname) from None
            raise
        return importlib.util.spec_from_loader(fullname, _AliasLoader(module))


_finder = TritonAliasFinder()


def _alias_loaded_modules() -> None:
    """Registers the already imported tessera.triton modules as triton.*."""
    for name, module in list(sys.modules.items()):
        if name == _TARGET or name.startswith(_TARGET + "."):
            alias = _PREFIX + name[len(_TARGET):]
            sys.modules[alias] = module


def _real_triton_modules() -> list:
    out = []
    for name, module in sys.modules.items():
        if name == _PREFIX or name.startswith(_PREFIX + "."):
            if not (getattr(module, "__name__", "") or "").startswith(_TARGET):
                out.append(name)
    return out


def activate(backend: Optional[str] = None, device: Optional[int] = None,
             arch: Optional[str] = None) -> None:
    """Makes ``import triton`` (and its submodules) resolve to Tessera.

    Call it before the program's first ``import triton`` (notebooks, test
    suites' conftest.py); ``python -m tessera SCRIPT.py`` calls it for you.
    `backend`, `device` and `arch` choose the session's target, as
    ``--backend`` / ``TESSERA_BACKEND`` do. If the real Triton was already
    imported it is unloaded from ``sys.modules`` with a warning: objects
    made from it before (kernels decorated with its jit) stay Triton's.
    """
    from tessera import _session
    _session.refuse_interpreter()
    _session.configure(backend=backend, device=device, arch=arch)
    with _lock:
        real = _real_triton_modules()
        if real:
            warnings.warn("tessera.activate(): the real Triton was already imported; later imports of "
                          "triton resolve to Tessera, but kernels decorated before this call remain "
                          "Triton's. Activate Tessera before the first `import triton`.",
                          RuntimeWarning, stacklevel=2)
            for name in real:
                del sys.modules[name]
        if _finder not in sys.meta_path:
            sys.meta_path.insert(0, _finder)
        importlib.import_module(_TARGET)
        _alias_loaded_modules()


def deactivate() -> None:
    """Undoes :func:`activate` for later imports (tests use it)."""
    with _lock:
        while _finder in sys.meta_path:
            sys.meta_path.remove(_finder)
        for name in [n for n in sys.modules if n == _PREFIX or n.startswith(_PREFIX + ".")]:
            if (getattr(sys.modules[name], "__name__", "") or "").startswith(_TARGET):
                del sys.modules[name]


def is_active() -> bool:
    """True while ``import triton`` resolves to Tessera."""
    return _finder in sys.meta_path

