#!/usr/bin/env python3
"""How long autotuning takes, and what it chose, for the tutorials'
autotuned matmuls on one GPU: the first launch of a fresh key (compiling
and timing every config, cold kernel cache), then the chosen config's speed.

  bench/autotune-time.py [--python] [--json OUT]

Without --python the kernels run under Triton; with it, under Tessera in
this interpreter (`tessera.activate()` first, the package on PYTHONPATH).
Each workload runs in a fresh cache directory so that no compiled kernel or
tuning record from an earlier run is reused. TESSERA_COMPILE_THREADS bounds
Tessera's parallel compilation (default: the machine's hardware threads).
"""
import argparse
import importlib.util
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="store_true", help="run under Tessera")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--only", default="", help="run workloads whose name contains this")
    args = parser.parse_args()

    cache = tempfile.mkdtemp(prefix="autotune-cache-")
    os.environ["TESSERA_CACHE_DIR" if args.python else "TRITON_CACHE_DIR"] = cache
    if args.python:
        import tessera
        tessera.activate()
    import torch
    import triton

    kernels = os.path.join(ROOT, "conformance", "kernels")
    size = args.size
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    a = torch.randn(size, size, device="cuda").half()
    b = torch.randn(size, size, device="cuda").half()
    bt = b.t().contiguous()
    c = torch.empty(size, size, device="cuda", dtype=torch.float16)
    fa, fbt = a.to(torch.float8_e4m3fn), bt.to(torch.float8_e4m3fn)
    triton.set_allocator(lambda n, align, stream: torch.empty(n, dtype=torch.int8, device="cuda"))
    mm = load(os.path.join(kernels, "03_matmul.py"))
    pm = load(os.path.join(kernels, "09_persistent_matmul.py"))
    tiles = lambda meta: triton.cdiv(size, meta["BLOCK_SIZE_M"]) * triton.cdiv(size, meta["BLOCK_SIZE_N"])
    workloads = [
        ("03_matmul/matmul_kernel/fp16", mm.matmul_kernel, lambda meta: (tiles(meta),),
         lambda k, g: k[g](a, b, c, size, size, size, size, 1, size, 1, size, 1, ACTIVATION="")),
        ("09_persistent_matmul/matmul_kernel_descriptor_persistent/fp8e4m3",
         pm.matmul_kernel_descriptor_persistent,
         lambda meta: (min(sms, tiles(meta)),),
         lambda k, g: k[g](fa, fbt, c, size, size, size, NUM_SMS=sms, WARP_SPECIALIZE=False)),
    ]
    results = []
    for name, kernel, grid, launch in workloads:
        if args.only not in name:
            continue
        g = grid
        torch.cuda.synchronize()
        start = time.perf_counter()
        launch(kernel, g)
        torch.cuda.synchronize()
        tuning = time.perf_counter() - start
        ms = triton.testing.do_bench(lambda: launch(kernel, g))
        best = getattr(kernel, "best_config", None)
        row = {"workload": name, "tuning_seconds": tuning, "configs": len(kernel.configs),
               "best_config": str(best), "milliseconds": ms,
               "tflops": 2.0 * size ** 3 / ms * 1e-9}
        results.append(row)
        print(f"{name}: tuned {row['configs']} configs in {tuning:.1f} s; chose {best}; "
              f"{ms:.3f} ms = {row['tflops']:.0f} TFLOP/s", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"implementation": "tessera" if args.python else "triton",
                       "device": torch.cuda.get_device_name(0), "size": size,
                       "compile_threads": os.environ.get("TESSERA_COMPILE_THREADS"),
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
