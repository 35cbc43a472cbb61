"""Kernels from the live interpreter: the program document of docs/embedding.md.

Triton compiles a kernel from its source and resolves the names it reads in
``fn.__globals__`` (and the closure) when it first compiles. Tessera does the
same here, on the Python side, and hands the frontend the result: the source
of every function a kernel may reach, and the value of every global each of
them reads, converted to the program format. Nothing is guessed from the
files: helpers imported from other packages, constants computed by
module-level code (version checks, ``try: import ... except ImportError``) and
kernels defined inside functions all compile as the interpreter sees them.

The document is serialized deterministically (sorted keys, no addresses):
its hash is the source hash that keys the disk cache and tuning records.
"""
from __future__ import annotations

import ast
import inspect
import json
import math
import numbers
import textwrap
import types
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

FORMAT = "tessera-program"
VERSION = 1

Path = Tuple[str, ...]
JsonValue = Dict[str, Any]

#: The value forms of plain data (a global holding one can be rebound).
_VALUE_FORMS = frozenset(("none", "bool", "int", "float", "str", "tuple", "list", "dict"))

_INT_MIN = -(1 << 63)
_INT_MAX = (1 << 63) - 1


class ProgramError(RuntimeError):
    """A kernel whose program cannot be built (no source, unreadable file)."""


# --------------------------------------------------------------------------
# Source and the names a function reads
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SourceInfo:
    """What the program needs from one Python function's source."""

    name: str
    module: str
    file: str
    line: int
    source: str
    #: global (or closure) names the function reads -> the attribute paths
    #: read through each (the empty path: the name itself).
    reads: Dict[str, FrozenSet[Path]]


class _NameReads(ast.NodeVisitor):
    """Collects the names a function binds and the names and attribute
    chains it reads, the way Python scopes them: a name bound anywhere in the
    function is local everywhere in it."""

    def __init__(self) -> None:
        self.bound: Set[str] = set()
        self.declared_outer: Set[str] = set()
        self.reads: Dict[str, Set[Path]] = {}

    def _read(self, name: str, path: Path) -> None:
        self.reads.setdefault(name, set()).add(path)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._read(node.id, ())
        else:
            self.bound.add(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain: List[str] = []
        current: ast.AST = node
        while isinstance(current, ast.Attribute):
            chain.append(current.attr)
            current = current.value
        if isinstance(current, ast.Name) and isinstance(current.ctx, ast.Load):
            self._read(current.id, tuple(reversed(chain)))
        else:
            self.visit(current)

    def _arguments(self, args: ast.arguments) -> None:
        every = list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs)
        every += [a for a in (args.vararg, args.kwarg) if a is not None]
        for a in every:
            self.bound.add(a.arg)
            if a.annotation is not None:
                self.visit(a.annotation)
        for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
            self.visit(default)

    def visit_function(self, node: ast.AST, root: bool, decorators: bool = False) -> None:
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        if not root:
            self.bound.add(node.name)
        if not root or decorators:
            for d in node.decorator_list:
                self.visit(d)
        # A kernel's decorators are not evaluated by the frontend (the
        # embedder applies autotune/heuristics itself): their names are not
        # the kernel's. A host function's are read: the frontend tells a
        # @triton.constexpr_function by its decorator.
        self._arguments(node.args)
        if node.returns is not None:
            self.visit(node.returns)
        for stmt in node.body:
            self.visit(stmt)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.visit_function(node, root=False)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._arguments(node.args)
        self.visit(node.body)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.bound.add(node.name)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.declared_outer.update(node.names)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.declared_outer.update(node.names)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.bound.add(node.name)
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.bound.add((alias.asname or alias.name).split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.bound.add(alias.asname or alias.name)

    def free_reads(self) -> Dict[str, FrozenSet[Path]]:
        local = self.bound - self.declared_outer
        return {name: frozenset(paths) for name, paths in self.reads.items() if name not in local}


def _parse_function(source: str, name: str, where: str) -> ast.AST:
    """The ``def`` node of `source` (indented text of nested functions too)."""
    text = textwrap.dedent(source)
    try:
        tree = ast.parse(text)
    except SyntaxError:
        # A body whose continuation lines are less indented than the def
        # (a multi-line string) defeats dedent; a wrapping block does not.
        try:
            tree = ast.parse("if True:\n" + source)
        except SyntaxError as e:
            raise ProgramError(f"cannot parse the source of {where}: {e}") from e
        tree = tree.body[0]  # type: ignore[assignment]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    raise ProgramError(f"the source of {where} holds no 'def {name}'")


def source_info(fn: types.FunctionType, decorators: bool = False) -> SourceInfo:
    """The source of `fn` and what it reads (inspect, as Triton does)."""
    where = f"'{fn.__module__}.{fn.__qualname__}'"
    try:
        lines, line = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise ProgramError(
            f"cannot read the source of {where} ({e}): Tessera compiles a kernel from its "
            "source text, so @triton.jit functions must be defined in a Python file") from e
    file = inspect.getsourcefile(fn) or fn.__code__.co_filename
    source = "".join(lines)
    node = _parse_function(source, fn.__name__, where)
    reads = _NameReads()
    reads.visit_function(node, root=True, decorators=decorators)
    return SourceInfo(name=fn.__name__, module=fn.__module__ or "__main__", file=file,
                      line=max(line, 1), source=source, reads=reads.free_reads())


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


def _own_symbol(value: Any) -> Optional[str]:
    """``__tessera_symbol__`` set on the object itself, never inherited
    (a dtype instance has its own; an instance of a symbol class has not)."""
    try:
        own = object.__getattribute__(value, "__dict__")
    except AttributeError:
        return None
    symbol = own.get("__tessera_symbol__")
    return symbol if isinstance(symbol, str) else None


def _type_name(value: Any) -> str:
    t = type(value)
    module = t.__module__
    return t.__qualname__ if module in ("builtins", None) else f"{module}.{t.__qualname__}"


def _float(value: float) -> Any:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def function_unit_of(value: Any) -> Optional[Tuple[types.FunctionType, bool, Dict[str, Any]]]:
    """(Python function, jit, options) when `value` is a Tessera jit or
    constexpr function (or a wrapper of one, such as an autotuner)."""
    method = getattr(type(value), "_tessera_function_unit", None)
    if method is None:
        return None
    return method(value)


def _is_constexpr_annotation(annotation: Any) -> bool:
    from tessera.triton.language import constexpr
    if annotation is constexpr:
        return True
    return isinstance(annotation, str) and annotation.split(".")[-1] == "constexpr"


class ProgramBuilder:
    """Builds the units of one program, starting from one kernel."""

    def __init__(self) -> None:
        #: (module globals, name, value) of the values the program took from
        #: module globals: a kernel compiled from them is stale if one changes.
        self.watched: List[Tuple[Dict[str, Any], str, Any]] = []
        self.units: Dict[str, Dict[str, Any]] = {}
        self._function_ids: Dict[int, str] = {}
        self._owners: Dict[str, Any] = {}
        self._infos: Dict[int, SourceInfo] = {}

    # Units ----------------------------------------------------------------

    def add_function(self, fn: types.FunctionType, jit: bool, options: Dict[str, Any]) -> str:
        """The unit id of `fn`, building its unit (and those it reaches)."""
        known = self._function_ids.get(id(fn))
        if known is not None:
            return known
        info = self._source(fn, decorators=not jit)
        unit_id = self._unique_id(f"{info.module}:{fn.__qualname__}", fn)
        self._function_ids[id(fn)] = unit_id
        unit: Dict[str, Any] = {
            "kind": "function",
            "name": info.name,
            "module": info.module,
            "file": info.file,
            "line": info.line,
            "source": info.source,
            "jit": jit,
            "options": options,
            "globals": {},
        }
        self.units[unit_id] = unit
        scope = self._scope(fn)
        # `X: tl.constexpr = 3` at module level marks X constexpr, as the
        # format allows.
        annotations = fn.__globals__.get("__annotations__", {})
        for name in sorted(info.reads):
            found, value = scope(name)
            if not found:
                continue  # a builtin, or undefined: the frontend says which
            converted = self.convert(value, info.reads[name], f"'{name}' of {unit_id}")
            if name not in fn.__code__.co_freevars and not _VALUE_FORMS.isdisjoint(converted):
                self.watched.append((fn.__globals__, name, value))
            if isinstance(annotations, dict) and _is_constexpr_annotation(annotations.get(name)):
                converted["constexpr"] = True
            unit["globals"][name] = converted
        return unit_id

    def _source(self, fn: types.FunctionType, decorators: bool = False) -> SourceInfo:
        info = self._infos.get(id(fn))
        if info is None:
            info = source_info(fn, decorators)
            self._infos[id(fn)] = info
        return info

    def _unique_id(self, wanted: str, owner: Any) -> str:
        unit_id, n = wanted, 1
        while unit_id in self._owners and self._owners[unit_id] is not owner:
            n += 1
            unit_id = f"{wanted}#{n}"
        self._owners[unit_id] = owner
        return unit_id

    @staticmethod
    def _scope(fn: types.FunctionType):
        closure: Dict[str, Any] = {}
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                closure[name] = cell.cell_contents
            except ValueError:  # an empty cell: assigned after the def
                pass
        module_globals = fn.__globals__

        def lookup(name: str) -> Tuple[bool, Any]:
            if name in closure:
                return True, closure[name]
            if name in module_globals:
                return True, module_globals[name]
            return False, None

        return lookup

    def _namespace_unit(self, unit_id: str, module: str, file: str, value: Any,
                        paths: Iterable[Path], where: str) -> str:
        """A module unit holding the attributes of `value` read along `paths`."""
        unit = self.units.get(unit_id)
        if unit is None:
            self._owners[unit_id] = value
            unit = {"kind": "module", "module": module, "file": file, "globals": {}}
            self.units[unit_id] = unit
        by_attr: Dict[str, Set[Path]] = {}
        for path in paths:
            if path:
                by_attr.setdefault(path[0], set()).add(path[1:])
        for attr in sorted(by_attr):
            try:
                attr_value = getattr(value, attr)
            except AttributeError:
                continue  # the frontend reports the missing attribute
            except Exception as e:  # a module __getattr__ refusing the name
                unit["globals"][attr] = {"opaque": type(e).__name__, "repr": str(e)[:200]}
                continue
            unit["globals"][attr] = self.convert(attr_value, by_attr[attr], f"{where}.{attr}")
        return unit_id

    # Values ---------------------------------------------------------------

    def convert(self, value: Any, paths: Iterable[Path] = (frozenset(), ), where: str = "") -> JsonValue:
        """The program-format value of a host object."""
        from tessera.triton.language import constexpr
        paths = frozenset(paths)
        if isinstance(value, constexpr):
            inner = self.convert(value.value, paths, where)
            inner["constexpr"] = True
            return inner
        if value is None:
            return {"none": None}
        if isinstance(value, bool):
            return {"bool": value}
        symbol = _own_symbol(value)
        if symbol is not None:
            return {"symbol": symbol}
        unit = function_unit_of(value)
        if unit is not None:
            fn, jit, options = unit
            return {"unit": self.add_function(fn, jit, options)}
        if isinstance(value, types.FunctionType):
            # A plain host function: run by the evaluator when a host
            # function calls it, or by device code when decorated with
            # @tl.constexpr (as libraries write compile-time helpers).
            try:
                return {"unit": self.add_function(value, False, {})}
            except ProgramError:
                return {"opaque": "function", "repr": f"<function {value.__qualname__}>"}
        if isinstance(value, types.BuiltinFunctionType) and value.__module__ == "math":
            # The host evaluator implements math's functions by name
            # (math.log2 in a constexpr_function), as for a kernel file.
            return {"symbol": f"math.{value.__name__}"}
        if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
            return self.convert(value.item(), paths, where)  # a NumPy scalar
        if isinstance(value, numbers.Integral):
            v = int(value)
            if _INT_MIN <= v <= _INT_MAX:
                return {"int": v}
            # The format's integers are signed 64-bit; a wider value cannot be
            # a compile-time constant (using it in device code names it).
            return {"opaque": "int", "repr": f"{v} (beyond the 64-bit range of program integers)"}
        if isinstance(value, numbers.Real):
            return {"float": _float(float(value))}
        if isinstance(value, str):
            return {"str": value}
        if isinstance(value, tuple):
            return {"tuple": [self.convert(v, where=where) for v in value]}
        if isinstance(value, list):
            return {"list": [self.convert(v, where=where) for v in value]}
        if isinstance(value, dict):
            return {"dict": [[self.convert(k, where=where), self.convert(v, where=where)]
                             for k, v in value.items()]}
        if isinstance(value, types.ModuleType):
            name = value.__name__
            file = getattr(value, "__file__", None) or f"<{name}>"
            return {"unit": self._namespace_unit(name, name, file, value, paths, where)}
        if isinstance(value, type) and any(paths):
            # A class read through attributes (a namespace of constants).
            name = f"{value.__module__}.{value.__qualname__}"
            module = inspect.getmodule(value)
            file = getattr(module, "__file__", None) or f"<{value.__module__}>"
            unit_id = f"{value.__module__}:{value.__qualname__}"
            return {"unit": self._namespace_unit(unit_id, name, file, value, paths, where)}
        return {"opaque": _type_name(value), "repr": f"<{_type_name(value)} object>"}

    # Output ---------------------------------------------------------------

    def document(self) -> Dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "units": self.units}

    def to_json(self) -> str:
        return json.dumps(self.document(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False, allow_nan=False)


def build_program(kernel: Any) -> Tuple[str, str]:
    """(program JSON, unit id of the kernel) for a jit function or a wrapper."""
    unit = function_unit_of(kernel)
    if unit is None:
        raise TypeError(f"build_program: {kernel!r} is not a @triton.jit function")
    fn, jit, options = unit
    builder = ProgramBuilder()
    unit_id = builder.add_function(fn, jit, options)
    return builder.to_json(), unit_id


def same_value(a: Any, b: Any) -> bool:
    """Whether a global still holds the value a program was built from."""
    if a is b:
        return True
    from tessera.triton.language._constexpr import _unwrap
    try:
        return type(a) is type(b) and bool(_unwrap(a) == _unwrap(b))
    except Exception:  # noqa: BLE001 - values that do not compare are changed
        return False


def build_program_watched(kernel: Any) -> Tuple[str, str, List[Tuple[Dict[str, Any], str, Any]]]:
    """build_program(), with the module globals whose values it used."""
    unit = function_unit_of(kernel)
    if unit is None:
        raise TypeError(f"build_program: {kernel!r} is not a @triton.jit function")
    fn, jit, options = unit
    builder = ProgramBuilder()
    unit_id = builder.add_function(fn, jit, options)
    return builder.to_json(), unit_id, builder.watched

