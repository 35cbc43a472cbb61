//===- MathLibrary.cpp - Kernel math calls to ocml ------------------------===//
//
// tl.math functions and libdevice.* calls reach the backend as calls to
// neutrally named functions (the frontend's `__tessera_<name>_<types>`);
// AMD's ocml spells them `__ocml_<name>_f32` (also _f16, _f64). The emitter
// links ocml for the `__ocml_*` functions the module declares and reports
// any it does not define.
//
//===----------------------------------------------------------------------===//
#include "MathLibrary.h"

#include "tessera/Backend/MathSymbols.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tessera;

std::string amdgpu::getOcmlName(llvm::StringRef symbol, Type type) {
  if (symbol.starts_with("__ocml_"))
    return symbol.str();
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType ||
      !(floatType.isF16() || floatType.isF32() || floatType.isF64()))
    return "";
  bool neutral = false;
  llvm::StringRef name = getMathBaseName(symbol, &neutral);
  // C's float spelling (`asinf`) names the same function as `asin`.
  if (!neutral && floatType.isF32() && name.size() > 1 && name.ends_with("f"))
    name = name.drop_back();
  if (name.empty() ||
      !llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return "";
  return ("__ocml_" + name + "_f" + llvm::Twine(floatType.getWidth())).str();
}
