//===- Dialect.cpp - The tessera_gpu dialect and its types ----------------===//
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUTypes.cpp.inc"

namespace {
struct TesseraGPUInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
/// Prints layouts once at the top of the module (`#blocked = ...`) and
/// refers to them by name, as the IR is unreadable otherwise.
struct TesseraGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedAttr>(attr))
      os << "blocked";
    else if (isa<SliceAttr>(attr))
      os << "slice";
    else if (isa<DotOperandAttr>(attr))
      os << "dot_op";
    else if (isa<LinearAttr>(attr))
      os << "linear";
    else if (isa<SwizzledSharedAttr>(attr))
      os << "shared";
    else if (isa<SharedLinearAttr>(attr))
      os << "shared_linear";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TesseraGPUDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUOps.cpp.inc"
      >();
  addInterfaces<TesseraGPUInlinerInterface, TesseraGPUOpAsmInterface>();
}

void TesseraGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUTypes.cpp.inc"
      >();
}

Operation *TesseraGPUDialect::materializeConstant(OpBuilder &builder,
                                                  Attribute value, Type type,
                                                  Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// MemDescType
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding))
    return {};
  bool isMutable = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("mutable"))
      return {};
    isMutable = true;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), shape,
                                        elementType, encoding, isMutable);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding();
  if (getMutableMemory())
    printer << ", mutable";
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, bool mutableMemory) {
  if (shape.empty())
    return emitError() << "shared-memory buffers have at least one dimension";
  for (int64_t d : shape)
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return emitError() << "shared-memory buffer dimensions must be powers of "
                            "two, got "
                         << d;
  if (!isa<SharedLayoutAttr>(encoding))
    return emitError() << "shared-memory buffers need a shared layout, got "
                       << encoding;
  if (!elementType.isIntOrFloat() && !isa<PointerType>(elementType))
    return emitError() << "shared-memory buffers hold integers, floats or "
                          "pointers, got "
                       << elementType;
  return success();
}

MemDescType MemDescType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                   Type elementType) const {
  return MemDescType::get(getContext(), shape ? *shape : getShape(),
                          elementType, getEncoding(), getMutableMemory());
}
