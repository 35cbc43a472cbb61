"""Conformance kernel 04: low-memory dropout (mirrors Triton tutorial 04).

Dropout with probability p keeps x[i] / (1 - p) where the keep-mask is true and writes 0
elsewhere.

Kernel `dropout_kernel` (mask given as a tensor)
  signature : dropout_kernel(x_ptr, x_keep_ptr, output_ptr, n_elements, p, BLOCK_SIZE: constexpr)
              x_ptr, output_ptr : fp32 pointers
              x_keep_ptr        : int8 (or bool/uint8) pointer, nonzero = keep
              n_elements        : int32;  p : fp32 in [0, 1)
  grid      : (cdiv(n_elements, BLOCK_SIZE), 1, 1);  BLOCK_SIZE = 1024 by default

Kernel `seeded_dropout_kernel` (mask regenerated from a seed: nothing but the seed has to
be kept for the backward pass)
  signature : seeded_dropout_kernel(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: constexpr)
              seed : int32 (non-negative) scalar
  grid      : (cdiv(n_elements, BLOCK_SIZE), 1, 1);  BLOCK_SIZE = 1024 by default
  semantics : element i is kept iff tl.rand(seed, i) > p, where tl.rand is Triton's
              Philox-4x32 generator with 10 rounds: counter (i, 0, 0, 0), key
              (seed & 0xffffffff, seed >> 32); the first output word u is mapped to
              [0, 1) as  v = u reinterpreted as int32;  v = (v < 0) ? -v - 1 : v;
              float(v) * 4.6566127342e-10  (fp32 arithmetic). The checker script has a
              NumPy reference of exactly this, so the output is compared bit-for-bit
              against the mask, not only statistically.
  benchmark : fp32, n_elements = 2**26, p = 0.5 (bytes moved = 2 * 4 * n_elements)
"""
import triton
import triton.language as tl

BLOCK_SIZE = 1024


@triton.jit
def dropout_kernel(x_ptr, x_keep_ptr, output_ptr, n_elements, p, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=in_bounds)
    keep = tl.load(x_keep_ptr + offsets, mask=in_bounds)
    scaled = x / (1 - p)
    tl.store(output_ptr + offsets, tl.where(keep != 0, scaled, 0.0), mask=in_bounds)


@triton.jit
def seeded_dropout_kernel(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=in_bounds)
    # One uniform sample per element, a pure function of (seed, element index).
    u = tl.rand(seed, offsets)
    keep = u > p
    tl.store(output_ptr + offsets, tl.where(keep, x / (1 - p), 0.0), mask=in_bounds)


if __name__ == "__main__":
    import torch

    dev = "cuda" if torch.cuda.is_available() else "cpu"
    n, p = 10007, 0.5
    x = torch.randn(n, device=dev)
    keep = (torch.rand(n, device=dev) > p).to(torch.int8)
    out = torch.full_like(x, float("nan"))
    grid = (triton.cdiv(n, BLOCK_SIZE), )
    dropout_kernel[grid](x, keep, out, n, p, BLOCK_SIZE=BLOCK_SIZE)
    torch.testing.assert_close(out, torch.where(keep != 0, x / (1 - p), 0.0))
    a = torch.full_like(x, float("nan"))
    b = torch.full_like(x, float("nan"))
    seeded_dropout_kernel[grid](x, a, n, p, 123, BLOCK_SIZE=BLOCK_SIZE)
    seeded_dropout_kernel[grid](x, b, n, p, 123, BLOCK_SIZE=BLOCK_SIZE)
    assert torch.equal(a, b)
    kept = a != 0
    torch.testing.assert_close(a[kept], x[kept] / (1 - p))
    assert abs(kept.float().mean().item() - (1 - p)) < 0.05
    print("04_low_memory_dropout: ok")
