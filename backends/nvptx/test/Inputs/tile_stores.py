# Tile loops storing each tile through tensor descriptors: the stores a
# wait before a store's buffer is written again may leave running.
import triton
import triton.language as tl


@triton.jit
def two_halves(src_ptr, dst_ptr, rows, n_tiles, BM: tl.constexpr,
               BN: tl.constexpr):
    # Every tile stores its left half, then its right half.
    src = tl.make_tensor_descriptor(src_ptr, [rows, 2 * BN], [2 * BN, 1],
                                    [BM, BN])
    dst = tl.make_tensor_descriptor(dst_ptr, [rows, 2 * BN], [2 * BN, 1],
                                    [BM, BN])
    for t in range(tl.program_id(0), n_tiles, tl.num_programs(0)):
        dst.store([t * BM, 0], src.load([t * BM, 0]) + 1)
        dst.store([t * BM, BN], src.load([t * BM, BN]) + 1)


@triton.jit
def right_half_sometimes(src_ptr, dst_ptr, rows, n_tiles, BM: tl.constexpr,
                         BN: tl.constexpr):
    # Only even tiles store their right half.
    src = tl.make_tensor_descriptor(src_ptr, [rows, 2 * BN], [2 * BN, 1],
                                    [BM, BN])
    dst = tl.make_tensor_descriptor(dst_ptr, [rows, 2 * BN], [2 * BN, 1],
                                    [BM, BN])
    for t in range(tl.program_id(0), n_tiles, tl.num_programs(0)):
        dst.store([t * BM, 0], src.load([t * BM, 0]) + 1)
        if t % 2 == 0:
            dst.store([t * BM, BN], src.load([t * BM, BN]) + 1)
