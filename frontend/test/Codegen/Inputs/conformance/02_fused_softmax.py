"""Conformance kernel 02: fused row-wise softmax (mirrors Triton tutorial 02).

For a 2-D input X of shape (n_rows, n_cols), computes for every row r
    Y[r, :] = exp(X[r, :] - max(X[r, :])) / sum(exp(X[r, :] - max(X[r, :])))
reading each row from memory once and writing it once.

Kernel `softmax_kernel`
  signature : softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                             n_rows, n_cols, BLOCK_SIZE: constexpr, num_stages: constexpr)
              output_ptr, input_ptr : pointers (fp32 in the benchmark; fp16/bf16 also work)
              *_row_stride          : int32, elements between consecutive rows (the column
                                      stride is 1)
              n_rows, n_cols        : int32
  constexprs: BLOCK_SIZE = next_power_of_2(n_cols) (a whole row lives in one block)
              num_stages = pipelining depth of the row loop: 4 when the device has more
                           than 200 KB of shared memory per block (H100), else 2
  grid      : (min(n_rows, NUM_PROGRAMS), 1, 1). The kernel is persistent: program p
              handles rows p, p + grid, p + 2*grid, ... so any grid size >= 1 is correct.
              The tutorial picks NUM_PROGRAMS = NUM_SMS * (programs that fit on one SM
              given the compiled kernel's registers and shared memory); a runner may use
              NUM_SMS * 4 or simply n_rows.
  launch    : num_warps = 8
  benchmark : fp32, 4096 x 8192 (bytes moved = 2 * 4 * n_rows * n_cols)

Columns past n_cols are masked and loaded as -inf, so they contribute exp(-inf) = 0.
"""
import triton
import triton.language as tl

# Launch defaults.
NUM_WARPS = 8
NUM_STAGES_LARGE_SMEM = 4  # >= 200 KB shared memory per block (sm_80 / sm_90)
NUM_STAGES_SMALL_SMEM = 2


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    first_row = tl.program_id(0)
    row_step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_SIZE)
    col_ok = cols < n_cols
    for row in tl.range(first_row, n_rows, row_step, num_stages=num_stages):
        src = input_ptr + row * input_row_stride + cols
        x = tl.load(src, mask=col_ok, other=-float('inf'))
        # Subtract the row maximum so exp() cannot overflow.
        shifted = x - tl.max(x, axis=0)
        e = tl.exp(shifted)
        y = e / tl.sum(e, axis=0)
        dst = output_ptr + row * output_row_stride + cols
        tl.store(dst, y, mask=col_ok)


if __name__ == "__main__":
    import torch

    dev = "cuda" if torch.cuda.is_available() else "cpu"
    for rows, cols in ((1, 1), (17, 33), (64, 1000)):
        x = torch.randn(rows, cols, device=dev)
        y = torch.full_like(x, float("nan"))
        softmax_kernel[(min(rows, 8), )](y, x, x.stride(0), y.stride(0), rows, cols,
                                         BLOCK_SIZE=triton.next_power_of_2(cols),
                                         num_stages=NUM_STAGES_SMALL_SMEM, num_warps=NUM_WARPS)
        torch.testing.assert_close(y, torch.softmax(x, dim=1))
    print("02_fused_softmax: ok")
