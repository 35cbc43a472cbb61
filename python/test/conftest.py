"""Test set-up: Tessera active before any test imports triton.

The backend is TESSERA_BACKEND (cpu when unset, as in CI). Tests that run
kernels need the binding (tessera._C); without it they fail, unless
TESSERA_TEST_ALLOW_NO_BINDING=1 (developing the pure-Python layers), which
skips them instead.
"""
from __future__ import annotations

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "pkg_helpers"))
sys.path.insert(0, HERE)

os.environ.setdefault("TESSERA_BACKEND", "cpu")

import tessera  # noqa: E402
from tessera import _binding  # noqa: E402

tessera.activate()

import arrays  # noqa: E402

BACKEND = os.environ["TESSERA_BACKEND"]
ALLOW_NO_BINDING = os.environ.get("TESSERA_TEST_ALLOW_NO_BINDING") == "1"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "device: runs kernels (needs tessera._C and a device)")


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    if _binding.available() or not ALLOW_NO_BINDING:
        return
    skip = pytest.mark.skip(reason="tessera._C is not built (TESSERA_TEST_ALLOW_NO_BINDING=1)")
    for item in items:
        if "device" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=["numpy", "torch"])
def lib(request: pytest.FixtureRequest) -> arrays.ArrayLib:
    """Each array library the backend accepts (NumPy on cpu; torch where installed)."""
    made = arrays.make_lib(request.param, BACKEND)
    if made is None:
        reason = ("PyTorch is not installed" if request.param == "torch"
                  else f"NumPy arrays are host memory; the {BACKEND} backend takes device tensors")
        pytest.skip(reason)
    return made


@pytest.fixture
def rng():
    import numpy as np
    return np.random.default_rng(1234)
