"""The cpu backend beside NumPy on the same machine, same shapes (issue 23).

    python3 bench/cpu-vs-numpy.py [--tessera build/bin/tessera ...]
        [--json FILE] [--markdown FILE]

For each memory-bound tutorial workload `tessera bench --backend cpu` runs
(its scaled shapes), NumPy computes the same result on the same machine in
the same run, and the ratio NumPy time / Tessera time is reported (1.0:
as fast as NumPy; higher: faster). Both sides overwrite 256 MB before each
timed run (the last-level cache flushed, as `tessera bench` and Triton's
`do_bench` do). Several `--tessera` binaries (say, the build before and
after a change) are timed in turn, interleaved with NumPy.
NumPy's versions do the work the kernels do:

- vector add, fp32, 2^22: `np.add(x, y, out=z)`;
- softmax, fp32, 512x2048, rows: max, exp of the difference, sum, divide;
- dropout, fp32, 2^22, p=0.5: uniform numbers, compare, select, scale (the
  kernel draws its numbers with Philox in the kernel);
- layer norm, fp16, 512x2048: mean and variance in fp32 per row, normalize,
  scale and shift, result in fp16;
- matmul (tutorial 03's kernel, its benchmark config), fp32 and fp16 inputs,
  512^3 and 2048^3, beside NumPy's fp32 `matmul` (the host BLAS's sgemm,
  OpenBLAS in NumPy's wheels, all cores) at the same size for both: the
  issue's bar is a fraction of sgemm.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List

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

    def softmax() -> np.ndarray:
        e = np.exp(rows - rows.max(axis=1, keepdims=True))
        e /= e.sum(axis=1, keepdims=True)
        return e

    def dropout() -> np.ndarray:
        keep = rng.random(n, dtype=np.float32) > 0.5
        return np.where(keep, x / np.float32(0.5), np.float32(0))

    def layer_norm() -> np.ndarray:
        a = half.astype(np.float32)
        mean = a.mean(axis=1, keepdims=True)
        var = ((a - mean)**2).mean(axis=1, keepdims=True)
        return ((a - mean) / np.sqrt(var + 1e-5) * w + b).astype(np.float16)

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
        "vector add": median_ms(lambda: np.add(x, y, out=z)),
        "softmax": median_ms(softmax),
        "dropout": median_ms(dropout),
        "layer norm": median_ms(layer_norm),
    }


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
    args = parser.parse_args()
    binaries: List[Path] = args.tessera or [REPO / "build" / "bin" / "tessera"]
    labels = args.label or [str(b) for b in binaries]
    results = {"numpy": numpy_times()}
    for label, binary in zip(labels, binaries):
        results[label] = tessera_times(binary)
    results["numpy-again"] = numpy_times()
    numpy_ms = {k: min(results["numpy"][k], results["numpy-again"][k]) for k in WORKLOADS}
    cpu = platform.processor() or platform.machine()
    try:
        model = next(ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo")
                     if ln.startswith("model name"))
    except (OSError, StopIteration):
        model = cpu
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
