"""Tessera from Python: Triton programs on Tessera's compiler and runtime.

``python -m tessera SCRIPT.py`` runs an unmodified Triton program on
Tessera; :func:`activate` does the same from inside a process (notebooks,
test suites). ``tessera.triton`` is the Triton-compatible API and
``tessera._C`` the binding over the C++ runtime.
"""
from __future__ import annotations

from typing import Any, Dict, List

from tessera._activate import activate, deactivate, is_active

__all__ = ["activate", "deactivate", "is_active", "plugins", "session", "version"]


def version() -> str:
    """Tessera's version (that of the C++ libraries the binding loads)."""
    from tessera import _binding
    return _binding.load().__version__


def plugins() -> List[Dict[str, Any]]:
    """What ``tessera plugins`` prints: each plugin, its architectures,
    devices (or why it has none) and capabilities."""
    from tessera import _binding, _session
    paths = _session.Settings.from_environment().plugin_paths
    return list(_binding.load().plugins(paths))


def session() -> Any:
    """The process's runtime session (backend, device), opened on first use."""
    from tessera import _session
    return _session.session()


def __getattr__(name: str) -> Any:
    if name == "__version__":
        return version()
    raise AttributeError(f"module 'tessera' has no attribute '{name}'")
