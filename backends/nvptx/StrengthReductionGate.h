//===- StrengthReductionGate.h - Skip SLSR where it only costs --*- C++ -*-===//
//
// LLVM 22's straight-line strength reduction (part of NVPTX code generation)
// compares the address computations that share a base pointer pairwise. A
// kernel that copies unaligned rows one element at a time computes hundreds
// of element addresses from one parameter, each from a remainder (`offs %
// M`) the pass cannot reduce: seconds of code generation for the same PTX.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_STRENGTHREDUCTIONGATE_H
#define TESSERA_BACKENDS_NVPTX_STRENGTHREDUCTIONGATE_H

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"

namespace mlir::tessera::nvptx {

/// Address computations from one base pointer beyond which a function skips
/// straight-line strength reduction. Of the tutorials' specializations for
/// sm_90a, 250 skips it on five (tutorial 03 with unaligned rows, 256 or
/// more element addresses per thread from one pointer: code generation 1.5
/// s -> 0.2-0.6 s each), four with byte-identical PTX and one with a few
/// multiplies in place of multiply-adds before its loop; 128 also caught
/// aligned kernels whose epilogue addresses the pass does reduce.
inline constexpr unsigned kStrengthReductionGepLimit = 250;

/// Address computations in all beyond which a function skips the pass,
/// whatever their bases. The pass's search for values it can reuse grows
/// faster than the candidates; kernels whose tiles are copied one element at
/// a time compute 600-1600 addresses spread over a few bases (128 each) and
/// spent 0.15-2.1 s in it (2026-11-29: 23 of the conformance suite's 366
/// sm_90a specializations, tutorials 03 and 08 at unaligned strides, 11.4
/// s of the 17.7 s the pass took on those the per-base limit lets
/// through); every other specialization computes at most 550.
inline constexpr unsigned kStrengthReductionGepTotalLimit = 600;

/// True when `function` computes more than kStrengthReductionGepLimit
/// addresses (getelementptr instructions) from one base pointer, or at least
/// kStrengthReductionGepTotalLimit in all.
bool skipsStrengthReduction(const llvm::Function &function);

/// The pass gate code generation runs under: straight-line strength
/// reduction skips the functions of `module` skipsStrengthReduction names;
/// every other pass runs.
class StrengthReductionGate : public llvm::OptPassGate {
public:
  explicit StrengthReductionGate(const llvm::Module &module);

  bool shouldRunPass(llvm::StringRef pass,
                     llvm::StringRef description) const override;
  bool isEnabled() const override { return true; }

  /// The functions it skips the pass on.
  const llvm::StringSet<> &getSkipped() const { return skipped; }

private:
  llvm::StringSet<> skipped;
};

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_STRENGTHREDUCTIONGATE_H
