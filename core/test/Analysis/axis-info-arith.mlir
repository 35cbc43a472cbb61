// RUN: tessera-opt %s --split-input-file --tessera-test-print-axis-info --verify-diagnostics -o /dev/null
// The axis-info analysis on integer arithmetic. 4611686018427387904 is 2^62, the
// divisibility of zero.

// Remainders keep runs that do not straddle a multiple of the divisor. A
// signed dividend is taken to be non-negative, as Triton does, also where
// it cannot be proved (%rem3).
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
func.func @remainders(%n: i32 {tessera.divisibility = 16 : i32}, %m: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %pid = tessera.program_id x : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non_negative = true}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant = none, non_negative = true}}
  %base = arith.muli %pid, %c128 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128], constant = none, non_negative = true}}
  %bs = tessera.splat %base : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1], constant = none, non_negative = true}}
  %offs = arith.addi %bs, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = false}}
  %ns = tessera.splat %n : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = none, non_negative = false}}
  %ms = tessera.splat %m : tensor<128xi32>
  // (pid * 128 + arange(0, 128)) % n with n a multiple of 16.
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], constant = none, non_negative = true}}
  %rem = arith.remsi %offs, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %rem2 = arith.remsi %offs, %ms : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4, non_negative = true}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // The same runs shifted down by 4: maybe negative.
  // expected-remark @below {{contiguity = [128], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %neg = arith.subi %offs, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %rem3 = arith.remsi %neg, %ns : tensor<128xi32>
  // Unsigned: aligned chunks of 4 never wrap around.
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %rem4 = arith.remui %neg, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 63, non_negative = true}}
  %c63 = arith.constant dense<63> : tensor<128xi32>
  // x & 63 is x mod 64, for any sign.
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %and = arith.andi %offs, %c63 : tensor<128xi32>
  // (x - 4) & 63 = 60, 61, 62, 63, 0, 1, ...: aligned runs of 4 only.
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1], constant = none, non_negative = true}}
  %and2 = arith.andi %neg, %c63 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128], constant = 64, non_negative = true}}
  %c64 = arith.constant dense<64> : tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %rem5 = arith.remsi %r, %c64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 1, non_negative = true}}
  %c1 = arith.constant dense<1> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant = 0, non_negative = true}}
  %rem6 = arith.remsi %offs, %c1 : tensor<128xi32>
  return
}

// -----

// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
func.func @division_and_shifts(%n: i32 {tessera.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = false}}
  %ns = tessera.splat %n : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4, non_negative = true}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // arange(0, 128) // 4 = 0, 0, 0, 0, 1, 1, 1, 1, ...
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4], constant = none, non_negative = true}}
  %q = arith.divsi %r, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %neg = arith.subi %r, %c4 : tensor<128xi32>
  // Signed division truncates towards zero: -4..-1 give -1, 0, 0, 0.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %q2 = arith.divsi %neg, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4], constant = none, non_negative = false}}
  %q3 = arith.divui %neg, %c4 : tensor<128xi32>
  // Exact division of multiples of 16 by 4.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = none, non_negative = false}}
  %q4 = arith.divsi %ns, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 3, non_negative = true}}
  %c3 = arith.constant dense<3> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8], constant = none, non_negative = true}}
  %s = arith.shrui %r, %c3 : tensor<128xi32>
  // (x - 4) >> 3 = -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 1, ...
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4], constant = none, non_negative = false}}
  %s1 = arith.shrsi %neg, %c3 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [128], constant = 2, non_negative = true}}
  %c2 = arith.constant dense<2> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = none, non_negative = false}}
  %s2 = arith.shrsi %ns, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = none, non_negative = true}}
  %s3 = arith.shli %r, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128], constant = none, non_negative = false}}
  %s4 = arith.shli %ns, %c2 : tensor<128xi32>
  // Scaling a run breaks it; every element is even.
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1], constant = none, non_negative = true}}
  %p = arith.muli %r, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 1, non_negative = true}}
  %c1 = arith.constant dense<1> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %p1 = arith.muli %r, %c1 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant = 0, non_negative = true}}
  %c0 = arith.constant dense<0> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant = 0, non_negative = true}}
  %p0 = arith.muli %ns, %c0 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %a0 = arith.addi %r, %c0 : tensor<128xi32>
  // Two runs advancing together differ by a constant.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = none, non_negative = false}}
  %d = arith.subi %r, %neg : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %sum = arith.addi %r, %r : tensor<128xi32>
  return
}

// -----

// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
func.func @bitwise_and_min_max(%n: i32 {tessera.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = false}}
  %ns = tessera.splat %n : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4, non_negative = true}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = none, non_negative = false}}
  %or = arith.ori %ns, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = false}}
  %xor = arith.xori %ns, %ns : tensor<128xi32>
  // 4 is not a low-bit mask; the result has the zero bits of both.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = true}}
  %and = arith.andi %ns, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128], constant = 64, non_negative = true}}
  %c64 = arith.constant dense<64> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %r64 = arith.addi %r, %c64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %max = arith.maxsi %r, %r64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %min = arith.minsi %r, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %minu = arith.minui %r, %r64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = none, non_negative = true}}
  %maxs = arith.maxsi %ns, %c4 : tensor<128xi32>
  return
}

// -----

func.func @casts() {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4, non_negative = true}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4], constancy = [1], constant = none, non_negative = false}}
  %neg = arith.subi %r, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %e = arith.extsi %r : tensor<128xi32> to tensor<128xi64>
  // Zero extension would break a run going from -1 to 0; chunks of 4
  // starting at multiples of 4 cannot contain that step.
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1], constant = none, non_negative = true}}
  %z = arith.extui %neg : tensor<128xi32> to tensor<128xi64>
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %zr = arith.extui %r : tensor<128xi32> to tensor<128xi64>
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = false}}
  %t = arith.trunci %e : tensor<128xi64> to tensor<128xi16>
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %ix = arith.index_cast %r : tensor<128xi32> to tensor<128xindex>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non_negative = true}}
  %true = arith.constant true
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = -1, non_negative = false}}
  %m1 = arith.extsi %true : i1 to i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non_negative = true}}
  %p1 = arith.extui %true : i1 to i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = 300, non_negative = true}}
  %c300 = arith.constant 300 : i32
  // 300 mod 256 = 44.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = 44, non_negative = true}}
  %t8 = arith.trunci %c300 : i32 to i8
  return
}

// -----

// Masks: a comparison of a run with a value constant over it flips only at
// that value, so it is constant over chunks the value's divisibility aligns.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1], constant = none, non_negative = false}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
func.func @compare_and_select(%n: i32 {tessera.divisibility = 16 : i32}, %c: i1) {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant = none, non_negative = true}}
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = false}}
  %ns = tessera.splat %n : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 127, non_negative = true}}
  %c127 = arith.constant dense<127> : tensor<128xi32>
  // x <= 127 flips between 127 and 128: at a multiple of 128.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = none, non_negative = false}}
  %le = arith.cmpi sle, %r, %c127 : tensor<128xi32>
  // x <= n flips after n, which is 15 past a multiple of 16: nothing known.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %le2 = arith.cmpi sle, %r, %ns : tensor<128xi32>
  // n > x is x < n.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant = none, non_negative = false}}
  %gt = arith.cmpi sgt, %ns, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = false}}
  %eq = arith.cmpi eq, %r, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128], constant = 64, non_negative = true}}
  %c64 = arith.constant dense<64> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %r64 = arith.addi %r, %c64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = none, non_negative = false}}
  %same = arith.cmpi eq, %r, %r64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64], constant = none, non_negative = false}}
  %ult = arith.cmpi ult, %r, %r64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant = 0, non_negative = true}}
  %never = arith.cmpi slt, %c127, %c127 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant = none, non_negative = false}}
  %mask = arith.cmpi slt, %r, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant = 0, non_negative = true}}
  %zero = arith.constant dense<0> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4, non_negative = true}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // A scalar condition picks a whole block.
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1], constant = none, non_negative = true}}
  %sel = arith.select %c, %r, %r64 : tensor<128xi32>
  // A block condition mixes elements within its own runs only.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = none, non_negative = true}}
  %sel2 = arith.select %mask, %r, %zero : tensor<128xi1>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [16], constant = none, non_negative = false}}
  %sel3 = arith.select %mask, %ns, %c4 : tensor<128xi1>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non_negative = true}}
  %true = arith.constant true
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = none, non_negative = false}}
  %sel4 = arith.select %true, %ns, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4, non_negative = true}}
  %sel5 = arith.select %c, %c4, %c4 : tensor<128xi32>
  // Masks combine by constancy.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant = none, non_negative = false}}
  %both = arith.andi %mask, %le : tensor<128xi1>
  return
}
