//===- MathSymbols.cpp - The frontend's neutral math function names -------===//
#include "tessera/Backend/MathSymbols.h"

using namespace mlir::tessera;

llvm::StringRef mlir::tessera::getMathBaseName(llvm::StringRef symbol,
                                               bool *isNeutral) {
  llvm::StringRef name = symbol;
  bool neutral = name.consume_front("__tessera_");
  if (isNeutral)
    *isNeutral = neutral;
  static constexpr llvm::StringLiteral kTypeSuffixes[] = {
      "_fp16", "_bf16", "_fp32", "_fp64", "_f16", "_f32", "_f64"};
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (llvm::StringRef suffix : kTypeSuffixes)
      if (name.consume_back(suffix))
        stripped = true;
  }
  return name;
}
