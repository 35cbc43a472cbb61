//===- TypeConverter.cpp - Types and helpers of the CPU lowering ----------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

//===----------------------------------------------------------------------===//
// CpuTypeConverter
//===----------------------------------------------------------------------===//

CpuTypeConverter::CpuTypeConverter(MLIRContext *ctx) {
  Type i32 = IntegerType::get(ctx, 32);
  Type i64 = IntegerType::get(ctx, 64);
  addConversion([](Type type) { return type; });
  addConversion(
      [=](PointerType type,
          SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        auto block = dyn_cast<RankedTensorType>(type.getPointeeType());
        if (!block) {
          results.push_back(i64);
          return success();
        }
        // base, shape..., strides..., offsets...
        unsigned rank = block.getRank();
        results.push_back(i64);
        results.append(2 * rank, i64);
        results.append(rank, i32);
        return success();
      });
  addConversion(
      [=](TensorDescType type,
          SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        // base, shape..., strides..., padding
        unsigned rank = type.getBlockType().getRank();
        results.push_back(i64);
        results.append(rank, i32);
        results.append(rank, i64);
        results.push_back(i32);
        return success();
      });
  addConversion([this](RankedTensorType type) -> Type {
    return RankedTensorType::get(type.getShape(),
                                 convertElementType(type.getElementType()));
  });
  // Views (indexed stages, transposes) have other strides than the buffer
  // they view: every buffer has a fully dynamic strided layout.
  addConversion([this, ctx](gpu::MemDescType type) -> Type {
    SmallVector<int64_t> strides(type.getShape().size(), ShapedType::kDynamic);
    auto layout = StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides);
    return MemRefType::get(type.getShape(),
                           convertElementType(type.getElementType()), layout);
  });
  addConversion([=](gpu::AsyncTokenType) -> Type { return i32; });

  auto cast = [](OpBuilder &b, TypeRange types, ValueRange inputs,
                 Location loc) -> SmallVector<Value> {
    return UnrealizedConversionCastOp::create(b, loc, types, inputs)
        .getResults();
  };
  addTargetMaterialization(cast);
  addSourceMaterialization(
      [](OpBuilder &b, Type type, ValueRange inputs, Location loc) -> Value {
        return UnrealizedConversionCastOp::create(b, loc, type, inputs)
            .getResult(0);
      });
}

Type CpuTypeConverter::convertElementType(Type type) const {
  if (isa<PointerType>(type))
    return IntegerType::get(type.getContext(), 64);
  return type;
}

//===----------------------------------------------------------------------===//
// Block pointers and descriptors as scalars
//===----------------------------------------------------------------------===//

BlockPtrValues BlockPtrValues::unpack(ValueRange values) {
  assert(values.size() % 3 == 1 && "malformed block pointer");
  unsigned rank = values.size() / 3;
  BlockPtrValues result;
  result.base = values[0];
  for (unsigned i = 0; i < rank; ++i) {
    result.shape.push_back(values[1 + i]);
    result.strides.push_back(values[1 + rank + i]);
    result.offsets.push_back(values[1 + 2 * rank + i]);
  }
  return result;
}

SmallVector<Value> BlockPtrValues::pack() const {
  SmallVector<Value> values{base};
  llvm::append_range(values, shape);
  llvm::append_range(values, strides);
  llvm::append_range(values, offsets);
  return values;
}

DescValues DescValues::unpack(ValueRange values) {
  assert(values.size() % 2 == 0 && values.size() >= 4 &&
         "malformed tensor descriptor");
  unsigned rank = (values.size() - 2) / 2;
  DescValues result;
  result.base = values[0];
  for (unsigned i = 0; i < rank; ++i) {
    result.shape.push_back(values[1 + i]);
    result.strides.push_back(values[1 + rank + i]);
  }
  result.padding = values.back();
  return result;
}

SmallVector<Value> DescValues::pack() const {
  SmallVector<Value> values{base};
  llvm::append_range(values, shape);
  llvm::append_range(values, strides);
  values.push_back(padding);
  return values;
}

//===----------------------------------------------------------------------===//
// IR-building helpers
//===----------------------------------------------------------------------===//

Value cpu::createEmpty(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value cpu::createZero(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

Value cpu::createIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

SmallVector<Value>
cpu::buildLoopNest(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   ValueRange iterArgs,
                   function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                   ValueRange, ValueRange)>
                       body) {
  SmallVector<Value> lbs, ubs, steps;
  Value zero = createIndex(b, loc, 0), one = createIndex(b, loc, 1);
  for (int64_t size : shape) {
    lbs.push_back(zero);
    ubs.push_back(createIndex(b, loc, size));
    steps.push_back(one);
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, iterArgs,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        SmallVector<Value> results = body(nested, nestedLoc, ivs, args);
        return scf::ValueVector(results.begin(), results.end());
      });
  return SmallVector<Value>(nest.results.begin(), nest.results.end());
}

int64_t cpu::getElementByteSize(Type type) {
  if (isa<PointerType>(type))
    return 8;
  unsigned bits = type.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, (bits + 7) / 8);
}

Value cpu::toI64(OpBuilder &b, Location loc, Value value, bool isSigned) {
  Type i64 = b.getI64Type();
  Type type = value.getType();
  if (type == i64)
    return value;
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, i64, value);
  if (type.getIntOrFloatBitWidth() > 64)
    return arith::TruncIOp::create(b, loc, i64, value);
  if (isSigned && type.getIntOrFloatBitWidth() > 1)
    return arith::ExtSIOp::create(b, loc, i64, value);
  return arith::ExtUIOp::create(b, loc, i64, value);
}

Value cpu::toLLVMPtr(OpBuilder &b, Location loc, Value address) {
  if (isa<LLVM::LLVMPointerType>(address.getType()))
    return address;
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
}

/// The type a load or store of `type` moves through memory: i1 is a byte,
/// float types LLVM does not know (fp8) are integers of their width.
static Type getMemoryType(OpBuilder &b, Type type) {
  if (type.isInteger(1))
    return b.getI8Type();
  if (auto f = dyn_cast<FloatType>(type))
    if (!LLVM::isCompatibleFloatingPointType(f))
      return b.getIntegerType(f.getWidth());
  return type;
}

Value cpu::loadScalar(OpBuilder &b, Location loc, Type type, Value address,
                      bool isVolatile, unsigned alignment) {
  Type memType = getMemoryType(b, type);
  Value ptr = toLLVMPtr(b, loc, address);
  Value loaded = LLVM::LoadOp::create(
      b, loc, memType, ptr, alignment ? alignment : getElementByteSize(type),
      isVolatile);
  if (memType == type)
    return loaded;
  if (type.isInteger(1))
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, loaded,
                                 createZero(b, loc, memType));
  return arith::BitcastOp::create(b, loc, type, loaded);
}

void cpu::storeScalar(OpBuilder &b, Location loc, Value value, Value address) {
  Type type = value.getType();
  Type memType = getMemoryType(b, type);
  if (type.isInteger(1))
    value = arith::ExtUIOp::create(b, loc, memType, value);
  else if (memType != type)
    value = arith::BitcastOp::create(b, loc, memType, value);
  Value ptr = toLLVMPtr(b, loc, address);
  LLVM::StoreOp::create(b, loc, value, ptr, getElementByteSize(type));
}

Value cpu::offsetAddress(OpBuilder &b, Location loc, Value address, Value index,
                         int64_t elementBytes) {
  Value offset = toI64(b, loc, index);
  if (elementBytes != 1)
    offset = arith::MulIOp::create(
        b, loc, offset,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(elementBytes)));
  return arith::AddIOp::create(b, loc, address, offset);
}

void cpu::declareFunction(OpBuilder &b, Operation *op, StringRef name,
                          FunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  func::FuncOp::create(b, op->getLoc(), name, type).setPrivate();
}

Value cpu::getOrCreateStringConstant(OpBuilder &b, Location loc, Operation *op,
                                     StringRef text) {
  auto module = op->getParentOfType<ModuleOp>();
  std::string name =
      "__tessera_str_" + llvm::utohexstr(llvm::xxh3_64bits(text), true);
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    std::string data = text.str();
    data.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    b.getStringAttr(data), /*alignment=*/1);
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

Value cpu::callOutlined(
    OpBuilder &b, Location loc, Operation *anchor, StringRef name,
    ValueRange args, Type resultType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto module = anchor->getParentOfType<ModuleOp>();
  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  MLIRContext *ctx = b.getContext();
  Type llvmResult = resultType ? resultType : LLVM::LLVMVoidType::get(ctx);
  if (!func) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    SmallVector<Type> argTypes(args.getTypes());
    func = LLVM::LLVMFuncOp::create(
        b, loc, name, LLVM::LLVMFunctionType::get(llvmResult, argTypes),
        LLVM::Linkage::Internal);
    func.setAlwaysInline(true);
    Block *entry = func.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value result = body(b, loc, entry->getArguments());
    LLVM::ReturnOp::create(b, loc, result ? ValueRange{result} : ValueRange{});
  }
  auto call = LLVM::CallOp::create(b, loc, func, args);
  return resultType ? call.getResult() : Value();
}
