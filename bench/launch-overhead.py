#!/usr/bin/env python3
"""Per-launch cost from Python of a trivial kernel with 8 arguments (4
tensors, 3 scalars, 1 constexpr), on Tessera and on Triton, in one run.

Each implementation runs in a fresh interpreter of its own (Tessera's
`tessera.activate()` makes `import triton` resolve to Tessera, so the real
Triton cannot share the process):

  triton          the real Triton package: kernel[grid](...)
  tessera         Tessera through its Triton API (tessera.activate(), then
                  the same kernel[grid](...)), where the package has it
  tessera-binding Tessera's binding alone: tessera._C.Kernel.launch, the
                  floor under the Triton API

Every launch of a round goes to the same compiled kernel (a warm-up launch
compiles it); a round is N launches timed on the host, then one
synchronisation, so the figure is what the host spends per launch while the
device keeps up with a one-program kernel. The median of the rounds is
reported, in microseconds per launch.

  On the GPU host (Tessera from the bundle; the same Python as the build):
    PYTHONPATH=BUNDLE/python LD_LIBRARY_PATH=/usr/lib/llvm-22/lib \\
        python3 bench/launch-overhead.py --device cuda --json out.json
  Here, on the CPU (no Triton: only Tessera):
    PYTHONPATH=build/python python3 bench/launch-overhead.py --device cpu

Prints one row per implementation; --json writes them with the device, the
versions and the settings.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

KERNEL = '''\
import triton
import triton.language as tl


@triton.jit
def nop(a_ptr, b_ptr, c_ptr, d_ptr, n, stride, alpha, BLOCK: tl.constexpr):
    # Writes only when n < 0, which no launch passes: the launch is the cost.
    if n < 0:
        offs = tl.arange(0, BLOCK) * stride
        tl.store(d_ptr + offs, tl.load(a_ptr + offs) * alpha
                 + tl.load(b_ptr + offs) + tl.load(c_ptr + offs))
'''

IMPLS = ("triton", "tessera", "tessera-binding")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    p.add_argument("--impl", action="append", choices=IMPLS,
                   help="only these (repeatable; default: each one available)")
    p.add_argument("--launches", type=int, default=2000, help="launches per round")
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--json", help="write the results to this file")
    p.add_argument("--child", choices=IMPLS, help=argparse.SUPPRESS)
    p.add_argument("--kernel-file", help=argparse.SUPPRESS)
    return p.parse_args()


def make_tensors(device):
    """Four small tensors (torch where it is installed, else NumPy on cpu)."""
    try:
        import torch
    except ImportError:
        if device != "cpu":
            raise
        import numpy as np
        return [np.zeros(1024, dtype=np.float32) for _ in range(4)], None
    return [torch.zeros(1024, dtype=torch.float32, device=device)
            for _ in range(4)], torch


def time_rounds(launch, sync, launches, rounds):
    launch()  # compiles
    sync()
    for _ in range(max(1, rounds // 5)):  # warm caches and clocks
        launch()
    sync()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(launches):
            launch()
        sync()
        samples.append((time.perf_counter_ns() - start) / launches / 1e3)
    return samples


def child(args):
    """Runs one implementation and prints its result as one JSON line."""
    device = args.device
    tensors, torch = make_tensors(device)
    a, b, c, d = tensors
    n, stride, alpha = 1024, 1, 0.5
    if torch is not None and device == "cuda":
        sync = torch.cuda.synchronize
    else:
        sync = lambda: None
    info = {"impl": args.child}
    sys.path.insert(0, os.path.dirname(args.kernel_file))
    if args.child == "tessera-binding":
        from tessera import _C
        session = _C.Session(backend="cpu" if device == "cpu" else "")
        kernel = _C.Kernel.from_file(session, args.kernel_file, "nop")
        call_args = (a, b, c, d, n, stride, alpha)
        kwargs = {"BLOCK": 16}
        launch = lambda: kernel.launch((1,), call_args, kwargs)
        info["version"] = _C.__version__
        info["backend"] = session.backend
    else:
        if args.child == "tessera":
            import tessera
            if not hasattr(tessera, "activate"):
                raise SystemExit("skip: this tessera package has no activate()")
            if device == "cpu":
                os.environ.setdefault("TESSERA_BACKEND", "cpu")
            tessera.activate()
        import triton
        import importlib.util
        spec = importlib.util.spec_from_file_location("launch_kernel", args.kernel_file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        nop = module.nop
        launch = lambda: nop[(1,)](a, b, c, d, n, stride, alpha, BLOCK=16)
        info["version"] = getattr(triton, "__version__", "?")
    samples = time_rounds(launch, sync, args.launches, args.rounds)
    info["us_per_launch_median"] = statistics.median(samples)
    info["us_per_launch_min"] = min(samples)
    info["samples"] = samples
    print(json.dumps(info))


def main():
    args = parse_args()
    if args.child:
        return child(args)
    impls = args.impl or (["tessera", "tessera-binding"] if args.device == "cpu"
                          else list(IMPLS))
    with tempfile.TemporaryDirectory(prefix="tessera-launch-") as tmp:
        kernel_file = os.path.join(tmp, "launch_kernel.py")
        with open(kernel_file, "w") as f:
            f.write(KERNEL)
        results = []
        for impl in impls:
            cmd = [sys.executable, os.path.abspath(__file__), "--child", impl,
                   "--device", args.device, "--launches", str(args.launches),
                   "--rounds", str(args.rounds), "--kernel-file", kernel_file]
            env = dict(os.environ)
            env["TRITON_CACHE_DIR"] = os.path.join(tmp, "triton-cache")
            env["TESSERA_CACHE_DIR"] = os.path.join(tmp, "tessera-cache")
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
            lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
            if proc.returncode != 0 or not lines:
                why = (proc.stdout + proc.stderr).strip().splitlines()
                results.append({"impl": impl, "error": why[-1] if why else
                                f"exit {proc.returncode}"})
                continue
            results.append(json.loads(lines[-1]))
    device_name = platform.processor() or platform.machine()
    if args.device == "cuda":
        try:
            import torch
            device_name = torch.cuda.get_device_name()
        except Exception:
            pass
    print(f"launch overhead, {args.device} ({device_name}), {args.launches} "
          f"launches x {args.rounds} rounds, grid (1,), 8 arguments")
    print(f"{'implementation':<18}{'version':<12}{'us/launch (median)':>20}{'min':>10}")
    base = next((r for r in results if r["impl"] == "triton" and "error" not in r), None)
    for r in results:
        if "error" in r:
            print(f"{r['impl']:<18}{'-':<12}  {r['error']}")
            continue
        ratio = (f"  ({r['us_per_launch_median'] / base['us_per_launch_median']:.2f}x Triton)"
                 if base and r is not base else "")
        print(f"{r['impl']:<18}{r.get('version', '?'):<12}"
              f"{r['us_per_launch_median']:>20.2f}{r['us_per_launch_min']:>10.2f}{ratio}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "device_name": device_name,
                       "python": platform.python_version(),
                       "launches": args.launches, "rounds": args.rounds,
                       "results": results}, f, indent=2)


if __name__ == "__main__":
    main()
