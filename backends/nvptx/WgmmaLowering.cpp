//===- WgmmaLowering.cpp - Dots on wgmma.mma_async ------------------------===//
//
// Register places follow from coordinates with lane and warp zero, as in
// MmaLowering.cpp: the accumulator's row bit 8 and column bits 0-2 pick the
// instruction's D register (d[i] holds row 8 ((i >> 1) & 1) and column
// 8 (i >> 2) + (i & 1) of the thread's quad), its rows above 64 warpgroups'
// worth the instruction. A's bits follow the mma.sync A fragment. The
// thread's warpgroup supplies the rest of every address at run time.
//
//===----------------------------------------------------------------------===//
#include "InlinePtx.h"
#include "Wgmma.h"

#include "MmaLayouts.h"

#include "tessera/Conversion/LoweringUtils.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"
#include "tessera/Transforms/AccelerateDot.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <map>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

std::optional<WgmmaSharedOperand>
nvptx::getWgmmaSharedOperand(tessera::gpu::MemDescType type, unsigned opIdx) {
  auto shared = dyn_cast<tessera::gpu::SwizzledSharedAttr>(type.getEncoding());
  ArrayRef<int64_t> shape = type.getShape();
  if (!shared || shape.size() != 2 || shared.getOrder().size() != 2 ||
      llvm::any_of(shared.getCTAsPerCGA(), [](unsigned n) { return n != 1; }))
    return std::nullopt;
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || (element.getIntOrFloatBitWidth() != 16 &&
                                  element.getIntOrFloatBitWidth() != 8))
    return std::nullopt;
  WgmmaSharedOperand operand;
  operand.elementBytes = element.getIntOrFloatBitWidth() / 8;
  unsigned col = shared.getOrder()[0];
  int64_t cols = shape[col];
  operand.width = shared.getBlockCols() == 0
                      ? cols
                      : std::min<int64_t>(cols, shared.getBlockCols());
  operand.rows = shape[1 - col];
  operand.swizzle = operand.width * operand.elementBytes;
  operand.kMajor = opIdx == 0 ? col == 1 : col == 0;
  if (operand.swizzle != 32 && operand.swizzle != 64 && operand.swizzle != 128)
    return std::nullopt;
  if (shared.getVec() * operand.elementBytes != 16 ||
      shared.getMaxPhase() != operand.swizzle / 16 ||
      shared.getPerPhase() != 128 / operand.swizzle || operand.rows % 8 != 0 ||
      cols % operand.width != 0)
    return std::nullopt;
  return operand;
}

tessera::gpu::SwizzledSharedAttr
nvptx::getWgmmaSharedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                            unsigned bytes) {
  unsigned vec = 16 / bytes;
  int64_t rowBytes = std::min<int64_t>(128, shape.back() * bytes);
  unsigned groups = unsigned(rowBytes / 16);
  unsigned blockCols = shape.back() * bytes > 128 ? unsigned(128 / bytes) : 0;
  return tessera::gpu::SwizzledSharedAttr::get(ctx, vec, 8 / groups, groups,
                                               {1, 0}, {}, blockCols);
}

namespace {

using Coords = std::pair<int64_t, int64_t>;

Value i64Value(OpBuilder &b, Location loc, uint64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(int64_t(v)));
}

/// Two 16-bit values packed into an i32.
Value packPair(OpBuilder &b, Location loc, Value lo, Value hi) {
  auto vecType = VectorType::get({2}, lo.getType());
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  vec = LLVM::InsertElementOp::create(b, loc, vec, lo, createI32(b, loc, 0));
  vec = LLVM::InsertElementOp::create(b, loc, vec, hi, createI32(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), vec);
}

/// A shared operand's descriptors: the constant high part (offsets,
/// swizzle) and the 16-byte address units of the thread's tile origin.
struct Descriptor {
  WgmmaSharedOperand view;
  Value addressUnits; // i32: (address of the warpgroup's origin) >> 4
  uint64_t high = 0;

  Value at(OpBuilder &b, Location loc, int64_t row, int64_t col) const {
    Value units = LLVM::AddOp::create(
        b, loc, addressUnits, createI32(b, loc, view.getOffset(row, col) >> 4));
    units = LLVM::AndOp::create(b, loc, units, createI32(b, loc, 0x3fff));
    Value low = LLVM::ZExtOp::create(b, loc, b.getI64Type(), units);
    return LLVM::OrOp::create(b, loc, low, i64Value(b, loc, high));
  }
};

Descriptor makeDescriptor(OpBuilder &b, Location loc,
                          const WgmmaSharedOperand &view, Value base,
                          Value originBytes) {
  Descriptor desc;
  desc.view = view;
  uint64_t mode = view.swizzle == 128 ? 1 : view.swizzle == 64 ? 2 : 3;
  uint64_t leading = uint64_t(view.rows * view.swizzle) >> 4;
  uint64_t stride = uint64_t(8 * view.swizzle) >> 4;
  desc.high =
      ((leading & 0x3fff) << 16) | ((stride & 0x3fff) << 32) | (mode << 62);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), base);
  address = LLVM::TruncOp::create(b, loc, b.getI32Type(), address);
  address = LLVM::AddOp::create(b, loc, address, originBytes);
  desc.addressUnits =
      LLVM::LShrOp::create(b, loc, address, createI32(b, loc, 4));
  return desc;
}

} // namespace

FailureOr<SmallVector<Value>> nvptx::lowerWgmmaDot(OpBuilder &b, Location loc,
                                                   const DotOperands &operands,
                                                   const Arch &arch) {
  DotOp dot = matchMatrixDot(operands.op, "wgmma");
  if (!dot)
    return failure();
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto cType = cast<RankedTensorType>(dot.getC().getType());
  std::string aDtype =
      getMatrixDtype(aType.getElementType(), dot.getInputPrecision());
  // From here on the dot is wgmma's: the other lowerings cannot take its
  // layouts, and prepare-wgmma may have left its operand registers unread.
  FailureOr<tessera::gpu::LaunchShape> launch =
      tessera::gpu::getLaunchShape(dot);
  if (failed(launch))
    return dot.emitError("a wgmma dot outside a module with a launch shape");
  int64_t m = cType.getShape()[0], n = cType.getShape()[1],
          k = aType.getShape()[1];
  std::optional<WarpgroupGrid> groups =
      chooseWgmmaGroups(m, n, launch->numWarps);
  unsigned bits = getMmaOperandBits(aDtype);
  bool fp8 = aDtype == "fp8e4nv" || aDtype == "fp8e5";
  if (!groups || (bits != 16 && !fp8) || !cType.getElementType().isF32())
    return dot.emitError("this dot's shape, warps or types do not fit the "
                         "wgmma layouts it was given");
  // Each instruction takes 32 bytes of K.
  int64_t kStep = 256 / bits;
  LinearLayout accLayout = wgmmaAccumulatorLayout(m, n, *groups);
  LinearLayout aLayout = wgmmaOperandALayout(m, k, *groups);
  if (accLayout != tessera::gpu::toLinearLayout(cType))
    return dot.emitError("this dot's accumulator is not in the wgmma layout");

  // The operands prepare-wgmma marked are read from their buffers; B must
  // be one of them.
  auto readInPlace = [](Value operand) {
    auto load = operand.getDefiningOp<tessera::gpu::LocalLoadOp>();
    return load && load->hasAttr(kReadInPlaceAttrName);
  };
  std::optional<WgmmaSharedOperand> bView, aView;
  if (operands.bSharedType && readInPlace(dot.getB()))
    bView = getWgmmaSharedOperand(
        cast<tessera::gpu::MemDescType>(operands.bSharedType), 1);
  if (operands.aSharedType && readInPlace(dot.getA()))
    aView = getWgmmaSharedOperand(
        cast<tessera::gpu::MemDescType>(operands.aSharedType), 0);
  if (aView && !aView->kMajor)
    return dot.emitError("wgmma reads A from shared memory K-major only");
  // 8-bit operands are never transposed, and A never comes from registers
  // (prepare-wgmma puts it in shared memory).
  if (fp8 && (!aView || (bView && !bView->kMajor)))
    return dot.emitError("wgmma reads fp8 operands from K-major shared "
                         "buffers only (run prepare-wgmma)");
  int64_t part = n / groups->n;
  if (bView && !bView->kMajor && part % bView->width != 0)
    return dot.emitError("a warpgroup's columns of B do not fill whole "
                         "swizzle rows");
  if (!bView)
    return dot.emitError("wgmma reads B from shared memory, but this dot's B "
                         "is not in a buffer with a wgmma layout (run "
                         "prepare-wgmma)");
  if (!aView && aLayout != tessera::gpu::toLinearLayout(aType))
    return dot.emitError("wgmma's A is neither in a wgmma buffer nor in the "
                         "wgmma register layout");

  // The thread's warpgroup: along M first, then N.
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value group = LLVM::LShrOp::create(b, loc, tid, createI32(b, loc, 7));
  Value groupM =
      LLVM::AndOp::create(b, loc, group, createI32(b, loc, groups->m - 1));
  Value groupN = LLVM::LShrOp::create(
      b, loc, group, createI32(b, loc, llvm::Log2_32(groups->m)));

  // Origins of this warpgroup's tiles, as byte offsets: A at row 64 groupM,
  // B at column `part` groupN.
  std::optional<Descriptor> aDesc, bDesc;
  if (aView) {
    Value origin = LLVM::MulOp::create(b, loc, groupM,
                                       createI32(b, loc, 64 * aView->swizzle));
    aDesc = makeDescriptor(b, loc, *aView, operands.aShared, origin);
  }
  {
    Value origin;
    if (bView->kMajor) // Rows are N.
      origin = LLVM::MulOp::create(b, loc, groupN,
                                   createI32(b, loc, part * bView->swizzle));
    else // Columns are N, in whole blocks.
      origin = LLVM::MulOp::create(
          b, loc, groupN,
          createI32(b, loc,
                    (part / bView->width) * bView->rows * bView->swizzle));
    bDesc = makeDescriptor(b, loc, *bView, operands.bShared, origin);
  }

  // A fragments from registers: by (64-row block, K step), four 32-bit
  // registers of two elements.
  int64_t blockRows = 64 * groups->m;
  std::map<Coords, std::array<std::array<Value, 2>, 4>> aFrags;
  if (!aView) {
    for (auto [reg, value] : llvm::enumerate(operands.a)) {
      auto [row, kk] = getRegisterOrigin(aLayout, reg);
      unsigned slot = ((kk & 8) ? 2 : 0) + ((row & 8) ? 1 : 0);
      aFrags[{row / blockRows, kk / 16}][slot][kk & 1] = value;
    }
  }
  // Accumulator registers by 64-row block, in the instruction's D order.
  int64_t numD = part / 2;
  std::map<int64_t, SmallVector<int32_t>> accRegs;
  for (int32_t reg = 0; reg < int32_t(operands.c.size()); ++reg) {
    auto [row, col] = getRegisterOrigin(accLayout, reg);
    SmallVector<int32_t> &regs = accRegs[row / blockRows];
    regs.resize(numD, -1);
    int64_t i = (col / 8) * 4 + ((row & 8) ? 2 : 0) + (col & 1);
    regs[i] = reg;
  }

  StringRef ab = aDtype == "bf16"      ? "bf16"
                 : aDtype == "fp8e4nv" ? "e4m3"
                 : aDtype == "fp8e5"   ? "e5m2"
                                       : "f16";
  std::string dList = "{";
  for (int64_t i = 0; i < numD; ++i)
    dList += (i ? ", $" : "$") + std::to_string(i);
  dList += "}";
  // Operands after the D outputs: A (a descriptor or four registers), B's
  // descriptor, the scale-d flag, then the accumulators tied to the outputs.
  unsigned next = numD;
  std::string aText, constraints;
  for (int64_t i = 0; i < numD; ++i)
    constraints += (i ? ",=f" : "=f");
  if (aView) {
    aText = "$" + std::to_string(next++);
    constraints += ",l";
  } else {
    aText = "{";
    for (int i = 0; i < 4; ++i)
      aText += (i ? ", $" : "$") + std::to_string(next++);
    aText += "}";
    constraints += ",r,r,r,r";
  }
  std::string bText = "$" + std::to_string(next++);
  std::string scaleText = "$" + std::to_string(next++);
  constraints += ",l,r";
  for (int64_t i = 0; i < numD; ++i)
    constraints += "," + std::to_string(i);
  // 16-bit operands take transposition immediates (A's only from shared
  // memory); 8-bit ones have none.
  std::string transposes;
  if (!fp8)
    transposes =
        std::string(aView ? ", 0" : "") + (bView->kMajor ? ", 0" : ", 1");
  std::string text = llvm::formatv(
      "{{\n.reg .pred p;\nsetp.ne.b32 p, {0}, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n{1}k{2}.f32.{3}.{3} {4}, {5}, {6}, p, "
      "1, 1{7};\n}",
      scaleText, part, kStep, ab, dList, aText, bText, transposes);
  auto dType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(numD, b.getF32Type()));

  std::map<int64_t, SmallVector<Value>> accs;
  for (auto &[block, regs] : accRegs) {
    if (llvm::is_contained(regs, -1))
      return dot.emitError("the accumulator layout misses a wgmma register");
    for (int32_t reg : regs)
      accs[block].push_back(operands.c[reg]);
  }
  // Every instruction's A and B operands exist before the fence: PTX wants
  // no register a wgmma reads written between the fence and the wgmma.
  Value one = createI32(b, loc, 1);
  std::map<std::pair<int64_t, int64_t>, SmallVector<Value>> inputs;
  for (int64_t kk = 0; kk < k; kk += kStep) {
    for (auto &[block, acc] : accs) {
      SmallVector<Value> &args = inputs[{kk, block}];
      if (aView) {
        args.push_back(aDesc->at(b, loc, block * blockRows, kk));
      } else {
        auto frag = aFrags.find({block, kk / 16});
        if (frag == aFrags.end())
          return dot.emitError("A's register layout misses a wgmma fragment");
        for (auto &pair : frag->second) {
          if (!pair[0] || !pair[1])
            return dot.emitError(
                "A's register layout misses a wgmma fragment element");
          args.push_back(packPair(b, loc, pair[0], pair[1]));
        }
      }
      args.push_back(bView->kMajor ? bDesc->at(b, loc, 0, kk)
                                   : bDesc->at(b, loc, kk, 0));
      args.push_back(one);
    }
  }
  emitInlinePtx(b, loc, nullptr, {}, "wgmma.fence.sync.aligned;", "");
  for (int64_t kk = 0; kk < k; kk += kStep) {
    for (auto &[block, acc] : accs) {
      SmallVector<Value> args = inputs[{kk, block}];
      args.append(acc);
      auto mma = emitInlinePtx(b, loc, dType, args, text, constraints);
      for (int64_t i = 0; i < numD; ++i)
        acc[i] = LLVM::ExtractValueOp::create(b, loc, mma.getResult(0), i);
    }
  }
  emitInlinePtx(b, loc, nullptr, {}, "wgmma.commit_group.sync.aligned;", "");
  // The wait passes the accumulators through, so that nothing reads them
  // before the instructions are done -- or, for a dot left running, before
  // the previous ones are (the next wgmma may take them).
  unsigned pending = 0;
  if (auto attr = dot->getAttrOfType<IntegerAttr>(kWgmmaPendingAttrName))
    pending = unsigned(attr.getInt());
  SmallVector<Value> all;
  SmallVector<std::pair<int64_t, int64_t>> where;
  for (auto &[block, acc] : accs)
    for (auto [i, v] : llvm::enumerate(acc)) {
      all.push_back(v);
      where.push_back({block, int64_t(i)});
    }
  SmallVector<Value> waited = emitWgmmaWait(b, loc, all, pending);
  SmallVector<Value> result(operands.c.begin(), operands.c.end());
  for (auto [j, place] : llvm::enumerate(where)) {
    int32_t reg = accRegs[place.first][place.second];
    result[reg] = waited[j];
  }
  return result;
}

SmallVector<Value> nvptx::emitWgmmaWait(OpBuilder &b, Location loc,
                                        ValueRange values, unsigned pending) {
  std::string constraints;
  for (Value v : values)
    constraints += std::string(constraints.empty() ? "=" : ",=") +
                   (v.getType().isF32() ? "f" : "r");
  for (size_t i = 0; i < values.size(); ++i)
    constraints += "," + std::to_string(i);
  auto type = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(values.getTypes()));
  auto wait = emitInlinePtx(b, loc, type, values,
                            "wgmma.wait_group.sync.aligned " +
                                std::to_string(pending) + ";",
                            constraints);
  SmallVector<Value> results;
  for (size_t i = 0; i < values.size(); ++i)
    results.push_back(
        LLVM::ExtractValueOp::create(b, loc, wait.getResult(0), i));
  return results;
}
