//===- MathSymbols.cpp - The frontend's neutral math function names -------===//
#include "tessera/Backend/MathSymbols.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tessera;

llvm::StringRef mlir::tessera::getMathBaseName(llvm::StringRef symbol,
                                               bool *isNeutral) {
  llvm::StringRef name = symbol;
  bool neutral = name.consume_front("__tessera_");
  if (isNeutral)
    *isNeutral = neutral;
  // Float and integer operand types (`__tessera_int2float_rn_i32`).
  static constexpr llvm::StringLiteral kTypeSuffixes[] = {
      "_fp16", "_bf16", "_fp32", "_fp64", "_f16", "_f32", "_f64", "_i1",
      "_i8",   "_i16",  "_i32",  "_i64",  "_u8",  "_u16", "_u32", "_u64"};
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (llvm::StringRef suffix : kTypeSuffixes)
      if (name.consume_back(suffix))
        stripped = true;
  }
  return name;
}

namespace {
struct ResolveMathSymbolsPass
    : public PassWrapper<ResolveMathSymbolsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ResolveMathSymbolsPass)

  ResolveMathSymbolsPass(std::string library, MathLibraryNamer namer)
      : library(std::move(library)), namer(std::move(namer)) {}

  StringRef getArgument() const final { return "tessera-resolve-math"; }
  StringRef getDescription() const final {
    return "Rename neutrally spelled math calls to the math library's names";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> declarations;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func.isExternal() && func.getName().starts_with("__tessera_"))
        declarations.push_back(func);
    for (LLVM::LLVMFuncOp func : declarations) {
      LLVM::LLVMFunctionType type = func.getFunctionType();
      // The float type picks the variant: the first operand's, or the
      // result's for conversions from integers (`int2float_rn`).
      Type operand =
          type.getNumParams() ? type.getParams().front() : type.getReturnType();
      if (!isa<FloatType>(operand))
        operand = type.getReturnType();
      std::string name = namer(func.getName(), operand);
      if (name.empty()) {
        func.emitError("no ") << library << " function for '" << func.getName()
                              << "' on " << operand;
        return signalPassFailure();
      }
      if (failed(SymbolTable::replaceAllSymbolUses(
              func, StringAttr::get(module.getContext(), name), module)))
        return signalPassFailure();
      // Already declared (by MLIR's patterns for the library): keep one.
      if (module.lookupSymbol<LLVM::LLVMFuncOp>(name))
        func.erase();
      else
        func.setSymName(name);
    }
  }

  std::string library;
  MathLibraryNamer namer;
};
} // namespace

std::unique_ptr<Pass>
mlir::tessera::createResolveMathSymbolsPass(llvm::StringRef library,
                                            MathLibraryNamer namer) {
  return std::make_unique<ResolveMathSymbolsPass>(library.str(),
                                                  std::move(namer));
}
