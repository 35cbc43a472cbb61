# tl.sort, tl.topk, tl.bitonic_merge, tl.flip and tl.gather lower to block
# operations (no op of their own): per step a row-major reshape to
# [outer, 2, inner] with the pair in the middle, an xor reduction over that
# axis to find each element's partner,
# compare-and-swap with arith.select; top-k halves with tl.max; gather is a
# one-hot comparison or-reduced over the source axis.
# RUN: tessera-frontend %s --kernel sort4 --signature "*fp32" | FileCheck %s --check-prefix=SORT
# RUN: tessera-frontend %s --kernel topk8 --signature "*fp16" | FileCheck %s --check-prefix=TOPK
# RUN: tessera-frontend %s --kernel merge4 --signature "*i32" | FileCheck %s --check-prefix=MERGE
# RUN: tessera-frontend %s --kernel flip_rows --signature "*fp16" | FileCheck %s --check-prefix=FLIP
# RUN: tessera-frontend %s --kernel gather8 --signature "*fp16,*i64" | FileCheck %s --check-prefix=GATHER
# RUN: tessera-frontend %s --kernel methods --signature "*u8" | tessera-opt --verify-each --canonicalize > /dev/null
# RUN: not tessera-frontend %s --kernel bad_k --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_K
# RUN: not tessera-frontend %s --kernel bad_dim --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_DIM
# RUN: not tessera-frontend %s --kernel bad_gather --signature "*fp32,*i32" 2>&1 | FileCheck %s --check-prefix=BAD_GATHER
# RUN: not tessera-frontend %s --kernel bad_index --signature "*fp32,*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_INDEX
# RUN: not tessera-frontend %s --kernel bad_flip --signature "*fp32" 2>&1 | FileCheck %s --check-prefix=BAD_FLIP
import triton
import triton.language as tl


@triton.jit
def sort4(p):
    x = tl.load(p + tl.arange(0, 4))
    tl.store(p + tl.arange(0, 4), tl.sort(x))

# Stage 1 sorts pairs (bit 0, the pair in the middle of [2, 2, 1]), up where
# bit 1 of the index is clear and down where it is set.
# SORT: %[[X:.*]] = tessera.reshape %{{.*}} : tensor<4xf32> -> tensor<2x2x1xf32>
# SORT: %[[I:.*]] = arith.bitcast %[[X]] : tensor<2x2x1xf32> to tensor<2x2x1xi32>
# SORT: tessera.reduce(%[[I]]) {axis = 1 : i32} : (tensor<2x2x1xi32>) -> tensor<2x1xi32>
# SORT: arith.xori %{{.*}}, %{{.*}} : i32
# SORT: tessera.reshape %{{.*}} : tensor<2xi32> -> tensor<1x2x1xi32>
# SORT: tessera.reshape %{{.*}} : tensor<2xi32> -> tensor<2x1x1xi32>
# SORT: arith.shrsi
# SORT: arith.andi
# SORT: arith.cmpf ogt, %[[X]], %{{.*}} : tensor<2x2x1xf32>
# SORT: %[[S1:.*]] = arith.select %{{.*}} : tensor<2x2x1xi1>, tensor<2x2x1xf32>
# Stage 2 merges ascending across bit 1 ([1, 2, 2]), then bit 0.
# SORT: tessera.reshape %{{.*}} : tensor<4xf32> -> tensor<1x2x2xf32>
# SORT: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<1x2x2xi32>) -> tensor<1x2xi32>
# SORT: arith.cmpf ogt
# SORT: arith.select %{{.*}} : tensor<1x2x2xi1>, tensor<1x2x2xf32>
# SORT: tessera.reshape %{{.*}} : tensor<4xf32> -> tensor<2x2x1xf32>
# SORT: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<2x2x1xi32>) -> tensor<2x1xi32>
# SORT: arith.cmpf ogt
# SORT: %[[S3:.*]] = arith.select %{{.*}} : tensor<2x2x1xi1>, tensor<2x2x1xf32>
# SORT: tessera.reshape %[[S3]] : tensor<2x2x1xf32> -> tensor<4xf32>
# SORT-NOT: arith.select

@triton.jit
def topk8(p):
    x = tl.load(p + tl.arange(0, 8))
    tl.store(p + tl.arange(0, 2), tl.topk(x, 2))

# Runs of two are sorted, then halved twice with tl.max (in fp32, as
# Triton's max promotes fp16) and merged downwards.
# TOPK: tessera.reshape %{{.*}} : tensor<8xf16> -> tensor<4x2x1xf16>
# TOPK: arith.cmpf ogt, %{{.*}}, %{{.*}} : tensor<4x2x1xf16>
# TOPK: tessera.reshape %{{.*}} : tensor<8xf16> -> tensor<2x2x2xf16>
# TOPK: arith.extf %{{.*}} : tensor<2x2x2xf16> to tensor<2x2x2xf32>
# TOPK: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<2x2x2xf32>) -> tensor<2x2xf32>
# TOPK: arith.maxnumf
# TOPK: arith.cmpf ogt, %{{.*}}, %{{.*}} : tensor<2x2x1xf32>
# TOPK: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<1x2x2xf32>) -> tensor<1x2xf32>
# TOPK: arith.maxnumf
# TOPK: arith.cmpf ogt, %{{.*}}, %{{.*}} : tensor<1x2x1xf32>
# TOPK: %[[R:.*]] = arith.select %{{.*}} : tensor<1x2x1xi1>, tensor<1x2x1xf32>
# TOPK: %[[F:.*]] = tessera.reshape %[[R]] : tensor<1x2x1xf32> -> tensor<2xf32>
# TOPK: arith.truncf %[[F]] : tensor<2xf32> to tensor<2xf16>

@triton.jit
def merge4(p):
    x = tl.load(p + tl.arange(0, 4))
    tl.store(p + tl.arange(0, 4), tl.bitonic_merge(x, descending=True))

# One merge of two stages, every run descending: no alternating indicator.
# MERGE: tessera.reshape %{{.*}} : tensor<4xi32> -> tensor<1x2x2xi32>
# MERGE: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<1x2x2xi32>) -> tensor<1x2xi32>
# MERGE: arith.constant true
# MERGE: arith.cmpi sgt
# MERGE: tessera.reshape %{{.*}} : tensor<4xi32> -> tensor<2x2x1xi32>
# MERGE: arith.cmpi sgt
# MERGE: tessera.reshape %{{.*}} : tensor<2x2x1xi32> -> tensor<4xi32>
# MERGE-NOT: arith.shrsi

@triton.jit
def flip_rows(p):
    offs = tl.arange(0, 4)[:, None] * 2 + tl.arange(0, 2)[None, :]
    x = tl.load(p + offs)
    tl.store(p + offs, tl.flip(x, 0))

# The flipped axis of 4 becomes two axes of 2; each is swapped by xor-ing
# with its pair's xor.
# FLIP: %[[B:.*]] = arith.bitcast %{{.*}} : tensor<4x2xf16> to tensor<4x2xi16>
# FLIP: %[[C:.*]] = tessera.reshape %[[B]] : tensor<4x2xi16> -> tensor<1x2x4xi16>
# FLIP: tessera.reduce(%[[C]]) {axis = 1 : i32} : (tensor<1x2x4xi16>) -> tensor<1x4xi16>
# FLIP: %[[D:.*]] = arith.xori %[[C]], %{{.*}} : tensor<1x2x4xi16>
# FLIP: %[[E:.*]] = tessera.reshape %[[D]] : tensor<1x2x4xi16> -> tensor<2x2x2xi16>
# FLIP: tessera.reduce(%[[E]]) {axis = 1 : i32} : (tensor<2x2x2xi16>) -> tensor<2x2xi16>
# FLIP: %[[G:.*]] = arith.xori %[[E]], %{{.*}} : tensor<2x2x2xi16>
# FLIP: %[[H:.*]] = tessera.reshape %[[G]] : tensor<2x2x2xi16> -> tensor<4x2xi16>
# FLIP: arith.bitcast %[[H]] : tensor<4x2xi16> to tensor<4x2xf16>

@triton.jit
def gather8(p, q):
    x = tl.load(p + tl.arange(0, 4))
    i = tl.load(q + tl.arange(0, 8))
    tl.store(p + tl.arange(0, 8), tl.gather(x, i, 0))

# The result has the index's shape: [8] from a [4] source.
# GATHER: %[[SRC:.*]] = arith.bitcast %{{.*}} : tensor<4xf16> to tensor<4xi16>
# GATHER: tessera.expand_dims %[[SRC]] {axis = 0 : i32} : tensor<4xi16> -> tensor<1x4xi16>
# GATHER: tessera.expand_dims %{{.*}} {axis = 1 : i32} : tensor<8xi64> -> tensor<8x1xi64>
# GATHER: arith.cmpi eq, %{{.*}}, %{{.*}} : tensor<8x4xi64>
# GATHER: arith.select %{{.*}} : tensor<8x4xi1>, tensor<8x4xi16>
# GATHER: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<8x4xi16>) -> tensor<8xi16>
# GATHER: arith.ori %{{.*}}, %{{.*}} : i16
# GATHER: arith.bitcast %{{.*}} : tensor<8xi16> to tensor<8xf16>


@triton.jit
def methods(p):
    offs = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]
    x = tl.load(p + offs)
    y = x.sort(descending=True) + x.flip(-1) + x.gather(offs % 8, 1)
    tl.store(p + offs, y + tl.sort(x, dim=-1) + tl.topk(x, 8))


@triton.jit
def bad_k(p):
    x = tl.load(p + tl.arange(0, 8))
    # BAD_K: sort.py:[[# @LINE + 3]]:20: error: topk's k must be a power of 2 between 1 and the size of the last dimension (8), got 3
    # BAD_K-NEXT: {{^}}    y = tl.topk(x, 3){{$}}
    # BAD_K-NEXT: {{^}}                   ^{{$}}
    y = tl.topk(x, 3)


@triton.jit
def bad_dim(p):
    x = tl.load(p + tl.arange(0, 4)[:, None] * 2 + tl.arange(0, 2)[None, :])
    # BAD_DIM: sort.py:[[# @LINE + 1]]:24: error: sort supports only the last dimension (1) of a rank-2 block, got dim=0
    y = tl.sort(x, dim=0)


@triton.jit
def bad_gather(p, q):
    x = tl.load(p + tl.arange(0, 4)[:, None] * 2 + tl.arange(0, 2)[None, :])
    i = tl.load(q + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    # BAD_GATHER: sort.py:[[# @LINE + 1]]:22: error: gather's index dimension 1 (4) must match the source's (2): only the gathered axis 0 may differ
    y = tl.gather(x, i, 0)


@triton.jit
def bad_index(p, q):
    x = tl.load(p + tl.arange(0, 4))
    i = tl.load(q + tl.arange(0, 4))
    # BAD_INDEX: sort.py:[[# @LINE + 1]]:22: error: gather's index must be a block of integers, got <[4], fp32>
    y = tl.gather(x, i, 0)


@triton.jit
def bad_flip(p):
    x = tl.load(p + tl.arange(0, 4))
    # BAD_FLIP: sort.py:[[# @LINE + 1]]:20: error: flip's dim must be in [-1, 1), got 1
    y = tl.flip(x, 1)
