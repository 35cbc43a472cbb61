# RUN: tessera-ast %s --dump-module | FileCheck %s
# RUN: tessera-ast %s --eval-heuristics 'n_cols=1000, n_rows=-7' | FileCheck %s --check-prefix=HEUR
# Fused softmax with heuristics evaluated over launch arguments.
import triton
import triton.language as tl
from triton import jit, heuristics


def num_warps_for(block):
    if block >= 8192:
        return 16
    elif block >= 2048:
        return 8
    return 4


@heuristics({"BLOCK_SIZE": lambda args: triton.next_power_of_2(args["n_cols"]),
             "NUM_WARPS": lambda args: num_warps_for(args["BLOCK_SIZE"]),
             "ROWS_PER_PROG": lambda args: triton.cdiv(args["n_rows"], 2) % 3,
             "EVEN": lambda args: args["n_cols"] % args["BLOCK_SIZE"] == 0})
@jit(do_not_specialize=["n_rows"], noinline=False)
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)

# CHECK: import jit = triton.jit
# CHECK: import heuristics = triton.heuristics
# CHECK: jit softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr)
# CHECK-NEXT: decorator heuristics triton.heuristics
# CHECK-NEXT: BLOCK_SIZE = <function <lambda> at 17:28>
# CHECK: EVEN = <function <lambda>
# CHECK-NEXT: decorator jit triton.jit
# CHECK-NEXT: do_not_specialize = ['n_rows']
# CHECK-NEXT: noinline = False

# HEUR: heuristic softmax_kernel.BLOCK_SIZE = 1024
# HEUR-NEXT: heuristic softmax_kernel.NUM_WARPS = 4
# cdiv(-7, 2) == -3 and -3 % 3 == 0 with Python's floor semantics.
# HEUR-NEXT: heuristic softmax_kernel.ROWS_PER_PROG = 0
# HEUR-NEXT: heuristic softmax_kernel.EVEN = False
