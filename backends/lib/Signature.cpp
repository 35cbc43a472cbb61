//===- Signature.cpp - Kernel parameter types in Triton's spelling --------===//
#include "tessera/Backend/Signature.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/Tessera/IR/ScalarTypes.h"
#include "tessera/Dialect/Tessera/IR/SignatureType.h"

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
  if (type.isIndex())
    return "i64";
  // Signless integers read as signed: the frontend records the unsigned
  // ones (kSignatureTypeAttrName).
  if (const ScalarTypeInfo *info = lookupScalarType(type))
    return info->name.str();
  return "";
}

FailureOr<std::string>
mlir::tessera::getKernelParamTypeName(FunctionOpInterface func,
                                      unsigned index) {
  Type type = func.getArgumentTypes()[index];
  std::string derived = getSignatureTypeName(type);
  auto recorded =
      func.getArgAttrOfType<StringAttr>(index, kSignatureTypeAttrName);
  if (!recorded || derived.empty())
    return derived;
  // The recorded name may only refine the signedness of the integer the
  // type already names: `*u32` over `!tessera.ptr<i32>`, `u64` over i64.
  StringRef name = recorded.getValue();
  StringRef base = derived;
  bool consistent = true;
  while (consistent && name.consume_front("*"))
    consistent = base.consume_front("*");
  consistent = consistent && !base.starts_with("*") &&
               base.consume_front("i") && name.consume_front("u") &&
               name == base && base != "1";
  if (!consistent)
    return func.emitError("kernel parameter ")
           << index << " of type " << type << " is recorded as '"
           << recorded.getValue() << "' (" << kSignatureTypeAttrName
           << "), which only an unsigned integer of that width, or a pointer "
              "to one, may be";
  return recorded.getValue().str();
}

void mlir::tessera::dropSignatureTypeAttrs(FunctionOpInterface func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    func.removeArgAttr(i, kSignatureTypeAttrName);
}
