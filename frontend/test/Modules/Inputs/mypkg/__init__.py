# A package whose __init__ re-exports a helper of one of its modules.
from .utils import helper as exported_helper  # noqa: F401
from . import ext  # noqa: F401

VERSION = (1, 2)
