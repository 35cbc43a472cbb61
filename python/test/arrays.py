"""Host arrays for the tests: NumPy always, PyTorch where installed.

Tests are written once against :class:`ArrayLib` and run for each library
the backend accepts (NumPy arrays only where device memory is host memory,
the cpu backend; torch tensors on the backend's torch device).
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

try:
    import torch
except ImportError:  # the NumPy half still runs
    torch = None

# Triton dtype names -> NumPy dtypes (bf16/fp8 have none in NumPy).
NUMPY_DTYPES = {
    "fp16": np.float16, "fp32": np.float32, "fp64": np.float64, "i8": np.int8, "i16": np.int16,
    "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
    "u64": np.uint64, "i1": np.bool_,
}
TORCH_DTYPES = {} if torch is None else {
    "fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32, "fp64": torch.float64,
    "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64, "u8": torch.uint8,
    "u16": getattr(torch, "uint16", None), "u32": getattr(torch, "uint32", None),
    "u64": getattr(torch, "uint64", None), "i1": torch.bool,
    "fp8e4nv": getattr(torch, "float8_e4m3fn", None), "fp8e5": getattr(torch, "float8_e5m2", None),
}


class ArrayLib:
    """Allocation and conversion for one array library."""

    name = ""

    def supports(self, dtype: str) -> bool:
        raise NotImplementedError

    def asarray(self, values: Any, dtype: str) -> Any:
        raise NotImplementedError

    def empty(self, shape: Sequence[int], dtype: str) -> Any:
        raise NotImplementedError

    def numpy(self, array: Any) -> np.ndarray:
        raise NotImplementedError

    def poisoned(self, shape: Sequence[int], dtype: str) -> Any:
        """An output filled with NaN (floats) or a sentinel (integers), so a
        kernel that writes nothing cannot pass."""
        if dtype.startswith(("fp", "bf")):
            return self.asarray(np.full(shape, np.nan, np.float64), dtype)
        if dtype == "i1":
            return self.asarray(np.zeros(shape, bool), dtype)
        return self.asarray(np.full(shape, 77, np.int64), dtype)


class NumpyLib(ArrayLib):
    name = "numpy"

    def supports(self, dtype: str) -> bool:
        return dtype in NUMPY_DTYPES

    def asarray(self, values: Any, dtype: str) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(values).astype(NUMPY_DTYPES[dtype]))

    def empty(self, shape: Sequence[int], dtype: str) -> np.ndarray:
        return np.empty(shape, NUMPY_DTYPES[dtype])

    def numpy(self, array: Any) -> np.ndarray:
        return np.asarray(array)


class TorchLib(ArrayLib):
    name = "torch"

    def __init__(self, device: Any) -> None:
        self.device = device

    def supports(self, dtype: str) -> bool:
        return TORCH_DTYPES.get(dtype) is not None

    def asarray(self, values: Any, dtype: str) -> Any:
        array = np.asarray(values)
        target = TORCH_DTYPES[dtype]
        if dtype.startswith("u") and dtype != "u8":
            # torch cannot convert these from NumPy directly; go through int64.
            tensor = torch.from_numpy(array.astype(np.int64)).to(target)
        elif dtype in ("bf16", "fp8e4nv", "fp8e5"):
            tensor = torch.from_numpy(array.astype(np.float32)).to(target)
        else:
            tensor = torch.from_numpy(np.ascontiguousarray(array)).to(target)
        return tensor.to(self.device).contiguous()

    def empty(self, shape: Sequence[int], dtype: str) -> Any:
        return torch.empty(tuple(shape), dtype=TORCH_DTYPES[dtype], device=self.device)

    def numpy(self, array: Any) -> np.ndarray:
        tensor = array.detach().cpu()
        if tensor.dtype in (torch.bfloat16, TORCH_DTYPES.get("fp8e4nv"), TORCH_DTYPES.get("fp8e5")):
            tensor = tensor.float()
        elif str(tensor.dtype) in ("torch.uint16", "torch.uint32", "torch.uint64"):
            return tensor.to(torch.int64).numpy().astype(
                {"torch.uint16": np.uint16, "torch.uint32": np.uint32,
                 "torch.uint64": np.uint64}[str(tensor.dtype)])
        return tensor.numpy()


def make_lib(name: str, backend: str) -> Optional[ArrayLib]:
    """The library `name` for `backend`, or None when it cannot be used."""
    if name == "numpy":
        return NumpyLib() if backend == "cpu" else None
    if torch is None:
        return None
    if backend == "cpu":
        return TorchLib(torch.device("cpu"))
    if torch.cuda.is_available():
        return TorchLib(torch.device("cuda"))
    return None
