"""``triton.runtime.errors``: errors of launching and autotuning."""
from __future__ import annotations

from typing import Optional

from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.errors import TritonError


class OutOfResources(TritonError):
    """A config needs more of a resource (shared memory, registers) than the
    device has; the autotuner skips such configs."""

    def __init__(self, required: int, limit: int, name: str) -> None:
        self.required = required
        self.limit = limit
        self.name = name
        super().__init__(f"out of resource: {name}, Required: {required}, Hardware limit: {limit}")

    def __reduce__(self):
        return (type(self), (self.required, self.limit, self.name))


class AutotunerError(TritonError):
    """An autotuner misconfiguration (no config left after pruning)."""


class InterpreterError(TritonError):
    """Triton's interpreter errors; Tessera has no interpreter and never
    raises it (kept so that ``except InterpreterError`` clauses import)."""

    def __init__(self, error_message: Optional[str] = None) -> None:
        self.error_message = error_message
        super().__init__(error_message or "")


class PTXASError(TritonError):
    """Kept for ``except`` clauses; Tessera reports assembler failures as
    compile errors (``tessera._C.TesseraError``)."""


__getattr__ = _missing_attribute(__name__)
