"""Host-built tensor descriptors (tutorials 06 and 09 pass them to kernels).

A :class:`TensorDescriptor` describes a strided view of a tensor and the
block a kernel moves at a time; a kernel parameter receiving one is a
``tl.tensor_descriptor`` in device code. The binding reads its fields
(``base``, ``shape``, ``strides``, ``block_shape``, ``padding``) at launch.
The checks are Triton's rules for descriptors, made here so that a bad
descriptor fails where it is built, naming the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List

from tessera.triton._unsupported import missing_attribute as _missing_attribute

_MAX_NUMEL = 1048576


def _address(base: Any) -> int:
    if hasattr(base, "data_ptr"):
        return int(base.data_ptr())
    interface = getattr(base, "__array_interface__", None)
    if interface is not None:
        return int(interface["data"][0])
    raise TypeError(f"TensorDescriptor: base must be a tensor (data_ptr()) or a NumPy array, got "
                    f"{type(base).__name__}")


def _itemsize(base: Any) -> int:
    dtype = base.dtype
    size = getattr(dtype, "itemsize", None)
    if size is None and hasattr(base, "element_size"):
        size = base.element_size()
    if size is None:
        raise TypeError(f"TensorDescriptor: cannot tell the element size of {type(base).__name__}")
    return int(size)


def _is_floating(base: Any) -> bool:
    dtype = base.dtype
    flag = getattr(dtype, "is_floating_point", None)
    if flag is not None:
        return bool(flag)
    kind = getattr(dtype, "kind", None)
    if isinstance(kind, str):
        return kind == "f"
    floating = getattr(dtype, "is_floating", None)
    return bool(floating()) if callable(floating) else False


def _element_strides(base: Any) -> List[int]:
    """Strides in elements: torch's stride(), NumPy's byte strides divided."""
    if hasattr(base, "stride") and callable(base.stride):
        return [int(s) for s in base.stride()]
    size = _itemsize(base)
    for s in base.strides:
        if s % size:
            raise ValueError("TensorDescriptor.from_tensor: the array's strides are not whole "
                             "elements")
    return [int(s) // size for s in base.strides]


@dataclass
class TensorDescriptor:
    """`base` seen as `shape` with `strides` (in elements), moved by blocks
    of `block_shape`; out-of-bounds elements read as zero (`padding`
    ``"zero"``) or NaN (``"nan"``)."""

    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self) -> None:
        self.shape = [int(s) for s in self.shape]
        self.strides = [int(s) for s in self.strides]
        self.block_shape = list(self.block_shape)
        rank = len(self.shape)
        if not 1 <= rank <= 5:
            raise ValueError(f"TensorDescriptor: shape has rank {rank}; descriptors have rank 1 to 5")
        for field_name in ("strides", "block_shape"):
            if len(getattr(self, field_name)) != rank:
                raise ValueError(f"TensorDescriptor: {field_name} has {len(getattr(self, field_name))} "
                                 f"entries but shape has {rank}")
        if type(self.base).__name__ not in ("FakeTensor", "FunctionalTensor") and _address(self.base) % 16:
            raise ValueError("TensorDescriptor: base must be 16-byte aligned")
        numel = 1
        for i, d in enumerate(self.block_shape):
            if not isinstance(d, int) or isinstance(d, bool):
                raise TypeError(f"TensorDescriptor: block_shape[{i}] must be an int, got {d!r}")
            if d <= 0 or d & (d - 1):
                raise ValueError(f"TensorDescriptor: block_shape[{i}] = {d} is not a power of 2")
            numel *= d
        if numel > _MAX_NUMEL:
            raise ValueError(f"TensorDescriptor: a block of {numel} elements exceeds the limit of "
                             f"{_MAX_NUMEL}")
        size = _itemsize(self.base)
        for i, stride in enumerate(self.strides[:-1]):
            if (stride * size) % 16:
                raise ValueError(f"TensorDescriptor: strides[{i}] = {stride} elements is not a "
                                 "multiple of 16 bytes")
        for i, d in enumerate(self.shape):
            if d <= 0:
                raise ValueError(f"TensorDescriptor: shape[{i}] = {d} must be positive")
        if self.strides[-1] != 1:
            raise ValueError("TensorDescriptor: the last dimension must be contiguous (stride 1)")
        if self.padding not in ("zero", "nan"):
            raise ValueError(f"TensorDescriptor: padding must be 'zero' or 'nan', got {self.padding!r}")
        if self.padding == "nan" and not _is_floating(self.base):
            raise ValueError("TensorDescriptor: padding 'nan' needs a floating-point tensor")

    @staticmethod
    def from_tensor(tensor: Any, block_shape: List[int], padding: str = "zero") -> "TensorDescriptor":
        """A descriptor over the whole of `tensor` (torch tensor or NumPy array)."""
        return TensorDescriptor(tensor, list(tensor.shape), _element_strides(tensor), block_shape,
                                padding)


__getattr__ = _missing_attribute(__name__)
