//===- MmaLowering.cpp - Dots on mma.sync ---------------------------------===//
//
// The operand and accumulator registers arrive in the layouts of
// MmaLayouts.h. Each register's place in an instruction follows from its
// coordinates with lane and warp zero (the thread's own part is the same
// XOR in all three layouts' tile origins): the bits inside one tile pick
// the fragment register and the element packed in it, the bits above pick
// the tile. Every accumulator tile then runs one mma.sync per K tile, in
// increasing K, as inline PTX.
//
//===----------------------------------------------------------------------===//
#include "MmaLowering.h"

#include "MmaLayouts.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"
#include "tessera/Transforms/AccelerateDot.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>
#include <map>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

using Coords = std::pair<int32_t, int32_t>;

/// The fragment registers of one operand tile: `slots[i]` lists the
/// elements packed in fragment register i, lowest K first.
struct Fragment {
  std::array<SmallVector<Value, 4>, 4> slots;
};

/// PTX's name of an operand type.
StringRef ptxType(StringRef dtype) {
  return llvm::StringSwitch<StringRef>(dtype)
      .Case("fp16", "f16")
      .Case("bf16", "bf16")
      .Case("tf32", "tf32")
      .Case("int8", "s8")
      .Case("fp8e4nv", "e4m3")
      .Case("fp8e5", "e5m2")
      .Case("fp32", "f32")
      .Case("int32", "s32")
      .Default("");
}

/// `elements` packed into one 32-bit register.
Value pack(OpBuilder &b, Location loc, ArrayRef<Value> elements) {
  Type i32 = b.getI32Type();
  if (elements.size() == 1)
    return elements[0].getType() == i32
               ? elements[0]
               : LLVM::BitcastOp::create(b, loc, i32, elements[0]).getResult();
  auto vecType =
      VectorType::get({int64_t(elements.size())}, elements[0].getType());
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, element] : llvm::enumerate(elements))
    vec = LLVM::InsertElementOp::create(
        b, loc, vec, element,
        LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(i)));
  return LLVM::BitcastOp::create(b, loc, i32, vec);
}

/// Two 16-bit values of type `element` unpacked from `reg`.
std::pair<Value, Value> unpackPair(OpBuilder &b, Location loc, Value reg,
                                   Type element) {
  Type i32 = b.getI32Type();
  Value vec =
      LLVM::BitcastOp::create(b, loc, VectorType::get({2}, element), reg);
  auto at = [&](int i) {
    return LLVM::ExtractElementOp::create(
               b, loc, vec,
               LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(i)))
        .getResult();
  };
  return {at(0), at(1)};
}

} // namespace

FailureOr<SmallVector<Value>> nvptx::lowerMmaDot(OpBuilder &b, Location loc,
                                                 const DotOperands &operands,
                                                 const Arch &arch) {
  TargetDescription target = describeArch(arch);
  FailureOr<AcceleratedDot> matched =
      matchAcceleratedDot(operands.op, "mma.sync", target, MmaLayoutProvider());
  if (failed(matched))
    return failure();
  const MatrixInstruction *instr = matched->instr;
  const MatrixLayouts *layouts = &matched->layouts;
  std::string accDtype = instr->accType;

  int32_t v = 32 / getMmaOperandBits(instr->aType);
  int32_t kHigh = 4 * v; // The K bit that selects the second register pair.
  int32_t inPack = v - 1;

  // Operand fragments by tile origin.
  std::map<Coords, Fragment> aTiles, bTiles;
  for (auto [reg, value] : llvm::enumerate(operands.a)) {
    auto [row, k] = getRegisterOrigin(layouts->a, reg);
    unsigned slot = ((k & kHigh) ? 2 : 0) + ((row & 8) ? 1 : 0);
    auto &elements = aTiles[{row & ~8, k & ~(kHigh | inPack)}].slots[slot];
    elements.resize(v);
    elements[k & inPack] = value;
  }
  for (auto [reg, value] : llvm::enumerate(operands.b)) {
    auto [k, col] = getRegisterOrigin(layouts->b, reg);
    unsigned slot = (k & kHigh) ? 1 : 0;
    auto &elements = bTiles[{k & ~(kHigh | inPack), col}].slots[slot];
    elements.resize(v);
    elements[k & inPack] = value;
  }
  // Accumulator registers by tile origin: element j of a tile is register
  // accTiles[origin][j].
  std::map<Coords, std::array<int32_t, 4>> accTiles;
  for (int32_t reg = 0; reg < int32_t(operands.c.size()); ++reg) {
    auto [row, col] = getRegisterOrigin(layouts->acc, reg);
    accTiles[{row & ~8, col & ~1}][((row & 8) ? 2 : 0) + (col & 1)] = reg;
  }
  SmallVector<int32_t> kTiles;
  for (auto &[origin, fragment] : aTiles)
    if (origin.first == aTiles.begin()->first.first)
      kTiles.push_back(origin.second);

  // The instruction, its operand counts and constraints.
  bool halfAcc = accDtype == "fp16";
  bool intAcc = accDtype == "int32";
  StringRef ab = ptxType(instr->aType);
  std::string text =
      llvm::formatv("mma.sync.aligned.m16n8k{0}.row.col.{1}.{2}.{2}.{1} ",
                    instr->k, halfAcc ? "f16" : ptxType(accDtype), ab);
  unsigned numD = halfAcc ? 2 : 4;
  auto list = [](unsigned first, unsigned count) {
    std::string s = "{";
    for (unsigned i = 0; i < count; ++i)
      s += (i ? ", $" : "$") + std::to_string(first + i);
    return s + "}";
  };
  text += list(0, numD) + ", " + list(numD, 4) + ", " + list(numD + 4, 2) +
          ", " + list(numD + 6, numD) + ";";
  std::string constraints;
  StringRef out = halfAcc || intAcc ? "=r" : "=f";
  for (unsigned i = 0; i < numD; ++i)
    constraints += (i ? "," : "") + out.str();
  for (unsigned i = 0; i < 6; ++i)
    constraints += ",r";
  for (unsigned i = 0; i < numD; ++i)
    constraints += "," + std::to_string(i);
  Type dType = halfAcc || intAcc ? Type(b.getI32Type()) : Type(b.getF32Type());
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(numD, dType));
  Type accElement = operands.c.front().getType();

  // K steps outermost: each step's operand fragments die once its tiles
  // are done (with the matrix loads sunk to their uses, a step's loads are
  // all that is live besides the accumulators), and consecutive
  // instructions update different accumulators.
  std::map<Coords, SmallVector<Value>> accs;
  for (auto &[origin, regs] : accTiles) {
    SmallVector<Value> &acc = accs[origin];
    if (halfAcc) {
      acc.push_back(pack(b, loc, {operands.c[regs[0]], operands.c[regs[1]]}));
      acc.push_back(pack(b, loc, {operands.c[regs[2]], operands.c[regs[3]]}));
    } else {
      for (int32_t reg : regs)
        acc.push_back(operands.c[reg]);
    }
  }
  for (int32_t k : kTiles) {
    for (auto &[origin, regs] : accTiles) {
      auto [row, col] = origin;
      auto a = aTiles.find({row, k});
      auto bt = bTiles.find({k, col});
      if (a == aTiles.end() || bt == bTiles.end())
        return failure();
      SmallVector<Value> &acc = accs[origin];
      SmallVector<Value> args;
      for (auto &elements : a->second.slots)
        args.push_back(pack(b, loc, elements));
      for (unsigned i = 0; i < 2; ++i)
        args.push_back(pack(b, loc, bt->second.slots[i]));
      args.append(acc);
      auto mma = LLVM::InlineAsmOp::create(
          b, loc, resultType, args, text, constraints,
          /*has_side_effects=*/false, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
          /*operand_attrs=*/ArrayAttr());
      for (unsigned i = 0; i < numD; ++i)
        acc[i] = LLVM::ExtractValueOp::create(b, loc, mma.getResult(0), i);
    }
  }
  SmallVector<Value> result(operands.c.begin(), operands.c.end());
  for (auto &[origin, regs] : accTiles) {
    SmallVector<Value> &acc = accs[origin];
    if (halfAcc) {
      std::tie(result[regs[0]], result[regs[1]]) =
          unpackPair(b, loc, acc[0], accElement);
      std::tie(result[regs[2]], result[regs[3]]) =
          unpackPair(b, loc, acc[1], accElement);
    } else {
      for (auto [i, reg] : llvm::enumerate(regs))
        result[reg] = acc[i];
    }
  }
  return result;
}
