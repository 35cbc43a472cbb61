"""Host-built tensor descriptors (triton.tools.tensor_descriptor), passed to
kernels as tutorials 06 and 09 pass them: loads and stores of blocks,
out-of-bounds padding, and the errors a malformed descriptor gets."""
from __future__ import annotations

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

pytestmark = pytest.mark.device


@triton.jit
def copy_tiles(src_desc, dst_desc, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    tile = src_desc.load([m, n])
    dst_desc.store([m, n], tile * 2)


@triton.jit
def sum_rows(desc, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # Reads one block that runs past the tensor's columns: the padding
    # decides what the missing elements add.
    tile = desc.load([tl.program_id(0) * BM, 0])
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    tl.store(out_ptr + rows, tl.sum(tile, axis=1))


def test_descriptor_loads_and_stores_blocks(lib):
    m, n, bm, bn = 48, 40, 16, 8
    x = np.arange(m * n, dtype=np.float32).reshape(m, n) - 700
    src = lib.asarray(x, "fp32")
    dst = lib.asarray(np.zeros((m, n), np.float32), "fp32")
    copy_tiles[(m // bm, n // bn)](TensorDescriptor.from_tensor(src, [bm, bn]),
                                   TensorDescriptor.from_tensor(dst, [bm, bn]),
                                   BM=bm, BN=bn)
    np.testing.assert_array_equal(lib.numpy(dst), 2 * x)


def test_descriptor_of_a_strided_view(lib):
    # A descriptor over the left half of a wider array: its shape and
    # strides, not the array's, bound the blocks.
    m, n, bm, bn = 32, 16, 16, 16
    wide = np.arange(m * 2 * n, dtype=np.float32).reshape(m, 2 * n)
    src = lib.asarray(wide, "fp32")
    dst = lib.asarray(np.zeros((m, n), np.float32), "fp32")
    copy_tiles[(m // bm, 1)](TensorDescriptor(src, [m, n], [2 * n, 1], [bm, bn]),
                             TensorDescriptor.from_tensor(dst, [bm, bn]), BM=bm, BN=bn)
    np.testing.assert_array_equal(lib.numpy(dst), 2 * wide[:, :n])


@pytest.mark.parametrize("padding", ["zero", "nan"])
def test_descriptor_padding(lib, padding):
    m, n, bm, bn = 16, 12, 16, 16  # the block is 4 columns wider than the tensor
    x = np.ones((m, n), np.float32)
    src = lib.asarray(x, "fp32")
    out = lib.asarray(np.zeros(m, np.float32), "fp32")
    sum_rows[(1, )](TensorDescriptor.from_tensor(src, [bm, bn], padding=padding), out,
                    BM=bm, BN=bn)
    got = lib.numpy(out)
    if padding == "zero":
        np.testing.assert_array_equal(got, np.full(m, float(n), np.float32))
    else:
        assert np.isnan(got).all()


def test_descriptor_errors_name_the_field(lib):
    x = lib.asarray(np.zeros((16, 16), np.float32), "fp32")
    with pytest.raises(ValueError, match="block_shape\\[1\\] = 12 is not a power of 2"):
        TensorDescriptor.from_tensor(x, [16, 12])
    with pytest.raises(ValueError, match="strides has 1 entries"):
        TensorDescriptor(x, [16, 16], [16], [16, 16])
