//===- Dialect.cpp - The tessera dialect, its types and attributes --------===//
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessera;

#include "tessera/Dialect/Tessera/IR/TesseraDialect.cpp.inc"
#include "tessera/Dialect/Tessera/IR/TesseraEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/Tessera/IR/TesseraAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/Tessera/IR/TesseraTypes.cpp.inc"

namespace {
/// Every tessera op may be inlined: kernels call device functions that the
/// inliner folds into their callers before layouts are assigned.
struct TesseraInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TesseraDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tessera/Dialect/Tessera/IR/TesseraOps.cpp.inc"
      >();
  addInterfaces<TesseraInlinerInterface>();
}

void TesseraDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tessera/Dialect/Tessera/IR/TesseraTypes.cpp.inc"
      >();
}

void TesseraDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessera/Dialect/Tessera/IR/TesseraAttrs.cpp.inc"
      >();
}

Operation *TesseraDialect::materializeConstant(OpBuilder &builder,
                                               Attribute value, Type type,
                                               Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult
PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                    Type pointeeType, int addressSpace) {
  if (addressSpace < 0)
    return emitError() << "pointer address space must be non-negative, got "
                       << addressSpace;
  if (isa<TensorDescType>(pointeeType))
    return emitError() << "cannot point to a tensor descriptor";
  if (auto tensor = dyn_cast<RankedTensorType>(pointeeType))
    if (isa<PointerType>(tensor.getElementType()))
      return emitError()
             << "a block pointer's tile cannot hold pointers; got "
             << pointeeType;
  return success();
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       RankedTensorType blockType) {
  if (blockType.getRank() < 1 || blockType.getRank() > 5)
    return emitError() << "tensor descriptor blocks have 1 to 5 dimensions, "
                          "got "
                       << blockType.getRank();
  if (isa<PointerType>(blockType.getElementType()))
    return emitError() << "tensor descriptor blocks cannot hold pointers";
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Type mlir::tessera::getLoadedType(Type ptrLike) {
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike)) {
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
  } else if (auto ptr = dyn_cast<PointerType>(ptrLike)) {
    return ptr.getPointeeType();
  }
  return NoneType::get(ptrLike.getContext());
}

Type mlir::tessera::getI1TypeWithSameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(i1);
  return i1;
}

bool mlir::tessera::isZeroConstant(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isZero();
  return false;
}
