"""``triton.testing`` on Tessera: benchmarking and result checks.

``do_bench`` times through the runtime's benchmark (runtime/Benchmark.h:
estimate, warm-up and timed runs by budget, cache flush, median/mean/...)
on the session's device, so GPU and CPU timings mean the same thing as the
CLI's. ``perf_report``/``Benchmark`` sweep a function over parameters and
print, plot or return the table, as Triton's tutorials use them.
"""
from __future__ import annotations

import functools
import math
import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from tessera import _binding, _session
from tessera.triton._unsupported import missing_attribute as _missing_attribute

_RETURN_MODES = ("min", "max", "mean", "median", "all")


def _check_return_mode(return_mode: str) -> None:
    if return_mode not in _RETURN_MODES:
        raise ValueError(f"do_bench: return_mode must be one of {', '.join(_RETURN_MODES)}, got "
                         f"{return_mode!r}")


def _with_grads_cleared(fn: Callable[[], Any], grad_to_none: Optional[Sequence[Any]]) -> Callable[[], Any]:
    if not grad_to_none:
        return fn

    def call() -> Any:
        for tensor in grad_to_none:
            tensor.grad = None
        return fn()

    return call


def do_bench(fn: Callable[[], Any], warmup: float = 25, rep: float = 100,
             grad_to_none: Optional[Sequence[Any]] = None, quantiles: Optional[Sequence[float]] = None,
             return_mode: str = "mean") -> Any:
    """Milliseconds per call of `fn` on the session's device.

    `warmup` and `rep` are time budgets in ms; with `quantiles` the result is
    the list of those quantiles, else the statistic `return_mode` (``all``:
    every measured time).
    """
    _check_return_mode(return_mode)
    c = _binding.load()
    return c.do_bench(_with_grads_cleared(fn, grad_to_none), warmup=warmup, rep=rep,
                      quantiles=list(quantiles) if quantiles is not None else None,
                      return_mode=return_mode, session=_session.session())


def _summarize(times: List[float], quantiles: Optional[Sequence[float]], return_mode: str) -> Any:
    ordered = sorted(times)

    def quantile(q: float) -> float:
        if not ordered:
            return math.nan
        position = q * (len(ordered) - 1)
        low = int(math.floor(position))
        high = min(low + 1, len(ordered) - 1)
        return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

    if quantiles is not None:
        values = [quantile(q) for q in quantiles]
        return values[0] if len(values) == 1 else values
    if return_mode == "all":
        return list(times)
    if return_mode == "min":
        return ordered[0]
    if return_mode == "max":
        return ordered[-1]
    if return_mode == "median":
        return quantile(0.5)
    return sum(times) / len(times)


def do_bench_cudagraph(fn: Callable[[], Any], rep: float = 20, grad_to_none: Optional[Sequence[Any]] = None,
                       quantiles: Optional[Sequence[float]] = None, return_mode: str = "mean") -> Any:
    """Like :func:`do_bench`, with the calls replayed from a CUDA graph
    (launch overhead excluded). Needs the nvptx backend and PyTorch with
    CUDA, as in Triton; elsewhere it raises and names what is missing."""
    _check_return_mode(return_mode)
    backend = _session.session().backend
    if backend != "nvptx":
        raise NotImplementedError(f"do_bench_cudagraph needs CUDA graphs: the nvptx backend with "
                                  f"PyTorch CUDA; the session runs on '{backend}' (use do_bench)")
    import torch
    if not torch.cuda.is_available():
        raise NotImplementedError("do_bench_cudagraph needs PyTorch with CUDA")
    call = _with_grads_cleared(fn, grad_to_none)
    with torch.cuda.stream(torch.cuda.Stream()):
        call()  # compiles and loads before capture
        torch.cuda.synchronize()
        # One call in a graph, replayed a few times: the per-call estimate.
        single = torch.cuda.CUDAGraph()
        with torch.cuda.graph(single):
            call()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(5):
            single.replay()
        end.record()
        torch.cuda.synchronize()
        estimate = max(start.elapsed_time(end) / 5, 1e-4)
        per_graph = max(1, int(rep / estimate))
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(per_graph):
                call()
        torch.cuda.synchronize()
        times = []
        for _ in range(10):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end) / per_graph)
    return _summarize(times, quantiles, return_mode)


def _as_numpy(value: Any) -> Any:
    import numpy as np
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a torch tensor
        tensor = value.detach().cpu()
        if str(tensor.dtype) in ("torch.bfloat16", "torch.float8_e4m3fn", "torch.float8_e5m2",
                                 "torch.float8_e4m3fnuz", "torch.float8_e5m2fnuz"):
            tensor = tensor.float()
        return tensor.numpy()
    return np.asarray(value)


def assert_close(x: Any, y: Any, atol: Optional[float] = None, rtol: Optional[float] = None,
                 err_msg: str = "") -> None:
    """Raises AssertionError unless |x - y| <= atol + rtol * |y| everywhere
    (Triton's defaults: atol 1e-2, rtol 0); tensors, arrays or scalars."""
    import numpy as np
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    a, b = _as_numpy(x), _as_numpy(y)
    if callable(atol):
        atol = atol(a.dtype)
    if callable(rtol):
        rtol = rtol(a.dtype)
    if a.dtype == np.bool_ or b.dtype == np.bool_:
        np.testing.assert_array_equal(a, b, err_msg=err_msg)
        return
    np.testing.assert_allclose(a.astype(np.float64) if a.dtype.kind in "fiu" else a,
                               b.astype(np.float64) if b.dtype.kind in "fiu" else b,
                               atol=atol, rtol=rtol, equal_nan=True, err_msg=err_msg)


class Benchmark:
    """A sweep for :func:`perf_report`: x values (``x_names``/``x_vals``),
    one line per ``line_vals`` value of ``line_arg``, fixed ``args``."""

    def __init__(self, x_names: List[str], x_vals: List[Any], line_arg: str, line_vals: List[Any],
                 line_names: List[str], plot_name: str, args: Dict[str, Any], xlabel: str = "",
                 ylabel: str = "", x_log: bool = False, y_log: bool = False,
                 styles: Optional[List[Tuple[str, str]]] = None) -> None:
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.x_log = x_log
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        self.y_log = y_log
        self.styles = styles
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.plot_name = plot_name
        self.args = dict(args)
        if len(self.line_names) != len(self.line_vals):
            raise ValueError("Benchmark: line_names and line_vals must have the same length")


class Mark:
    """A function under benchmark (what :func:`perf_report` returns)."""

    def __init__(self, fn: Callable[..., Any], benchmarks: Any) -> None:
        self.fn = fn
        self.benchmarks = benchmarks
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def _measure(self, bench: Benchmark, **kwargs: Any) -> Tuple[List[str], List[List[Any]]]:
        columns = list(bench.x_names)
        for name in bench.line_names:
            columns += [name, f"{name}-min", f"{name}-max"]
        rows = []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            if len(xs) != len(bench.x_names):
                raise ValueError(f"Benchmark '{bench.plot_name}': x value {x!r} does not match "
                                 f"x_names {bench.x_names}")
            x_args = dict(zip(bench.x_names, xs))
            row: List[Any] = list(xs)
            for y in bench.line_vals:
                result = self.fn(**x_args, **{bench.line_arg: y}, **bench.args, **kwargs)
                if isinstance(result, (list, tuple)):
                    mean, low, high = (list(result) + [None, None])[:3]
                else:
                    mean, low, high = result, None, None
                row += [mean, low, high]
            rows.append(row)
        return columns, rows

    def _run(self, bench: Benchmark, save_path: str, show_plots: bool, print_data: bool,
             diff_col: bool = False, save_precision: int = 6, **kwargs: Any) -> Any:
        columns, rows = self._measure(bench, **kwargs)
        keep = [i for i, c in enumerate(columns) if not (c.endswith("-min") or c.endswith("-max"))]
        table_columns = [columns[i] for i in keep]
        table_rows = [[row[i] for i in keep] for row in rows]
        if diff_col and len(bench.line_names) == 2:
            a, b = bench.line_names
            table_columns.append(f"Diff {a} - {b}")
            ia, ib = table_columns.index(a), table_columns.index(b)
            for row in table_rows:
                row.append(row[ia] - row[ib])
        if show_plots or save_path:
            self._plot(bench, columns, rows, save_path, show_plots)
        if print_data:
            print(bench.plot_name + ":")
            print(_format_table(table_columns, table_rows))
        if save_path:
            path = os.path.join(save_path, f"{bench.plot_name}.csv")
            with open(path, "w") as f:
                f.write(",".join(table_columns) + "\n")
                for row in table_rows:
                    f.write(",".join(_format_value(v, save_precision) for v in row) + "\n")
        return table_columns, table_rows

    def _plot(self, bench: Benchmark, columns: List[str], rows: List[List[Any]], save_path: str,
              show: bool) -> None:
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            import warnings
            warnings.warn(f"perf_report '{bench.plot_name}': matplotlib is not installed, so no plot "
                          "is drawn (the data is still printed or saved)", stacklevel=3)
            return
        figure = plt.figure()
        axes = plt.subplot()
        xs = [row[0] for row in rows]
        for i, name in enumerate(bench.line_names):
            at = columns.index(name)
            ys = [row[at] for row in rows]
            style = bench.styles[i] if bench.styles else None
            axes.plot(xs, ys, label=name, color=style[0] if style else None,
                      ls=style[1] if style else None)
        axes.legend()
        axes.set_xlabel(bench.xlabel or bench.x_names[0])
        axes.set_ylabel(bench.ylabel)
        if bench.x_log:
            axes.set_xscale("log")
        if bench.y_log:
            axes.set_yscale("log")
        if show:
            plt.show()
        if save_path:
            figure.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))
        plt.close(figure)

    def run(self, show_plots: bool = False, print_data: bool = False, save_path: str = "",
            return_df: bool = False, **kwargs: Any) -> Any:
        """Runs every benchmark; with `return_df` returns the tables as
        pandas DataFrames (one, or a list)."""
        benchmarks = [self.benchmarks] if isinstance(self.benchmarks, Benchmark) else self.benchmarks
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        tables = [self._run(b, save_path, show_plots, print_data, **kwargs) for b in benchmarks]
        if not return_df:
            return None
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("Mark.run(return_df=True) needs pandas") from e
        frames = [pd.DataFrame(rows, columns=columns) for columns, rows in tables]
        return frames[0] if len(frames) == 1 else frames


def _format_value(value: Any, precision: int = 6) -> str:
    if isinstance(value, float):
        return f"{value:.{precision}g}"
    return str(value)


def _format_table(columns: List[str], rows: List[List[Any]]) -> str:
    cells = [[str(c) for c in columns]] + [[_format_value(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(r, widths)) for r in cells]
    return "\n".join(lines)


def perf_report(benchmarks: Any) -> Callable[[Callable[..., Any]], Mark]:
    """Decorator: ``bench.run(print_data=True, show_plots=...)`` sweeps the
    function over `benchmarks` (a Benchmark or a list of them)."""
    return lambda fn: Mark(fn, benchmarks)


__getattr__ = _missing_attribute(__name__)
