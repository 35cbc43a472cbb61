// RUN: tessera-opt %s --split-input-file --verify-diagnostics
// One case per verifier and parser message of the tessera_gpu dialect.

// Empty parameter lists do not parse; BlockedAttr::verify rejects them from
// C++ (see core/unittests/Dialect).
// expected-error @+2 {{failed to parse TesseraGPU_BlockedAttr parameter 'sizePerThread'}}
// expected-error @+1 {{expected integer value}}
func.func @blocked_empty(%x: tensor<4xf32, #tessera_gpu.blocked<sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []>>) { return }

// -----

// expected-error @+1 {{blocked layout parameters must all have rank 2}}
func.func @blocked_rank(%x: tensor<4x4xf32, #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4, 1], order = [1, 0]>>) { return }

// -----

// expected-error @+1 {{blocked layout order must be a permutation of 0..1}}
func.func @blocked_order(%x: tensor<4x4xf32, #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0, 0]>>) { return }

// -----

// expected-error @+1 {{blocked layout threadsPerWarp entries must be powers of two}}
func.func @blocked_pow2(%x: tensor<4x4xf32, #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [3, 4], warpsPerCTA = [4, 1], order = [1, 0]>>) { return }

// -----

// expected-error @+1 {{layout of rank 2 applied to a tensor of rank 1}}
func.func @rank_mismatch(%x: tensor<4xf32, #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>>) { return }

// -----

// expected-error @+1 {{laid-out tensors need power-of-two dimensions, got 6}}
func.func @non_pow2(%x: tensor<6xf32, #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>) { return }

// -----

// expected-error @+1 {{slice parent must be a distributed layout, got #tessera_gpu.shared}}
func.func @slice_parent(%x: tensor<4xf32, #tessera_gpu.slice<dim = 0, parent = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>>>) { return }

// -----

// expected-error @+1 {{slice dimension 2 is out of range for a rank-2 parent}}
func.func @slice_dim(%x: tensor<4xf32, #tessera_gpu.slice<dim = 2, parent = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>>>) { return }

// -----

// expected-error @+1 {{dot operand index must be 0 (A) or 1 (B), got 2}}
func.func @dot_op_idx(%x: tensor<4x4xf16, #tessera_gpu.dot_op<opIdx = 2, parent = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>>>) { return }

// -----

// expected-error @+1 {{dot operand layouts have a blocked parent (an FMA dot); matrix-unit operands use linear layouts}}
func.func @dot_op_parent(%x: tensor<4x4xf16, #tessera_gpu.dot_op<opIdx = 0, parent = #tessera_gpu.linear<register = [[0, 1], [0, 2], [1, 0], [2, 0]], lane = [], warp = [], block = []>>>) { return }

// -----

// expected-error @+1 {{every basis needs 2 coordinates, got 1}}
func.func @linear_coords(%x: tensor<4x4xf32, #tessera_gpu.linear<register = [[0, 1], [1]], lane = [], warp = [], block = []>>) { return }

// -----

// expected-error @+1 {{a layout without bases needs an explicit `rank = N`}}
func.func @linear_no_rank(%x: tensor<1xf32, #tessera_gpu.linear<register = [], lane = [], warp = [], block = []>>) { return }

// -----

// expected-error @+1 {{linear layout needs at least one dimension}}
func.func @linear_rank0(%x: tensor<1xf32, #tessera_gpu.linear<rank = 0, register = [], lane = [], warp = [], block = []>>) { return }

// -----

// expected-error @+1 {{register basis coordinates must be non-negative}}
func.func @linear_negative(%x: tensor<2xf32, #tessera_gpu.linear<register = [[-1]], lane = [], warp = [], block = []>>) { return }

// -----

// expected-error @+1 {{does not fit a tensor of shape 4x4}}
func.func @linear_fit(%x: tensor<4x4xf32, #tessera_gpu.linear<register = [[0, 1], [0, 2], [1, 0]], lane = [], warp = [], block = []>>) { return }

// -----

// expected-error @+1 {{shared layout needs at least one dimension}}
func.func @shared_empty(%x: !tessera_gpu.memdesc<4xf32, #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = []>>) { return }

// -----

// expected-error @+1 {{shared layout order must be a permutation of 0..1}}
func.func @shared_order(%x: !tessera_gpu.memdesc<4x4xf32, #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 1]>>) { return }

// -----

// expected-error @+1 {{vec, perPhase and maxPhase must be powers of two}}
func.func @shared_pow2(%x: !tessera_gpu.memdesc<4x4xf32, #tessera_gpu.shared<vec = 3, perPhase = 1, maxPhase = 1, order = [1, 0]>>) { return }

// -----

// expected-error @+1 {{CTAsPerCGA needs one power of two per dimension}}
func.func @shared_ctas(%x: !tessera_gpu.memdesc<4x4xf32, #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CTAsPerCGA = [2]>>) { return }

// -----

// expected-error @+1 {{linear layout needs at least one dimension}}
func.func @shared_linear_rank(%x: !tessera_gpu.memdesc<1xf32, #tessera_gpu.shared_linear<rank = 0, offset = [], block = []>>) { return }

// -----

// expected-error @+1 {{offset basis coordinates must be non-negative}}
func.func @shared_linear_neg(%x: !tessera_gpu.memdesc<2xf32, #tessera_gpu.shared_linear<offset = [[-2]], block = []>>) { return }

// -----

// expected-error @+1 {{shared-memory buffer dimensions must be powers of two, got 3}}
func.func @memdesc_pow2(%x: !tessera_gpu.memdesc<3xf32, #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>>) { return }

// -----

// expected-error @+1 {{shared-memory buffers need a shared layout, got #tessera_gpu.blocked}}
func.func @memdesc_layout(%x: !tessera_gpu.memdesc<4xf32, #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>) { return }

// -----

// expected-error @+1 {{shared-memory buffers hold integers, floats or pointers, got 'index'}}
func.func @memdesc_elem(%x: !tessera_gpu.memdesc<4xindex, #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>>) { return }

// -----

// expected-error @+1 {{shared-memory buffers have at least one dimension}}
func.func @memdesc_rank(%x: !tessera_gpu.memdesc<f32, #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>>) { return }

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @convert_plain(%x: tensor<128xf32>) {
  // expected-error @+1 {{source needs a distributed layout, got 'tensor<128xf32>'}}
  %0 = tessera_gpu.convert_layout %x : tensor<128xf32> -> tensor<128xf32, #b>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @convert_plain_result(%x: tensor<128xf32, #b>) {
  // expected-error @+1 {{result needs a distributed layout, got 'tensor<128xf32>'}}
  %0 = tessera_gpu.convert_layout %x : tensor<128xf32, #b> -> tensor<128xf32>
  return
}

// -----

#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @alloc_immutable() {
  // expected-error @+1 {{an uninitialized buffer must be mutable}}
  %0 = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<4xf32, #s>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @alloc_shape(%x: tensor<8xf32, #b>) {
  // expected-error @+1 {{tensor shape 'tensor<8xf32, #tessera_gpu.blocked}}
  %0 = tessera_gpu.local_alloc %x : (tensor<8xf32, #b>) -> !tessera_gpu.memdesc<4xf32, #s>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @load_elem(%m: !tessera_gpu.memdesc<4xf32, #s, mutable>) {
  // expected-error @+1 {{tensor element type 'f16' does not match the buffer's 'f32'}}
  %0 = tessera_gpu.local_load %m : !tessera_gpu.memdesc<4xf32, #s, mutable> -> tensor<4xf16, #b>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @store_immutable(%x: tensor<4xf32, #b>) {
  %m = tessera_gpu.local_alloc %x : (tensor<4xf32, #b>) -> !tessera_gpu.memdesc<4xf32, #s>
  // expected-error @+1 {{cannot store into an immutable buffer}}
  tessera_gpu.local_store %x, %m : tensor<4xf32, #b> -> !tessera_gpu.memdesc<4xf32, #s>
  return
}

// -----

#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @index_rank(%m: !tessera_gpu.memdesc<4xf32, #s, mutable>, %i: i32) {
  // expected-error @+1 {{indexing needs a buffer of rank 2 or more}}
  %0 = tessera_gpu.memdesc_index %m[%i] : !tessera_gpu.memdesc<4xf32, #s, mutable> -> !tessera_gpu.memdesc<4xf32, #s, mutable>
  return
}

// -----

#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
#s2 = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @index_shape(%m: !tessera_gpu.memdesc<2x4xf32, #s2, mutable>, %i: i32) {
  // expected-error @+1 {{result shape must drop the leading dimension of}}
  %0 = tessera_gpu.memdesc_index %m[%i] : !tessera_gpu.memdesc<2x4xf32, #s2, mutable> -> !tessera_gpu.memdesc<2xf32, #s, mutable>
  return
}

// -----

#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
#s2 = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @index_mutability(%m: !tessera_gpu.memdesc<2x4xf32, #s2, mutable>, %i: i32) {
  // expected-error @+1 {{result must keep the element type and mutability}}
  %0 = tessera_gpu.memdesc_index %m[%i] : !tessera_gpu.memdesc<2x4xf32, #s2, mutable> -> !tessera_gpu.memdesc<4xf32, #s>
  return
}

// -----

#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @trans_count(%m: !tessera_gpu.memdesc<2x4xf32, #s>) {
  // expected-error @+1 {{order needs one entry per dimension}}
  %0 = tessera_gpu.memdesc_trans %m {order = array<i32: 0>} : !tessera_gpu.memdesc<2x4xf32, #s> -> !tessera_gpu.memdesc<2x4xf32, #s>
  return
}

// -----

#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @trans_perm(%m: !tessera_gpu.memdesc<2x4xf32, #s>) {
  // expected-error @+1 {{order must be a permutation}}
  %0 = tessera_gpu.memdesc_trans %m {order = array<i32: 0, 0>} : !tessera_gpu.memdesc<2x4xf32, #s> -> !tessera_gpu.memdesc<2x4xf32, #s>
  return
}

// -----

#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @trans_shape(%m: !tessera_gpu.memdesc<2x4xf32, #s>) {
  // expected-error @+1 {{result dimension 0 must be source dimension 1}}
  %0 = tessera_gpu.memdesc_trans %m {order = array<i32: 1, 0>} : !tessera_gpu.memdesc<2x4xf32, #s> -> !tessera_gpu.memdesc<2x4xf32, #s>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @copy_immutable(%p: tensor<4x!tessera.ptr<f32>, #b>, %x: tensor<4xf32, #b>) {
  %m = tessera_gpu.local_alloc %x : (tensor<4xf32, #b>) -> !tessera_gpu.memdesc<4xf32, #s>
  // expected-error @+1 {{cannot copy into an immutable buffer}}
  %t = tessera_gpu.async_copy_global_to_local %p, %m : tensor<4x!tessera.ptr<f32>, #b> -> !tessera_gpu.memdesc<4xf32, #s>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @copy_shape(%p: tensor<8x!tessera.ptr<f32>, #b>, %m: !tessera_gpu.memdesc<4xf32, #s, mutable>) {
  // expected-error @+1 {{differ in shape}}
  %t = tessera_gpu.async_copy_global_to_local %p, %m : tensor<8x!tessera.ptr<f32>, #b> -> !tessera_gpu.memdesc<4xf32, #s, mutable>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @copy_elem(%p: tensor<4x!tessera.ptr<f16>, #b>, %m: !tessera_gpu.memdesc<4xf32, #s, mutable>) {
  // expected-error @+1 {{pointers point to 'f16' but the buffer holds 'f32'}}
  %t = tessera_gpu.async_copy_global_to_local %p, %m : tensor<4x!tessera.ptr<f16>, #b> -> !tessera_gpu.memdesc<4xf32, #s, mutable>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @copy_mask(%p: tensor<4x!tessera.ptr<f32>, #b>, %m: !tessera_gpu.memdesc<4xf32, #s, mutable>, %k: tensor<8xi1, #b>) {
  // expected-error @+1 {{mask must have the pointers' shape}}
  %t = tessera_gpu.async_copy_global_to_local %p, %m mask %k : tensor<8xi1, #b> : tensor<4x!tessera.ptr<f32>, #b> -> !tessera_gpu.memdesc<4xf32, #s, mutable>
  return
}

// -----

#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @copy_other(%p: tensor<4x!tessera.ptr<f32>, #b>, %m: !tessera_gpu.memdesc<4xf32, #s, mutable>, %o: tensor<4xf32, #b>) {
  // expected-error @+1 {{'other' needs a mask}}
  %t = tessera_gpu.async_copy_global_to_local %p, %m other %o : tensor<4xf32, #b> : tensor<4x!tessera.ptr<f32>, #b> -> !tessera_gpu.memdesc<4xf32, #s, mutable>
  return
}

// -----

func.func @ws_keyword(%a: i32) {
  tessera_gpu.warp_specialize(%a)
  default {
    tessera_gpu.warp_yield
  }
  // expected-error @+1 {{expected 'partition0', got 'partition1'}}
  partition1(%x: i32) num_warps(1) {
    tessera_gpu.warp_return
  } : (i32) -> ()
  return
}

// -----

func.func @ws_counts(%a: i32) {
  // expected-error @+1 {{expected 1 partition warp counts, got 2}}
  "tessera_gpu.warp_specialize"(%a) ({
    tessera_gpu.warp_yield
  }, {
  ^bb0(%x: i32):
    tessera_gpu.warp_return
  }) {partitionNumWarps = array<i32: 1, 2>} : (i32) -> ()
  return
}

// -----

func.func @ws_pow2(%a: i32) {
  // expected-error @+1 {{partition warp counts must be powers of two, got 3}}
  tessera_gpu.warp_specialize(%a)
  default {
    tessera_gpu.warp_yield
  }
  partition0(%x: i32) num_warps(3) {
    tessera_gpu.warp_return
  } : (i32) -> ()
  return
}

// -----

func.func @ws_registers(%a: i32) {
  // expected-error @+1 {{expected 1 register budgets (one per partition), got 2}}
  tessera_gpu.warp_specialize(%a) attributes {requestedRegisters = array<i32: 24, 24>}
  default {
    tessera_gpu.warp_yield
  }
  partition0(%x: i32) num_warps(1) {
    tessera_gpu.warp_return
  } : (i32) -> ()
  return
}

// -----

func.func @ws_default_term(%a: i32) {
  // expected-error @+1 {{default region must end with warp_yield}}
  "tessera_gpu.warp_specialize"(%a) ({
    "tessera_gpu.warp_return"() : () -> ()
  }) {partitionNumWarps = array<i32>} : (i32) -> ()
  return
}

// -----

func.func @ws_yield_types(%a: i32) {
  // expected-error @+1 {{default region yields 0 values that do not match the 1 results}}
  %r = tessera_gpu.warp_specialize(%a)
  default {
    tessera_gpu.warp_yield
  } : (i32) -> i32
  return
}

// -----

func.func @ws_args(%a: i32) {
  // expected-error @+1 {{partition 0 must take the captured values as its arguments}}
  tessera_gpu.warp_specialize(%a)
  default {
    tessera_gpu.warp_yield
  }
  partition0(%x: i64) num_warps(1) {
    tessera_gpu.warp_return
  } : (i32) -> ()
  return
}

// -----

func.func @ws_part_term(%a: i32) {
  // expected-error @+1 {{partition 0 must end with warp_return}}
  tessera_gpu.warp_specialize(%a)
  default {
    tessera_gpu.warp_yield
  }
  partition0(%x: i32) num_warps(1) {
    tessera_gpu.warp_yield
  } : (i32) -> ()
  return
}

// -----

func.func @ws_isolated(%a: i32, %p: !tessera.ptr<i32>) {
  // expected-error @+1 {{partition 0 uses a value defined outside it; capture it instead}}
  tessera_gpu.warp_specialize(%a)
  default {
    tessera_gpu.warp_yield
  }
  partition0(%x: i32) num_warps(1) {
    tessera.store %p, %x : !tessera.ptr<i32>
    tessera_gpu.warp_return
  } : (i32) -> ()
  return
}

// -----

// expected-error @+1 {{blockCols must be a power of two holding vec * maxPhase elements}}
func.func @shared_block_cols(%x: !tessera_gpu.memdesc<8x64xf16, #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 32>>) { return }

// -----

// expected-error @+1 {{expected 'CTAsPerCGA' or 'blockCols'}}
func.func @shared_unknown(%x: !tessera_gpu.memdesc<8x64xf16, #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], swizzle = 3>>) { return }

// -----

#shared = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @tensor_load_rank(%map: !tessera_gpu.tensor_map, %i: i32, %buf: !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, %bar: !tessera_gpu.memdesc<1xi64, #word, mutable>) {
  // expected-error @+1 {{needs one index per dimension of '!tessera_gpu.memdesc<64x64xf16}}
  %t = tessera_gpu.async_tensor_load %map[%i], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
  return
}

// -----

#shared = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @tensor_load_immutable(%map: !tessera_gpu.tensor_map, %i: i32, %buf: !tessera_gpu.memdesc<64x64xf16, #shared>, %bar: !tessera_gpu.memdesc<1xi64, #word, mutable>) {
  // expected-error @+1 {{cannot copy into an immutable buffer}}
  %t = tessera_gpu.async_tensor_load %map[%i, %i], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #shared>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
  return
}

// -----

#shared = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @tensor_load_pred_token(%map: !tessera_gpu.tensor_map, %i: i32, %p: i1, %buf: !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, %bar: !tessera_gpu.memdesc<1xi64, #word, mutable>) {
  // expected-error @+1 {{takes a predicate only without a token}}
  %t = tessera_gpu.async_tensor_load %map[%i, %i], %buf, %bar if %p : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
  return
}

// -----

#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @wait_barrier_state(%bar: !tessera_gpu.memdesc<1xi64, #word, mutable>, %phase: i16) {
  // expected-error @+1 {{operand #1 must be 64-bit signless integer or 32-bit signless integer}}
  tessera_gpu.wait_barrier %bar, %phase : !tessera_gpu.memdesc<1xi64, #word, mutable>, i16
  return
}

// -----

#shared = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @tensor_load_barrier(%map: !tessera_gpu.tensor_map, %i: i32, %buf: !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, %bar: !tessera_gpu.memdesc<2xi64, #shared, mutable>) {
  // expected-error @+1 {{a one-element i64 shared buffer (a completion barrier)}}
  %t = tessera_gpu.async_tensor_load %map[%i, %i], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, !tessera_gpu.memdesc<2xi64, #shared, mutable> -> i64
  return
}

// -----

#shared = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @tensor_store_rank(%map: !tessera_gpu.tensor_map, %i: i32, %buf: !tessera_gpu.memdesc<64x64xf16, #shared, mutable>) {
  // expected-error @+1 {{needs one index per dimension}}
  tessera_gpu.async_tensor_store %map[%i, %i, %i], %buf : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  return
}

// -----

#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @tensor_map_box(%slot: !tessera.ptr<i8>, %desc: !tessera.tensordesc<tensor<64x32xf16>>, %stage: !tessera_gpu.memdesc<128xi8, #word, mutable>) {
  // expected-error @+1 {{needs one box size per dimension of 'tensor<64x32xf16>'}}
  %map = tessera_gpu.make_tensor_map %slot, %desc, %stage {box = array<i32: 64>, dataType = 1 : i32, nanFill = false, swizzle = 2 : i32} : !tessera.ptr<i8>, !tessera.tensordesc<tensor<64x32xf16>>, !tessera_gpu.memdesc<128xi8, #word, mutable>
  return
}

// -----

#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @tensor_map_staging(%slot: !tessera.ptr<i8>, %desc: !tessera.tensordesc<tensor<64x32xf16>>, %stage: !tessera_gpu.memdesc<64xi8, #word, mutable>) {
  // expected-error @+1 {{stages the map in a mutable 128-byte buffer}}
  %map = tessera_gpu.make_tensor_map %slot, %desc, %stage {box = array<i32: 64, 32>, dataType = 1 : i32, nanFill = false, swizzle = 2 : i32} : !tessera.ptr<i8>, !tessera.tensordesc<tensor<64x32xf16>>, !tessera_gpu.memdesc<64xi8, #word, mutable>
  return
}
