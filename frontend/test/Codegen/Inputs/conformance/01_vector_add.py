"""Conformance kernel 01: element-wise vector addition (mirrors Triton tutorial 01).

Computes out[i] = x[i] + y[i] for i in [0, n_elements).

Kernel `add_kernel`
  signature : add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: constexpr)
              x_ptr, y_ptr, out_ptr : pointers to the same element type (fp32 in the
                                      benchmark; any float type works)
              n_elements            : int32, number of elements
  constexprs: BLOCK_SIZE (power of two; BLOCK_SIZE below is the launch default)
  grid      : (cdiv(n_elements, BLOCK_SIZE), 1, 1)
  launch    : num_warps=4 (Triton's default)
  benchmark : fp32, n_elements = 2**28 (bytes moved = 3 * 4 * n_elements)

The tail block is handled by masking loads and stores with `offsets < n_elements`.
"""
import triton
import triton.language as tl

# Launch default for BLOCK_SIZE (elements handled by one program).
BLOCK_SIZE = 1024


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # Each program owns one contiguous chunk of BLOCK_SIZE elements.
    block_start = tl.program_id(axis=0) * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    lhs = tl.load(x_ptr + offsets, mask=in_bounds)
    rhs = tl.load(y_ptr + offsets, mask=in_bounds)
    tl.store(out_ptr + offsets, lhs + rhs, mask=in_bounds)


if __name__ == "__main__":
    # Host check under real Triton (GPU, or TRITON_INTERPRET=1 on the CPU).
    import torch

    dev = "cuda" if torch.cuda.is_available() else "cpu"
    for n in (1, 1000, 98432):
        x = torch.rand(n, device=dev)
        y = torch.rand(n, device=dev)
        out = torch.full_like(x, float("nan"))
        add_kernel[(triton.cdiv(n, BLOCK_SIZE), )](x, y, out, n, BLOCK_SIZE=BLOCK_SIZE)
        torch.testing.assert_close(out, x + y)
    print("01_vector_add: ok")
