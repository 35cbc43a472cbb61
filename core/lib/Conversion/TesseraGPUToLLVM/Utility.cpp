//===- Utility.cpp - Registers, coordinates and builders of the lowering --===//
#include "Lowering.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

GPUTypeConverter::GPUTypeConverter(MLIRContext *ctx,
                                   const LowerToLLVMOptions &options,
                                   unsigned sharedAddressSpace)
    : LLVMTypeConverter(ctx, options) {
  addConversion([ctx](PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(ctx, type.getAddressSpace());
  });
  addConversion([ctx, sharedAddressSpace](gpu::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, sharedAddressSpace);
  });
  addConversion(
      [ctx](gpu::AsyncTokenType) -> Type { return IntegerType::get(ctx, 32); });
  // A host-built tensor map: the kernel sees its (generic) address.
  addConversion([ctx](gpu::TensorMapType) -> Type {
    return LLVM::LLVMPointerType::get(ctx);
  });
  // A tensor descriptor: its base (global memory), shape (i32) and strides
  // (i64), outermost first.
  addConversion([ctx](TensorDescType type) -> Type {
    int64_t rank = type.getBlockType().getRank();
    SmallVector<Type> fields{LLVM::LLVMPointerType::get(ctx, 1)};
    fields.append(rank, IntegerType::get(ctx, 32));
    fields.append(rank, IntegerType::get(ctx, 64));
    return LLVM::LLVMStructType::getLiteral(ctx, fields);
  });
  // A block pointer: its base, shape (i64), strides (i64) and offsets
  // (i32), outermost first.
  addConversion([ctx](PointerType type) -> std::optional<Type> {
    auto tile = dyn_cast<RankedTensorType>(type.getPointeeType());
    if (!tile)
      return std::nullopt;
    int64_t rank = tile.getRank();
    SmallVector<Type> fields{
        LLVM::LLVMPointerType::get(ctx, type.getAddressSpace())};
    fields.append(2 * rank, IntegerType::get(ctx, 64));
    fields.append(rank, IntegerType::get(ctx, 32));
    return LLVM::LLVMStructType::getLiteral(ctx, fields);
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    if (!gpu::getDistributedEncoding(type))
      return std::nullopt;
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    int64_t n = getNumRegisters(type);
    return LLVM::LLVMStructType::getLiteral(type.getContext(),
                                            SmallVector<Type>(n, element));
  });
}

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

LinearLayout lowering::getLayout(Type tensorType) {
  return gpu::toLinearLayout(cast<RankedTensorType>(tensorType));
}

int64_t lowering::getNumRegisters(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !gpu::getDistributedEncoding(tensor))
    return 1;
  return getLayout(tensor).getInDimSize(kRegisterDim);
}

SmallVector<Value> lowering::unpackRegisters(OpBuilder &b, Location loc,
                                             Value value, Type type) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(value.getType());
  if (!structType || !isa<RankedTensorType>(type))
    return {value};
  SmallVector<Value> registers;
  for (int64_t i = 0, e = structType.getBody().size(); i < e; ++i)
    registers.push_back(LLVM::ExtractValueOp::create(b, loc, value, i));
  return registers;
}

Value lowering::packRegisters(OpBuilder &b, Location loc, Type structType,
                              ValueRange registers) {
  auto type = dyn_cast<LLVM::LLVMStructType>(structType);
  if (!type) {
    assert(registers.size() == 1 && "a scalar holds one register");
    return registers.front();
  }
  assert(type.getBody().size() == registers.size() && "register count");
  Value result = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, reg] : llvm::enumerate(registers))
    result = LLVM::InsertValueOp::create(b, loc, result, reg, i);
  return result;
}

//===----------------------------------------------------------------------===//
// Coordinates
//===----------------------------------------------------------------------===//

FailureOr<ThreadIndex> lowering::getThreadIndex(OpBuilder &b, Location loc,
                                                LoweringContext &ctx,
                                                Operation *op) {
  FailureOr<Value> tid = ctx.hooks.getThreadId(b, loc);
  if (failed(tid))
    return op->emitError("the ")
           << ctx.hooks.getName()
           << " target gives no thread index, which this operation needs";
  unsigned shift = llvm::Log2_32(ctx.threadsPerWarp);
  Value lane = LLVM::AndOp::create(b, loc, *tid,
                                   createI32(b, loc, ctx.threadsPerWarp - 1));
  Value warp = LLVM::LShrOp::create(b, loc, *tid, createI32(b, loc, shift));
  return ThreadIndex{lane, warp};
}

SmallVector<int32_t> lowering::getRegisterCoords(const LinearLayout &layout,
                                                 int32_t reg) {
  SmallVector<LinearLayout::NamedInt> ins;
  for (StringRef dim : layout.getInDimNames())
    ins.push_back({dim, dim == kRegisterDim ? reg : 0});
  SmallVector<int32_t> coords;
  for (auto &[name, value] : layout.apply(ins))
    coords.push_back(value);
  return coords;
}

void lowering::xorBases(OpBuilder &b, Location loc, const LinearLayout &layout,
                        StringRef inDim, Value index,
                        SmallVector<Value> &coords) {
  if (!layout.hasInDim(inDim))
    return;
  for (auto [bit, basis] : llvm::enumerate(layout.getBases(inDim))) {
    Value mask = createI32(b, loc, int64_t(1) << bit);
    Value isSet = LLVM::AndOp::create(b, loc, index, mask);
    for (auto [dim, value] : llvm::enumerate(basis)) {
      if (value == 0)
        continue;
      // (index & 2^bit) is 0 or 2^bit; scale it to 0 or `value`.
      Value term;
      if (llvm::isPowerOf2_32(value)) {
        int shift = int(llvm::Log2_32(value)) - int(bit);
        if (shift > 0)
          term = LLVM::ShlOp::create(b, loc, isSet, createI32(b, loc, shift));
        else if (shift < 0)
          term = LLVM::LShrOp::create(b, loc, isSet, createI32(b, loc, -shift));
        else
          term = isSet;
      } else {
        Value one = LLVM::LShrOp::create(b, loc, isSet, createI32(b, loc, bit));
        term = LLVM::MulOp::create(b, loc, one, createI32(b, loc, value));
      }
      coords[dim] = LLVM::XOrOp::create(b, loc, coords[dim], term);
    }
  }
}

SmallVector<Value> lowering::emitThreadCoords(OpBuilder &b, Location loc,
                                              const LinearLayout &layout,
                                              ThreadIndex tid) {
  SmallVector<Value> coords(layout.getNumOutDims(), createI32(b, loc, 0));
  xorBases(b, loc, layout, kLaneDim, tid.lane, coords);
  xorBases(b, loc, layout, kWarpDim, tid.warp, coords);
  return coords;
}

SmallVector<SmallVector<Value>>
lowering::emitAllCoords(OpBuilder &b, Location loc, const LinearLayout &layout,
                        ThreadIndex tid) {
  SmallVector<Value> thread = emitThreadCoords(b, loc, layout, tid);
  int32_t numRegs =
      layout.hasInDim(kRegisterDim) ? layout.getInDimSize(kRegisterDim) : 1;
  SmallVector<SmallVector<Value>> all;
  for (int32_t reg = 0; reg < numRegs; ++reg) {
    SmallVector<int32_t> regCoords = getRegisterCoords(layout, reg);
    SmallVector<Value> coords;
    for (auto [dim, value] : llvm::enumerate(regCoords))
      coords.push_back(value == 0
                           ? thread[dim]
                           : LLVM::XOrOp::create(b, loc, thread[dim],
                                                 createI32(b, loc, value)));
    all.push_back(std::move(coords));
  }
  return all;
}

bool lowering::haveSameThreadMap(const LinearLayout &a, const LinearLayout &b) {
  if (a.getOutDims() != b.getOutDims())
    return false;
  for (StringRef dim : {StringRef(kLaneDim), StringRef(kWarpDim)}) {
    bool inA = a.hasInDim(dim), inB = b.hasInDim(dim);
    if (inA != inB)
      return false;
    if (inA && a.getBases(dim) != b.getBases(dim))
      return false;
  }
  return true;
}

std::optional<SmallVector<int32_t>> lowering::mapRegisters(
    const LinearLayout &src, const LinearLayout &dst,
    llvm::function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> project) {
  std::map<SmallVector<int32_t>, int32_t> byCoords;
  int32_t numSrc =
      src.hasInDim(kRegisterDim) ? src.getInDimSize(kRegisterDim) : 1;
  for (int32_t reg = 0; reg < numSrc; ++reg)
    byCoords.try_emplace(getRegisterCoords(src, reg), reg);
  int32_t numDst =
      dst.hasInDim(kRegisterDim) ? dst.getInDimSize(kRegisterDim) : 1;
  SmallVector<int32_t> map;
  for (int32_t reg = 0; reg < numDst; ++reg) {
    auto it = byCoords.find(project(getRegisterCoords(dst, reg)));
    if (it == byCoords.end())
      return std::nullopt;
    map.push_back(it->second);
  }
  return map;
}

std::pair<int, unsigned> lowering::getRegisterRun(const LinearLayout &layout) {
  if (!layout.hasInDim(kRegisterDim) ||
      layout.getInDimSizeLog2(kRegisterDim) == 0)
    return {-1, 1};
  // The dimension the first register step moves along, if a unit step.
  int dim = -1;
  for (auto [d, v] : llvm::enumerate(layout.getBasis(kRegisterDim, 0))) {
    if (v == 1 && dim < 0)
      dim = d;
    else if (v != 0)
      return {-1, 1};
  }
  if (dim < 0)
    return {-1, 1};
  unsigned run = 1;
  for (unsigned i = 0; i < layout.getInDimSizeLog2(kRegisterDim); ++i) {
    bool unit = true;
    for (auto [d, v] : llvm::enumerate(layout.getBasis(kRegisterDim, i)))
      unit &= (int(d) == dim ? v == (1 << i) : v == 0);
    if (!unit)
      break;
    run <<= 1;
  }
  return {dim, run};
}

Value lowering::emitOwnerPredicate(OpBuilder &b, Location loc,
                                   const LinearLayout &layout,
                                   ThreadIndex tid) {
  Value pred;
  for (auto &[dim, mask] : layout.getFreeVariableMasks()) {
    Value index;
    if (dim == kLaneDim)
      index = tid.lane;
    else if (dim == kWarpDim)
      index = tid.warp;
    if (!index || mask == 0)
      continue;
    Value bits = LLVM::AndOp::create(b, loc, index, createI32(b, loc, mask));
    Value isOwner = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                                         createI32(b, loc, 0));
    pred = pred ? LLVM::AndOp::create(b, loc, pred, isOwner) : isOwner;
  }
  return pred;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

unsigned lowering::getElementBytes(Type type) {
  if (isa<PointerType, LLVM::LLVMPointerType>(type))
    return 8;
  unsigned bits = type.getIntOrFloatBitWidth();
  return std::max(1u, bits / 8);
}

FailureOr<Value> lowering::getSharedPointer(OpBuilder &b, Location loc,
                                            LoweringContext &ctx,
                                            Value byteOffset, Operation *op) {
  FailureOr<Value> base = ctx.hooks.getSharedMemoryBase(b, loc);
  if (failed(base)) {
    // The spelling most LLVM targets give dynamic shared memory: an external
    // zero-sized array in the shared address space, aligned for swizzled
    // tiles whose pattern repeats every 1024 bytes (matrix units that read
    // such tiles through descriptors need the pattern to start aligned).
    auto module = op->getParentOfType<ModuleOp>();
    StringRef name = "tessera_shared_memory";
    auto i8 = b.getI8Type();
    auto arrayType = LLVM::LLVMArrayType::get(i8, 0);
    if (!module.lookupSymbol(name)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto global = LLVM::GlobalOp::create(
          b, loc, arrayType, /*isConstant=*/false, LLVM::Linkage::External,
          name, Attribute(), /*alignment=*/kSharedTileAlignment,
          ctx.options.sharedAddressSpace);
      (void)global;
    }
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext(),
                                              ctx.options.sharedAddressSpace);
    base = LLVM::AddressOfOp::create(b, loc, ptrType, name).getResult();
  }
  return LLVM::GEPOp::create(b, loc, base->getType(), b.getI8Type(), *base,
                             ArrayRef<LLVM::GEPArg>{byteOffset})
      .getResult();
}
