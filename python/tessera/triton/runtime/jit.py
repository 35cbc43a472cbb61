"""``triton.jit`` on Tessera: a Python function becomes a launchable kernel.

A :class:`JITFunction` keeps the Python function. At its first launch (or
warmup) it builds the program of docs/embedding.md from the live interpreter
(:mod:`tessera._program`) and hands it to ``tessera._C.Kernel``, which owns
everything per launch: binding the arguments, Triton's specialization, the
in-memory dispatch table, compilation and the launch itself. The Python
side of a launch is kept to splitting launch options from kernel arguments.
"""
from __future__ import annotations

import functools
import inspect
import threading
import types
import warnings
from typing import (Any, Callable, Dict, Generic, Iterable, List, Optional, Tuple, TypeVar,
                    Union, overload)

from tessera import _binding, _program, _session
from tessera.triton._unsupported import missing_attribute as _missing_attribute

T = TypeVar("T")
_MISSING = object()

#: Launch options of a kernel call, as Triton spells them, that Tessera honours.
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg")

#: Triton's other compile and launch options: accepted by Triton's kernel
#: call, not by Tessera's; a launch naming one fails naming it.
UNSUPPORTED_LAUNCH_OPTIONS = frozenset((
    "enable_fp_fusion", "launch_cooperative_grid", "launch_pdl", "extern_libs", "debug",
    "sanitize_overflow", "arch", "supported_fp8_dtypes", "deprecated_fp8_dot_operand_dtypes",
    "default_dot_input_precision", "allowed_dot_input_precisions",
    "max_num_imprecise_acc_default", "matrix_instr_nonkdim", "kpack", "waves_per_eu",
    "instruction_sched_variant", "ir_override", "cluster_dims", "stream", "backend_name",
    "schedule_hint", "enable_reflect_ftz", "ptx_version", "launch_metadata"))


class KernelInterface(Generic[T]):
    """What ``kernel[grid](...)`` and ``kernel.warmup(...)`` call: a jit
    function, an autotuner or a heuristics wrapper."""

    run: T

    def run(self, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.run")

    def warmup(self, *args: Any, grid: Any, **kwargs: Any) -> Any:
        return self.run(*map(MockTensor.wrap_dtype, args), grid=grid, warmup=True, **kwargs)

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        """``kernel[grid]``: a callable that launches over `grid` (a tuple of
        1-3 ints, or a function of the bound arguments, META)."""
        return functools.partial(_run_with_grid, self, grid)


def _run_with_grid(interface: KernelInterface, grid: Any, *args: Any, **kwargs: Any) -> Any:
    return interface.run(*args, grid=grid, warmup=False, **kwargs)


class KernelParam:
    """One parameter of a jit function (Triton's ``KernelParam``)."""

    def __init__(self, num: int, param: inspect.Parameter, do_not_specialize: bool,
                 do_not_specialize_on_alignment: bool) -> None:
        self.num = num
        self._param = param
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment

    @property
    def name(self) -> str:
        return self._param.name

    @property
    def annotation(self) -> str:
        a = self._param.annotation
        if a is inspect.Parameter.empty:
            return ""
        if isinstance(a, str):
            return a.strip("'\"")  # `x: "tl.constexpr"` under postponed annotations
        return getattr(a, "__tessera_symbol__", None) or getattr(a, "__name__", repr(a))

    @property
    def is_constexpr(self) -> bool:
        return self.annotation.split(".")[-1] == "constexpr"

    @property
    def is_const(self) -> bool:
        return self.annotation.split(".")[-1] == "const"

    @property
    def default(self) -> Any:
        return self._param.default

    @property
    def has_default(self) -> bool:
        return self._param.default is not inspect.Parameter.empty

    def __repr__(self) -> str:
        return f"KernelParam({self.num}, {self.name!r})"


def _parameter_names(fn: types.FunctionType, option: str,
                     given: Optional[Iterable[Union[int, str]]]) -> List[str]:
    """Triton accepts parameter indices or names; the program takes names.
    Triton ignores an entry that names no parameter (FlagGems ships such
    decorators on stub functions): so does Tessera, with a warning."""
    names = list(inspect.signature(fn).parameters)
    out: List[str] = []
    for item in given or ():
        if isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < len(names):
                warnings.warn(f"@triton.jit({option}=...): index {item} is out of range for "
                              f"'{fn.__qualname__}', which has {len(names)} parameters; ignored",
                              stacklevel=4)
                continue
            out.append(names[item])
        elif isinstance(item, str):
            if item not in names:
                warnings.warn(f"@triton.jit({option}=...): '{fn.__qualname__}' has no parameter "
                              f"named '{item}'; ignored", stacklevel=4)
                continue
            out.append(item)
        else:
            raise TypeError(f"@triton.jit({option}=...) takes parameter names or indices, "
                            f"got {item!r}")
    return out


class JITFunction(KernelInterface[T]):
    """A ``@triton.jit`` function: device code, launched with ``fn[grid](...)``."""

    def __init__(self, fn: types.FunctionType, version: Any = None,
                 do_not_specialize: Optional[Iterable[Union[int, str]]] = None,
                 do_not_specialize_on_alignment: Optional[Iterable[Union[int, str]]] = None,
                 debug: Optional[bool] = None, noinline: Optional[bool] = None,
                 repr: Optional[Callable[..., str]] = None,
                 launch_metadata: Optional[Callable[..., Any]] = None) -> None:
        if not inspect.isfunction(fn):
            raise TypeError(f"@triton.jit decorates a Python function (def), not {fn!r}")
        self.fn = fn
        self.module = fn.__module__
        self.version = version
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__module__ = fn.__module__
        self.__doc__ = fn.__doc__
        self.__globals__ = fn.__globals__
        self.__wrapped__ = fn
        self.signature = inspect.signature(fn)
        self.do_not_specialize = _parameter_names(fn, "do_not_specialize", do_not_specialize)
        self.do_not_specialize_on_alignment = _parameter_names(
            fn, "do_not_specialize_on_alignment", do_not_specialize_on_alignment)
        self.debug = debug
        self.noinline = noinline
        # Kept for Triton's profiler hooks (naming launches); Tessera has no
        # such hooks, so they do not change what runs.
        self._repr = repr
        self.launch_metadata = launch_metadata
        self.params = [
            KernelParam(i, p, p.name in self.do_not_specialize,
                        p.name in self.do_not_specialize_on_alignment)
            for i, p in enumerate(self.signature.parameters.values())
        ]
        self.arg_names = [p.name for p in self.params]
        self.constexprs = [p.num for p in self.params if p.is_constexpr]
        self._param_set = frozenset(self.arg_names)
        # The launch options a keyword can set: those no parameter shadows.
        self._option_slots = tuple((i, name) for i, name in enumerate(LAUNCH_OPTIONS)
                                   if name not in self._param_set)
        self._kernel: Any = None
        self._watched: Tuple[Tuple[Dict[str, Any], str, Any], ...] = ()
        self._program: Optional[str] = None
        self._lock = threading.Lock()

    # The program ----------------------------------------------------------

    def _options(self) -> Dict[str, Any]:
        return {
            "do_not_specialize": list(self.do_not_specialize),
            "do_not_specialize_on_alignment": list(self.do_not_specialize_on_alignment),
            "noinline": bool(self.noinline),
            "debug": self.debug,
        }

    def _tessera_function_unit(self) -> Tuple[types.FunctionType, bool, Dict[str, Any]]:
        return self.fn, True, self._options()

    @property
    def program(self) -> str:
        """The program document this kernel compiles from (docs/embedding.md)."""
        if self._program is None:
            self._program, _ = _program.build_program(self)
        return self._program

    def _load(self) -> Any:
        """Builds the program and the binding's kernel (first launch only)."""
        with self._lock:
            if self._kernel is None:
                program, unit, watched = _program.build_program_watched(self)
                c = _binding.load()
                self._kernel = c.Kernel(_session.session(), program, unit)
                self._program = program
                self._watched = tuple(watched)
        return self._kernel

    @property
    def kernel(self) -> Any:
        """The ``tessera._C.Kernel`` behind this function (built on demand)."""
        return self._kernel if self._kernel is not None else self._load()

    @property
    def cache_key(self) -> str:
        """The source hash of this kernel's program (what keys its caches)."""
        return self.kernel.source_hash

    @property
    def src(self) -> str:
        return _program.source_info(self.fn).source

    @property
    def starting_line_number(self) -> int:
        return _program.source_info(self.fn).line

    # Launch ---------------------------------------------------------------

    def _check_globals(self) -> None:
        """As Triton: a module global the kernel was compiled with must not
        have been rebound since (the compiled code holds its old value)."""
        for namespace, name, value in self._watched:
            current = namespace.get(name, _MISSING)
            if not _program.same_value(current, value):
                raise RuntimeError(
                    f"global variable '{name}' changed since '{self.__name__}' was compiled (from {value!r} to "
                    f"{'<deleted>' if current is _MISSING else repr(current)}); a kernel keeps the values of "
                    "the globals it was compiled with: pass the value as an argument (a tl.constexpr "
                    "parameter) to vary it")

    def _split_options(self, kwargs: Dict[str, Any]) -> Tuple[Any, Any, Any, Any]:
        """Removes launch options from `kwargs` (names that are no parameter
        of the kernel) and returns num_warps, num_stages, num_ctas, maxnreg."""
        options = [None, None, None, None]
        for i, name in self._option_slots:
            if name in kwargs:
                options[i] = kwargs.pop(name)
        if not self._param_set.issuperset(kwargs):
            self._reject_keywords(kwargs)
        return options[0], options[1], options[2], options[3]

    def _reject_keywords(self, kwargs: Dict[str, Any]) -> None:
        """Drops Triton options left at None; raises for any other name
        that is neither a parameter nor a launch option."""
        for key in [k for k in kwargs if k not in self._param_set]:
            if key in UNSUPPORTED_LAUNCH_OPTIONS:
                if kwargs[key] is None:
                    del kwargs[key]  # an option left at its default
                    continue
                raise TypeError(f"launching '{self.__name__}': the option '{key}' of Triton's kernel "
                                "call is not supported by Tessera")
            raise TypeError(f"launching '{self.__name__}': got an unexpected keyword argument "
                            f"'{key}' (parameters: {', '.join(self.arg_names)})")

    def run(self, *args: Any, grid: Any, warmup: bool = False, **kwargs: Any) -> Any:
        kernel = self._kernel if self._kernel is not None else self._load()
        if self._watched:
            self._check_globals()
        if kwargs and not self._param_set.issuperset(kwargs):
            options = self._split_options(kwargs)
        else:
            options = (None, None, None, None)
        if warmup:
            return kernel.warmup(args, kwargs, *options)
        return kernel.launch(grid, args, kwargs, *options)

    def _compile_all(self, args: Tuple[Any, ...], launches: List[Dict[str, Any]]) -> List[Optional[str]]:
        """Compiles what a launch with `args` and each of `launches` (keyword
        arguments, launch options among them) would run, several at once,
        without running or loading any: autotuning compiles every config
        before it times the first. Returns per launch None or why it failed."""
        kernel = self._kernel if self._kernel is not None else self._load()
        if self._watched:
            self._check_globals()
        batch = []
        for kwargs in launches:
            kwargs = dict(kwargs)
            options = self._split_options(kwargs) if not self._param_set.issuperset(kwargs) else (None,) * 4
            batch.append((args, kwargs, *options))
        return kernel.compile_all(batch)

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        return functools.partial(self._launch, grid)

    def _launch_with_options(self, grid: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any],
                             options: Tuple[Any, Any, Any, Any]) -> Any:
        """A launch whose launch options were chosen already (autotuning)."""
        kernel = self._kernel if self._kernel is not None else self._load()
        if self._watched:
            self._check_globals()
        if kwargs and not self._param_set.issuperset(kwargs):
            given = self._split_options(kwargs)
            clash = [name for name, mine, theirs in zip(LAUNCH_OPTIONS, given, options)
                     if mine is not None and theirs is not None]
            if clash:
                raise TypeError(f"launching '{self.__name__}': {', '.join(clash)} set both by the launch and by "
                                "the autotuner's config")
            options = tuple(m if m is not None else t for m, t in zip(given, options))
        return kernel.launch(grid, args, kwargs, *options)

    def _launch(self, grid: Any, *args: Any, **kwargs: Any) -> Any:
        kernel = self._kernel if self._kernel is not None else self._load()
        if self._watched:
            self._check_globals()
        if kwargs and not self._param_set.issuperset(kwargs):
            return kernel.launch(grid, args, kwargs, *self._split_options(kwargs))
        return kernel.launch(grid, args, kwargs)

    def warmup(self, *args: Any, grid: Any = None, **kwargs: Any) -> Any:
        """Compiles for these arguments without running; returns the handle
        (``n_regs``, ``n_spills``, ``metadata``, ``asm``)."""
        return self.run(*map(MockTensor.wrap_dtype, args), grid=grid, warmup=True, **kwargs)

    def preload(self, specialization_data: Any) -> Any:
        raise NotImplementedError("JITFunction.preload (Triton's serialized specializations) is not "
                                  "supported by Tessera; its disk cache plays that role")

    def add_pre_run_hook(self, hook: Callable[..., Any]) -> None:
        raise NotImplementedError("JITFunction.add_pre_run_hook is not supported by Tessera")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"'{self.__name__}' is a @triton.jit function: launch it with "
                           f"{self.__name__}[grid](...), or call it from another @triton.jit function")

    def __repr__(self) -> str:
        return f"JITFunction({self.module}:{self.fn.__qualname__})"


class ConstexprFunction:
    """``@triton.constexpr_function``: a host function device code calls at
    compile time (its source goes into the program with ``jit: false``); on
    the host it is an ordinary function of unwrapped values."""

    def __init__(self, fn: types.FunctionType) -> None:
        if not inspect.isfunction(fn):
            raise TypeError(f"@triton.constexpr_function decorates a Python function, not {fn!r}")
        self.fn = fn
        functools.update_wrapper(self, fn)

    def _tessera_function_unit(self) -> Tuple[types.FunctionType, bool, Dict[str, Any]]:
        return self.fn, False, {"do_not_specialize": [], "do_not_specialize_on_alignment": [],
                                "noinline": False, "debug": None}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from tessera.triton.language._constexpr import _unwrap
        args = tuple(_unwrap(a) for a in args)
        kwargs = {k: _unwrap(v) for k, v in kwargs.items()}
        return self.fn(*args, **kwargs)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)

    def __repr__(self) -> str:
        return f"ConstexprFunction({self.fn.__module__}:{self.fn.__qualname__})"


def constexpr_function(fn: types.FunctionType) -> ConstexprFunction:
    """Marks a host function that device code may call at compile time."""
    return ConstexprFunction(fn)


constexpr_function.__tessera_symbol__ = "triton.constexpr_function"  # type: ignore[attr-defined]


@overload
def jit(fn: T) -> JITFunction[T]:
    ...


@overload
def jit(*, version: Any = None, repr: Optional[Callable[..., str]] = None,
        launch_metadata: Optional[Callable[..., Any]] = None,
        do_not_specialize: Optional[Iterable[Union[int, str]]] = None,
        do_not_specialize_on_alignment: Optional[Iterable[Union[int, str]]] = None,
        debug: Optional[bool] = None, noinline: Optional[bool] = None
        ) -> Callable[[T], JITFunction[T]]:
    ...


def jit(fn: Optional[T] = None, *, version: Any = None, repr: Optional[Callable[..., str]] = None,
        launch_metadata: Optional[Callable[..., Any]] = None,
        do_not_specialize: Optional[Iterable[Union[int, str]]] = None,
        do_not_specialize_on_alignment: Optional[Iterable[Union[int, str]]] = None,
        debug: Optional[bool] = None, noinline: Optional[bool] = None) -> Any:
    """Decorator: ``@triton.jit`` or ``@triton.jit(do_not_specialize=[...], ...)``.

    The function is compiled by Tessera when first launched; it may use the
    Triton language, Python scalars, globals bound with ``tl.constexpr`` and
    other jit functions, wherever they are defined.
    """
    _session.refuse_interpreter()

    def decorator(f: T) -> JITFunction[T]:
        return JITFunction(f, version=version, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment,
                           debug=debug, noinline=noinline, repr=repr,
                           launch_metadata=launch_metadata)

    if fn is not None:
        return decorator(fn)
    return decorator


jit.__tessera_symbol__ = "triton.jit"  # type: ignore[attr-defined]


class MockTensor:
    """A stand-in for a tensor of `dtype` in ``kernel.warmup(...)``: only its
    element type matters (its address is 0, divisible by 16)."""

    @staticmethod
    def wrap_dtype(arg: Any) -> Any:
        if type(arg).__name__ == "dtype" and type(arg).__module__ == "torch":
            return MockTensor(arg)
        return arg

    def __init__(self, dtype: Any, shape: Optional[List[int]] = None) -> None:
        self.dtype = dtype
        self.shape = list(shape) if shape is not None else [1]

    def stride(self) -> List[int]:
        strides = [1] * len(self.shape)
        for i in range(len(self.shape) - 2, -1, -1):
            strides[i] = strides[i + 1] * self.shape[i + 1]
        return strides

    @staticmethod
    def data_ptr() -> int:
        return 0


class TensorWrapper:
    """A tensor seen with another element type (``triton.reinterpret``): the
    same memory, a Triton dtype the kernel's pointer takes."""

    def __init__(self, base: Any, dtype: Any) -> None:
        self.base = base
        self.dtype = dtype
        self.data = base.data if hasattr(base, "data") else base
        self.device = getattr(base, "device", None)
        self.shape = getattr(base, "shape", None)

    def data_ptr(self) -> int:
        return self.base.data_ptr()

    def stride(self, *args: Any) -> Any:
        return self.base.stride(*args)

    def element_size(self) -> int:
        return self.dtype.primitive_bitwidth // 8

    def __str__(self) -> str:
        return f"TensorWrapper[{self.dtype}]({self.base})"


def reinterpret(tensor: Any, dtype: Any) -> Any:
    """Views `tensor` with the Triton element type `dtype`."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"reinterpret: cannot reinterpret a {type(tensor).__name__}; pass a tensor "
                    "with data_ptr()")


__getattr__ = _missing_attribute(__name__)
