"""Triton's host API on the binding's compiled-kernel handle.

Programs read what a launch or ``kernel.warmup(...)`` compiled the way
Triton's ``CompiledKernel`` offers it: ``handle.metadata.shared`` (attribute
access, tutorial 02) and ``handle._init_handles()`` (a no-op here: the
runtime has loaded the binary before returning the handle). Where the
binding's class lacks them they are added to it once, so launches pay
nothing per call.
"""
from __future__ import annotations

from typing import Any

_done = False


class KernelMetadata(dict):
    """The handle's metadata, readable as ``metadata.shared`` or
    ``metadata["shared"]``."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"compiled-kernel metadata has no field '{name}' "
                                 f"(fields: {', '.join(sorted(self))})") from None

    def to_dict(self) -> dict:
        return dict(self)


def _init_handles(self: Any) -> None:
    """Triton loads the binary lazily here; Tessera's handle is loaded."""


def adapt(binding: Any) -> None:
    """Adds the Triton-style accessors to ``binding.CompiledKernel``."""
    global _done
    if _done:
        return
    handle_type = getattr(binding, "CompiledKernel", None)
    if handle_type is not None:
        if not hasattr(handle_type, "_init_handles"):
            handle_type._init_handles = _init_handles
        metadata = handle_type.__dict__.get("metadata")
        if isinstance(metadata, property) and not getattr(metadata.fget, "_tessera_adapted", False):
            raw = metadata

            def read(self: Any) -> Any:
                value = raw.__get__(self)
                # A plain dict gains attribute access; an object the binding
                # made with it already is returned as it is.
                return KernelMetadata(value) if type(value) is dict else value

            read._tessera_adapted = True  # type: ignore[attr-defined]
            handle_type.metadata = property(read, doc=raw.__doc__)
    _done = True
