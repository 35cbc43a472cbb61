//===- StrengthReductionGateTest.cpp - When code generation skips SLSR ----===//
//
// Functions built with IRBuilder: addresses from one base pointer up to and
// past the limit, and the gate's answers for each pass and function.
//
//===----------------------------------------------------------------------===//
#include "StrengthReductionGate.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"

#include "gtest/gtest.h"

using namespace mlir::tessera::nvptx;

namespace {

/// Adds `name(ptr %base, i64 %step)` to `module`: `bases` pointers, each the
/// start of `addresses` getelementptrs (loads of base + i * step).
llvm::Function *addFunction(llvm::Module &module, llvm::StringRef name,
                            unsigned bases, unsigned addresses) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::get(ctx, 1);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *f32 = llvm::Type::getFloatTy(ctx);
  llvm::SmallVector<llvm::Type *> params(bases, ptr);
  params.push_back(i64);
  auto *function =
      llvm::Function::Create(llvm::FunctionType::get(f32, params, false),
                             llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", function));
  llvm::Value *step = function->getArg(bases);
  llvm::Value *sum = llvm::ConstantFP::get(f32, 0.0);
  for (unsigned base = 0; base < bases; ++base)
    for (unsigned i = 0; i < addresses; ++i) {
      llvm::Value *index = b.CreateMul(b.getInt64(i), step);
      llvm::Value *address = b.CreateGEP(f32, function->getArg(base), index);
      sum = b.CreateFAdd(sum, b.CreateLoad(f32, address));
    }
  b.CreateRet(sum);
  return function;
}

TEST(StrengthReductionGate, CountsAddressesPerBase) {
  llvm::LLVMContext ctx;
  llvm::Module module("gate", ctx);
  // At the limit from one base, or spread over two below the total: runs.
  EXPECT_FALSE(skipsStrengthReduction(
      *addFunction(module, "at_limit", 1, kStrengthReductionGepLimit)));
  static_assert(2 * kStrengthReductionGepLimit <
                kStrengthReductionGepTotalLimit);
  EXPECT_FALSE(skipsStrengthReduction(
      *addFunction(module, "spread", 2, kStrengthReductionGepLimit)));
  EXPECT_TRUE(skipsStrengthReduction(
      *addFunction(module, "past_limit", 1, kStrengthReductionGepLimit + 1)));
}

TEST(StrengthReductionGate, CountsAddressesInAll) {
  llvm::LLVMContext ctx;
  llvm::Module module("gate", ctx);
  // Below the per-base limit on each of five bases: runs until the total
  // reaches its own limit.
  unsigned perBase = kStrengthReductionGepTotalLimit / 5;
  static_assert(kStrengthReductionGepTotalLimit % 5 == 0);
  ASSERT_LE(perBase, kStrengthReductionGepLimit);
  EXPECT_FALSE(skipsStrengthReduction(
      *addFunction(module, "below_total", 5, perBase - 1)));
  EXPECT_TRUE(
      skipsStrengthReduction(*addFunction(module, "at_total", 5, perBase)));
}

TEST(StrengthReductionGate, SkipsOnlyThatPassOnThoseFunctions) {
  llvm::LLVMContext ctx;
  llvm::Module module("gate", ctx);
  addFunction(module, "few", 1, 4);
  addFunction(module, "many", 1, kStrengthReductionGepLimit + 1);
  // A declaration has no body to count.
  llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
      llvm::GlobalValue::ExternalLinkage, "declared", module);
  StrengthReductionGate gate(module);
  EXPECT_TRUE(gate.isEnabled());
  EXPECT_EQ(gate.getSkipped().size(), 1u);
  EXPECT_FALSE(gate.shouldRunPass("slsr", "function (many)"));
  EXPECT_FALSE(gate.shouldRunPass("Straight line strength reduction",
                                  "function (many)"));
  EXPECT_TRUE(gate.shouldRunPass("slsr", "function (few)"));
  EXPECT_TRUE(gate.shouldRunPass("sroa", "function (many)"));
  EXPECT_TRUE(gate.shouldRunPass("Loop Strength Reduction", "loop"));
}

} // namespace
