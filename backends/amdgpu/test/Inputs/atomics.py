# Atomics of every kind Triton has, for tests/atomics.test: float and integer
# adds, a float max, a relaxed GPU-scope counter, a spin lock (CAS, exchange).
import triton
import triton.language as tl


@triton.jit
def atomics(x_ptr, sum_ptr, max_ptr, cnt_ptr, lock_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(sum_ptr + (offs % 16), x, mask=mask)
    tl.atomic_max(max_ptr, tl.max(x, axis=0))
    tl.atomic_add(cnt_ptr, 1, sem="relaxed", scope="gpu")
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.atomic_xchg(lock_ptr, 0)
