//===- CrossLane.h - Exchanges between the lanes of a wavefront -*- C++ -*-===//
//
// A 64-lane wavefront has no single shuffle instruction. Within a quad DPP
// `quad_perm` reads any lane at ALU speed; within 32 lanes `ds_swizzle` in
// bitmask mode XORs the lane index; across the halves `ds_bpermute` reads
// any lane. Neither of the last two touches LDS memory. A reduction over
// the low lane bits uses DPP's row mirrors once the bits below are reduced
// (every partner then holds the same value) and `v_readlane` for the halves.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_CROSSLANE_H
#define TESSERA_BACKENDS_AMDGPU_CROSSLANE_H

#include "tessera/Conversion/LoweringHooks.h"

namespace mlir::tessera::amdgpu {

/// DPP controls (the `dpp_ctrl` operand of `llvm.amdgcn.update.dpp`).
namespace dpp {
/// quad_perm: lane i of each quad reads lane sel[i] of its quad.
constexpr unsigned quadPerm(unsigned s0, unsigned s1, unsigned s2,
                            unsigned s3) {
  return s0 | (s1 << 2) | (s2 << 4) | (s3 << 6);
}
/// Lane i of each row of 16 reads lane 15 - i.
constexpr unsigned kRowMirror = 0x140;
/// Lane i of each half row (8 lanes) reads lane 7 - i.
constexpr unsigned kRowHalfMirror = 0x141;
} // namespace dpp

/// The `ds_swizzle` offset (bitmask mode) that reads lane `lane ^ xorMask`
/// within each group of 32 lanes.
constexpr unsigned dsSwizzleXorOffset(unsigned xorMask) {
  return 0x1f | (xorMask << 10);
}

/// The i32 or f32 `value` of lane `lane ^ laneMask`; failure for other
/// types (the core then splits or widens them).
FailureOr<Value> shuffleXorWave64(OpBuilder &b, Location loc, Value value,
                                  unsigned laneMask);

/// `value` (i32 or f32) reduced with `kind` over the lanes whose index
/// differs only in the bits of `laneMask`, when `laneMask` is a run of low
/// bits (1, 3, 7, ... 63); failure otherwise.
FailureOr<Value> reduceWave64(OpBuilder &b, Location loc, Value value,
                              WarpReduceKind kind, unsigned laneMask);

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_CROSSLANE_H
