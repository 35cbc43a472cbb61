# Relative imports from a subpackage, and a helper calling another module's.
import triton

from ..utils import helper
from .. import utils as u


@triton.jit
def twice(x):
    return helper(helper(x))


@triton.jit
def scaled(x):
    return u.scale(x)
