# Stores follow Triton 3.6's rule (_store_legacy): the pointers, the value
# and the mask broadcast together as operands of an arithmetic operator
# would (a value of lower rank gains leading dimensions), and the pointers
# must keep their shape. A value of lower rank is therefore broadcast over
# the pointers; pointers that would have to grow are an error.
# RUN: tessera-frontend %s --kernel lower_rank_value --signature "*i32,*i32" | FileCheck %s
# RUN: not tessera-frontend %s --kernel e_growing_pointers --signature "*i32,*i32" 2>&1 | FileCheck %s --check-prefix=GROW
# RUN: not tessera-frontend %s --kernel e_dims --signature "*i32,*i32" 2>&1 | FileCheck %s --check-prefix=DIMS
import triton
import triton.language as tl


@triton.jit
def lower_rank_value(z, x):
    # CHECK-LABEL: func.func @lower_rank_value
    # CHECK: tessera.expand_dims %{{.*}} {axis = 0 : i32} : tensor<1x32xi32> -> tensor<1x1x32xi32>
    # CHECK: tessera.broadcast %{{.*}} : tensor<1x1x32xi32> -> tensor<4x32x32xi32>
    # CHECK: tessera.store %{{.*}} : tensor<4x32x32x!tessera.ptr<i32>>
    v = tl.load(x + tl.arange(0, 32))[None, :]
    offs = (tl.arange(0, 4)[:, None, None] * 1024 + tl.arange(0, 32)[None, :, None] * 32 +
            tl.arange(0, 32)[None, None, :])
    tl.store(z + offs, v)


@triton.jit
def e_growing_pointers(z, x):
    v = tl.load(x + tl.arange(0, 32))[None, :]
    # GROW: store_broadcast.py:[[@LINE+1]]:36: error: the stored value does not fit the block of pointers it is stored through: <[1, 32], int32> vs <[32], pointer<int32>>
    tl.store(z + tl.arange(0, 32), v)


@triton.jit
def e_dims(z, x):
    v = tl.load(x + tl.arange(0, 32))[None, :]
    # DIMS: store_broadcast.py:[[@LINE+1]]:5: error: incompatible shapes for broadcasting: dimension 1 is 64 in one operand and 32 in another
    tl.store(z + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :], v)
