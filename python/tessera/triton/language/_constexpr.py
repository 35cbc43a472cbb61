"""``tl.constexpr``: an annotation in kernels, a value wrapper on the host.

``X = tl.constexpr(3)`` at module level makes ``X`` visible to device code
as the compile-time value 3 (the program builder unwraps it and flags it
constexpr). On the host the wrapper behaves like its value: arithmetic,
comparisons, ``bool``, ``int``, indexing and calls act on ``.value``, and,
as in Triton, arithmetic on a constexpr gives a constexpr.
"""
from __future__ import annotations

from typing import Any


def _unwrap(value: Any) -> Any:
    while isinstance(value, constexpr):
        value = value.value
    return value


def _binary(op):
    def method(self, other):
        return constexpr(op(self.value, _unwrap(other)))
    return method


def _reflected(op):
    def method(self, other):
        return constexpr(op(_unwrap(other), self.value))
    return method


class constexpr:
    """A value known at compile time (``tl.constexpr(128)``)."""

    __tessera_symbol__ = "triton.language.constexpr"
    __slots__ = ("value", )

    def __init__(self, value: Any) -> None:
        self.value = _unwrap(value)

    @property
    def __tessera_value__(self) -> Any:
        """What the binding passes for this value (the wrapped value)."""
        return self.value

    @property
    def type(self) -> "constexpr_type":
        return constexpr_type(self.value)

    def __repr__(self) -> str:
        return f"constexpr[{self.value!r}]"

    def __hash__(self) -> int:
        return hash((constexpr, self.value))

    def __index__(self) -> int:
        return self.value.__index__()

    def __int__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        return float(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    __add__ = _binary(lambda a, b: a + b)
    __radd__ = _reflected(lambda a, b: a + b)
    __sub__ = _binary(lambda a, b: a - b)
    __rsub__ = _reflected(lambda a, b: a - b)
    __mul__ = _binary(lambda a, b: a * b)
    __rmul__ = _reflected(lambda a, b: a * b)
    __truediv__ = _binary(lambda a, b: a / b)
    __rtruediv__ = _reflected(lambda a, b: a / b)
    __floordiv__ = _binary(lambda a, b: a // b)
    __rfloordiv__ = _reflected(lambda a, b: a // b)
    __mod__ = _binary(lambda a, b: a % b)
    __rmod__ = _reflected(lambda a, b: a % b)
    __pow__ = _binary(lambda a, b: a**b)
    __rpow__ = _reflected(lambda a, b: a**b)
    __and__ = _binary(lambda a, b: a & b)
    __rand__ = _reflected(lambda a, b: a & b)
    __or__ = _binary(lambda a, b: a | b)
    __ror__ = _reflected(lambda a, b: a | b)
    __xor__ = _binary(lambda a, b: a ^ b)
    __rxor__ = _reflected(lambda a, b: a ^ b)
    __lshift__ = _binary(lambda a, b: a << b)
    __rlshift__ = _reflected(lambda a, b: a << b)
    __rshift__ = _binary(lambda a, b: a >> b)
    __rrshift__ = _reflected(lambda a, b: a >> b)
    __gt__ = _binary(lambda a, b: a > b)
    __ge__ = _binary(lambda a, b: a >= b)
    __lt__ = _binary(lambda a, b: a < b)
    __le__ = _binary(lambda a, b: a <= b)
    __eq__ = _binary(lambda a, b: a == b)
    __ne__ = _binary(lambda a, b: a != b)

    def __neg__(self) -> "constexpr":
        return constexpr(-self.value)

    def __pos__(self) -> "constexpr":
        return constexpr(+self.value)

    def __invert__(self) -> "constexpr":
        return constexpr(~self.value)

    def __abs__(self) -> "constexpr":
        return constexpr(abs(self.value))

    def logical_and(self, other: Any) -> "constexpr":
        return constexpr(self.value and _unwrap(other))

    def logical_or(self, other: Any) -> "constexpr":
        return constexpr(self.value or _unwrap(other))

    def __iter__(self):
        return iter(self.value)

    def __len__(self) -> int:
        return len(self.value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.value(*args, **kwargs)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, tuple):
            index = tuple(_unwrap(i) for i in index)
        return self.value[_unwrap(index)]

    def __reduce__(self):
        return (constexpr, (self.value, ))


class constexpr_type:
    """The type of a constexpr value (Triton's ``tl.constexpr_type``)."""

    __tessera_symbol__ = "triton.language.constexpr_type"

    def __init__(self, value: Any) -> None:
        self.value = _unwrap(value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, constexpr_type) and self.value == other.value

    def __hash__(self) -> int:
        return hash((constexpr_type, self.value))

    def __repr__(self) -> str:
        return f"constexpr_type[{self.value!r}]"
