"""``triton.compile``: ahead-of-time compilation of one specialization.

``triton.compile(ASTSource(fn, signature, constexprs, attrs), target=...)``
compiles a ``@triton.jit`` function for the argument types a signature
names, launching nothing, for any target a Tessera plugin provides: the
session's when ``target`` is None, else the backend and architecture of the
``GPUTarget`` (``cuda`` is the nvptx plugin, ``hip`` amdgpu, ``cpu`` the
host; other names are plugin names). The kernel's globals are read from the
live module, as a launch reads them.

The signature is Triton 3.6's: parameter name -> type (``"*fp32"``,
``"i32"``, ``"u1"``, ``"tensordesc<fp16[64, 64]>"``, ``"constexpr"``), the
values of ``constexpr`` entries in ``constexprs`` (by name or by ``(index,)``)
and ``tt.divisibility`` in ``attrs``. Tessera also takes its own
ahead-of-time form as a string, as ``tessera compile --signature`` does
(``"*fp32:16,i32,1024"``).

The result is a ``CompiledKernel`` (``asm``, ``metadata``, ``name``,
``n_regs``...) that no launch uses: launch the jit function itself.
"""
from __future__ import annotations

import threading
import weakref
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from tessera import _binding, _program, _session
from tessera.triton.language._constexpr import _unwrap, constexpr

#: Triton's backend names -> Tessera plugin names.
_PLUGIN = {"cuda": "nvptx", "hip": "amdgpu"}

#: The options ``triton.compile`` applies, with the keyword of the binding.
_OPTIONS = {"num_warps": "num_warps", "num_stages": "num_stages", "num_ctas": "num_ctas",
            "maxnreg": "maxnreg", "debug": "debug"}


class ASTSource:
    """A jit function and the specialization to compile it for."""

    def __init__(self, fn: Any, signature: Union[Mapping[str, str], str],
                 constexprs: Optional[Mapping[Any, Any]] = None,
                 attrs: Optional[Mapping[Tuple[int, ...], Any]] = None) -> None:
        from tessera.triton.runtime.jit import JITFunction
        if not isinstance(fn, JITFunction):
            raise TypeError(f"ASTSource: fn must be a @triton.jit function, not {fn!r} (an "
                            "@triton.autotune or @triton.heuristics wrapper holds it in .fn)")
        self.fn = fn
        self.name = fn.__name__
        self.signature = signature
        self.constants: Dict[Tuple[int, ...], Any] = {}
        for key, value in (constexprs or {}).items():
            if isinstance(key, str):
                if key not in fn.arg_names:
                    raise ValueError(f"ASTSource: '{self.name}' has no parameter '{key}'")
                key = (fn.arg_names.index(key), )
            if not isinstance(key, tuple):
                raise TypeError(f"ASTSource: constexpr keys are parameter names or (index,) tuples, "
                                f"not {key!r}")
            self.constants[key] = value
        self.attrs = dict(attrs or {})
        if not isinstance(signature, str):
            for key in signature:
                if not isinstance(key, str):
                    raise TypeError("Signature keys must be string")

    def aot_signature(self) -> Tuple[str, List[str]]:
        """Tessera's ahead-of-time signature and its NAME=VALUE constexprs."""
        names = list(self.fn.arg_names)
        if isinstance(self.signature, str):
            constexprs = []
            for key, value in self.constants.items():
                if len(key) != 1:
                    raise ValueError(f"ASTSource: constexpr {key!r} of a tuple parameter needs the "
                                     "signature in Triton's dict form")
                constexprs.append(f"{names[key[0]]}={_literal(value, names[key[0]])}")
            return self.signature, constexprs
        unknown = [name for name in self.signature if name not in names]
        if unknown:
            raise ValueError(f"ASTSource: '{self.name}' has no parameter {unknown[0]!r}")
        annotated = {names[i] for i in self.fn.constexprs}
        entries = []
        for index, name in enumerate(names):
            if name not in self.signature:
                if any(n in self.signature for n in names[index + 1:]):
                    raise ValueError(f"ASTSource: the signature of '{self.name}' lacks parameter "
                                     f"'{name}' (give every parameter, constexprs as 'constexpr')")
                break  # trailing parameters keep their defaults
            entries.append(self._entry(index, name, str(self.signature[name]), name in annotated))
        return ",".join(entries), []

    def _entry(self, index: int, name: str, type_name: str, annotated: bool) -> str:
        if type_name == "constexpr":
            if (index, ) not in self.constants:
                raise ValueError(f"ASTSource: parameter '{name}' is 'constexpr' in the signature but "
                                 "constexprs gives no value for it")
            value = self.constants[(index, )]
            # Triton turns an int argument equal to 1 into a constexpr.
            if not annotated and type(value) is int and value == 1:
                return "i32:1"
            return _literal(value, name)
        entry = type_name
        for attr in self.attrs.get((index, ), []):
            if list(attr[:1]) == ["tt.divisibility"] and attr[1] == 16:
                entry += ":16"
        return entry


def _literal(value: Any, name: str) -> str:
    """The Python literal of a constexpr value, as the signature spells it."""
    if value is None or isinstance(value, (bool, int)):
        return repr(value)
    if isinstance(value, float):
        text = repr(value)
        return text if text not in ("inf", "-inf", "nan") else f"float('{text}')"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        items = [_literal(v, name) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    text = repr(value)
    if text.startswith("triton.language."):  # a dtype
        return "tl." + text[len("triton.language."):]
    if isinstance(value, constexpr):
        return _literal(_unwrap(value), name)
    raise TypeError(f"constexpr '{name}' = {text} cannot be given in a signature (it is no "
                    "literal); launch the kernel to compile it with this value")


_lock = threading.Lock()
_sessions: Dict[Tuple[str, str], Any] = {}
_kernels: "weakref.WeakKeyDictionary[Any, Dict[int, Any]]" = weakref.WeakKeyDictionary()


def _target_session(target: Any) -> Any:
    """The session compiling for `target` (None: the process's session)."""
    if target is None:
        return _session.session()
    backend = str(target.backend)
    plugin = _PLUGIN.get(backend, backend)
    arch = target.arch
    if backend == "cuda" and isinstance(arch, int):
        # Triton compiles capability 90 and later for the arch-specific ISA.
        arch = f"sm_{arch}{'a' if arch >= 90 else ''}"
    key = (plugin, str(arch))
    with _lock:
        if key not in _sessions:
            settings = _session.Settings.from_environment()
            c = _binding.load()
            _sessions[key] = c.Session(backend=plugin, arch=str(arch), compile_only=True,
                                       plugin_paths=settings.plugin_paths,
                                       cache_dir=settings.cache_dir,
                                       disable_cache=settings.disable_cache)
        return _sessions[key]


def _kernel(fn: Any, session: Any) -> Any:
    """The binding's Kernel of `fn` in `session`, made once."""
    with _lock:
        per_session = _kernels.setdefault(fn, {})
        kernel = per_session.get(id(session))
    if kernel is None:
        program, unit = _program.build_program(fn)
        kernel = _binding.load().Kernel(session, program, unit)
        with _lock:
            per_session.setdefault(id(session), kernel)
    return kernel


def compile(src: ASTSource, target: Any = None, options: Optional[Mapping[str, Any]] = None) -> Any:
    """Compiles `src` for `target`; raises CompilationError when it does not
    compile. See the module docstring."""
    if isinstance(src, str):
        raise TypeError("triton.compile: Tessera compiles Triton source (ASTSource), not IR files")
    if not isinstance(src, ASTSource):
        raise TypeError(f"triton.compile: expected an ASTSource, not {src!r}")
    keywords: Dict[str, Any] = {}
    for name, value in (options or {}).items():
        if name not in _OPTIONS:
            raise TypeError(f"triton.compile: option '{name}' is not supported by Tessera (supported: "
                            f"{', '.join(_OPTIONS)})")
        keywords[_OPTIONS[name]] = bool(value) if name == "debug" else value
    signature, constexprs = src.aot_signature()
    kernel = _kernel(src.fn, _target_session(target))
    return kernel.compile(signature, constexprs, **keywords)
