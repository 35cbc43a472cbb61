//===- MfmaLowering.cpp - Dots on MFMA ------------------------------------===//
//
// The operand and accumulator registers arrive in the layouts of
// MfmaLayouts.h. A register's place in an instruction block follows from its
// coordinates in lane 0 of wavefront 0: for A and B the K offset within the
// lane's run picks the element packed into the operand VGPRs, the rest the
// block; for the accumulator the row within the block picks the element of
// the result vector. Each accumulator block then runs one MFMA per K block,
// K outermost so that one K step's operands are live at a time.
//
//===----------------------------------------------------------------------===//
#include "MfmaLowering.h"

#include "MfmaLayouts.h"

#include "tessera/Conversion/Fp8Conversions.h"
#include "tessera/Conversion/LoweringUtils.h"
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"
#include "tessera/Layout/LayoutConversions.h"
#include "tessera/Transforms/AccelerateDot.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {

using Coords = std::pair<int32_t, int32_t>;

/// `elements` as the intrinsic takes one operand: a lone f32 as itself,
/// 16-bit floats as a vector (bf16 as i16 lanes, as the `.1k` intrinsics
/// declare them), 8-bit elements packed into one i32 or i64.
Value packOperand(OpBuilder &b, Location loc, ArrayRef<Value> elements) {
  Type element = elements.front().getType();
  if (elements.size() == 1 && element.isF32())
    return elements.front();
  auto vecType = VectorType::get({int64_t(elements.size())}, element);
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, value] : llvm::enumerate(elements))
    vec = LLVM::InsertElementOp::create(b, loc, vec, value,
                                        createI32(b, loc, int32_t(i)));
  unsigned bits = element.getIntOrFloatBitWidth();
  if (element.isF16())
    return vec;
  if (element.isBF16())
    return LLVM::BitcastOp::create(
        b, loc, VectorType::get({int64_t(elements.size())}, b.getI16Type()),
        vec);
  return LLVM::BitcastOp::create(
      b, loc, b.getIntegerType(bits * unsigned(elements.size())), vec);
}

} // namespace

FailureOr<SmallVector<Value>> amdgpu::lowerMfmaDot(OpBuilder &b, Location loc,
                                                   const DotOperands &operands,
                                                   const Arch &arch) {
  TargetDescription target = describeArch(arch);
  FailureOr<AcceleratedDot> matched =
      matchAcceleratedDot(operands.op, "mfma.", target, MfmaLayoutProvider());
  if (failed(matched))
    return failure();
  DotOp dot = matched->dot;
  const MatrixInstruction *instr = matched->instr;
  const MatrixLayouts *layouts = &matched->layouts;
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  StringRef name = instr->name;

  int32_t size = int32_t(instr->m);
  int32_t kBlock = int32_t(instr->k);
  int32_t kWidth = int32_t(getMfmaKWidth(instr->m, instr->k));
  int32_t accCount = size * size / 64;

  // Operand runs by block origin, element i of a run at K offset i.
  std::map<Coords, SmallVector<Value, 8>> aBlocks, bBlocks;
  for (auto [reg, value] : llvm::enumerate(operands.a)) {
    auto [row, k] = getRegisterOrigin(layouts->a, int32_t(reg));
    auto &run = aBlocks[{row, k & ~(kBlock - 1)}];
    run.resize(kWidth);
    run[k & (kWidth - 1)] = value;
  }
  for (auto [reg, value] : llvm::enumerate(operands.b)) {
    auto [k, col] = getRegisterOrigin(layouts->b, int32_t(reg));
    auto &run = bBlocks[{k & ~(kBlock - 1), col}];
    run.resize(kWidth);
    run[k & (kWidth - 1)] = value;
  }
  // Accumulator registers by block origin: element j of a block's result
  // vector is register accBlocks[origin][j].
  std::map<Coords, SmallVector<int32_t, 16>> accBlocks;
  for (int32_t reg = 0; reg < int32_t(operands.c.size()); ++reg) {
    auto [row, col] = getRegisterOrigin(layouts->acc, reg);
    int32_t inBlock = row & (size - 1);
    int32_t element =
        size == 32 ? (inBlock & 3) | ((inBlock >> 3) << 2) : inBlock & 3;
    auto &regs = accBlocks[{row & ~(size - 1), col}];
    regs.resize(accCount, -1);
    regs[element] = reg;
  }
  // An fp8 dot on an f16 instruction: every operand register widens
  // exactly to f16 first.
  if (name.ends_with("f16")) {
    for (auto [blocks, type] :
         {std::pair{&aBlocks, aType}, {&bBlocks, bType}}) {
      auto fp8Type = dyn_cast<FloatType>(type.getElementType());
      if (!fp8Type || fp8Type.getWidth() != 8)
        continue;
      for (auto &[origin, run] : *blocks)
        for (Value &value : run) {
          FailureOr<Value> wide = emitFp8Conversion(
              b, loc, dot, value, fp8Type, b.getF16Type(), RoundingMode::rtne);
          if (failed(wide))
            return failure();
          value = *wide;
        }
    }
  }
  SmallVector<int32_t> kBlocks;
  for (auto &[origin, run] : aBlocks)
    if (origin.first == aBlocks.begin()->first.first)
      kBlocks.push_back(origin.second);

  Type accElement = operands.c.front().getType();
  auto accType = VectorType::get({accCount}, accElement);
  std::map<Coords, Value> accs;
  for (auto &[origin, regs] : accBlocks) {
    Value vec = LLVM::UndefOp::create(b, loc, accType);
    for (auto [j, reg] : llvm::enumerate(regs)) {
      if (reg < 0)
        return failure();
      vec = LLVM::InsertElementOp::create(b, loc, vec, operands.c[reg],
                                          createI32(b, loc, int32_t(j)));
    }
    accs[origin] = vec;
  }
  StringAttr intrinsic = b.getStringAttr("llvm.amdgcn." + name);
  // cbsz, abid, blgp: no broadcast between blocks, no lane-group swizzle.
  Value zero = createI32(b, loc, 0);
  for (int32_t k : kBlocks) {
    for (auto &[origin, regs] : accBlocks) {
      auto [row, col] = origin;
      auto a = aBlocks.find({row, k});
      auto bt = bBlocks.find({k, col});
      if (a == aBlocks.end() || bt == bBlocks.end())
        return failure();
      Value args[] = {packOperand(b, loc, a->second),
                      packOperand(b, loc, bt->second),
                      accs[origin],
                      zero,
                      zero,
                      zero};
      accs[origin] =
          LLVM::CallIntrinsicOp::create(b, loc, accType, intrinsic, args)
              .getResult(0);
    }
  }
  SmallVector<Value> result(operands.c.begin(), operands.c.end());
  for (auto &[origin, regs] : accBlocks)
    for (auto [j, reg] : llvm::enumerate(regs))
      result[reg] = LLVM::ExtractElementOp::create(
          b, loc, accs[origin], createI32(b, loc, int32_t(j)));
  return result;
}
