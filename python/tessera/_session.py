"""The process's runtime session: one backend and device, opened on first use.

A Triton program never names a session: kernels run on "the" device. The
session is therefore process-wide and opened lazily (the first launch,
warmup or driver query), from the settings the CLI uses: the flags of
``python -m tessera`` become the same environment variables
(``TESSERA_BACKEND``, ``TESSERA_DEVICE``, ...), so a program, its
subprocesses and the ``tessera`` CLI agree. Triton's own cache variables
are honoured where Tessera has the same setting.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any, List, Optional

from tessera import _binding

_TRUE = ("1", "true", "yes", "on")


@dataclass
class Settings:
    """What a session is opened with; empty values mean the runtime's default."""

    backend: str = ""
    device: Optional[int] = None
    arch: str = ""
    plugin_paths: List[str] = field(default_factory=list)
    cache_dir: Optional[str] = None
    disable_cache: Optional[bool] = None

    @staticmethod
    def from_environment() -> "Settings":
        """The settings of the environment, with Triton's cache knobs mapped."""
        env = os.environ
        device = env.get("TESSERA_DEVICE", "").strip()
        if device and not device.lstrip("-").isdigit():
            raise ValueError(f"TESSERA_DEVICE must be a device index, got {device!r}")
        cache_dir = env.get("TESSERA_CACHE_DIR") or env.get("TRITON_CACHE_DIR") or None
        disable = env.get("TESSERA_DISABLE_CACHE")
        if disable is None and env.get("TRITON_ALWAYS_COMPILE", "").lower() in _TRUE:
            disable = "1"
        paths = [p for p in env.get("TESSERA_PLUGIN_PATH", "").split(os.pathsep) if p]
        return Settings(
            backend=env.get("TESSERA_BACKEND", "").strip(),
            device=int(device) if device else None,
            arch=env.get("TESSERA_ARCH", "").strip(),
            plugin_paths=paths,
            cache_dir=cache_dir,
            disable_cache=None if disable is None else disable.lower() in _TRUE,
        )


_lock = threading.Lock()
_session: Any = None


def refuse_interpreter() -> None:
    """Triton's interpreter mode cannot be honoured: say so instead of
    silently compiling."""
    value = os.environ.get("TRITON_INTERPRET", "")
    if value and value.lower() in _TRUE:
        raise RuntimeError(
            "TRITON_INTERPRET is set: it asks for Triton's Python interpreter, which Tessera "
            "does not provide. Tessera compiles kernels for a backend; for the host CPU use "
            "TESSERA_BACKEND=cpu (or `python -m tessera --backend cpu`) and unset "
            "TRITON_INTERPRET")


def session() -> Any:
    """The process's ``tessera._C.Session``, opened on first call."""
    global _session
    if _session is not None:
        return _session
    with _lock:
        if _session is None:
            refuse_interpreter()
            c = _binding.load()
            s = Settings.from_environment()
            _session = c.Session(backend=s.backend, device=s.device, arch=s.arch,
                                 plugin_paths=s.plugin_paths, cache_dir=s.cache_dir,
                                 disable_cache=s.disable_cache)
    return _session


def is_open() -> bool:
    """True once a session was opened in this process."""
    return _session is not None


def configure(backend: Optional[str] = None, device: Optional[int] = None,
              arch: Optional[str] = None) -> None:
    """Sets the backend, device or architecture of the session to come.

    They are written to the environment (as the CLI's flags are) so that
    subprocesses inherit them. Changing them once a session is open is an
    error: compiled kernels belong to that session.
    """
    wanted = {"TESSERA_BACKEND": backend, "TESSERA_DEVICE": None if device is None else str(device),
              "TESSERA_ARCH": arch}
    if _session is not None:
        for key, value in wanted.items():
            if value is not None and os.environ.get(key, "") != value:
                raise RuntimeError(
                    f"cannot set {key}={value}: the Tessera session is already open on backend "
                    f"'{_session.backend}'; choose the backend before the first launch")
        return
    for key, value in wanted.items():
        if value is not None:
            os.environ[key] = value
