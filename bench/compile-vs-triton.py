#!/usr/bin/env python3
"""Cold compile times of every tutorial kernel, Tessera beside Triton.

The specializations are exactly those the conformance suite launches, every
autotune config included: `tessera conformance --compile-only --configs tune
--no-cache` compiles each of them once per run (one at a time, so that the
figures are one compile's), and its JSON report gives the wall time of each
step (`compile_steps`). Triton (when importable) compiles the same kernel
file, signature, constexprs and launch shape in this process with its cache
off (TRITON_ALWAYS_COMPILE), for `GPUTarget("cuda", 90, 32)` on nvptx and
`GPUTarget("hip", ARCH, 64)` on amdgpu; it has no cpu backend. Both sides are
timed in-process (no interpreter or process start), the median of --runs.

Tessera's "own" time is its total less external tools (ptxas, lld); the
issue's bars are total <= 0.6x Triton's and own <= 0.25x Triton's total.
On nvptx the PTX of Triton's compile also goes through the ptxas Tessera
uses (the toolkit's, once per specialization), so that the assembler's
share of each side is known: a ratio above 1 in that column is PTX that is
harder to assemble, whatever Triton's own bundled ptxas takes.

Usage (from a built tree):
  bench/compile-vs-triton.py --backend nvptx --arch sm_90a --runs 3 \\
      --markdown bench/results/DATE-compile-vs-triton-nvptx.md
"""
from __future__ import annotations

import argparse
import ast
import datetime
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

Spec = tuple[str, str, str, int, int]  # file, kernel, signature, warps, stages


def split_signature(text: str) -> list[str]:
    """The entries of an ahead-of-time signature (commas inside brackets or
    quotes do not split)."""
    entries, depth, quote, current = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            entries.append(current)
            current = ""
            continue
        current += ch
    entries.append(current)
    return [e.strip() for e in entries]


def run_tessera(args: argparse.Namespace, run: int) -> dict[Spec, dict]:
    """One compile-only run of the conformance suite: per specialization
    compiled, the JSON of its compile steps."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [args.tessera, "conformance", "--compile-only", "--configs",
               args.configs, "--no-cache", "--quiet", "--backend", args.backend,
               "--seed", "1", "--json", report]
        if args.arch:
            cmd += ["--arch", args.arch]
        for kernel in args.kernel:
            cmd += ["--kernel", kernel]
        env = dict(os.environ, TESSERA_COMPILE_THREADS="1")
        start = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if not os.path.exists(report):
            sys.exit(f"conformance run failed ({proc.returncode}):\n"
                     f"{proc.stdout}\n{proc.stderr}")
        print(f"tessera run {run + 1}: {time.perf_counter() - start:.1f} s",
              file=sys.stderr)
        with open(report) as f:
            data = json.load(f)
    found: dict[Spec, dict] = {}
    for case in data["cases"]:
        file = case["id"].split("/")[0]
        for k in case.get("kernels", []):
            if k["origin"] != "compiled":
                continue
            spec = (file, k["kernel"], k["signature"], k["num_warps"],
                    k["num_stages"])
            found.setdefault(spec, k["compile_steps"])
    return found


def load_triton_module(path: str):
    name = "tessera_bench_" + os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def triton_source(module, kernel: str, signature: str):
    """Triton's ASTSource for the kernel specialized as `signature`."""
    from triton.compiler import ASTSource
    from triton.runtime.jit import JITFunction
    fn = getattr(module, kernel)
    while not isinstance(fn, JITFunction):
        fn = fn.fn  # autotuner and heuristics wrappers
    entries = split_signature(signature)
    if len(entries) != len(fn.arg_names):
        raise ValueError(f"{len(entries)} signature entries for "
                         f"{len(fn.arg_names)} parameters")
    sig, constexprs, attrs = {}, {}, {}
    for i, (name, entry) in enumerate(zip(fn.arg_names, entries)):
        typ, _, hint = entry.partition(":")
        if entry.startswith("*") or typ in ("i1", "i8", "i16", "i32", "i64",
                                            "u1", "u8", "u16", "u32", "u64",
                                            "fp16", "bf16", "fp32", "fp64"):
            if hint == "1":
                sig[name] = "constexpr"
                constexprs[(i,)] = 1
                continue
            sig[name] = typ
            if hint == "16":
                attrs[(i,)] = [["tt.divisibility", 16]]
            continue
        sig[name] = "constexpr"
        constexprs[(i,)] = ast.literal_eval(entry)
    return ASTSource(fn, sig, constexprs, attrs)


def find_ptxas() -> str | None:
    """The ptxas Tessera would run: TESSERA_PTXAS, CUDA_HOME's, PATH's,
    then /usr/local/cuda's."""
    candidates = [os.environ.get("TESSERA_PTXAS")]
    if os.environ.get("CUDA_HOME"):
        candidates.append(os.path.join(os.environ["CUDA_HOME"], "bin", "ptxas"))
    candidates += [shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def time_ptxas(ptxas: str, ptx: str, arch: str) -> float:
    """Seconds ptxas takes to assemble `ptx` as Tessera asks it to."""
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        start = time.perf_counter()
        subprocess.run([ptxas, f"-arch={arch}", "-O3", "-v", src, "-o", out],
                       check=True, capture_output=True)
        return time.perf_counter() - start


def time_triton(args: argparse.Namespace,
                specs: list[Spec]) -> tuple[dict, dict]:
    """Per specialization, Triton's median compile time (or why it could
    not compile it), and on nvptx the time ptxas takes on its PTX."""
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp())
    import triton
    from triton.backends.compiler import GPUTarget
    target = (GPUTarget("cuda", int(args.arch[3:].rstrip("a")), 32)
              if args.backend == "nvptx" else
              GPUTarget("hip", args.arch, 64))
    modules: dict[str, Any] = {}
    times: dict[Spec, float | str] = {}
    ptxas_times: dict[Spec, float] = {}
    ptxas = find_ptxas() if args.backend == "nvptx" else None
    warmed = False
    for spec in specs:
        file, kernel, signature, warps, stages = spec
        try:
            if file not in modules:
                modules[file] = load_triton_module(
                    os.path.join(ROOT, "conformance", "kernels", file + ".py"))
            src = triton_source(modules[file], kernel, signature)
            options = {"num_warps": warps, "num_stages": stages}
            if not warmed:
                # The first compile of a process loads Triton's backends.
                triton.compile(src, target=target, options=options)
                warmed = True
            samples = []
            for _ in range(args.runs):
                start = time.perf_counter()
                compiled = triton.compile(src, target=target, options=options)
                samples.append(time.perf_counter() - start)
            times[spec] = statistics.median(samples)
            if ptxas:
                ptxas_times[spec] = time_ptxas(ptxas, compiled.asm["ptx"],
                                               args.arch)
        except Exception as e:  # a kernel Triton cannot compile here
            times[spec] = f"{type(e).__name__}: {str(e).splitlines()[0][:80]}"
    return times, ptxas_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tessera", default=os.path.join(
        os.environ.get("TESSERA_BUILD_DIR", os.path.join(ROOT, "build")),
        "bin", "tessera"))
    parser.add_argument("--backend", default="nvptx")
    parser.add_argument("--arch", default="")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kernel", action="append", default=[],
                        help="only cases matching (conformance --kernel)")
    parser.add_argument("--configs", default="tune",
                        help="autotuned kernels' configs: tune (every one), "
                        "subset or all (conformance --configs)")
    parser.add_argument("--no-triton", action="store_true")
    parser.add_argument("--json", help="write every figure here")
    parser.add_argument("--markdown", help="write the report here")
    parser.add_argument("--from-json", help="only write the report of the "
                        "figures an earlier --json wrote")
    args = parser.parse_args()
    if args.from_json:
        with open(args.from_json) as f:
            data = json.load(f)
        data.setdefault("configs", "tune")
        lines = report(data, data["rows"])
        print("\n".join(lines))
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write("\n".join(lines) + "\n")
        return
    if args.backend == "nvptx" and not args.arch:
        args.arch = "sm_90a"

    runs = [run_tessera(args, r) for r in range(args.runs)]
    specs = sorted(runs[0])
    tessera: dict[Spec, dict[str, float]] = {}
    for spec in specs:
        samples = [r[spec] for r in runs if spec in r]
        tessera[spec] = {
            "total": statistics.median(s["total_seconds"] for s in samples),
            "own": statistics.median(s["own_seconds"] for s in samples),
        }
        steps: dict[str, list[float]] = defaultdict(list)
        for s in samples:
            for step in s["steps"]:
                steps[step["name"]].append(step["seconds"])
        tessera[spec]["steps"] = {k: statistics.median(v)
                                  for k, v in steps.items()}

    triton_times: dict = {}
    triton_ptxas: dict = {}
    triton_version = None
    if not args.no_triton and args.backend in ("nvptx", "amdgpu"):
        try:
            import triton
            triton_version = triton.__version__
            triton_times, triton_ptxas = time_triton(args, specs)
        except ImportError:
            print("triton is not importable: Tessera's figures only",
                  file=sys.stderr)

    rows = []
    for spec in specs:
        t = tessera[spec]
        tri = triton_times.get(spec)
        rows.append({
            "file": spec[0], "kernel": spec[1], "signature": spec[2],
            "num_warps": spec[3], "num_stages": spec[4],
            "tessera_seconds": t["total"], "tessera_own_seconds": t["own"],
            "tessera_steps": t["steps"],
            "triton_seconds": tri if isinstance(tri, float) else None,
            "triton_error": tri if isinstance(tri, str) else None,
            "triton_ptx_ptxas_seconds": triton_ptxas.get(spec),
        })

    machine = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            machine = next(l.split(":", 1)[1].strip() for l in f
                           if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    header = {
        "date": datetime.date.today().isoformat(),
        "machine": f"{machine}, {os.cpu_count()} hardware threads",
        "backend": args.backend, "arch": args.arch, "runs": args.runs,
        "configs": args.configs,
        "triton": triton_version,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump({**header, "rows": rows}, f, indent=1)

    lines = report(header, rows)
    print("\n".join(lines))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


def is_aligned(signature: str) -> bool:
    """True when every integer parameter is specialized as divisible by 16
    or equal to 1, as the tutorials' benchmark shapes launch them (the
    conformance cases mostly use odd sizes, which keep accesses scalar)."""
    return all(not (e in ("i32", "i64") or e.startswith(("i32:", "i64:"))
                    and not e.endswith((":16", ":1")))
               for e in split_signature(signature))


def ptxas_ratio(row: dict) -> float | None:
    """ptxas's time on Tessera's PTX over its time on Triton's, when both
    were measured."""
    theirs = row.get("triton_ptx_ptxas_seconds")
    ours = row["tessera_steps"].get("binary/ptx-assembler")
    return ours / theirs if theirs and ours else None


def report(header: dict, rows: list[dict]) -> list[str]:
    lines = [
        f"# Cold compile times, {header['backend']} {header['arch']}: "
        f"Tessera beside Triton {header['triton'] or '(not run)'}",
        "",
        f"{header['date']}, {header['machine']}; median of {header['runs']} "
        "runs, in-process, cache off, one compile at a time; the "
        f"specializations of `conformance --compile-only --configs "
        f"{header['configs']}`. `bench/compile-vs-triton.py`.",
        "",
        "| kernel | warps | stages | signature | Tessera ms | own ms | "
        "Triton ms | total/Triton | own/Triton | ptxas/Triton's PTX |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    worst: dict[str, tuple[float, float]] = {}
    ratios, own_ratios = [], []
    for r in rows:
        tri = r["triton_seconds"]
        total, own = r["tessera_seconds"], r["tessera_own_seconds"]
        cells = [f"{r['file']}/{r['kernel']}", str(r["num_warps"]),
                 str(r["num_stages"]), f"`{r['signature']}`",
                 f"{total * 1e3:.0f}", f"{own * 1e3:.0f}"]
        if tri:
            ratio, own_ratio = total / tri, own / tri
            ratios.append(ratio)
            own_ratios.append(own_ratio)
            name = f"{r['file']}/{r['kernel']}"
            old = worst.get(name, (0.0, 0.0))
            worst[name] = (max(old[0], ratio), max(old[1], own_ratio))
            cells += [f"{tri * 1e3:.0f}", f"{ratio:.2f}", f"{own_ratio:.2f}"]
        else:
            cells += [r["triton_error"] or "-", "-", "-"]
        ptxas = ptxas_ratio(r)
        cells.append(f"{ptxas:.2f}" if ptxas else "-")
        lines.append("| " + " | ".join(cells) + " |")
    if ratios:
        lines += [
            "",
            f"{len(ratios)} specializations; Tessera/Triton total: median "
            f"{statistics.median(ratios):.2f}, worst {max(ratios):.2f}; "
            f"own/Triton: median {statistics.median(own_ratios):.2f}, worst "
            f"{max(own_ratios):.2f}.",
        ]
        for label, keep in (("aligned", True), ("not aligned", False)):
            part = [r for r in rows
                    if r["triton_seconds"] and is_aligned(r["signature"]) == keep]
            if not part:
                continue
            total = [r["tessera_seconds"] / r["triton_seconds"] for r in part]
            own = [r["tessera_own_seconds"] / r["triton_seconds"] for r in part]
            what = ("every integer parameter divisible by 16 or 1" if keep
                    else "an integer parameter of no known divisibility")
            lines.append(
                f"- {label} ({len(part)}, {what}): total "
                f"median {statistics.median(total):.2f}, worst {max(total):.2f}; "
                f"own median {statistics.median(own):.2f}, worst {max(own):.2f}.")
        assembled = [r for r in rows if ptxas_ratio(r) and r["triton_seconds"]]
        if assembled:
            lines.append(
                f"- ptxas on Tessera's PTX / on Triton's PTX (the same "
                f"ptxas): median "
                f"{statistics.median(ptxas_ratio(r) for r in assembled):.2f}, "
                f"worst {max(ptxas_ratio(r) for r in assembled):.2f}; ptxas "
                f"on Triton's PTX is a median "
                f"{statistics.median(r['triton_ptx_ptxas_seconds'] / r['triton_seconds'] for r in assembled):.2f}"
                f" of Triton's total.")
        lines += [
            "",
            "| kernel | worst total/Triton | worst own/Triton |",
            "|---|---:|---:|",
        ]
        for name, (ratio, own_ratio) in sorted(worst.items()):
            lines.append(f"| {name} | {ratio:.2f} | {own_ratio:.2f} |")
    # Where Tessera's time goes, summed over every specialization.
    steps: dict[str, float] = defaultdict(float)
    for r in rows:
        for name, seconds in r["tessera_steps"].items():
            steps[name] += seconds
    total = sum(v for k, v in steps.items() if "/" not in k) or 1.0
    lines += ["", "Tessera's steps, summed over the specializations:", "",
              "| step | s | share |", "|---|---:|---:|"]
    for name, seconds in sorted(steps.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {seconds:.2f} | {100 * seconds / total:.1f}% |")
    return lines


if __name__ == "__main__":
    main()
