"""Element types of host arrays in Triton's signature spelling.

The binding packs arguments itself; the Python layers need the element type
of a tensor-like argument only where they build texts the runtime shares
(autotuning keys), so the spelling here follows the runtime's
(runtime/lib/ScalarTypes.cpp): ``fp16``, ``bf16``, ``i32``, ``u8``, ``i1``,
``fp8e4nv``...
"""
from __future__ import annotations

from typing import Any, Optional

# torch's dtype names (str(torch.float16) == "torch.float16") and NumPy's
# (np.dtype("float16").name), including ml_dtypes' names for the types
# NumPy lacks.
_BY_NAME = {
    "float16": "fp16", "half": "fp16", "bfloat16": "bf16", "float32": "fp32", "float": "fp32",
    "float64": "fp64", "double": "fp64", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "i1", "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5",
    "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16",
}


def dtype_name(dtype: Any) -> Optional[str]:
    """The signature name of a torch, NumPy or Triton dtype, else None."""
    own = getattr(dtype, "__tessera_dtype__", None)
    if isinstance(own, str):
        return own
    text = str(dtype)
    if text.startswith("torch."):
        text = text[len("torch."):]
    else:
        text = getattr(dtype, "name", text)
    return _BY_NAME.get(text)


def element_type_name(value: Any) -> Optional[str]:
    """The element type of a tensor-like argument (anything a kernel takes
    as a pointer: data_ptr() and dtype, or a NumPy array), else None."""
    if not (hasattr(value, "data_ptr") or hasattr(value, "__array_interface__")):
        return None
    dtype = getattr(value, "dtype", None)
    return None if dtype is None else dtype_name(dtype)
