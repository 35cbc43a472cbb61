"""triton.testing on Tessera: assert_close, perf_report/Benchmark tables,
do_bench through the runtime's benchmark, do_bench_cudagraph's limits."""
from __future__ import annotations

import numpy as np
import pytest

import triton
import triton.testing


def test_assert_close_tolerances_and_types():
    a = np.array([1.0, 2.0, 3.0], np.float32)
    triton.testing.assert_close(a, a + 0.005)  # Triton's default atol 1e-2
    with pytest.raises(AssertionError):
        triton.testing.assert_close(a, a + 0.1)
    triton.testing.assert_close(a, a * 1.01, atol=0, rtol=0.02)
    triton.testing.assert_close(np.array([True, False]), np.array([True, False]))
    with pytest.raises(AssertionError):
        triton.testing.assert_close(np.array([True]), np.array([False]))
    triton.testing.assert_close(np.array([np.nan]), np.array([np.nan]))
    torch = pytest.importorskip("torch")
    triton.testing.assert_close(torch.ones(3, dtype=torch.bfloat16), np.ones(3))


def test_perf_report_sweeps_and_prints(capsys):
    calls = []

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["N"], x_vals=[128, 256], line_arg="provider", line_vals=["a", "b"],
        line_names=["A", "B"], plot_name="demo", args={"M": 4}, ylabel="GB/s"))
    def bench(M, N, provider):
        calls.append((M, N, provider))
        return (N * M if provider == "a" else N, N / 2, N * 2)

    columns, rows = bench._run(bench.benchmarks, save_path="", show_plots=False, print_data=True)
    assert calls == [(4, 128, "a"), (4, 128, "b"), (4, 256, "a"), (4, 256, "b")]
    assert columns == ["N", "A", "B"]
    assert rows == [[128, 512, 128], [256, 1024, 256]]
    out = capsys.readouterr().out
    assert out.startswith("demo:") and "512" in out
    assert bench(M=1, N=2, provider="b")[0] == 2  # still callable


def test_perf_report_saves_csv(tmp_path):
    @triton.testing.perf_report([triton.testing.Benchmark(
        x_names=["x"], x_vals=[1, 2], line_arg="p", line_vals=[0], line_names=["zero"], plot_name="csv-demo",
        args={})])
    def bench(x, p):
        return float(x)

    bench.run(save_path=str(tmp_path), show_plots=False)
    assert (tmp_path / "csv-demo.csv").read_text().splitlines() == ["x,zero", "1,1", "2,2"]


def test_benchmark_checks_its_lines():
    with pytest.raises(ValueError, match="same length"):
        triton.testing.Benchmark(x_names=["x"], x_vals=[1], line_arg="p", line_vals=[1, 2], line_names=["one"],
                                 plot_name="bad", args={})


@pytest.mark.device
def test_do_bench_measures_through_the_runtime():
    work = np.zeros(1000)

    def fn():
        work[:] += 1.0

    ms = triton.testing.do_bench(fn, warmup=1, rep=5)
    assert isinstance(ms, float) and ms > 0
    quantiles = triton.testing.do_bench(fn, warmup=1, rep=5, quantiles=[0.5, 0.2, 0.8])
    assert len(quantiles) == 3 and quantiles[1] <= quantiles[0] <= quantiles[2]
    with pytest.raises(ValueError, match="return_mode"):
        triton.testing.do_bench(fn, return_mode="fastest")


@pytest.mark.device
def test_do_bench_cudagraph_needs_nvptx():
    if triton.runtime.driver.active.get_current_target().backend == "cuda":
        pytest.skip("runs on the nvptx backend")
    with pytest.raises(NotImplementedError, match="CUDA graphs"):
        triton.testing.do_bench_cudagraph(lambda: None)
