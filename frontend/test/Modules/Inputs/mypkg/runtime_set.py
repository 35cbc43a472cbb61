"""A library module whose global a function sets when the library starts
(as FlagGems picks its libdevice module): its first value is not the one
kernels see."""
import triton.language as tl

math_module = None
SCALE = tl.constexpr(2)


def select_math_module(name):
    global math_module
    if name == "default":
        math_module = tl.math


def get_math_module():
    return math_module
