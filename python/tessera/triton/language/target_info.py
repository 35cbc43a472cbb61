"""``triton.language.target_info``: what kernels are compiled for.

The predicates are ``@triton.constexpr_function``s, so device code calls them
at compile time (``if is_cuda(): ...``) and host code calls them as plain
functions. They read the target of the Tessera session, captured when this
module is imported (which opens the session): the frontend evaluates their
source with these constants, as Triton evaluates them with its driver's
target.
"""
from __future__ import annotations

from typing import Any, Optional

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.language._constexpr import constexpr
from tessera.triton.runtime import driver
from tessera.triton.runtime.jit import constexpr_function



def current_target() -> Optional[Any]:
    """The session's target (``GPUTarget``: backend, arch, warp_size)."""
    return driver.active.get_current_target()


_target = current_target()
#: Triton's backend name of the session ("cuda", "hip", "cpu", ...).
TARGET_BACKEND = constexpr(_target.backend)
#: Its architecture (an int compute capability on CUDA, a string elsewhere).
TARGET_ARCH = constexpr(_target.arch)
del _target


@constexpr_function
def is_cuda():
    return TARGET_BACKEND == "cuda"


@constexpr_function
def cuda_capability_geq(major, minor=0):
    """Whether the CUDA target has compute capability >= (major, minor)."""
    return TARGET_BACKEND == "cuda" and TARGET_ARCH >= major * 10 + minor


@constexpr_function
def is_hip():
    return TARGET_BACKEND == "hip"


@constexpr_function
def is_hip_cdna3():
    return TARGET_ARCH == "gfx942"


@constexpr_function
def is_hip_cdna4():
    return TARGET_ARCH == "gfx950"


__getattr__ = _missing_attribute(__name__)
