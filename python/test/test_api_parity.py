"""Tessera's Triton API against the real Triton's, where it is installed:
the callables programs use take the same parameters (names, order,
defaults), and every name Tessera provides exists in Triton 3.6."""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

from tessera.triton import _triton_api

# (module, attribute) pairs whose signatures must match Triton's.
CALLABLES = [
    ("triton", "jit"), ("triton", "autotune"), ("triton", "heuristics"), ("triton", "Config"),
    ("triton", "cdiv"), ("triton", "next_power_of_2"), ("triton", "set_allocator"), ("triton", "reinterpret"),
    ("triton.testing", "do_bench"), ("triton.testing", "do_bench_cudagraph"), ("triton.testing", "assert_close"),
    ("triton.testing", "Benchmark"), ("triton.testing", "perf_report"),
    ("triton.tools.tensor_descriptor", "TensorDescriptor"), ("triton.runtime.jit", "JITFunction"),
    ("triton.runtime.autotuner", "Autotuner"), ("triton.language", "dtype"), ("triton.language", "pointer_type"),
    ("triton.language", "block_type"), ("triton.language", "constexpr"),
]

DUMP = r"""
import importlib, inspect, json, sys
out = {}
for module, name in json.loads(sys.argv[1]):
    obj = getattr(importlib.import_module(module), name)
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        continue
    out[module + "." + name] = [(p.name, p.kind.name, repr(p.default) if p.default is not p.empty else None)
                                for p in sig.parameters.values()]
print(json.dumps(out))
"""


def _real_triton_signatures():
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TRITON_INTERPRET")}
    probe = subprocess.run([sys.executable, "-c", "import triton, sys; print(triton.__version__)"],
                           capture_output=True, text=True, env=env, cwd="/", timeout=300)
    if probe.returncode != 0:
        pytest.skip("the real Triton is not installed")
    version = probe.stdout.strip()
    if not version.startswith("3.6"):
        pytest.skip(f"the installed Triton is {version}; the reference is 3.6")
    result = subprocess.run([sys.executable, "-c", DUMP, json.dumps(CALLABLES)], capture_output=True, text=True,
                            env=env, cwd="/", timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _ours(module, name):
    import inspect
    obj = getattr(importlib.import_module(module), name)
    return [(p.name, p.kind.name, repr(p.default) if p.default is not p.empty else None)
            for p in inspect.signature(obj).parameters.values()]


def test_signatures_match_triton():
    real = _real_triton_signatures()
    mismatches = []
    for module, name in CALLABLES:
        key = f"{module}.{name}"
        if key not in real:
            continue
        mine = _ours(module, name)
        theirs = real[key]
        if [p[:2] for p in mine] != [tuple(p[:2]) for p in theirs]:
            mismatches.append(f"{key}: {mine} != {theirs}")
    assert not mismatches, "\n".join(mismatches)


def test_every_provided_name_exists_in_triton():
    """Nothing Tessera's package exports is an invention: each public name
    of its modules is in Triton 3.6's (generated list, _triton_api)."""
    import triton
    extra = []
    for module_name in ("triton", "triton.language", "triton.testing", "triton.runtime",
                        "triton.tools.tensor_descriptor"):
        module = importlib.import_module(module_name)
        known = _triton_api.NAMES[module_name]
        for name, value in vars(module).items():
            if name.startswith("_") or name in known or isinstance(value, type(triton)):
                continue
            owner = getattr(value, "__module__", None) or ""
            if callable(value) and not owner.startswith("tessera"):
                continue  # a helper imported from the standard library (dataclass, ...)
            if owner.startswith(("typing", "__future__")):
                continue
            extra.append(f"{module_name}.{name}")
    # Tessera-specific helpers that Triton does not have.
    allowed = {"triton.runtime.Heuristics"}
    assert sorted(set(extra) - allowed) == []
