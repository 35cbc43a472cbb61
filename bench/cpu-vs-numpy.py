"""The cpu backend beside NumPy on the same machine, same shapes (issue 23).

    python3 bench/cpu-vs-numpy.py [--tessera build/bin/tessera ...]
        [--json FILE] [--markdown FILE]
    python3 bench/cpu-vs-numpy.py --in-process [--rounds N] [--json FILE]

For each memory-bound tutorial workload `tessera bench --backend cpu` runs
(its scaled shapes), NumPy computes the same result on the same machine in
the same run, and the ratio NumPy time / Tessera time is reported (1.0:
as fast as NumPy; higher: faster). Both sides overwrite 256 MB before each
timed run (the last-level cache flushed, as `tessera bench` and Triton's
`do_bench` do). Several `--tessera` binaries (say, the build before and
after a change) are timed in turn, interleaved with NumPy.
With `--in-process`, the kernels are launched through the Python package
(`build/python`, `tessera.activate()`) on NumPy arrays in this process, and
each workload alternates Tessera and NumPy run by run, `--rounds` times:
both sides then see the same machine state (a shared VM's speed drifts
between the minutes two processes run in), as a user comparing the two in
one script would. The kernels, configs and shapes are `tessera bench`'s.
NumPy's versions do the work the kernels do:

- vector add, fp32, 2^22: `np.add(x, y, out=z)`;
- softmax, fp32, 512x2048, rows: max, exp of the difference, sum, divide;
- dropout, fp32, 2^22, p=0.5: uniform numbers, compare, select, scale (the
  kernel draws its numbers with Philox in the kernel);
- layer norm, fp16, 512x2048: mean and variance in fp32 per row, normalize,
  scale and shift, result in fp16;
- matmul (tutorial 03's kernel, its benchmark config), fp32 and fp16 inputs,
  512^3 and 2048^3, and fp8 e4m3 at 512^3 with B K-major as the tutorial
  benchmarks it (in-process only where PyTorch is installed, whose tensors
  carry fp8), beside NumPy's fp32 `matmul` (the host BLAS's sgemm, OpenBLAS
  in NumPy's wheels, all cores) at the same size for all: the issue's bar
  is a fraction of sgemm.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

REPO = Path(__file__).resolve().parents[1]

WORKLOADS = {
    "vector add": "01_vector_add",
    "softmax": "02_fused_softmax",
    "dropout": "04_low_memory_dropout",
    "layer norm": "05_layer_norm",
    "matmul fp32 512": "03_matmul/matmul_kernel/fp32,512x512x512",
    "matmul fp16 512": "03_matmul/matmul_kernel/fp16,512x512x512",
    "matmul fp32 2048": "03_matmul/matmul_kernel/fp32,2048x2048x2048",
    "matmul fp16 2048": "03_matmul/matmul_kernel/fp16,2048x2048x2048",
    "matmul fp8 512": "03_matmul/matmul_kernel/fp8e4m3,512x512x512,b-transposed",
}


#: What `tessera bench` overwrites before each timed run (as Triton's
#: do_bench does: 256 MB, past the last-level cache), so that neither side
#: reads its operands from a cache the other side had to fill.
FLUSH = np.zeros(256 << 18, dtype=np.float32)


def median_ms(fn: Callable[[], object], repeat: int = 30) -> float:
    fn()
    times = []
    for _ in range(repeat):
        FLUSH.fill(0)
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times) * 1e3)


def numpy_softmax(rows: np.ndarray) -> np.ndarray:
    e = np.exp(rows - rows.max(axis=1, keepdims=True))
    e /= e.sum(axis=1, keepdims=True)
    return e


def numpy_dropout(rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
    keep = rng.random(x.shape[0], dtype=np.float32) > 0.5
    return np.where(keep, x / np.float32(0.5), np.float32(0))


def numpy_layer_norm(half: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = half.astype(np.float32)
    mean = a.mean(axis=1, keepdims=True)
    var = ((a - mean)**2).mean(axis=1, keepdims=True)
    return ((a - mean) / np.sqrt(var + 1e-5) * w + b).astype(np.float16)


def numpy_times() -> Dict[str, float]:
    rng = np.random.default_rng(0)
    n = 1 << 22
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    z = np.empty_like(x)
    rows = rng.standard_normal((512, 2048), dtype=np.float32)
    half = rng.standard_normal((512, 2048), dtype=np.float32).astype(np.float16)
    w = rng.random(2048, dtype=np.float32)
    b = rng.random(2048, dtype=np.float32)

    def sgemm(size: int) -> Callable[[], object]:
        a = rng.standard_normal((size, size), dtype=np.float32)
        b = rng.standard_normal((size, size), dtype=np.float32)
        c = np.empty((size, size), dtype=np.float32)
        return lambda: np.matmul(a, b, out=c)

    sgemm512, sgemm2048 = sgemm(512), sgemm(2048)
    return {
        "matmul fp32 512": median_ms(sgemm512),
        "matmul fp16 512": median_ms(sgemm512),
        "matmul fp32 2048": median_ms(sgemm2048, repeat=10),
        "matmul fp16 2048": median_ms(sgemm2048, repeat=10),
        "matmul fp8 512": median_ms(sgemm512),
        "vector add": median_ms(lambda: np.add(x, y, out=z)),
        "softmax": median_ms(lambda: numpy_softmax(rows)),
        "dropout": median_ms(lambda: numpy_dropout(rng, x)),
        "layer norm": median_ms(lambda: numpy_layer_norm(half, w, b)),
    }


Check = Callable[[], None]


def expect_close(out: np.ndarray, ref: np.ndarray, what: str, rtol: float) -> None:
    err = np.linalg.norm(out.astype(np.float64) - ref) / max(np.linalg.norm(ref), 1e-30)
    if not np.isfinite(err) or err > rtol:
        raise RuntimeError(f"{what}: Tessera's result is off NumPy's by {err:.2e} (relative)")


def in_process_workloads() -> Dict[str, Tuple[Callable[[], object], Callable[[], object], Check]]:
    """(Tessera, NumPy, check) per workload, on the same shapes and data
    kinds as `tessera bench --backend cpu` and `numpy_times`; the check
    compares Tessera's last result with a float64 reference."""
    sys.path.insert(0, str(REPO / "build" / "python"))
    os.environ.setdefault("TESSERA_BACKEND", "cpu")
    import tessera  # noqa: PLC0415 (the package of this checkout's build)
    tessera.activate()
    import triton  # noqa: PLC0415 (tessera's, after activate())

    def load(name: str):
        spec = importlib.util.spec_from_file_location(
            name, REPO / "conformance" / "kernels" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    rng = np.random.default_rng(0)
    cores = os.cpu_count() or 1
    out: Dict[str, Tuple[Callable[[], object], Callable[[], object], Check]] = {}

    n = 1 << 22
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    z = np.empty_like(x)
    add = load("01_vector_add").add_kernel
    out["vector add"] = (lambda: add[(triton.cdiv(n, 1024), )](x, y, z, n, BLOCK_SIZE=1024),
                         lambda: np.add(x, y, out=z),
                         lambda: expect_close(z, x.astype(np.float64) + y, "vector add", 1e-7))

    rows = rng.uniform(-4, 4, (512, 2048)).astype(np.float32)
    soft = np.empty_like(rows)
    softmax = load("02_fused_softmax").softmax_kernel
    programs = min(512, 4 * cores)
    out["softmax"] = (lambda: softmax[(programs, )](soft, rows, 2048, 2048, 512, 2048, BLOCK_SIZE=2048,
                                                    num_stages=4, num_warps=8),
                      lambda: numpy_softmax(rows),
                      lambda: expect_close(soft, numpy_softmax(rows), "softmax", 1e-5))

    dropped = np.empty_like(x)
    dropout = load("04_low_memory_dropout").seeded_dropout_kernel

    def check_dropout() -> None:
        kept = dropped != 0
        expect_close(dropped[kept], x[kept].astype(np.float64) * 2, "dropout", 1e-7)
        if not 0.49 < kept.mean() < 0.51:
            raise RuntimeError(f"dropout kept {kept.mean():.3f} of the elements at p=0.5")

    out["dropout"] = (lambda: dropout[(triton.cdiv(n, 1024), )](x, dropped, n, 0.5, 123, BLOCK_SIZE=1024),
                      lambda: numpy_dropout(rng, x), check_dropout)

    half = rng.uniform(-2, 2, (512, 2048)).astype(np.float16)
    w16 = rng.random(2048, dtype=np.float32).astype(np.float16)
    b16 = rng.random(2048, dtype=np.float32).astype(np.float16)
    w32, b32 = w16.astype(np.float32), b16.astype(np.float32)
    normed = np.empty_like(half)
    mean = np.empty(512, np.float32)
    rstd = np.empty(512, np.float32)
    norm = load("05_layer_norm")._layer_norm_fwd_fused

    out["layer norm"] = (lambda: norm[(512, )](half, normed, w16, b16, mean, rstd, 2048, 2048, 1e-5,
                                               BLOCK_SIZE=2048, num_warps=8),
                         lambda: numpy_layer_norm(half, w32, b32),
                         lambda: expect_close(normed, numpy_layer_norm(half, w32, b32), "layer norm", 2e-3))

    matmul = load("03_matmul").matmul_kernel.fn
    for size in (512, 2048):
        a32 = rng.standard_normal((size, size), dtype=np.float32)
        b32m = rng.standard_normal((size, size), dtype=np.float32)
        c32 = np.empty_like(a32)
        sgemm_out = np.empty_like(a32)

        def sgemm(a=a32, b=b32m, c=sgemm_out) -> np.ndarray:
            return np.matmul(a, b, out=c)

        grid = (triton.cdiv(size, 128) * triton.cdiv(size, 256), )
        for dtype in ("fp32", "fp16"):
            a = a32 if dtype == "fp32" else a32.astype(np.float16)
            b = b32m if dtype == "fp32" else b32m.astype(np.float16)
            c = c32 if dtype == "fp32" else np.empty((size, size), np.float16)

            def launch(a=a, b=b, c=c, size=size, grid=grid) -> None:
                matmul[grid](a, b, c, size, size, size, size, 1, size, 1, size, 1, BLOCK_SIZE_M=128,
                             BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, ACTIVATION="",
                             num_warps=8, num_stages=3)

            def check(a=a, b=b, c=c, what=f"matmul {dtype} {size}") -> None:
                ref = a.astype(np.float64) @ b.astype(np.float64)
                expect_close(c, ref, what, 1e-5 if c.dtype == np.float32 else 2e-3)

            out[f"matmul {dtype} {size}"] = (launch, sgemm, check)
        if size == 512:
            fp8 = fp8_matmul(matmul, a32, b32m, grid)
            if fp8:
                out["matmul fp8 512"] = (fp8[0], sgemm, fp8[1])
    return out


def fp8_matmul(matmul, a32: np.ndarray, b32: np.ndarray,
               grid: Tuple[int]) -> Optional[Tuple[Callable[[], object], Check]]:
    """Tutorial 03 on the fp8 e4m3 values of `a32` and `b32`, B K-major (a
    (K, N) view of an (N, K) tensor), fp16 C, as `tessera bench` runs it:
    (launch, check), or None without PyTorch (NumPy has no fp8)."""
    try:
        import torch  # noqa: PLC0415 (optional)
    except ImportError:
        return None
    size = a32.shape[0]
    a = torch.from_numpy(a32).to(torch.float8_e4m3fn)
    b = torch.from_numpy(b32).T.contiguous().to(torch.float8_e4m3fn).T
    c = torch.empty((size, size), dtype=torch.float16)

    def launch() -> None:
        matmul[grid](a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                     c.stride(0), c.stride(1), BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                     GROUP_SIZE_M=8, ACTIVATION="", num_warps=8, num_stages=3)

    def check() -> None:
        ref = a.double().numpy() @ b.double().numpy()
        expect_close(c.float().numpy(), ref, "matmul fp8 512", 2e-3)

    return launch, check


def in_process_times(rounds: int) -> Dict[str, Dict[str, List[float]]]:
    """Median ms per round of Tessera and NumPy, each run after a flush, the
    two sides alternating run by run."""
    workloads = in_process_workloads()
    result: Dict[str, Dict[str, List[float]]] = {}
    for name in (n for n in WORKLOADS if n in workloads):
        *fns, check = workloads[name]
        for fn in fns:  # compile, warm up
            fn()
        check()
        repeat = 10 if "2048" in name else 30
        result[name] = {"tessera": [], "numpy": []}
        for _ in range(rounds):
            times: Tuple[List[float], List[float]] = ([], [])
            for i in range(repeat):
                order = (0, 1) if i % 2 == 0 else (1, 0)
                for side in order:
                    FLUSH.fill(0)
                    start = time.perf_counter()
                    fns[side]()
                    times[side].append(time.perf_counter() - start)
            result[name]["tessera"].append(float(np.median(times[0]) * 1e3))
            result[name]["numpy"].append(float(np.median(times[1]) * 1e3))
    return result


def host_model() -> str:
    try:
        return next(ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo")
                    if ln.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def main_in_process(rounds: int, json_path: Optional[Path], markdown: Optional[Path]) -> int:
    result = in_process_times(rounds)
    lines = [f"Host: {host_model()}, {os.cpu_count()} cores; NumPy {np.__version__}; "
             f"{time.strftime('%Y-%m-%d')}; in one process, {rounds} rounds.", "",
             "| workload | NumPy ms (median of rounds) | Tessera ms | ratio per round | lowest |",
             "|---|---:|---:|---|---:|"]
    for name in result:
        t, n = result[name]["tessera"], result[name]["numpy"]
        ratios = [nn / tt for nn, tt in zip(n, t)]
        lines.append(f"| {name} | {np.median(n):.3f} | {np.median(t):.3f} | "
                     + ", ".join(f"{r:.2f}x" for r in ratios) + f" | {min(ratios):.2f}x |")
    text = "\n".join(lines) + "\n"
    print(text)
    if markdown:
        markdown.write_text(text)
    if json_path:
        json_path.write_text(json.dumps({"host": host_model(), "cores": os.cpu_count(),
                                         "date": time.strftime("%Y-%m-%d"), "mode": "in-process",
                                         "rounds": rounds, "ms": result}, indent=1))
    return 0


def tessera_times(tessera: Path) -> Dict[str, float]:
    out: Dict[str, float] = {}
    env = dict(os.environ, TESSERA_CONFORMANCE_DIR=str(REPO / "conformance"),
               TESSERA_DISABLE_CACHE="1")
    for name, prefix in WORKLOADS.items():
        p = subprocess.run([str(tessera), "bench", "--backend", "cpu", "--kernel", prefix, "--json", "-"],
                           capture_output=True, text=True, env=env, check=True)
        report = json.loads(p.stdout[p.stdout.index("\n{") + 1:])
        times = [w["milliseconds"] for w in report["workloads"] if w.get("milliseconds")]
        if not times:
            raise RuntimeError(f"no time for {name} in {p.stdout[:400]}")
        out[name] = float(times[0])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tessera", type=Path, action="append", default=None,
                        help="tessera binaries to time (repeatable; default build/bin/tessera)")
    parser.add_argument("--label", action="append", default=None, help="a label per binary")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    parser.add_argument("--in-process", action="store_true",
                        help="launch the kernels through the Python package in this process, "
                        "alternating with NumPy run by run")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --in-process")
    args = parser.parse_args()
    if args.in_process:
        return main_in_process(args.rounds, args.json, args.markdown)
    binaries: List[Path] = args.tessera or [REPO / "build" / "bin" / "tessera"]
    labels = args.label or [str(b) for b in binaries]
    results = {"numpy": numpy_times()}
    for label, binary in zip(labels, binaries):
        results[label] = tessera_times(binary)
    results["numpy-again"] = numpy_times()
    numpy_ms = {k: min(results["numpy"][k], results["numpy-again"][k]) for k in WORKLOADS}
    model = host_model()
    lines = [f"Host: {model}, {os.cpu_count()} cores; NumPy {np.__version__}; "
             f"{time.strftime('%Y-%m-%d')}.", "",
             "| workload | NumPy ms | " + " | ".join(f"{l} ms | ratio" for l in labels) + " |",
             "|---|---:|" + "---:|---:|" * len(labels)]
    for name in WORKLOADS:
        row = f"| {name} | {numpy_ms[name]:.3f} |"
        for label in labels:
            t = results[label][name]
            row += f" {t:.3f} | {numpy_ms[name] / t:.2f}x |"
        lines.append(row)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    if args.json:
        args.json.write_text(json.dumps({"host": model, "cores": os.cpu_count(), "numpy_ms": numpy_ms,
                                         "tessera_ms": {l: results[l] for l in labels}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
