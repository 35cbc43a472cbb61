"""``triton.errors``: the base class of Triton's errors."""
from __future__ import annotations

from tessera.triton._unsupported import missing_attribute as _missing_attribute


class TritonError(Exception):
    """Base of the errors Triton's API raises from Python."""


__getattr__ = _missing_attribute(__name__)
