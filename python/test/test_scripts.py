"""Tutorial scripts run unmodified through `python -m tessera`: each kernel
file of conformance/kernels carries a `__main__` self-check written for the
real Triton (torch tensors, `torch.testing.assert_close`), which must pass
on Tessera as it does on Triton."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import kernel_files
import tessera

pytestmark = pytest.mark.device
pytest.importorskip("torch")

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(tessera.__file__)))
BACKEND = os.environ.get("TESSERA_BACKEND", "cpu")

# The self-checks that run without a GPU (the others assert CUDA is there).
HOST_SCRIPTS = ["01_vector_add", "02_fused_softmax", "04_low_memory_dropout", "05_layer_norm"]
GPU_SCRIPTS = ["03_matmul", "06_fused_attention", "07_extern_functions", "08_grouped_gemm",
               "09_persistent_matmul"]


@pytest.mark.parametrize("stem", HOST_SCRIPTS + GPU_SCRIPTS)
def test_script_runs_unmodified(stem, tmp_path):
    if stem in GPU_SCRIPTS and BACKEND == "cpu":
        pytest.skip("its self-check asserts torch.cuda.is_available()")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PYTHON_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                                                        if p])
    path = os.path.join(kernel_files.KERNELS, f"{stem}.py")
    args = [sys.executable, "-m", "tessera", "--backend", BACKEND, path]
    if stem in ("03_matmul", "06_fused_attention", "08_grouped_gemm", "09_persistent_matmul"):
        args.append("--quick")
    result = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    assert f"{stem}: ok" in result.stdout
