// RUN: tessera-opt %s --split-input-file --allow-unregistered-dialect --tessera-test-print-axis-info --verify-diagnostics -o /dev/null
// The axis-info analysis through loops, branches and calls. 4611686018427387904 is 2^62,
// the divisibility of zero.

// The A pointers of a matmul, advanced by BLOCK_K elements per iteration.
// Advancing 32 f16 (64 bytes) keeps them 16-byte aligned; advancing 4 f16
// (8 bytes) leaves them 8-byte aligned, which the loop-carried value must
// show from the first iteration on.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
func.func @matmul_loop(%a: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %k: i32 {tessera.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant = 0, non_negative = true}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant = 32, non_negative = true}}
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{contiguity = [32], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %rk = tessera.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [32], constant = none, non_negative = false}}
  %ps = tessera.splat %a : tensor<32x!tessera.ptr<f16>>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  %p0 = tessera.addptr %ps, %rk : tensor<32x!tessera.ptr<f16>>, tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [32], constant = 32, non_negative = true}}
  %step32 = arith.constant dense<32> : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [32], constant = 4, non_negative = true}}
  %step4 = arith.constant dense<4> : tensor<32xi32>

  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [32], constancy = [1], constant = none, non_negative = true}}
  // expected-remark @below {{region #0 arg #1: contiguity = [32], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  // expected-remark @below {{region #0 arg #2: contiguity = [1], divisibility = [32], constancy = [1], constant = none, non_negative = true}}
  // expected-remark @below {{result #0: contiguity = [32], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  // expected-remark @below {{result #1: contiguity = [1], divisibility = [32], constancy = [1], constant = none, non_negative = true}}
  %res:2 = scf.for %iv = %c0 to %k step %c32 iter_args(%p = %p0, %acc = %c0) -> (tensor<32x!tessera.ptr<f16>>, i32) : i32 {
    // expected-remark @below {{access: contiguity = 32, alignment = 8, mask alignment = none}}
    %x = tessera.load %p : tensor<32x!tessera.ptr<f16>>
    // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
    %next = tessera.addptr %p, %step32 : tensor<32x!tessera.ptr<f16>>, tensor<32xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant = none, non_negative = true}}
    %acc2 = arith.addi %acc, %iv : i32
    scf.yield %next, %acc2 : tensor<32x!tessera.ptr<f16>>, i32
  }

  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [32], constancy = [1], constant = none, non_negative = true}}
  // expected-remark @below {{region #0 arg #1: contiguity = [32], divisibility = [8], constancy = [1], constant = none, non_negative = false}}
  // expected-remark @below {{contiguity = [32], divisibility = [8], constancy = [1], constant = none, non_negative = false}}
  %q = scf.for %iv = %c0 to %k step %c32 iter_args(%p = %p0) -> (tensor<32x!tessera.ptr<f16>>) : i32 {
    // 8 bytes are 4 halves.
    // expected-remark @below {{access: contiguity = 32, alignment = 4, mask alignment = none}}
    %x = tessera.load %p : tensor<32x!tessera.ptr<f16>>
    // expected-remark @below {{contiguity = [32], divisibility = [8], constancy = [1], constant = none, non_negative = false}}
    %next = tessera.addptr %p, %step4 : tensor<32x!tessera.ptr<f16>>, tensor<32xi32>
    scf.yield %next : tensor<32x!tessera.ptr<f16>>
  }
  return
}

// -----

// Induction variables: multiples of what divides the lower bound and step.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
func.func @induction_variables(%n: i32 {tessera.divisibility = 16 : i32}, %lb: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %pid = tessera.program_id x : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64, non_negative = true}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %start = arith.muli %pid, %c64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant = 8, non_negative = true}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [8], constancy = [1], constant = none, non_negative = true}}
  scf.for %i = %start to %n step %c8 : i32 {
    "test.use"(%i) : (i32) -> ()
  }
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
  scf.for %i = %n to %start step %n : i32 {
    "test.use"(%i) : (i32) -> ()
  }
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  scf.for %i = %lb to %n step %c8 : i32 {
    "test.use"(%i) : (i32) -> ()
  }
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant = 0, non_negative = true}}
  %c0 = arith.constant 0 : index
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = 4, non_negative = true}}
  %c4 = arith.constant 4 : index
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non_negative = true}}
  %c128 = arith.constant 128 : index
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [4], constancy = [1], constant = none, non_negative = true}}
  scf.for %i = %c0 to %c128 step %c4 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// scf.if joins what both branches yield.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
func.func @if_join(%c: i1) {
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64, non_negative = true}}
  %a = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant = 48, non_negative = true}}
  %b = arith.constant 48 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128], constant = 64, non_negative = true}}
  %c64s = arith.constant dense<64> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %r64 = arith.addi %r, %c64s : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = 48, non_negative = true}}
  %s = tessera.splat %b : tensor<128xi32>
  // Result #2 has a run on one side, a splat on the other: neither survives.
  // expected-remark @below {{result #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = true}}
  // expected-remark @below {{result #1: contiguity = [128], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  // expected-remark @below {{result #2: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %x:3 = scf.if %c -> (i32, tensor<128xi32>, tensor<128xi32>) {
    scf.yield %a, %r, %r : i32, tensor<128xi32>, tensor<128xi32>
  } else {
    scf.yield %b, %r64, %s : i32, tensor<128xi32>, tensor<128xi32>
  }
  "test.use"(%x#0, %x#1, %x#2) : (i32, tensor<128xi32>, tensor<128xi32>) -> ()
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non_negative = true}}
  %true = arith.constant true
  // The else branch is dead.
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64, non_negative = true}}
  %y = scf.if %true -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  "test.use"(%y) : (i32) -> ()
  return
}

// -----

// Branches between blocks join at the block arguments.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
func.func @branches(%c: i1) {
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant = 32, non_negative = true}}
  %a = arith.constant 32 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant = 96, non_negative = true}}
  %b = arith.constant 96 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant = 0, non_negative = true}}
  %c0 = arith.constant 0 : i32
  cf.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%v: i32):
  // x + 0 shows the block argument's fact.
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant = none, non_negative = true}}
  %w = arith.addi %v, %c0 : i32
  "test.use"(%w) : (i32) -> ()
  return
}

// -----

// A private helper's arguments join what its call sites pass.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = true}}
func.func private @helper(%x: i32) -> i32 {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = true}}
  %y = arith.addi %x, %x : i32
  return %y : i32
}

func.func @caller() -> (i32, i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64, non_negative = true}}
  %a = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant = 48, non_negative = true}}
  %b = arith.constant 48 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = true}}
  %0 = func.call @helper(%a) : (i32) -> i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = true}}
  %1 = func.call @helper(%b) : (i32) -> i32
  return %0, %1 : i32, i32
}

// -----

// Regions of ops the analysis does not model start from nothing.
func.func @reduce() -> i32 {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{region #0 arg #0: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  // expected-remark @below {{region #0 arg #1: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %sum = tessera.reduce(%r) {axis = 0 : i32} : (tensor<128xi32>) -> i32 {
  ^bb0(%lhs: i32, %rhs: i32):
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
    %s = arith.addi %lhs, %rhs : i32
    tessera.reduce.return %s : i32
  }
  return %sum : i32
}
