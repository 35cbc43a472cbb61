//===- MathLibrary.cpp - Kernel math calls to libdevice -------------------===//
//
// tl.math functions and libdevice.* calls reach the backend as calls to
// neutrally named functions (the frontend's `__tessera_<name>_<types>`);
// NVIDIA's libdevice spells the float variant `__nv_<name>f` and the double
// one `__nv_<name>`. The emitter links libdevice for the `__nv_*` functions
// the module declares.
//
//===----------------------------------------------------------------------===//
#include "MathLibrary.h"

#include "tessera/Backend/MathSymbols.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tessera;

std::string nvptx::getLibdeviceName(llvm::StringRef symbol, Type type) {
  if (symbol.starts_with("__nv_"))
    return symbol.str();
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType || !(floatType.isF32() || floatType.isF64()))
    return "";
  bool neutral = false;
  llvm::StringRef name = getMathBaseName(symbol, &neutral);
  // C's float spelling (`asinf`) names the same function as `asin`.
  if (!neutral && floatType.isF32() && name.size() > 1 && name.ends_with("f"))
    name = name.drop_back();
  if (name.empty() ||
      !llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return "";
  return ("__nv_" + name + (floatType.isF32() ? "f" : "")).str();
}

LogicalResult nvptx::resolveMathSymbols(ModuleOp module) {
  SmallVector<LLVM::LLVMFuncOp> declarations;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (func.isExternal() && !func.getName().starts_with("__nv_") &&
        (func.getName().starts_with("__tessera_")))
      declarations.push_back(func);
  for (LLVM::LLVMFuncOp func : declarations) {
    LLVM::LLVMFunctionType type = func.getFunctionType();
    Type operand =
        type.getNumParams() ? type.getParams().front() : type.getReturnType();
    std::string name = getLibdeviceName(func.getName(), operand);
    if (name.empty())
      return func.emitError("no libdevice function for '")
             << func.getName() << "' on " << operand;
    if (failed(SymbolTable::replaceAllSymbolUses(
            func, StringAttr::get(module.getContext(), name), module)))
      return failure();
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name)) {
      // Already declared (by MLIR's libdevice patterns): keep one.
      func.erase();
      (void)existing;
      continue;
    }
    func.setSymName(name);
  }
  return success();
}
