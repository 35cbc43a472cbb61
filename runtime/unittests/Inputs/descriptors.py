# Tensor descriptors built on the host (triton.tools.tensor_descriptor.
# TensorDescriptor) passed to kernels, and made in a kernel: the kernels of
# DescriptorEndToEndTest.cpp, runnable unchanged under Triton.
import triton
import triton.language as tl


@triton.jit
def add_one_tiles(src, dst, BM: tl.constexpr, BN: tl.constexpr):
    # One tile per program; the edges read padding and store nothing out of
    # bounds.
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    tile = src.load([m, n])
    dst.store([m, n], tile + 1)


@triton.jit
def read_padding(src, out_ptr, row, col, BM: tl.constexpr, BN: tl.constexpr):
    # The whole block read at (row, col), padding included, stored densely.
    tile = src.load([row, col])
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.store(out_ptr + offs, tile)


@triton.jit
def desc_rows_sum(src, out_ptr, n_rows, BM: tl.constexpr, BN: tl.constexpr):
    # A descriptor next to plain scalars and pointers; its shape read back.
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, ), tl.float32)
    for n in range(0, src.shape[1], BN):
        acc += tl.sum(src.load([m, n]).to(tl.float32), axis=1)
    rows = m + tl.arange(0, BM)
    tl.store(out_ptr + rows, acc, mask=rows < n_rows)


@triton.jit
def add_one_made_here(src_ptr, dst_ptr, rows, cols, pitch,
                      BM: tl.constexpr, BN: tl.constexpr):
    # add_one_tiles with descriptors made in the kernel from a pitch of no
    # known divisibility (TMA on sm_90 all the same: the launch checks
    # tl.make_tensor_descriptor's 16-byte rule).
    src = tl.make_tensor_descriptor(src_ptr, [rows, cols], [pitch, 1], [BM, BN])
    dst = tl.make_tensor_descriptor(dst_ptr, [rows, cols], [pitch, 1], [BM, BN])
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    dst.store([m, n], src.load([m, n]) + 1)


@triton.jit
def add_one_loaded_here(table, n_groups, BM: tl.constexpr, BN: tl.constexpr):
    # add_one_made_here over several matrices whose pointers, sizes and
    # pitches the kernel reads from memory (as grouped GEMMs do), the
    # descriptors remade for each: on sm_90a the kernel writes the tensor
    # maps itself, over and over in the same slots.
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    for g in range(n_groups):
        entry = table + g * 5
        src_ptr = tl.load(entry).to(tl.pointer_type(tl.float32))
        dst_ptr = tl.load(entry + 1).to(tl.pointer_type(tl.float32))
        rows = tl.load(entry + 2).to(tl.int32)
        cols = tl.load(entry + 3).to(tl.int32)
        pitch = tl.load(entry + 4)
        if m < rows and n < cols:
            src = tl.make_tensor_descriptor(src_ptr, [rows, cols], [pitch, 1], [BM, BN])
            dst = tl.make_tensor_descriptor(dst_ptr, [rows, cols], [pitch, 1], [BM, BN])
            dst.store([m, n], src.load([m, n]) + 1)
