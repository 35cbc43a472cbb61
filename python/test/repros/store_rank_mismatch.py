"""Compiler bug: a store whose value has fewer dimensions than its pointers
is accepted (the value is broadcast to the pointers' rank) instead of being
a compile error as in Triton ("Cannot broadcast, rank mismatch"). A program
that makes this mistake writes every element of the larger pointer block:
with an output sized for the value, memory beyond it is overwritten.

    python -m tessera --backend cpu python/test/repros/store_rank_mismatch.py

Exit status 1 while the bug is present, 0 once the store is rejected.
"""
import numpy as np
import triton
import triton.language as tl


@triton.jit
def store_rank_mismatch(Z, X):
    z = tl.load(X + tl.arange(0, 32))[None, :]  # [1, 32]
    offs = (tl.arange(0, 4)[:, None, None] * 1024 + tl.arange(0, 32)[None, :, None] * 32 +
            tl.arange(0, 32)[None, None, :])  # [4, 32, 32]
    tl.store(Z + offs, z)


x = np.arange(32, dtype=np.int32)
z = np.zeros(4 * 32 * 32, np.int32)  # sized for the pointers: nothing is corrupted
try:
    store_rank_mismatch[(1, )](z, x)
except triton.CompilationError as e:
    print("fixed: the store is rejected:\n" + str(e))
    raise SystemExit(0)
print(f"BUG: the rank-2 value was stored through rank-3 pointers ({np.count_nonzero(z)} elements written)")
raise SystemExit(1)
