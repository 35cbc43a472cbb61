// RUN: tessera-opt %s --split-input-file --allow-unregistered-dialect --tessera-test-print-axis-info --verify-diagnostics -o /dev/null
// The axis-info analysis on straight-line code: constants, blocks, pointers,
// hints, program ids and unknown ops. 4611686018427387904 is 2^62, the
// divisibility of zero. Control flow is in axis-info-control-flow.mlir,
// integer arithmetic in axis-info-arith.mlir.

func.func @scalar_constants() -> (i32, i64, index, i1) {
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant = 24, non_negative = true}}
  %a = arith.constant 24 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = -64, non_negative = false}}
  %b = arith.constant -64 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant = 0, non_negative = true}}
  %c = arith.constant 0 : index
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non_negative = true}}
  %d = arith.constant true
  return %a, %b, %c, %d : i32, i64, index, i1
}

// -----

func.func @tensor_constants() {
  // A splat is constant along every dimension.
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [4, 8], constant = 48, non_negative = true}}
  %splat = arith.constant dense<48> : tensor<4x8xi32>
  // Two runs of four consecutive values, starting at 0 and 8.
  // expected-remark @below {{contiguity = [4], divisibility = [8], constancy = [1], constant = none, non_negative = true}}
  %runs = arith.constant dense<[0, 1, 2, 3, 8, 9, 10, 11]> : tensor<8xi32>
  // Rows are runs of 4 starting at 0 and 4; columns step by 4.
  // expected-remark @below {{contiguity = [1, 4], divisibility = [1, 4], constancy = [1, 1], constant = none, non_negative = true}}
  %grid = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [2], constant = none, non_negative = true}}
  %pairs = arith.constant dense<[5, 5, 7, 7]> : tensor<4xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [2], constancy = [1], constant = none, non_negative = false}}
  %neg = arith.constant dense<[-2, -1, 0, 1]> : tensor<4xi64>
  // Consecutive only without wrapping: INT32_MAX is not followed by INT32_MIN.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %wrap = arith.constant dense<[2147483647, -2147483648]> : tensor<2xi32>
  // Float constants carry no fact worth reporting.
  %f = arith.constant dense<1.0> : tensor<4xf32>
  return
}

// -----

func.func @make_range() {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %a = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %b = tessera.make_range {start = 64 : i32, end = 128 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], constant = none, non_negative = true}}
  %c = tessera.make_range {start = 48 : i32, end = 64 : i32} : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 5, non_negative = true}}
  %d = tessera.make_range {start = 5 : i32, end = 6 : i32} : tensor<1xi32>
  return
}

// -----

func.func @program_ids() -> (i32, i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %0 = tessera.program_id x : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %1 = tessera.num_programs y : i32
  return %0, %1 : i32, i32
}

// -----

// Arguments: the divisibility attribute, else nothing.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #2: contiguity = [1], divisibility = [8], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #3: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #4: contiguity = [1, 1], divisibility = [4, 4], constancy = [1, 1], constant = none, non_negative = false}}
func.func @arguments(%p: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %q: !tessera.ptr<f32>,
                     %n: i32 {tessera.divisibility = 8 : i64}, %m: i64,
                     %t: tensor<2x4xi32> {tessera.divisibility = 4 : i32}, %f: f32) {
  return
}

// -----

// expected-remark @below {{arg #0: contiguity = [1], divisibility = [8], constancy = [1], constant = none, non_negative = false}}
func.func @shapes(%s: i32 {tessera.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [32], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [32], constant = none, non_negative = false}}
  %sp = tessera.splat %s : tensor<32xi32>
  // The new dimension of size 1 only knows what holds for every element.
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 4611686018427387904], constancy = [1, 1], constant = none, non_negative = true}}
  %row = tessera.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [4611686018427387904, 1], constancy = [1, 1], constant = none, non_negative = true}}
  %col = tessera.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  // Repeating a dimension of size 1 makes it constant.
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 4611686018427387904], constancy = [16, 1], constant = none, non_negative = true}}
  %rows = tessera.broadcast %row : tensor<1x32xi32> -> tensor<16x32xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [4611686018427387904, 1], constancy = [1, 16], constant = none, non_negative = true}}
  %cols = tessera.broadcast %col : tensor<32x1xi32> -> tensor<32x16xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [4611686018427387904, 1], constancy = [1, 16], constant = none, non_negative = true}}
  %t = tessera.trans %rows {order = array<i32: 1, 0>} : tensor<16x32xi32> -> tensor<32x16xi32>
  // Flattening: the innermost sizes differ, so only per-element facts stay.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %flat = tessera.reshape %rows : tensor<16x32xi32> -> tensor<512xi32>
  // Splitting the outer dimension keeps the inner one and its constancy.
  // expected-remark @below {{contiguity = [1, 1, 32], divisibility = [1, 1, 4611686018427387904], constancy = [4, 4, 1], constant = none, non_negative = true}}
  %split = tessera.reshape %rows : tensor<16x32xi32> -> tensor<4x4x32xi32>
  // With reordering allowed only per-element facts stay.
  // expected-remark @below {{contiguity = [1, 1, 1], divisibility = [1, 1, 1], constancy = [1, 1, 1], constant = none, non_negative = true}}
  %reordered = tessera.reshape %rows {allow_reorder} : tensor<16x32xi32> -> tensor<4x4x32xi32>
  // Dropping a dimension of size 1 keeps everything.
  // expected-remark @below {{contiguity = [32], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %squeezed = tessera.reshape %row : tensor<1x32xi32> -> tensor<32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [4, 8], constant = none, non_negative = false}}
  %sp2 = tessera.splat %s : tensor<4x8xi32>
  // A uniform block stays uniform under any reshape.
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [32], constant = none, non_negative = false}}
  %sp2flat = tessera.reshape %sp2 {allow_reorder} : tensor<4x8xi32> -> tensor<32xi32>
  return
}

// -----

// Pointer divisibility is in bytes: an offset of 4 elements keeps a 16-byte
// aligned f32 pointer 16-byte aligned, but an f16 one only 8-byte aligned.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #2: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
func.func @addptr(%p32: !tessera.ptr<f32> {tessera.divisibility = 16 : i32},
                  %p16: !tessera.ptr<f16> {tessera.divisibility = 16 : i32},
                  %p8: !tessera.ptr<i8> {tessera.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64], constant = 4, non_negative = true}}
  %c4 = arith.constant dense<4> : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [4], constancy = [1], constant = none, non_negative = true}}
  %o = arith.addi %r, %c4 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant = none, non_negative = false}}
  %s32 = tessera.splat %p32 : tensor<64x!tessera.ptr<f32>>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant = none, non_negative = false}}
  %s16 = tessera.splat %p16 : tensor<64x!tessera.ptr<f16>>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant = none, non_negative = false}}
  %s8 = tessera.splat %p8 : tensor<64x!tessera.ptr<i8>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  %a32 = tessera.addptr %s32, %r : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  %b32 = tessera.addptr %s32, %o : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [8], constancy = [1], constant = none, non_negative = false}}
  %b16 = tessera.addptr %s16, %o : tensor<64x!tessera.ptr<f16>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %b8 = tessera.addptr %s8, %o : tensor<64x!tessera.ptr<i8>>, tensor<64xi32>
  // Scalar pointers: 3 floats are 12 bytes.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 3, non_negative = true}}
  %c3 = arith.constant 3 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %q = tessera.addptr %p32, %c3 : !tessera.ptr<f32>, i64
  // Reinterpretations: one step of an f32 pointer is 4 bytes, not 1.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %i = tessera.ptr_to_int %a32 : tensor<64x!tessera.ptr<f32>> -> tensor<64xi64>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  %asi32 = tessera.bitcast %a32 : tensor<64x!tessera.ptr<f32>> -> tensor<64x!tessera.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %asf16 = tessera.bitcast %a32 : tensor<64x!tessera.ptr<f32>> -> tensor<64x!tessera.ptr<f16>>
  // Bytes of i8 are one step of an i8 pointer.
  // expected-remark @below {{contiguity = [64], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r64 = arith.extsi %r : tensor<64xi32> to tensor<64xi64>
  // expected-remark @below {{contiguity = [64], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = false}}
  %bytes = tessera.int_to_ptr %r64 : tensor<64xi64> -> tensor<64x!tessera.ptr<i8>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %halves = tessera.int_to_ptr %r64 : tensor<64xi64> -> tensor<64x!tessera.ptr<f16>>
  // expected-remark @below {{contiguity = [1], divisibility = [4096], constancy = [1], constant = 4096, non_negative = true}}
  %k = arith.constant 4096 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [4096], constancy = [1], constant = 4096, non_negative = false}}
  %kp = tessera.int_to_ptr %k : i64 -> !tessera.ptr<f16>
  return
}

// -----

// The vector-add pattern: pid * 128 + arange(0, 128), masked by `< n`.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
func.func @vector_add(%p: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %n: i32 {tessera.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non_negative = true}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %pid = tessera.program_id x : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant = none, non_negative = true}}
  %base = arith.muli %pid, %c128 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128], constant = none, non_negative = true}}
  %b = tessera.splat %base : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1], constant = none, non_negative = true}}
  %offs = arith.addi %b, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = false}}
  %ns = tessera.splat %n : tensor<128xi32>
  // The mask flips at most at multiples of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant = none, non_negative = false}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = false}}
  %ps = tessera.splat %p : tensor<128x!tessera.ptr<f32>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  %ptrs = tessera.addptr %ps, %offs : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  // 16 bytes are 4 floats.
  // expected-remark @below {{access: contiguity = 128, alignment = 4, mask alignment = 16}}
  %v = tessera.load %ptrs, %mask : tensor<128x!tessera.ptr<f32>>
  // expected-remark @below {{access: contiguity = 128, alignment = 4, mask alignment = 16}}
  tessera.store %ptrs, %v, %mask : tensor<128x!tessera.ptr<f32>>
  return
}

// -----

// A 2-D tile of an f16 matrix with a row stride divisible by 16:
// a_ptr + offs_m[:, None] * stride + offs_k[None, :].
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
func.func @tile_2d(%a: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %stride: i32 {tessera.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %rm = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %rk = tessera.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [4611686018427387904, 1], constancy = [1, 1], constant = none, non_negative = true}}
  %em = tessera.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [64, 1], constant = none, non_negative = false}}
  %st = tessera.splat %stride : tensor<64x1xi32>
  // Every element of offs_m * stride is a multiple of 16.
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1], constant = none, non_negative = false}}
  %ms = arith.muli %em, %st : tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 32], constant = none, non_negative = false}}
  %mb = tessera.broadcast %ms : tensor<64x1xi32> -> tensor<64x32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 4611686018427387904], constancy = [1, 1], constant = none, non_negative = true}}
  %ek = tessera.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 4611686018427387904], constancy = [64, 1], constant = none, non_negative = true}}
  %kb = tessera.broadcast %ek : tensor<1x32xi32> -> tensor<64x32xi32>
  // Rows are runs of 32 starting at multiples of 16.
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 16], constancy = [1, 1], constant = none, non_negative = false}}
  %offs = arith.addi %mb, %kb : tensor<64x32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [64, 32], constant = none, non_negative = false}}
  %ps = tessera.splat %a : tensor<64x32x!tessera.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [2, 16], constancy = [1, 1], constant = none, non_negative = false}}
  %ptrs = tessera.addptr %ps, %offs : tensor<64x32x!tessera.ptr<f16>>, tensor<64x32xi32>
  // 16 bytes are 8 halves; along dimension 0 nothing is contiguous.
  // expected-remark @below {{access: contiguity = 32, alignment = 8, mask alignment = none}}
  %v = tessera.load %ptrs : tensor<64x32x!tessera.ptr<f16>>
  return
}

// -----

// Hints add the user's promises to what the analysis knows.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
func.func @hints(%m: i32) {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = none, non_negative = false}}
  %ms = tessera.splat %m : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %offs = arith.addi %ms, %r : tensor<128xi32>
  // tl.multiple_of(offs, 16): runs of 128 now start at multiples of 16.
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  %h = tessera.hint %offs {divisibility = array<i64: 16>} : tensor<128xi32>
  // tl.max_contiguous(..., 64) is weaker than what is known: kept as is.
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %h2 = tessera.hint %offs {contiguity = array<i64: 64>} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant = none, non_negative = false}}
  %hs = tessera.hint %m {divisibility = array<i64: 8>} : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %u = "test.opaque"() : () -> tensor<128xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  %hu = tessera.hint %u {contiguity = array<i64: 32>, divisibility = array<i64: 16>} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4], constant = none, non_negative = false}}
  %hk = tessera.hint %u {constancy = array<i64: 4>} : tensor<128xi32>
  return
}

// -----

// Unknown ops know nothing, whatever their operands; a layout conversion
// keeps everything.
#a = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
func.func @unknown_ops() {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #a>
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %c = tessera_gpu.convert_layout %r : tensor<128xi32, #a> -> tensor<128xi32, #b>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %u = "test.opaque"(%c) : (tensor<128xi32, #b>) -> tensor<128xi32, #b>
  // A registered op the analysis does not model.
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64, non_negative = true}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %d = arith.ceildivsi %c64, %c64 : i32
  // Same shape and element type but not a layout change: not an identity.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %e = "test.same_shape"(%r) : (tensor<128xi32, #a>) -> tensor<128xi32, #a>
  return
}

// -----

// Loads yield unknown values, constant where the pointers and the mask are.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
func.func @loads(%p: !tessera.ptr<i32> {tessera.divisibility = 4 : i32}, %n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64], constant = none, non_negative = false}}
  %ps = tessera.splat %p : tensor<64x!tessera.ptr<i32>>
  // expected-remark @below {{access: contiguity = 1, alignment = 1, mask alignment = none}}
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64], constant = none, non_negative = false}}
  %v = tessera.load %ps : tensor<64x!tessera.ptr<i32>>
  // expected-remark @below {{contiguity = [64], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant = 16, non_negative = true}}
  %c16 = arith.constant dense<16> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant = none, non_negative = false}}
  %mask = arith.cmpi slt, %r, %c16 : tensor<64xi32>
  // expected-remark @below {{access: contiguity = 1, alignment = 1, mask alignment = 16}}
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant = none, non_negative = false}}
  %w = tessera.load %ps, %mask : tensor<64x!tessera.ptr<i32>>
  // expected-remark @below {{contiguity = [64], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %pr = tessera.addptr %ps, %r : tensor<64x!tessera.ptr<i32>>, tensor<64xi32>
  // expected-remark @below {{access: contiguity = 64, alignment = 1, mask alignment = none}}
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %x = tessera.load %pr : tensor<64x!tessera.ptr<i32>>
  // A scalar load.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %y = tessera.load %p : !tessera.ptr<i32>
  return
}
