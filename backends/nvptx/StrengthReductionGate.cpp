//===- StrengthReductionGate.cpp - Skip SLSR where it only costs time -----===//
//
// Code generation's pass manager asks the context's gate before each
// function pass, with the pass's name ("slsr" for this one) and
// "function (NAME)".
//
//===----------------------------------------------------------------------===//
#include "StrengthReductionGate.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Instructions.h"

using namespace mlir::tessera::nvptx;

/// The pass's name as the gate is asked (`llc -opt-bisect-limit=-1` lists
/// them), and its legacy pass's.
static bool isStrengthReduction(llvm::StringRef pass) {
  return pass == "slsr" || pass == "Straight line strength reduction";
}

bool mlir::tessera::nvptx::skipsStrengthReduction(
    const llvm::Function &function) {
  llvm::DenseMap<const llvm::Value *, unsigned> uses;
  unsigned total = 0;
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &inst : block)
      if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst))
        if (++uses[gep->getPointerOperand()] > kStrengthReductionGepLimit ||
            ++total >= kStrengthReductionGepTotalLimit)
          return true;
  return false;
}

StrengthReductionGate::StrengthReductionGate(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() && skipsStrengthReduction(function))
      skipped.insert(("function (" + function.getName() + ")").str());
}

bool StrengthReductionGate::shouldRunPass(llvm::StringRef pass,
                                          llvm::StringRef description) const {
  return !isStrengthReduction(pass) || !skipped.contains(description);
}
