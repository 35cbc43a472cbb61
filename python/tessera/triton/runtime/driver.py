"""``triton.runtime.driver``: the active device, as Triton programs query it.

In Triton, ``triton.runtime.driver`` is a ``DriverConfig`` object whose
``active`` member is the backend's driver. Here the module itself plays that
object (``driver.active``, ``driver.set_active``, ...), so that it stays the
same object however it is imported (``from triton.runtime import driver``,
``import triton.runtime.driver``).

The driver answers from the Tessera session: ``get_current_target()`` gives
Triton's backend names (``cuda`` for the nvptx plugin, ``hip`` for amdgpu,
``cpu`` for the host) so that programs branching on them take the branch
meant for the hardware.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Union

from tessera import _session
from tessera.triton._unsupported import missing_attribute as _missing_attribute

#: Tessera plugin name -> Triton's backend name.
_TRITON_BACKEND = {"nvptx": "cuda", "amdgpu": "hip", "cpu": "cpu"}


@dataclass(frozen=True)
class GPUTarget:
    """What a kernel is compiled for: Triton's ``GPUTarget``."""

    backend: str
    arch: Union[int, str]
    warp_size: int


def _triton_arch(backend: str, arch: str) -> Union[int, str]:
    """sm_90a -> 90 (Triton's CUDA targets are compute capabilities)."""
    if backend == "nvptx" and arch.startswith("sm_"):
        digits = "".join(c for c in arch[3:] if c.isdigit())
        if digits:
            return int(digits)
    return arch


def _torch() -> Any:
    try:
        import torch
    except ImportError as e:
        raise ImportError("this call returns a torch object, and PyTorch is not installed") from e
    return torch


class DeviceUtils:
    """``driver.active.utils``: device queries."""

    def get_device_properties(self, device: Any = None) -> Dict[str, Any]:
        """Triton's property names (``multiprocessor_count``,
        ``max_shared_mem``, ``max_num_regs``, ``warpSize``, clocks...) of the
        session's device. `device` may be an index, None (a CPU torch
        device's index), or a torch device."""
        s = _session.session()
        index = getattr(device, "index", device)
        if isinstance(index, str):  # "cuda", "cuda:0", "cpu"
            _, _, number = index.partition(":")
            index = int(number) if number.isdigit() else None
        if index is not None and not isinstance(index, int):
            raise TypeError(f"get_device_properties: device must be an index or a torch device, got "
                            f"{device!r}")
        current = ActiveDriver().get_current_device()
        if index is not None and index != current and s.backend != "cpu":
            raise ValueError(f"get_device_properties({index}): the Tessera session runs on device "
                             f"{current}; choose the device with TESSERA_DEVICE or --device")
        return dict(s.device_properties())


class ActiveDriver:
    """``triton.runtime.driver.active``: the session's backend as a driver."""

    def __init__(self) -> None:
        self.utils = DeviceUtils()

    @staticmethod
    def is_active() -> bool:
        return True

    @property
    def backend(self) -> str:
        """Triton's name of the backend."""
        name = _session.session().backend
        return _TRITON_BACKEND.get(name, name)

    def get_current_target(self) -> GPUTarget:
        s = _session.session()
        return GPUTarget(_TRITON_BACKEND.get(s.backend, s.backend), _triton_arch(s.backend, s.arch),
                         int(s.warp_size))

    def get_current_device(self) -> int:
        """The index of the session's device."""
        s = _session.session()
        index = getattr(s, "device_index", None)
        if index is not None:
            return int(index)
        return _session.Settings.from_environment().device or 0

    def set_current_device(self, device: int) -> None:
        if device != self.get_current_device():
            raise NotImplementedError("set_current_device: Tessera runs on the session's device; "
                                      "choose it with TESSERA_DEVICE or --device (or "
                                      "torch.cuda.set_device before the first launch)")

    def get_active_torch_device(self) -> Any:
        """The torch device whose tensors kernels take: ``cuda:N`` on GPU
        backends, ``cpu`` on the host backend."""
        torch = _torch()
        s = _session.session()
        if s.backend in ("nvptx", "amdgpu"):
            return torch.device("cuda", self.get_current_device())
        if s.backend == "cpu":
            return torch.device("cpu")
        raise NotImplementedError(f"get_active_torch_device: PyTorch has no device type for the "
                                  f"'{s.backend}' backend")

    def get_device_interface(self) -> Any:
        """``torch.cuda`` on GPU backends, ``torch.cpu`` on the host."""
        torch = _torch()
        return torch.cuda if _session.session().backend in ("nvptx", "amdgpu") else torch.cpu

    def get_current_stream(self, device: Optional[int] = None) -> int:
        """The raw stream kernels launch on: PyTorch's current stream."""
        if _session.session().backend in ("nvptx", "amdgpu"):
            torch = _torch()
            return int(torch.cuda.current_stream(device).cuda_stream)
        return 0

    def get_benchmarker(self) -> Any:
        from tessera.triton import testing
        return testing.do_bench

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        from tessera.triton._unsupported import NotSupportedError
        raise NotSupportedError(f"triton.runtime.driver.active.{name} is not supported by Tessera",
                                name=name)

    def __repr__(self) -> str:
        return "<Tessera driver>"


_default = ActiveDriver()
_active: Any = None


def _get_active() -> Any:
    return _active if _active is not None else _default


def set_active(driver: Any) -> None:
    """Replaces the active driver (tests that mock it do this)."""
    global _active
    _active = driver


def reset_active() -> None:
    global _active
    _active = None


_missing = _missing_attribute(__name__)


def __getattr__(name: str) -> Any:
    if name == "active":
        return _get_active()
    if name == "default":
        return _default
    return _missing(name)
