"""``triton.tools``: of Triton's tools, Tessera provides the host tensor
descriptor (``triton.tools.tensor_descriptor``)."""
from __future__ import annotations

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.tools import tensor_descriptor  # noqa: F401

__getattr__ = _missing_attribute(__name__)
