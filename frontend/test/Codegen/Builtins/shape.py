# Shape manipulation: reshape (and view, which may reorder), permute and
# trans, broadcast_to, expand_dims (several axes, negative ones), join,
# split (a rank-1 split yields scalars), cat, interleave, ravel.
# RUN: tessera-frontend %s --kernel shapes --signature "*fp32" | FileCheck %s
# RUN: tessera-frontend %s --kernel shapes --signature "*fp32" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def shapes(p):
    x = tl.load(p + tl.arange(0, 32))
    # CHECK: tessera.reshape %{{.*}} : tensor<32xf32> -> tensor<4x8xf32>
    a = tl.reshape(x, 4, 8)
    # CHECK: tessera.reshape %{{.*}} {allow_reorder} : tensor<4x8xf32> -> tensor<8x4xf32>
    b = a.view((8, 4))
    # CHECK: tessera.reshape %{{.*}} {allow_reorder} : tensor<8x4xf32> -> tensor<32xf32>
    c = tl.reshape(b, [32], can_reorder=True)
    # CHECK: tessera.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    d = tl.trans(a)
    # CHECK: tessera.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<2x4x4xf32> -> tensor<2x4x4xf32>
    e = tl.trans(tl.reshape(x, (2, 4, 4)))
    # CHECK: tessera.trans %{{.*}} {order = array<i32: 2, 0, 1>} : tensor<2x4x4xf32> -> tensor<4x2x4xf32>
    f = tl.permute(e, (2, 0, 1))
    # CHECK: tessera.broadcast %{{.*}} : tensor<1x8xf32> -> tensor<4x8xf32>
    g = tl.broadcast_to(tl.expand_dims(tl.sum(a, 0), 0), 4, 8)
    # CHECK: tessera.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
    # CHECK: tessera.expand_dims %{{.*}} {axis = 2 : i32} : tensor<1x32xf32> -> tensor<1x32x1xf32>
    h = tl.expand_dims(x, (0, -1))
    # CHECK: tessera.join %{{.*}}, %{{.*}} : tensor<32xf32> -> tensor<32x2xf32>
    j = tl.join(x, c)
    # CHECK: tessera.split %{{.*}} : tensor<32x2xf32> -> tensor<32xf32>
    k, l = tl.split(j)
    # Joining two scalars gives a [2] tensor; splitting it, two scalars.
    # CHECK: tessera.join %{{.*}}, %{{.*}} : tensor<1xf32> -> tensor<1x2xf32>
    # CHECK: tessera.reshape %{{.*}} : tensor<1x2xf32> -> tensor<2xf32>
    pair = tl.join(1.0, 2.0)
    # CHECK: tessera.expand_dims %{{.*}} {axis = 0 : i32} : tensor<2xf32> -> tensor<1x2xf32>
    # CHECK: tessera.split %{{.*}} : tensor<1x2xf32> -> tensor<1xf32>
    # CHECK: tessera.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<1xf32>) -> f32
    s0, s1 = pair.split()
    # CHECK: tessera.cat %{{.*}}, %{{.*}} : tensor<32xf32> -> tensor<64xf32>
    m = tl.cat(k, l, can_reorder=True)
    # interleave(a, b) = join then merge the last two dimensions.
    # CHECK: tessera.join %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<4x8x2xf32>
    # CHECK: tessera.reshape %{{.*}} : tensor<4x8x2xf32> -> tensor<4x16xf32>
    n = tl.interleave(a, a)
    # CHECK: tessera.reshape %{{.*}} : tensor<4x16xf32> -> tensor<64xf32>
    o = n.ravel()
    tl.store(p + tl.arange(0, 64), m + o + s0 + s1)
    tl.store(p + tl.arange(0, 32), tl.reshape(d + g.T + f.reshape(8, 4) + h.reshape(8, 4), 32))
