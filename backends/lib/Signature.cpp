//===- Signature.cpp - Kernel parameter types in Triton's spelling --------===//
#include "tessera/Backend/Signature.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::tessera;

std::string mlir::tessera::getSignatureTypeName(Type type) {
  if (auto ptr = dyn_cast<PointerType>(type)) {
    if (ptr.isBlockPointer())
      return "";
    std::string pointee = getSignatureTypeName(ptr.getPointeeType());
    return pointee.empty() ? "" : ("*" + llvm::Twine(pointee)).str();
  }
  if (auto integer = dyn_cast<IntegerType>(type))
    return ("i" + llvm::Twine(integer.getWidth())).str();
  if (type.isIndex())
    return "i64";
  if (type.isF16())
    return "fp16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "fp32";
  if (type.isF64())
    return "fp64";
  if (isa<Float8E4M3FNType>(type))
    return "fp8e4nv";
  if (isa<Float8E5M2Type>(type))
    return "fp8e5";
  if (isa<Float8E4M3FNUZType>(type))
    return "fp8e4b8";
  if (isa<Float8E5M2FNUZType>(type))
    return "fp8e5b16";
  if (isa<Float8E4M3B11FNUZType>(type))
    return "fp8e4b15";
  return "";
}
