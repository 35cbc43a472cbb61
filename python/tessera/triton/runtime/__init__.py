"""``triton.runtime``: jit functions, autotuning and the driver on Tessera."""
from __future__ import annotations

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.runtime import driver  # noqa: F401  (the module is Triton's DriverConfig)
from tessera.triton.runtime.autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from tessera.triton.runtime.errors import InterpreterError, OutOfResources
from tessera.triton.runtime.jit import (JITFunction, KernelInterface, MockTensor, TensorWrapper,
                                        reinterpret)

__all__ = ["Autotuner", "Config", "Heuristics", "InterpreterError", "JITFunction",
           "KernelInterface", "MockTensor", "OutOfResources", "TensorWrapper", "autotune",
           "driver", "heuristics", "reinterpret"]

__getattr__ = _missing_attribute(__name__)
