//===- MathSymbols.cpp - The frontend's neutral math function names -------===//
#include "tessera/Backend/MathSymbols.h"

using namespace mlir::tessera;

llvm::StringRef mlir::tessera::getMathBaseName(llvm::StringRef symbol,
                                               bool *isNeutral) {
  llvm::StringRef name = symbol;
  bool neutral = name.consume_front("__tessera_");
  if (isNeutral)
    *isNeutral = neutral;
  // Float and integer operand types (`__tessera_int2float_rn_i32`).
  static constexpr llvm::StringLiteral kTypeSuffixes[] = {
      "_fp16", "_bf16", "_fp32", "_fp64", "_f16", "_f32", "_f64",
      "_i1",   "_i8",   "_i16",  "_i32",  "_i64", "_u8",  "_u16",
      "_u32",  "_u64"};
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (llvm::StringRef suffix : kTypeSuffixes)
      if (name.consume_back(suffix))
        stripped = true;
  }
  return name;
}
