"""Triton's element types as host values.

A host program passes ``tl.float16`` as a constexpr, compares dtypes, asks
their width; device code names them. Each dtype object carries two
attributes the rest of Tessera reads:

* ``__tessera_dtype__``: the type's name in Triton signatures (``fp16``,
  ``i32``, ``*fp32``), what the binding packs when a dtype is a launch
  argument;
* ``__tessera_symbol__``: its qualified name in the language
  (``triton.language.float16``), how the program builder hands it to the
  frontend.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Optional, Sequence

# Triton's internal names (dtype.name), with the signature spelling and the
# attribute of triton.language that names each.
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("int1", "uint8", "uint16", "uint32", "uint64")
_FLOATS = ("fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16", "fp16", "bf16", "fp32", "fp64")
_STANDARD_FLOATS = ("fp16", "bf16", "fp32", "fp64")

_SIGNATURE_NAME = {
    "int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "void": "void",
}

# (mantissa bits, exponent bias) of each floating type.
_FLOAT_FORMAT = {
    "fp8e4b15": (3, 15), "fp8e4nv": (3, 7), "fp8e4b8": (3, 8), "fp8e5": (2, 15),
    "fp8e5b16": (2, 16), "fp16": (10, 15), "bf16": (7, 127), "fp32": (23, 127),
    "fp64": (52, 1023),
}


def _bitwidth(name: str) -> int:
    if name == "int1":
        return 1
    if name.startswith("fp8"):
        return 8
    if name == "void":
        return 0
    digits = "".join(c for c in name if c.isdigit())
    return int(digits)


def _language_name(name: str) -> str:
    """fp16 -> float16, bf16 -> bfloat16, int32 -> int32."""
    if name.startswith("fp"):
        return "float" + name[2:]
    if name.startswith("bf"):
        return "bfloat" + name[2:]
    return name


def _unwrap(value: Any) -> Any:
    from tessera.triton.language._constexpr import constexpr
    while isinstance(value, constexpr):
        value = value.value
    return value


class dtype:
    """An element type (``tl.float16``, ``tl.int32``, ...).

    ``dtype("fp16")`` builds the same type from Triton's internal name, as in
    Triton; equal names compare equal.
    """

    SINT_TYPES = list(_SIGNED)
    UINT_TYPES = list(_UNSIGNED)
    FP_TYPES = list(_FLOATS)
    STANDARD_FP_TYPES = list(_STANDARD_FLOATS)
    OTHER_TYPES = ["void"]

    class SIGNEDNESS(Enum):
        SIGNED = 0
        UNSIGNED = 1

    class KIND(Enum):
        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    __tessera_symbol__ = "triton.language.dtype"

    def __init__(self, name: str) -> None:
        name = _unwrap(name)
        if not dtype.is_dtype(name):
            raise ValueError(f"dtype: unknown type name {name!r}; expected one of "
                             f"{', '.join(_SIGNED + _UNSIGNED + _FLOATS + ('void',))}")
        self.name = name
        self.primitive_bitwidth = _bitwidth(name)
        self.itemsize = self.primitive_bitwidth // 8
        if name in _SIGNED:
            self.int_signedness = dtype.SIGNEDNESS.SIGNED
            self.int_bitwidth = self.primitive_bitwidth
        elif name in _UNSIGNED:
            self.int_signedness = dtype.SIGNEDNESS.UNSIGNED
            self.int_bitwidth = self.primitive_bitwidth
        elif name in _FLOATS:
            self.fp_mantissa_width, self.exponent_bias = _FLOAT_FORMAT[name]
        self.__tessera_dtype__ = _SIGNATURE_NAME.get(name, name)
        self.__tessera_symbol__ = "triton.language." + _language_name(name)

    # Predicates, with Triton's names.
    def is_fp8(self) -> bool:
        return self.name.startswith("fp8")

    def is_fp8e4nv(self) -> bool:
        return self.name == "fp8e4nv"

    def is_fp8e4b8(self) -> bool:
        return self.name == "fp8e4b8"

    def is_fp8e4b15(self) -> bool:
        return self.name == "fp8e4b15"

    def is_fp8e5(self) -> bool:
        return self.name == "fp8e5"

    def is_fp8e5b16(self) -> bool:
        return self.name == "fp8e5b16"

    def is_fp16(self) -> bool:
        return self.name == "fp16"

    def is_bf16(self) -> bool:
        return self.name == "bf16"

    def is_fp32(self) -> bool:
        return self.name == "fp32"

    def is_fp64(self) -> bool:
        return self.name == "fp64"

    def is_int1(self) -> bool:
        return self.name == "int1"

    def is_int8(self) -> bool:
        return self.name == "int8"

    def is_int16(self) -> bool:
        return self.name == "int16"

    def is_int32(self) -> bool:
        return self.name == "int32"

    def is_int64(self) -> bool:
        return self.name == "int64"

    def is_uint8(self) -> bool:
        return self.name == "uint8"

    def is_uint16(self) -> bool:
        return self.name == "uint16"

    def is_uint32(self) -> bool:
        return self.name == "uint32"

    def is_uint64(self) -> bool:
        return self.name == "uint64"

    def is_floating(self) -> bool:
        return self.name in _FLOATS

    def is_standard_floating(self) -> bool:
        return self.name in _STANDARD_FLOATS

    def is_int_signed(self) -> bool:
        return self.name in _SIGNED

    def is_int_unsigned(self) -> bool:
        return self.name in _UNSIGNED

    def is_int(self) -> bool:
        return self.name in _SIGNED or self.name in _UNSIGNED

    def is_bool(self) -> bool:
        return self.name == "int1"

    def is_void(self) -> bool:
        return self.name == "void"

    @staticmethod
    def is_dtype(type_str: Any) -> bool:
        return type_str in _SIGNED or type_str in _UNSIGNED or type_str in _FLOATS or type_str == "void"

    def is_block(self) -> bool:
        return False

    def is_ptr(self) -> bool:
        return False

    def is_const(self) -> bool:
        return False

    def kind(self) -> "dtype.KIND":
        if self.is_bool():
            return dtype.KIND.BOOLEAN
        if self.is_int():
            return dtype.KIND.INTEGRAL
        if self.is_floating():
            return dtype.KIND.FLOATING
        raise ValueError(f"dtype {self.name} has no kind")

    def get_int_max_value(self) -> int:
        if self.is_int_signed():
            return 2**(self.int_bitwidth - 1) - 1
        if self.is_int_unsigned():
            return 2**self.int_bitwidth - 1
        raise ValueError(f"get_int_max_value: {self.name} is not an integer type")

    def get_int_min_value(self) -> int:
        if self.is_int_signed():
            return -2**(self.int_bitwidth - 1)
        if self.is_int_unsigned():
            return 0
        raise ValueError(f"get_int_min_value: {self.name} is not an integer type")

    @property
    def scalar(self) -> "dtype":
        return self

    @property
    def cache_key_part(self) -> str:
        return self.name

    def codegen_name(self) -> str:
        return _language_name(self.name)

    def with_element_ty(self, element_ty: "dtype") -> "dtype":
        return element_ty

    def __eq__(self, other: object) -> bool:
        other = _unwrap(other)
        return isinstance(other, dtype) and type(other) is type(self) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return (self.name, )

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"triton.language.{self.codegen_name()}"

    def __reduce__(self):
        return (dtype, (self.name, ))


class pointer_type(dtype):
    """A pointer to `element_ty` (``tl.pointer_type(tl.int32)``)."""

    __tessera_symbol__ = "triton.language.pointer_type"

    def __init__(self, element_ty: dtype, address_space: int = 1, const: bool = False) -> None:
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError(f"pointer_type: element_ty has type '{type(element_ty).__name__}'; "
                            "expected a dtype such as tl.float32")
        self.element_ty = element_ty
        self.address_space = _unwrap(address_space)
        self.const = _unwrap(const)
        self.name = f"pointer<{element_ty}>" if not self.const else f"const_pointer<{element_ty}>"
        self.primitive_bitwidth = 64
        self.itemsize = 8
        inner = getattr(element_ty, "__tessera_dtype__", element_ty.name)
        self.__tessera_dtype__ = ("*k" if self.const else "*") + inner
        # No qualified name of its own: the program builder treats pointer
        # types other than tl.pi32_t as opaque host values.

    def is_ptr(self) -> bool:
        return True

    def is_const(self) -> bool:
        return self.const

    def is_floating(self) -> bool:
        return False

    def is_int(self) -> bool:
        return False

    def _key(self) -> tuple:
        return (self.element_ty, self.address_space, self.const)

    @property
    def scalar(self) -> "dtype":
        return self

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self):
        return (pointer_type, (self.element_ty, self.address_space, self.const))


class block_type(dtype):
    """A block (tensor) type: `element_ty` over `shape`."""

    __tessera_symbol__ = "triton.language.block_type"

    def __init__(self, element_ty: dtype, shape: Sequence[int]) -> None:
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError(f"block_type: element_ty has type '{type(element_ty).__name__}'; "
                            "expected a dtype")
        shape = tuple(_unwrap(s) for s in shape)
        if not shape:
            raise TypeError("block_type: a block needs at least one dimension")
        self.element_ty = element_ty
        self.shape = shape
        self.numel = 1
        for s in shape:
            self.numel *= s
        self.name = f"<{list(shape)}, {element_ty}>"
        self.primitive_bitwidth = element_ty.primitive_bitwidth
        self.itemsize = element_ty.itemsize

    def is_block(self) -> bool:
        return True

    def get_block_shapes(self) -> tuple:
        return self.shape

    def with_element_ty(self, scalar_ty: dtype) -> "block_type":
        return block_type(scalar_ty, self.shape)

    @property
    def scalar(self) -> dtype:
        return self.element_ty

    @property
    def nbytes(self) -> int:
        return self.numel * self.element_ty.primitive_bitwidth // 8

    def _key(self) -> tuple:
        return (self.element_ty, self.shape)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self):
        return (block_type, (self.element_ty, self.shape))


def _make(name: str) -> dtype:
    return dtype(name)


void = _make("void")
int1 = _make("int1")
int8 = _make("int8")
int16 = _make("int16")
int32 = _make("int32")
int64 = _make("int64")
uint8 = _make("uint8")
uint16 = _make("uint16")
uint32 = _make("uint32")
uint64 = _make("uint64")
float8e5 = _make("fp8e5")
float8e5b16 = _make("fp8e5b16")
float8e4nv = _make("fp8e4nv")
float8e4b8 = _make("fp8e4b8")
float8e4b15 = _make("fp8e4b15")
float16 = _make("fp16")
bfloat16 = _make("bf16")
float32 = _make("fp32")
float64 = _make("fp64")
pi32_t = pointer_type(int32)
pi32_t.__tessera_symbol__ = "triton.language.pi32_t"

#: Every scalar dtype object by its attribute name in triton.language.
SCALAR_DTYPES = {
    "void": void, "int1": int1, "int8": int8, "int16": int16, "int32": int32, "int64": int64,
    "uint8": uint8, "uint16": uint16, "uint32": uint32, "uint64": uint64,
    "float8e5": float8e5, "float8e5b16": float8e5b16, "float8e4nv": float8e4nv,
    "float8e4b8": float8e4b8, "float8e4b15": float8e4b15, "float16": float16,
    "bfloat16": bfloat16, "float32": float32, "float64": float64,
}


def from_signature_name(name: str) -> Optional[dtype]:
    """The dtype of a Triton signature name (``fp16``, ``i32``, ``*fp32``)."""
    if name.startswith("*"):
        const = name.startswith("*k")
        inner = from_signature_name(name[2:] if const else name[1:])
        return None if inner is None else pointer_type(inner, const=const)
    for value in SCALAR_DTYPES.values():
        if value.__tessera_dtype__ == name:
            return value
    if name == "u1" or name == "B":
        return int1
    return None
