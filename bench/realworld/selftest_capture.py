"""Checks the capture hook on a machine without a GPU.

Triton 3.6 compiles for a named target without a device: this installs a
stand-in driver that reports an sm_90 CUDA target, so `kernel.warmup(...)`
compiles (through ptxas, which the triton wheel ships) and never launches.
It compiles a few of Liger-Kernel's and this repository's conformance
kernels with the recorder installed and prints the records, so the
signature spelling and the corpus layout can be checked before a GPU run.

    python3 bench/realworld/selftest_capture.py OUT_DIR
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import torch
from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase
from triton.runtime.driver import driver

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rw_capture  # noqa: E402


class StandInDriver(DriverBase):
    """Enough of a CUDA driver for the JIT to compile, never to launch."""

    @classmethod
    def is_active(cls) -> bool:
        return True

    def map_python_to_cpp_type(self, ty: str) -> str:
        return "void*"

    def get_current_target(self) -> GPUTarget:
        return GPUTarget("cuda", 90, 32)

    def get_active_torch_device(self) -> Any:
        return torch.device("cpu")

    def get_benchmarker(self) -> Any:
        raise RuntimeError("no benchmarking without a GPU")

    def get_current_device(self) -> int:
        return 0

    def get_current_stream(self, device: Any = None) -> int:
        return 0

    def get_device_interface(self) -> Any:
        return torch.cuda

    def get_empty_cache_for_benchmark(self) -> Any:
        return None

    def clear_cache(self, cache: Any) -> None:
        return None


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/rw-selftest")
    driver.set_active(StandInDriver())
    rec = rw_capture.Recorder(out, "selftest")
    rec.install()
    x = torch.empty(4096, dtype=torch.float16)
    w = torch.empty(1024, dtype=torch.float16)
    rstd = torch.empty(4, dtype=torch.float32)

    rec.set_case("liger-rms-norm")
    rms = importlib.import_module("liger_kernel.ops.rms_norm")
    kernel = rms._rms_norm_forward_kernel
    params = [p.name for p in kernel.params]
    print("rms_norm_forward params:", params)
    args: dict[str, Any] = {}
    for p in kernel.params:
        n = p.name
        if p.is_constexpr:
            continue
        if "ptr" in n:
            args[n] = rstd if "rstd" in n.lower() else (
                w if "W" in n else x)
        elif "stride" in n:
            args[n] = 1024
        elif n in ("eps",):
            args[n] = 1e-6
        elif n in ("offset",):
            args[n] = 0.0
        else:
            args[n] = 1024
    constexprs = {"casting_mode": 0, "elementwise_affine": True,
                  "BLOCK_SIZE": 1024}
    for p in kernel.params:
        if p.is_constexpr and p.name in constexprs:
            args[p.name] = constexprs[p.name]
    try:
        kernel.warmup(grid=(1,), num_warps=4, **args)
    except Exception as err:  # a bad guess of the arguments
        print("liger warmup failed:", type(err).__name__, str(err)[:300])

    rec.set_case("tutorial-add")
    conf = Path(__file__).resolve().parents[2] / "conformance" / "kernels"
    sys.path.insert(0, str(conf))
    add = importlib.import_module("01_vector_add")
    a = torch.empty(1000, dtype=torch.float32)
    add.add_kernel.warmup(a, a, a, 1000, BLOCK_SIZE=1024, grid=(1,))
    add.add_kernel.warmup(a, a, a, 1, BLOCK_SIZE=1024, grid=(1,))
    for line in rec.manifest_path.read_text().splitlines():
        record = json.loads(line)
        record.pop("params", None)
        print(json.dumps(record, indent=None)[:600])
    print(rw_capture.summary(rec))
    for path in sorted(rec.corpus.rglob("*.py"))[:20]:
        print("  corpus:", path.relative_to(rec.corpus))
    return 0


if __name__ == "__main__":
    sys.exit(main())
