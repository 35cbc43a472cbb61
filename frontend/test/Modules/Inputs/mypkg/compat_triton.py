# A compatibility module as libraries write them: `triton` is re-exported,
# with stand-ins bound only where the import fails.
try:
    import triton
    import triton.language as tl
except ImportError:
    triton = None

if triton is not None:
    from triton import heuristics
else:
    class triton:  # noqa: N801
        @staticmethod
        def jit(fn):
            return fn

    heuristics = None
