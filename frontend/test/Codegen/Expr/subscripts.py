# Subscripts and attributes: None inserts a dimension, ':' keeps one, '...'
# stands for the rest; tuples index and slice at compile time; .T, .shape,
# .dtype and methods such as .to, .reshape, .permute, .split.
# RUN: tessera-frontend %s --kernel views --signature "*fp32" | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def views(p):
    x = tl.load(p + tl.arange(0, 16))
    # CHECK: tessera.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    col = x[:, None]
    # CHECK: tessera.expand_dims %{{.*}} {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32>
    row = x[None, :]
    # CHECK: tessera.expand_dims %{{.*}} {axis = 0 : i32} : tensor<16x1xf32> -> tensor<1x16x1xf32>
    # CHECK: tessera.expand_dims %{{.*}} {axis = 3 : i32} : tensor<1x16x1xf32> -> tensor<1x16x1x1xf32>
    e = col[None, ..., None]
    # CHECK: tessera.broadcast %{{.*}} : tensor<16x1xf32> -> tensor<16x16xf32>
    # CHECK: tessera.broadcast %{{.*}} : tensor<1x16xf32> -> tensor<16x16xf32>
    # CHECK: arith.addf %{{.*}} : tensor<16x16xf32>
    m = col + row
    # CHECK: tessera.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
    t = m.T
    # CHECK: tessera.reshape %{{.*}} : tensor<16x16xf32> -> tensor<256xf32>
    flat = t.reshape(256)
    # CHECK: tessera.reshape %{{.*}} : tensor<256xf32> -> tensor<2x128xf32>
    # CHECK: tessera.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<2x128xf32> -> tensor<128x2xf32>
    # CHECK: tessera.split %{{.*}} : tensor<128x2xf32> -> tensor<128xf32>
    a, b = flat.reshape((2, 128)).permute(1, 0).split()
    # CHECK: arith.truncf %{{.*}} : tensor<128xf32> to tensor<128xf16>
    c = (a + b).to(tl.float16)
    # Compile-time facts: shapes, dtypes, tuple items and slices.
    tl.static_assert(e.shape == (1, 16, 1, 1))
    tl.static_assert(c.dtype == tl.float16)
    tl.static_assert(p.dtype.element_ty == tl.float32)
    tl.static_assert(m.shape[1] == 16)
    tl.static_assert(len(e.shape[1:3]) == 2)
    tl.static_assert(e.shape[-1] == 1)
    tl.static_assert(m.numel == 256)
    tl.static_assert(x.type.is_block() and x.dtype.is_fp32())
    tl.store(p + tl.arange(0, 128), c)


# As in Triton 3.6, the i-th index item acts on dimension i of the result so
# far and a ':' past its rank does nothing: a scalar pointer indexed
# [None, None, :] is a 1x1 block (test_core's keep_dims reductions).
# RUN: tessera-frontend %s --kernel past_rank --signature "*fp32,*fp32" | FileCheck %s --check-prefix=PAST
@triton.jit
def past_rank(z, x):
    # PAST-LABEL: func.func @past_rank
    # PAST: tessera.splat %arg0 : tensor<1x!tessera.ptr<f32>>
    # PAST: tessera.expand_dims %{{.*}} {axis = 1 : i32} : tensor<1x!tessera.ptr<f32>> -> tensor<1x1x!tessera.ptr<f32>>
    out = z[None, None, :]
    tl.static_assert(out.shape == (1, 1))
    # PAST: tessera.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    col = tl.load(x + tl.arange(0, 16))[:, None, :]
    tl.static_assert(col.shape == (16, 1))
    tl.store(out, tl.sum(col, axis=0)[None, :])
