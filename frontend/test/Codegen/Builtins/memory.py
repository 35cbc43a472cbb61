# Loads and stores: masks and `other` broadcast to the pointer's shape and
# converted to the pointee type; cache, eviction and volatile flags; bool
# pointers accessed as int8; scalar loads; block pointers with boundary
# checks and padding; tensor descriptors.
# RUN: tessera-frontend %s --kernel memory --signature "*fp16,*i1,*fp32,i32" | FileCheck %s
# RUN: tessera-frontend %s --kernel blocks --signature "*fp16:16,i32,i32" | FileCheck %s --check-prefix=BLOCK
# RUN: tessera-frontend %s --kernel descriptors --signature "*fp16:16,*fp32:16,i32,i32" | FileCheck %s --check-prefix=DESC
# RUN: tessera-frontend %s --kernel memory --signature "*fp16,*i1,*fp32,i32" | tessera-opt --verify-each --canonicalize > /dev/null
import triton
import triton.language as tl


@triton.jit
def memory(ph, pb, pf, n):
    offs = tl.arange(0, 32)
    ptrs = ph + offs[:, None] * 32 + offs[None, :]
    # The row mask broadcasts to 32x32; the fp32 `other` converts to fp16.
    # CHECK: %[[M:.*]] = tessera.broadcast %{{.*}} : tensor<32x1xi1> -> tensor<32x32xi1>
    # CHECK: %[[O:.*]] = arith.truncf %{{.*}} : tensor<32x32xf32> to tensor<32x32xf16>
    # CHECK: tessera.load %{{.*}}, %[[M]], %[[O]] {cache = #tessera<cache cg>, evict = #tessera<evict evict_last>, isVolatile} : tensor<32x32x!tessera.ptr<f16>>
    x = tl.load(ptrs, mask=offs[:, None] < n, other=1.0, cache_modifier=".cg", eviction_policy="evict_last", volatile=True)
    # CHECK: tessera.store %{{.*}}, %{{.*}}, %{{.*}} {cache = #tessera<cache wt>, evict = #tessera<evict evict_first>} : tensor<32x32x!tessera.ptr<f16>>
    tl.store(ptrs, x, mask=offs[None, :] < n, cache_modifier=".wt", eviction_policy="evict_first")
    # A scalar load and a store of a value converted to the pointee type.
    # CHECK: %[[S:.*]] = tessera.load %arg2 : !tessera.ptr<f32>
    s = tl.load(pf)
    # CHECK: arith.fptosi %{{.*}} : f32 to i32
    # CHECK: arith.cmpi ne, %{{.*}} : i32
    # Bool pointers are read and written as int8.
    # CHECK: %[[P8:.*]] = tessera.bitcast %arg1 : !tessera.ptr<i1> -> !tessera.ptr<i8>
    # CHECK: arith.extui %{{.*}} : i1 to i8
    # CHECK: tessera.store %[[P8]], %{{.*}} : !tessera.ptr<i8>
    tl.store(pb, s.to(tl.int32) != 0)
    # CHECK: %[[B8:.*]] = tessera.bitcast %{{.*}} : tensor<32x!tessera.ptr<i1>> -> tensor<32x!tessera.ptr<i8>>
    # CHECK: %[[L:.*]] = tessera.load %[[B8]] : tensor<32x!tessera.ptr<i8>>
    # CHECK: arith.cmpi ne, %[[L]], %{{.*}} : tensor<32xi8>
    flags = tl.load(pb + offs)
    # A scalar value stored through a block of pointers is splat.
    # CHECK: tessera.splat %{{.*}} : tensor<32xf32>
    # CHECK: tessera.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x!tessera.ptr<f32>>
    tl.store(pf + offs, 3.0, mask=flags)


@triton.jit
def blocks(p, m, n):
    # BLOCK: %[[BP:.*]] = tessera.make_block_ptr %arg0, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : !tessera.ptr<f16> -> !tessera.ptr<tensor<64x32xf16>>
    bp = tl.make_block_ptr(p, shape=(m, n), strides=(n, 1), offsets=(0, 0), block_shape=(64, 32), order=(1, 0))
    # BLOCK: tessera.load %[[BP]] {boundaryCheck = array<i32: 0, 1>, padding = #tessera<padding nan>} : !tessera.ptr<tensor<64x32xf16>>
    x = tl.load(bp, boundary_check=(1, 0), padding_option="nan")
    # BLOCK: %[[ADV:.*]] = tessera.advance %[[BP]], [%{{.*}}, %{{.*}}] : !tessera.ptr<tensor<64x32xf16>>
    bp = tl.advance(bp, (64, 0))
    # BLOCK: tessera.store %[[ADV]], %{{.*}} {boundaryCheck = array<i32: 0>} : !tessera.ptr<tensor<64x32xf16>>
    tl.store(bp, x, boundary_check=(0,))
    # BLOCK: tessera.advance
    bp = bp.advance([0, n])
    # BLOCK: tessera.load %{{.*}} : !tessera.ptr<tensor<64x32xf16>>
    tl.store(bp, tl.load(bp) * 2)


@triton.jit
def descriptors(ph, pf, m, n):
    # Shapes are i32 and strides i64; the last stride is the constant 1.
    # DESC: %[[D:.*]] = tessera.make_tensor_descriptor %arg0, [%arg2, %arg3], [%{{.*}}, %{{.*}}] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<64x32xf16>>
    d = tl.make_tensor_descriptor(ph, shape=[m, n], strides=[n, 1], block_shape=[64, 32])
    # DESC: {padding = #tessera<padding nan>} : !tessera.ptr<f32> -> !tessera.tensordesc<tensor<16x16xf32>>
    e = tl.make_tensor_descriptor(pf, [m, n], [n, 1], [16, 16], padding_option="nan")
    # DESC: %[[X:.*]] = tessera.descriptor_load %[[D]][%{{.*}}, %{{.*}}] : !tessera.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    x = d.load([64, m])
    # The stored value is converted to the descriptor's type.
    # DESC: arith.extf %{{.*}} : tensor<64x32xf16> to tensor<64x32xf32>
    # DESC: arith.truncf %{{.*}} : tensor<64x32xf32> to tensor<64x32xf16>
    # DESC: tessera.descriptor_store %[[D]][%{{.*}}, %{{.*}}], %{{.*}} : !tessera.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
    d.store([0, 0], x.to(tl.float32) * 2.0)
    # DESC: tessera.descriptor_load {{.*}} -> tensor<16x16xf32>
    y = tl.load_tensor_descriptor(e, [0, 0])
    # DESC: tessera.descriptor_store
    tl.store_tensor_descriptor(e, [16, 16], y)
    tl.static_assert(d.block_shape == (64, 32))
    tl.static_assert(isinstance(d, tl.tensor_descriptor))
    tl.static_assert(not isinstance(x, tl.tensor_descriptor))
    tl.static_assert(d.dtype == tl.float16)
