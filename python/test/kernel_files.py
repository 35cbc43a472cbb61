"""The conformance suite's kernel files (conformance/kernels), imported as
the Triton modules they are."""
from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

KERNELS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                        "conformance", "kernels"))


def load(stem: str) -> ModuleType:
    """Imports conformance/kernels/<stem>.py as module `tutorial_<stem>`."""
    name = f"tutorial_{stem}"
    if name in sys.modules:
        return sys.modules[name]
    path = os.path.join(KERNELS, f"{stem}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
