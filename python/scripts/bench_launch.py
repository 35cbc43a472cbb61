"""Launch overhead from Python: microseconds per `kernel[grid](...)`.

    python -m tessera python/scripts/bench_launch.py [--n 20000]

Times, after a warm-up launch that compiles, a tiny kernel launched over one
program through each layer a Triton program goes through: the binding's
Kernel.launch directly, `kernel[grid](...)` (the JITFunction path), the
same with a launch option, and autotuned and heuristics-wrapped kernels on
a remembered key. The kernel does almost nothing, so the numbers are the
host-side cost of a launch (on GPUs: up to the driver's launch call, kernels
queue asynchronously). Run under the real Triton (`python bench_launch.py`
with Triton installed) for the same measurements of Triton's launcher.
"""
from __future__ import annotations

import argparse
import time

import triton
import triton.language as tl


@triton.jit
def tiny(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


@triton.autotune(configs=[triton.Config({"BLOCK": 16}), triton.Config({"BLOCK": 32})], key=["n"])
@triton.jit
def tiny_tuned(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})
@triton.jit
def tiny_heuristics(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


def per_launch_us(call, n: int, sync) -> float:
    call()
    sync()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            call()
        sync()
        best = min(best, (time.perf_counter() - start) / n * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20000, help="launches per measurement")
    parser.add_argument("--python-only", action="store_true",
                        help="replace the binding's kernels by a no-op after the first launch: the cost of "
                        "the Python layers alone (Tessera only)")
    args = parser.parse_args()
    device = triton.runtime.driver.active.get_active_torch_device()
    import torch
    x = torch.zeros(16, device=device)
    sync = (lambda: torch.cuda.synchronize()) if device.type == "cuda" else (lambda: None)
    grid = (1, )
    rows = [
        ("kernel[grid](x, n, BLOCK=16)", lambda: tiny[grid](x, 16, BLOCK=16)),
        ("kernel[grid](..., num_warps=4)", lambda: tiny[grid](x, 16, BLOCK=16, num_warps=4)),
        ("autotuned, remembered key", lambda: tiny_tuned[grid](x, 16)),
        ("heuristics", lambda: tiny_heuristics[grid](x, 16)),
    ]
    tessera_kernel = getattr(tiny, "kernel", None)
    if tessera_kernel is not None and hasattr(tessera_kernel, "launch"):
        rows.insert(0, ("binding Kernel.launch", lambda: tessera_kernel.launch(grid, (x, 16), {"BLOCK": 16})))
        if args.python_only:
            for _, call in rows:
                call()  # compile and autotune first

            class NoLaunch:
                def launch(self, *a, **k):
                    return None

            for fn in (tiny, tiny_tuned.base_fn, tiny_heuristics.fn):
                fn._kernel = NoLaunch()
            rows = rows[1:]
    print(f"{'path':36s} us/launch   (device {device}, {args.n} launches, best of 3)")
    for name, call in rows:
        print(f"{name:36s} {per_launch_us(call, args.n, sync):9.2f}")


if __name__ == "__main__":
    main()
