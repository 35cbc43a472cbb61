"""``triton.autotune``, ``triton.heuristics`` and ``triton.Config`` on Tessera.

Both decorators run in Python around the plain kernel, as in Triton, so that
user hooks (``pre_hook``, ``post_hook``, ``reset_to_zero``,
``restore_value``, ``prune_configs_by``, a custom ``do_bench``) behave
exactly as Triton users expect. The memory of the best config per key is
the runtime's (``tessera._C.TuningRecords``): in process and on disk, in the
same records the ``tessera`` CLI reads and writes, keyed by the same key
and config texts (runtime/lib/JitKernel.cpp, Autotuner.cpp).
"""
from __future__ import annotations

import math
import os
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from tessera import _binding, _session
from tessera import _dtypes as host_dtypes
from tessera.triton._unsupported import missing_attribute as _missing_attribute
from tessera.triton.runtime.errors import AutotunerError, OutOfResources
from tessera.triton.runtime.jit import JITFunction, KernelInterface


class Config:
    """One candidate of an autotuned kernel: meta-parameters and launch options."""

    def __init__(self, kwargs: Dict[str, Any], num_warps: int = 4, num_stages: int = 3,
                 num_ctas: int = 1, maxnreg: Optional[int] = None,
                 pre_hook: Optional[Callable[[Dict[str, Any]], Any]] = None,
                 ir_override: Optional[str] = None) -> None:
        if not isinstance(kwargs, dict):
            raise TypeError(f"triton.Config: kwargs must be a dict of meta-parameters, got "
                            f"{type(kwargs).__name__}")
        if ir_override is not None:
            raise NotImplementedError("triton.Config(ir_override=...) is not supported by Tessera")
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_ctas = num_ctas
        self.num_stages = num_stages
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.kwargs = state.get("kwargs", {})
        self.num_warps = state.get("num_warps", 4)
        self.num_stages = state.get("num_stages", 3)
        self.num_ctas = state.get("num_ctas", 1)
        self.maxnreg = state.get("maxnreg", None)
        self.pre_hook = state.get("pre_hook", None)
        self.ir_override = state.get("ir_override", None)

    def _options(self) -> Tuple[Any, Any, Any, Any]:
        """(num_warps, num_stages, num_ctas, maxnreg) for the kernel's launch."""
        return (self.num_warps, self.num_stages, self.num_ctas, self.maxnreg)

    def _launch_kwargs(self) -> Dict[str, Any]:
        """all_kwargs(), made once per state of the config (every launch
        expands it; nothing mutates it)."""
        state = (id(self.kwargs), len(self.kwargs), self.num_warps, self.num_ctas, self.num_stages, self.maxnreg)
        cached = self.__dict__.get("_launch_cache")
        if cached is None or cached[0] != state:
            cached = (state, self.all_kwargs())
            self.__dict__["_launch_cache"] = cached
        return cached[1]

    def all_kwargs(self) -> Dict[str, Any]:
        """The meta-parameters and the launch options that are set."""
        out = dict(self.kwargs)
        for key in ("num_warps", "num_ctas", "num_stages", "maxnreg", "ir_override"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    def __str__(self) -> str:
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}",
                  f"num_stages: {self.num_stages}", f"maxnreg: {self.maxnreg}"]
        return ", ".join(parts)

    def __repr__(self) -> str:
        return f"Config({self})"

    def _identity(self) -> Tuple[Any, ...]:
        return (*self.all_kwargs().items(), self.pre_hook)

    def __hash__(self) -> int:
        return hash(self._identity())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self._identity() == other._identity()


# ---------------------------------------------------------------------------
# Texts shared with the runtime's tuning records (KernelArg::repr,
# TuneCandidate::str, JitKernel::getTuningKey).
# ---------------------------------------------------------------------------


def _repr_float(value: float) -> str:
    if math.isnan(value):
        return "float('nan')"
    if math.isinf(value):
        return "float('inf')" if value > 0 else "float('-inf')"
    for precision in range(1, 18):
        text = "%.*g" % (precision, value)
        if float(text) == value:
            if not any(c in text for c in ".en"):
                text += ".0"
            return text
    return repr(value)


def _repr_string(value: str) -> str:
    out = ["'"]
    for c in value:
        out.append({"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t"}.get(c, c))
    out.append("'")
    return "".join(out)


def value_text(value: Any) -> str:
    """How the runtime writes a launch value in keys and config texts."""
    from tessera.triton.language import constexpr
    while isinstance(value, constexpr):
        value = value.value
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _repr_float(value)
    if isinstance(value, str):
        return _repr_string(value)
    symbol = getattr(value, "__tessera_symbol__", None)
    if getattr(value, "__tessera_dtype__", None) is not None and symbol:
        return symbol
    return repr(value)


def config_text(config: Config) -> str:
    """``NAME=repr, ..., num_warps=N, num_stages=N, num_ctas=N[, maxnreg=N]``."""
    parts = [f"{k}={value_text(v)}" for k, v in config.kwargs.items()]
    parts.append(f"num_warps={config.num_warps}, num_stages={config.num_stages}, "
                 f"num_ctas={config.num_ctas}")
    if config.maxnreg:
        parts.append(f"maxnreg={config.maxnreg}")
    return ", ".join(parts)


def _signature_dtype(value: Any) -> Optional[str]:
    """The Triton element type name of a tensor-like argument, else None."""
    return host_dtypes.element_type_name(value)


def _base_jit(fn: Any) -> JITFunction:
    while not isinstance(fn, JITFunction):
        inner = getattr(fn, "fn", None)
        if inner is None:
            raise TypeError(f"@triton.autotune/@triton.heuristics decorate a @triton.jit "
                            f"function, got {fn!r}")
        fn = inner
    return fn


def _check_names(kind: str, names: Sequence[str], arg_names: Sequence[str], fn: Any) -> None:
    for name in names:
        if name not in arg_names:
            raise ValueError(f"{kind}: '{name}' is not a parameter of '{_base_jit(fn).__name__}' "
                             f"(parameters: {', '.join(arg_names)})")


class Autotuner(KernelInterface):
    """Runs the fastest of `configs` for each value of the key arguments."""

    def __init__(self, fn: Any, arg_names: List[str], configs: List[Config], key: List[str],
                 reset_to_zero: Optional[List[str]], restore_value: Optional[List[str]],
                 pre_hook: Optional[Callable[..., Any]] = None,
                 post_hook: Optional[Callable[..., Any]] = None,
                 prune_configs_by: Optional[Dict[str, Any]] = None, warmup: Optional[float] = None,
                 rep: Optional[float] = None, use_cuda_graph: bool = False,
                 do_bench: Optional[Callable[..., Any]] = None, cache_results: bool = False) -> None:
        self.fn = fn
        self.base_fn = _base_jit(fn)
        self.arg_names = arg_names
        self.configs = list(configs) if configs else [Config({}, num_warps=4, num_stages=3, num_ctas=1)]
        self.keys = list(key)
        _check_names("@triton.autotune(key=...)", self.keys, arg_names, fn)
        self._key_positions = [(name, arg_names.index(name)) for name in self.keys]
        self._arg_set = frozenset(arg_names)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        _check_names("@triton.autotune(reset_to_zero=...)", self.reset_to_zero, arg_names, fn)
        _check_names("@triton.autotune(restore_value=...)", self.restore_value, arg_names, fn)
        self.cache: Dict[Tuple[Any, ...], Config] = {}
        self.configs_timings: Optional[Dict[Config, Any]] = None
        self.best_config: Optional[Config] = None
        self.bench_time = 0.0
        self.nargs: Optional[Dict[str, Any]] = None
        self._restore_copies: Dict[str, Any] = {}
        # Results are kept on disk by the runtime; cache_results is Triton's
        # opt-in for the same thing, accepted and always on here.
        self.cache_results = cache_results

        self.user_defined_pre_hook = pre_hook is not None
        self.user_defined_post_hook = post_hook is not None
        self.pre_hook = pre_hook if pre_hook is not None else self._default_pre_hook
        self.post_hook = post_hook if post_hook is not None else self._default_post_hook

        prune = prune_configs_by or {}
        unknown = set(prune) - {"perf_model", "top_k", "early_config_prune"}
        if unknown:
            raise ValueError(f"@triton.autotune(prune_configs_by=...): unknown entries "
                             f"{sorted(unknown)}; expected perf_model, top_k, early_config_prune")
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")

        if warmup is not None or rep is not None or use_cuda_graph:
            import warnings
            warnings.warn("@triton.autotune: warmup, rep and use_cuda_graph are deprecated in Triton; pass "
                          "do_bench=... to choose how configs are timed", DeprecationWarning, stacklevel=3)
        if use_cuda_graph:
            from tessera.triton import testing
            self._do_bench = lambda call, quantiles: testing.do_bench_cudagraph(
                call, rep=rep if rep is not None else 100, quantiles=quantiles)
        elif warmup is not None or rep is not None:
            from tessera.triton import testing
            self._do_bench = lambda call, quantiles: testing.do_bench(
                call, warmup=warmup if warmup is not None else 25, rep=rep if rep is not None else 100,
                quantiles=quantiles)
        elif do_bench is not None:
            self._do_bench = do_bench
        else:
            self._do_bench = None
        # The runtime's records, for the config list they were made for
        # (programs may replace `configs` after decoration, as Triton's allow).
        self._records: Any = None
        self._records_texts: Optional[Tuple[str, ...]] = None

    # Hooks ----------------------------------------------------------------

    def _default_pre_hook(self, kwargs: Dict[str, Any], reset_only: bool = False) -> None:
        for name in self.reset_to_zero:
            _zero(kwargs[name], name)
        if not reset_only:
            self._restore_copies = {name: _clone(kwargs[name], name) for name in self.restore_value}

    def _default_post_hook(self, kwargs: Dict[str, Any], exception: Optional[BaseException]) -> None:
        for name in self.restore_value:
            if name in self._restore_copies:
                _copy_into(kwargs[name], self._restore_copies[name])
        self._restore_copies = {}

    @property
    def do_bench(self) -> Callable[..., Any]:
        if self._do_bench is None:
            from tessera.triton import testing
            return testing.do_bench
        return self._do_bench

    # Tuning ---------------------------------------------------------------

    def _bench(self, args: Tuple[Any, ...], config: Config, meta: Dict[str, Any]) -> List[float]:
        conflicts = meta.keys() & config.kwargs.keys()
        if conflicts:
            raise ValueError(f"Conflicting meta-parameters: {', '.join(sorted(conflicts))}. Make sure "
                             "that you don't re-define auto-tuned symbols.")
        current = dict(meta, **config.all_kwargs())
        full_nargs = {**(self.nargs or {}), **current}

        def kernel_call() -> None:
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, **current)
            except Exception as e:
                try:
                    self.post_hook(full_nargs, exception=e)
                finally:
                    raise
            self.post_hook(full_nargs, exception=None)

        try:
            return self.do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))
        except OutOfResources as e:
            if _print_autotuning():
                print(f"Autotuning failed with {e}")
            return [float("inf")] * 3

    def _records_for(self) -> Any:
        texts = tuple(config_text(c) for c in self.configs)
        if self._records is None or texts != self._records_texts:
            c = _binding.load()
            self._records = c.TuningRecords(_session.session(), self.base_fn.kernel, list(texts))
            self._records_texts = texts
            self.cache.clear()
        return self._records

    def _key(self, all_args: Dict[str, Any]) -> Tuple[Any, ...]:
        """The in-memory key: the key arguments' values and the dtypes of
        the arguments that have one (Triton's key). Cheap: every launch
        computes it."""
        try:
            values = tuple([all_args[name] for name in self.keys])
        except KeyError as e:
            raise TypeError(f"kernel '{self.base_fn.__name__}' is autotuned on '{e.args[0]}', which the "
                            "launch does not pass") from None
        dtypes = tuple([v.dtype for name, v in all_args.items() if name in self._arg_set and hasattr(v, "dtype")])
        return values + dtypes

    def _key_text(self, all_args: Dict[str, Any]) -> str:
        """The runtime's key (JitKernel::getTuningKey): what the tuning
        records on disk are keyed by, shared with the CLI."""
        parts = []
        for name in self.keys:
            v = all_args[name]
            dtype_name = _signature_dtype(v)
            parts.append(f"{name}=*{dtype_name}" if dtype_name is not None else f"{name}={value_text(v)}")
        dtypes = []
        for name in self.arg_names:
            if name in all_args:
                dtype_name = _signature_dtype(all_args[name])
                if dtype_name is not None:
                    dtypes.append(dtype_name)
        return ",".join(parts) + "|" + ",".join(dtypes)

    def prune_configs(self, kwargs: Dict[str, Any]) -> List[Config]:
        pruned = self.configs
        if self.early_config_prune:
            pruned = self.early_config_prune(self.configs, self.nargs, **kwargs)
            if not pruned:
                raise AutotunerError("No valid autotuner configs after pruning. `early_config_prune` "
                                     "should return at least one config.")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(self.configs) * top_k)
            elif not isinstance(top_k, int):
                raise TypeError("Error while pruning configs, top_k must be either 1) a float <= 1.0 "
                                "or 2) an int")
            if len(pruned) > top_k:
                estimates = {c: self.perf_model(**self.nargs, **kwargs, **c.all_kwargs()) for c in pruned}
                pruned = sorted(estimates, key=lambda c: estimates[c])[:top_k]
        return list(pruned)

    def _choose(self, args: Tuple[Any, ...], kwargs: Dict[str, Any], key: Tuple[Any, ...],
                key_text: str) -> Config:
        records = self._records_for()
        index = records.recall(key_text)
        if index is not None and 0 <= index < len(self.configs):
            return self.configs[index]
        pruned = self.prune_configs(kwargs)
        allowed = [self._index_of(c) for c in pruned]
        self._compile_configs(args, kwargs, pruned)
        timings: Dict[Config, Any] = {}
        # A config that does not compile or fit loses, as in the runtime's
        # autotuner (the error goes back to it); any other exception (a
        # user hook's, a conflicting meta-parameter) ends tuning, as in
        # Triton: it is kept here and raised once select() returns.
        losers: List[BaseException] = []
        fatal: List[BaseException] = []
        tessera_error = _binding.load().TesseraError

        def measure(i: int) -> float:
            if fatal:
                return float("inf")
            config = self.configs[i]
            try:
                timing = self._bench(args, config, kwargs)
            except (tessera_error, OutOfResources) as e:
                losers.append(e)
                raise
            except BaseException as e:  # noqa: BLE001 - re-raised below
                fatal.append(e)
                return float("inf")
            timings[config] = timing
            return _median_of(timing)

        start = time.time()
        try:
            index = records.select(key_text, allowed, measure)
        except tessera_error:
            if fatal:
                raise fatal[0]
            if losers:  # every config failed: the first one's own error
                raise losers[0]
            raise
        if fatal:
            raise fatal[0]
        self.bench_time = time.time() - start
        self.configs_timings = timings
        best = self.configs[index]
        full_nargs = {**(self.nargs or {}), **kwargs, **best.all_kwargs()}
        self.pre_hook(full_nargs, reset_only=True)
        if _print_autotuning():
            print(f"Triton autotuning for function {self.base_fn.__name__},\nwith key as {key_text},\n"
                  f"finished after {self.bench_time:.2f}s,\nbest config selected: {best};")
        return best

    def _compile_configs(self, args: Tuple[Any, ...], kwargs: Dict[str, Any], configs: List[Config]) -> None:
        """Compiles every config to be timed at once, several in parallel
        (the runtime's compile threads), before the first is timed. A config
        that fails here fails again, with its error, when it is timed; a
        wrapped function (heuristics) compiles as it is timed."""
        if type(self.fn) is not JITFunction or len(configs) < 2:
            return
        # What run() takes besides the kernel's keywords.
        base = {k: v for k, v in kwargs.items() if k not in ("grid", "warmup")}
        launches = []
        for config in configs:
            if not base.keys().isdisjoint(config.kwargs):
                return  # _bench reports the conflict
            launches.append(dict(base, **config.all_kwargs()))
        self.fn._compile_all(args, launches)

    def _index_of(self, config: Config) -> int:
        for i, c in enumerate(self.configs):
            if c is config:
                return i
        for i, c in enumerate(self.configs):
            if c == config:
                return i
        raise AutotunerError(f"prune_configs_by returned a config that is not one of the "
                             f"autotuner's: {config}")

    def run(self, *args: Any, **kwargs: Any) -> Any:
        if len(self.configs) > 1:
            key = self._launch_key(args, kwargs)
            config = self.cache.get(key)
            if config is None:
                self.nargs = dict(zip(self.arg_names, args))
                all_args = {**self.nargs, **kwargs}
                config = self._choose(args, kwargs, key, self._key_text(all_args))
                self.cache[key] = config
        else:
            config = self.configs[0]
        self.best_config = config
        try:
            if config.pre_hook is not None:
                self.nargs = dict(zip(self.arg_names, args))
                config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
            fn = self.fn
            if type(fn) is JITFunction and not kwargs.get("warmup"):
                # The launch path: the config's meta-parameters join the
                # arguments and its launch options go straight to the kernel.
                grid = kwargs.pop("grid")
                kwargs.pop("warmup", None)
                meta = config.kwargs
                if meta:
                    if not meta.keys().isdisjoint(kwargs):
                        raise TypeError(f"launching '{fn.__name__}': "
                                        f"{', '.join(sorted(meta.keys() & kwargs.keys()))} set both by the launch "
                                        "and by the autotuner's config")
                    kwargs.update(meta)
                return fn._launch_with_options(grid, args, kwargs, config._options())
            return fn.run(*args, **kwargs, **config._launch_kwargs())
        finally:
            self.nargs = None

    def _launch_key(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Tuple[Any, ...]:
        """_key() of a launch without building the argument dictionary."""
        values = []
        for name, index in self._key_positions:
            if index < len(args):
                values.append(args[index])
            elif name in kwargs:
                values.append(kwargs[name])
            else:
                raise TypeError(f"kernel '{self.base_fn.__name__}' is autotuned on '{name}', which the launch "
                                "does not pass")
        for a in args:
            if hasattr(a, "dtype"):
                values.append(a.dtype)
        for name, v in kwargs.items():
            if name in self._arg_set and hasattr(v, "dtype"):
                values.append(v.dtype)
        return tuple(values)

    def warmup(self, *args: Any, **kwargs: Any) -> List[Any]:
        self.nargs = dict(zip(self.arg_names, args))
        try:
            return [self.fn.warmup(*args, **kwargs, **c.all_kwargs()) for c in self.prune_configs(kwargs)]
        finally:
            self.nargs = None

    def _tessera_function_unit(self) -> Any:
        return self.base_fn._tessera_function_unit()


def _median_of(timing: Any) -> float:
    if isinstance(timing, (list, tuple)):
        return float(timing[0]) if timing else float("inf")
    return float(timing)


def _print_autotuning() -> bool:
    return os.environ.get("TRITON_PRINT_AUTOTUNING", "").lower() in ("1", "true", "yes", "on")


def _zero(value: Any, name: str) -> None:
    if hasattr(value, "zero_"):
        value.zero_()
    elif hasattr(value, "fill") and hasattr(value, "__array_interface__"):
        value.fill(0)
    else:
        raise TypeError(f"reset_to_zero: argument '{name}' is a {type(value).__name__}, which "
                        "cannot be zeroed (expected a tensor or a NumPy array)")


def _clone(value: Any, name: str) -> Any:
    if hasattr(value, "clone"):
        return value.clone()
    if hasattr(value, "copy") and hasattr(value, "__array_interface__"):
        return value.copy()
    raise TypeError(f"restore_value: argument '{name}' is a {type(value).__name__}, which cannot be "
                    "copied (expected a tensor or a NumPy array)")


def _copy_into(target: Any, source: Any) -> None:
    if hasattr(target, "copy_"):
        target.copy_(source)
    else:
        target[...] = source


def autotune(configs: List[Config], key: List[str], prune_configs_by: Optional[Dict[str, Any]] = None,
             reset_to_zero: Optional[List[str]] = None, restore_value: Optional[List[str]] = None,
             pre_hook: Optional[Callable[..., Any]] = None, post_hook: Optional[Callable[..., Any]] = None,
             warmup: Optional[float] = None, rep: Optional[float] = None, use_cuda_graph: bool = False,
             do_bench: Optional[Callable[..., Any]] = None, cache_results: bool = False
             ) -> Callable[[Any], Autotuner]:
    """Decorator: time `configs` for each new value of the `key` arguments
    and launch the fastest (see Triton's documentation; same parameters)."""

    def decorator(fn: Any) -> Autotuner:
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value,
                         pre_hook=pre_hook, post_hook=post_hook, prune_configs_by=prune_configs_by,
                         warmup=warmup, rep=rep, use_cuda_graph=use_cuda_graph, do_bench=do_bench,
                         cache_results=cache_results)

    return decorator


autotune.__tessera_symbol__ = "triton.autotune"  # type: ignore[attr-defined]


class Heuristics(KernelInterface):
    """Computes meta-parameters from the launch's arguments."""

    def __init__(self, fn: Any, arg_names: List[str], values: Dict[str, Callable[[Dict[str, Any]], Any]]
                 ) -> None:
        self.fn = fn
        self.values = values
        self.arg_names = arg_names
        _base_jit(fn)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        for name, heuristic in self.values.items():
            kwargs[name] = heuristic({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.run(*args, **kwargs)

    def _tessera_function_unit(self) -> Any:
        return _base_jit(self.fn)._tessera_function_unit()


def heuristics(values: Dict[str, Callable[[Dict[str, Any]], Any]]) -> Callable[[Any], Heuristics]:
    """Decorator: set meta-parameters from functions of the arguments."""
    if not isinstance(values, dict):
        raise TypeError("@triton.heuristics takes a dict of meta-parameter names to functions")

    def decorator(fn: Any) -> Heuristics:
        return Heuristics(fn, fn.arg_names, values)

    return decorator


heuristics.__tessera_symbol__ = "triton.heuristics"  # type: ignore[attr-defined]
Config.__tessera_symbol__ = "triton.Config"  # type: ignore[attr-defined]

__getattr__ = _missing_attribute(__name__)
