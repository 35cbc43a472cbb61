// RUN: tessera-opt %s --split-input-file --verify-diagnostics
// One case per verifier message of the tessera dialect.

func.func @range_rank() {
  // expected-error @+1 {{result must be a rank-1 tensor}}
  %0 = tessera.make_range {start = 0 : i32, end = 4 : i32} : tensor<2x2xi32>
  return
}

// -----

func.func @range_order() {
  // expected-error @+1 {{range end (0) must be greater than its start (4)}}
  %0 = tessera.make_range {start = 4 : i32, end = 0 : i32} : tensor<4xi32>
  return
}

// -----

func.func @range_size() {
  // expected-error @+1 {{result has 8 elements but the range [0, 4) has 4}}
  %0 = tessera.make_range {start = 0 : i32, end = 4 : i32} : tensor<8xi32>
  return
}

// -----

func.func @range_pow2() {
  // expected-error @+1 {{range length 6 must be a power of two}}
  %0 = tessera.make_range {start = 0 : i32, end = 6 : i32} : tensor<6xi32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{source and result must have the same rank; got 1 and 2 (use expand_dims to add dimensions first)}}
  %0 = tessera.broadcast %x : tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_dim(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{cannot broadcast dimension 0 of size 2 to 4: only dimensions of size 1 broadcast}}
  %0 = tessera.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @expand_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 3 is out of range [0, 1]}}
  %0 = tessera.expand_dims %x {axis = 3 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  return
}

// -----

func.func @expand_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{result shape 8x1 should be 1x8 (a 1 inserted at axis 0)}}
  %0 = tessera.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{cannot reshape 8 (8 elements) to 4x4 (16 elements)}}
  %0 = tessera.reshape %x : tensor<8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @trans_order(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order must be a permutation of 0..1 for a rank-2 tensor}}
  %0 = tessera.trans %x {order = array<i32: 1, 1>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @trans_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result dimension 0 has size 4 but source dimension 1 has size 8}}
  %0 = tessera.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @join_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{result shape 2x4 should be 4x2 (the operands' shape with a new minor dimension of 2)}}
  %0 = tessera.join %x, %x : tensor<4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @split_minor(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{the source's minor dimension must have size 2, got shape 4x4}}
  %0:2 = tessera.split %x : tensor<4x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @split_shape(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{results should have shape 4, got 8}}
  %0:2 = tessera.split %x : tensor<4x2xf32> -> tensor<8xf32>
  return
}

// -----

func.func @cat_rank(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{operands and result must have the same rank}}
  %0 = tessera.cat %x, %x : tensor<4x4xf32> -> tensor<32xf32>
  return
}

// -----

func.func @cat_shape(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{result shape 4x8 should be 8x4}}
  %0 = tessera.cat %x, %x : tensor<4x4xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @bitcast_ptr(%x: i64) {
  // expected-error @+1 {{cannot bitcast between a pointer and a non-pointer; use int_to_ptr or ptr_to_int}}
  %0 = tessera.bitcast %x : i64 -> !tessera.ptr<f32>
  return
}

// -----

func.func @bitcast_width(%x: i32) {
  // expected-error @+1 {{bitcast needs types of the same width, got 'i32' (32 bits) and 'f16' (16 bits)}}
  %0 = tessera.bitcast %x : i32 -> f16
  return
}

// -----

func.func @load_other(%p: tensor<4x!tessera.ptr<f32>>, %o: tensor<4xf32>) {
  // expected-error @+1 {{'other' needs a mask: it is what masked-off lanes read}}
  %0 = "tessera.load"(%p, %o) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<4x!tessera.ptr<f32>>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @load_padding(%p: tensor<4x!tessera.ptr<f32>>) {
  // expected-error @+1 {{padding applies only to block pointers}}
  %0 = tessera.load %p {padding = #tessera<padding zero>} : tensor<4x!tessera.ptr<f32>>
  return
}

// -----

func.func @load_boundary(%p: tensor<4x!tessera.ptr<f32>>) {
  // expected-error @+1 {{boundaryCheck applies only to block pointers; use a mask with tensors of pointers}}
  %0 = tessera.load %p {boundaryCheck = array<i32: 0>} : tensor<4x!tessera.ptr<f32>>
  return
}

// -----

func.func @load_block_mask(%p: !tessera.ptr<tensor<4xf32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{block pointer accesses take no mask; use boundaryCheck}}
  %0 = tessera.load %p, %m : !tessera.ptr<tensor<4xf32>>
  return
}

// -----

func.func @store_block_dim(%p: !tessera.ptr<tensor<4xf32>>, %v: tensor<4xf32>) {
  // expected-error @+1 {{boundaryCheck dimension 1 is out of range for a rank-1 block}}
  tessera.store %p, %v {boundaryCheck = array<i32: 1>} : !tessera.ptr<tensor<4xf32>>
  return
}

// -----

func.func @load_type(%p: tensor<4x!tessera.ptr<f32>>) {
  // expected-error @+1 {{value type matches what the pointer points to}}
  %0 = "tessera.load"(%p) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tessera.ptr<f32>>) -> tensor<4xf16>
  return
}

// -----

func.func @rmw_fadd(%p: !tessera.ptr<i32>, %v: i32) {
  // expected-error @+1 {{fadd needs floating-point values, got 'i32'}}
  %0 = tessera.atomic_rmw fadd %p, %v : !tessera.ptr<i32>
  return
}

// -----

func.func @rmw_int(%p: !tessera.ptr<f32>, %v: f32) {
  // expected-error @+1 {{add needs integer values, got 'f32' (use fadd for floats)}}
  %0 = tessera.atomic_rmw add %p, %v : !tessera.ptr<f32>
  return
}

// -----

func.func @rmw_width(%p: !tessera.ptr<i8>, %v: i8) {
  // expected-error @+1 {{atomics act on 16-, 32- or 64-bit values, got 'i8'}}
  %0 = tessera.atomic_rmw max %p, %v : !tessera.ptr<i8>
  return
}

// -----

func.func @cas_width(%p: !tessera.ptr<i8>, %v: i8) {
  // expected-error @+1 {{compare-and-swap acts on 16-, 32- or 64-bit values, got 'i8'}}
  %0 = tessera.atomic_cas %p, %v, %v : !tessera.ptr<i8>
  return
}

// -----

func.func @desc_rank(%p: !tessera.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{expected 2 sizes and strides for a rank-2 block, got 1}}
  %d = tessera.make_tensor_descriptor %p, [%m], [%s] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<64x32xf16>>
  return
}

// -----

func.func @desc_elem(%p: !tessera.ptr<f32>, %m: i32, %s: i64) {
  // expected-error @+1 {{base points to 'f32' but the block holds 'f16'}}
  %d = tessera.make_tensor_descriptor %p, [%m, %m], [%s, %s] : !tessera.ptr<f32> -> !tessera.tensordesc<tensor<64x32xf16>>
  return
}

// -----

func.func @desc_indices(%d: !tessera.tensordesc<tensor<64x32xf16>>, %i: i32) {
  // expected-error @+1 {{expected 2 indices for a rank-2 descriptor, got 1}}
  %0 = tessera.descriptor_load %d[%i] : !tessera.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  return
}

// -----

func.func @desc_load_elem(%d: !tessera.tensordesc<tensor<64x32xf16>>, %i: i32) {
  // expected-error @+1 {{element type 'f32' does not match the descriptor's 'f16'}}
  %0 = tessera.descriptor_load %d[%i, %i] : !tessera.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf32>
  return
}

// -----

func.func @desc_store_shape(%d: !tessera.tensordesc<tensor<64x32xf16>>, %i: i32, %v: tensor<32x32xf16>) {
  // expected-error @+1 {{block shape 32x32 does not match the descriptor's 64x32}}
  tessera.descriptor_store %d[%i, %i], %v : !tessera.tensordesc<tensor<64x32xf16>>, tensor<32x32xf16>
  return
}

// -----

func.func @block_ptr_rank(%p: !tessera.ptr<f16>, %s: i64, %i: i32) {
  // expected-error @+1 {{expected 2 sizes, strides and offsets for a rank-2 block, got 1}}
  %b = tessera.make_block_ptr %p, [%s], [%s], [%i] {order = array<i32: 0>} : !tessera.ptr<f16> -> !tessera.ptr<tensor<64x32xf16>>
  return
}

// -----

func.func @block_ptr_order(%p: !tessera.ptr<f16>, %s: i64, %i: i32) {
  // expected-error @+1 {{order must be a permutation of 0..1}}
  %b = tessera.make_block_ptr %p, [%s, %s], [%s, %s], [%i, %i] {order = array<i32: 0, 0>} : !tessera.ptr<f16> -> !tessera.ptr<tensor<64x32xf16>>
  return
}

// -----

func.func @block_ptr_elem(%p: !tessera.ptr<f32>, %s: i64, %i: i32) {
  // expected-error @+1 {{base points to 'f32' but the block holds 'f16'}}
  %b = tessera.make_block_ptr %p, [%s, %s], [%s, %s], [%i, %i] {order = array<i32: 1, 0>} : !tessera.ptr<f32> -> !tessera.ptr<tensor<64x32xf16>>
  return
}

// -----

func.func @advance_rank(%b: !tessera.ptr<tensor<64x32xf16>>, %i: i32) {
  // expected-error @+1 {{expected 2 offsets, got 1}}
  %0 = tessera.advance %b, [%i] : !tessera.ptr<tensor<64x32xf16>>
  return
}

// -----

func.func @dot_rank(%a: tensor<4xf16>, %c: tensor<4xf32>) {
  // expected-error @+1 {{operands must be 2-D (or 3-D with a batch dimension), got rank 1}}
  %0 = tessera.dot %a, %a, %c : tensor<4xf16> * tensor<4xf16> -> tensor<4xf32>
  return
}

// -----

func.func @dot_ranks(%a: tensor<4x4xf16>, %b: tensor<2x4x4xf16>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{a, b and c must have the same rank}}
  %0 = tessera.dot %a, %b, %c : tensor<4x4xf16> * tensor<2x4x4xf16> -> tensor<4x4xf32>
  return
}

// -----

func.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{inner dimensions differ: a is 16x32 and b is 16x8}}
  %0 = tessera.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x8xf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @dot_acc(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<8x8xf32>) {
  // expected-error @+1 {{accumulator shape 8x8 should be 16x8}}
  %0 = tessera.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<8x8xf32>
  return
}

// -----

func.func @dot_batch(%a: tensor<2x16x32xf16>, %b: tensor<3x32x8xf16>, %c: tensor<2x16x8xf32>) {
  // expected-error @+1 {{batch dimensions differ}}
  %0 = tessera.dot %a, %b, %c : tensor<2x16x32xf16> * tensor<3x32x8xf16> -> tensor<2x16x8xf32>
  return
}

// -----

func.func @dot_elem(%a: tensor<16x32xf16>, %b: tensor<32x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{a and b must have the same element type, got 'f16' and 'bf16'}}
  %0 = tessera.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xbf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @dot_int_acc(%a: tensor<16x32xi8>, %b: tensor<32x8xi8>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{an integer dot accumulates in integers and a float dot in floats; got inputs 'i8' and accumulator 'f32'}}
  %0 = tessera.dot %a, %b, %c : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xf32>
  return
}


// -----

func.func @dot_ptr(%a: tensor<16x32x!tessera.ptr<f16>>, %b: tensor<32x8x!tessera.ptr<f16>>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{cannot multiply pointers}}
  %0 = tessera.dot %a, %b, %c : tensor<16x32x!tessera.ptr<f16>> * tensor<32x8x!tessera.ptr<f16>> -> tensor<16x8xf32>
  return
}

// -----

func.func @reduce_empty() {
  // expected-error @+1 {{needs at least one operand}}
  %0 = "tessera.reduce"() ({
  ^bb0:
    "tessera.reduce.return"() : () -> ()
  }) {axis = 0 : i32} : () -> f32
  return
}

// -----

func.func @reduce_shapes(%x: tensor<4xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{all operands must have the same shape}}
  %0:2 = tessera.reduce(%x, %y) {axis = 0 : i32} : (tensor<4xf32>, tensor<8xf32>) -> (f32, f32) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tessera.reduce.return %a, %b : f32, f32
  }
  return
}

// -----

func.func @reduce_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{axis 1 is out of range for a rank-1 tensor}}
  %0 = tessera.reduce(%x) {axis = 1 : i32} : (tensor<4xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tessera.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected one result per operand}}
  %0:2 = tessera.reduce(%x) {axis = 0 : i32} : (tensor<4xf32>) -> (f32, f32) {
  ^bb0(%a: f32, %b: f32):
    tessera.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_elem(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type 'i32' does not hold the operand's 'f32'}}
  %0 = tessera.reduce(%x) {axis = 0 : i32} : (tensor<4xf32>) -> i32 {
  ^bb0(%a: f32, %b: f32):
    tessera.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result should have shape 4, got 'tensor<8xf32>'}}
  %0 = tessera.reduce(%x) {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    tessera.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_args(%x: tensor<4xf32>) {
  // expected-error @+1 {{combine region must take 2 arguments (accumulated then new values), got 1}}
  %0 = tessera.reduce(%x) {axis = 0 : i32} : (tensor<4xf32>) -> f32 {
  ^bb0(%a: f32):
    tessera.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_arg_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{combine region argument 1 has type 'f16' but operand 0 holds 'f32'}}
  %0 = tessera.reduce(%x) {axis = 0 : i32} : (tensor<4xf32>) -> f32 {
  ^bb0(%a: f32, %b: f16):
    tessera.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_yield_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{combine region must yield 1 values, got 2}}
  %0 = tessera.reduce(%x) {axis = 0 : i32} : (tensor<4xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tessera.reduce.return %a, %b : f32, f32
  }
  return
}

// -----

func.func @reduce_yield_type(%x: tensor<4xf32>, %i: i32) {
  // expected-error @+1 {{combine region yields 'i32' for operand 0, which holds 'f32'}}
  %0 = tessera.reduce(%x) {axis = 0 : i32} : (tensor<4xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tessera.reduce.return %i : i32
  }
  return
}

// -----

func.func @scan_types(%x: tensor<4xf32>) {
  // expected-error @+1 {{results must have the operands' types}}
  %0 = tessera.scan(%x) {axis = 0 : i32} : (tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%a: f32, %b: f32):
    tessera.scan.return %a : f32
  }
  return
}

// -----

func.func @histogram_rank(%x: tensor<4x4xi32>) {
  // expected-error @+1 {{source and result must be rank-1 tensors}}
  %0 = tessera.histogram %x : tensor<4x4xi32> -> tensor<8xi32>
  return
}

// -----

func.func @histogram_mask(%x: tensor<4xi32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{mask must have the source's shape}}
  %0 = tessera.histogram %x, %m : tensor<8xi1> : tensor<4xi32> -> tensor<8xi32>
  return
}

// -----

func.func @asm_packed(%x: tensor<4xi32>) {
  // expected-error @+1 {{packed_element must be at least 1}}
  %0 = tessera.inline_asm_elementwise %x {asm_string = "", constraints = "=r,r", pure = true, packed_element = 0 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @fp_to_fp_round(%x: f32) {
  // expected-error @+1 {{converting 'f32' to 'f8E5M2' needs a rounding mode}}
  %0 = tessera.fp_to_fp %x : f32 -> f8E5M2
  return
}

// -----

func.func @fp_to_fp_widen(%x: f16) {
  // expected-error @+1 {{widening 'f16' to 'f32' is exact and takes no rounding mode}}
  %0 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtne>} : f16 -> f32
  return
}

// -----

func.func @hint_size(%x: tensor<4x4xi32>) {
  // expected-error @+1 {{divisibility needs 2 entries (one per dimension), got 1}}
  %0 = tessera.hint %x {divisibility = array<i64: 16>} : tensor<4x4xi32>
  return
}

// -----

func.func @hint_pow2(%x: i32) {
  // expected-error @+1 {{contiguity values must be powers of two, got 3}}
  %0 = tessera.hint %x {contiguity = array<i64: 3>} : i32
  return
}

// -----

func.func @print_signed(%x: i32) {
  // expected-error @+1 {{isSigned needs one entry per printed value: got 0 for 1 values}}
  tessera.print "x" {hex = false, isSigned = array<i32>} : %x : i32
  return
}

// -----

// expected-error @+1 {{cannot point to a tensor descriptor}}
func.func @ptr_to_desc(%p: !tessera.ptr<!tessera.tensordesc<tensor<4xf32>>>) {
  return
}

// -----

// expected-error @+1 {{a block pointer's tile cannot hold pointers}}
func.func @ptr_tile_of_ptrs(%p: !tessera.ptr<tensor<4x!tessera.ptr<f32>>>) {
  return
}

// -----

// expected-error @+1 {{pointer address space must be non-negative, got -1}}
func.func @ptr_as(%p: !tessera.ptr<f32, -1>) {
  return
}

// -----

// expected-error @+1 {{tensor descriptor blocks have 1 to 5 dimensions, got 6}}
func.func @desc_rank6(%d: !tessera.tensordesc<tensor<1x1x1x1x1x1xf32>>) {
  return
}

// -----

// expected-error @+1 {{tensor descriptor blocks cannot hold pointers}}
func.func @desc_ptrs(%d: !tessera.tensordesc<tensor<4x!tessera.ptr<f32>>>) {
  return
}

// -----

func.func @addptr_mixed(%p: !tessera.ptr<f32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = "tessera.addptr"(%p, %o) : (!tessera.ptr<f32>, tensor<4xi32>) -> !tessera.ptr<f32>
  return
}
