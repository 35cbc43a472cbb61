"""``triton.set_allocator``: who provides kernels' global scratch memory.

In Triton, kernels that build tensor descriptors in device code
(``tl.make_tensor_descriptor``) need per-program global scratch that the
host provides through this allocator, and programs written for Triton call
``triton.set_allocator`` before launching them. Tessera's backends lower
such descriptors without host-provided scratch memory, so the allocator is
recorded (``get_allocator()``, for a backend that comes to need it) and not
called: the call is accepted so those programs run unchanged.
"""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Callable, Optional


class NullAllocator:
    """The allocator before ``set_allocator``: asks the user for one."""

    def __call__(self, size: int, alignment: int, stream: Optional[int]) -> Any:
        raise RuntimeError("this kernel needs global scratch memory (it makes tensor descriptors "
                           "in device code), and no allocator was set: call "
                           "triton.set_allocator(fn), fn(size, alignment, stream) returning a "
                           "tensor of `size` bytes")


_allocator: ContextVar[Callable[[int, int, Optional[int]], Any]] = ContextVar(
    "tessera_allocator", default=NullAllocator())


def set_allocator(allocator: Callable[[int, int, Optional[int]], Any]) -> None:
    """Sets the function that allocates kernels' global scratch memory:
    ``allocator(size, alignment, stream)`` returns a tensor (or any object
    with ``data_ptr()``) of at least `size` bytes."""
    if not callable(allocator):
        raise TypeError("triton.set_allocator takes a callable (size, alignment, stream) -> tensor")
    _allocator.set(allocator)


def get_allocator() -> Callable[[int, int, Optional[int]], Any]:
    """The allocator in effect (the binding calls it)."""
    return _allocator.get()
