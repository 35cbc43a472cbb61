"""A small package of jit helpers, imported by kernels of the tests the way
libraries ship them: re-exports, relative imports, submodules."""
from .utils import helper, SCALE  # noqa: F401  (re-exported)
from . import ext  # noqa: F401
