"""Triton's random stream (tl.rand: Philox-4x32-10 and the uint -> float
conversion) in NumPy, for bit-exact checks of kernels that draw from it."""
from __future__ import annotations

import numpy as np

_KEY_A, _KEY_B = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)
_ROUND_A, _ROUND_B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_MASK = np.uint64(0xFFFFFFFF)


def _mul_hi_lo(a: np.uint64, b: np.ndarray):
    product = a * b.astype(np.uint64)
    return (product >> np.uint64(32)).astype(np.uint32), (product & _MASK).astype(np.uint32)


def philox4x32(seed: int, c0: np.ndarray, rounds: int = 10):
    """The four 32-bit words of Philox for counters (c0, 0, 0, 0) and the
    64-bit `seed` split into two key words."""
    seed64 = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
    k0 = np.uint32(seed64 & _MASK)
    k1 = np.uint32(seed64 >> np.uint64(32))
    c0 = c0.astype(np.uint32)
    c1 = np.zeros_like(c0)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    with np.errstate(over="ignore"):
        for _ in range(rounds):
            hi_b, lo_b = _mul_hi_lo(_ROUND_B, c2)
            hi_a, lo_a = _mul_hi_lo(_ROUND_A, c0)
            c0, c1, c2, c3 = hi_b ^ c1 ^ k0, lo_b, hi_a ^ c3 ^ k1, lo_a
            k0 = np.uint32(k0 + _KEY_A)
            k1 = np.uint32(k1 + _KEY_B)
    return c0, c1, c2, c3


def uniform(words: np.ndarray) -> np.ndarray:
    """tl.rand's conversion of 32-bit words to floats in [0, 1)."""
    x = words.view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return (x.astype(np.float32) * np.float32(4.6566127342e-10)).astype(np.float32)


def rand(seed: int, offsets: np.ndarray) -> np.ndarray:
    """What tl.rand(seed, offsets) returns for int32 offsets."""
    return uniform(philox4x32(seed, offsets.astype(np.int64).astype(np.uint32))[0])
