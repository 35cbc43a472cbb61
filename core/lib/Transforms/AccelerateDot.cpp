//===- AccelerateDot.cpp - Dots onto the target's matrix instructions -----===//
//
// For each dot of laid-out IR, the first matrix instruction of the target's
// table whose operand and accumulator types match is asked for layouts; the
// first that gives them wins, and the dot is rebuilt in them (operands and
// accumulator converted in, the result converted back, so the layout
// optimization that follows can move the surrounding code into the
// instruction's layouts). Dots no instruction takes keep their multiply-add
// layouts; when the target has matrix instructions at all, a remark says
// why each was passed over.
//
//===----------------------------------------------------------------------===//
#include "tessera/Transforms/AccelerateDot.h"

#include "tessera/Dialect/Tessera/IR/ScalarTypes.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

MatrixLayoutProvider::~MatrixLayoutProvider() = default;

std::string mlir::tessera::getMatrixDtype(Type type, InputPrecision precision) {
  if (type.isF32() && precision == InputPrecision::tf32)
    return "tf32";
  const ScalarTypeInfo *info = lookupScalarType(type);
  // No target lists fp8e4b15 operands: its dots compute in fp16.
  if (!info || info->name == "fp8e4b15")
    return "";
  return info->dtypeName.str();
}

FailureOr<AcceleratedDot>
mlir::tessera::matchAcceleratedDot(Operation *op, llvm::StringRef prefix,
                                   const TargetDescription &target,
                                   const MatrixLayoutProvider &provider) {
  auto dot = dyn_cast_or_null<DotOp>(op);
  if (!dot)
    return failure();
  auto name = dot->getAttrOfType<StringAttr>(kMatrixInstructionAttrName);
  if (!name || !name.getValue().starts_with(prefix))
    return failure();
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  auto cType = cast<RankedTensorType>(dot.getC().getType());
  std::string aDtype =
      getMatrixDtype(aType.getElementType(), dot.getInputPrecision());
  std::string accDtype =
      getMatrixDtype(cType.getElementType(), InputPrecision::ieee);
  const MatrixInstruction *instr = nullptr;
  for (const MatrixInstruction &mi : target.matrixInstructions)
    if (mi.name == name.getValue() && mi.aType == aDtype &&
        mi.accType == accDtype)
      instr = &mi;
  FailureOr<gpu::LaunchShape> launch = gpu::getLaunchShape(dot);
  if (!instr || failed(launch))
    return failure();
  // The layouts must be the ones the instruction was chosen with.
  DotShape shape;
  shape.m = cType.getShape()[0];
  shape.n = cType.getShape()[1];
  shape.k = aType.getShape()[1];
  shape.numWarps = launch->numWarps;
  shape.threadsPerWarp = launch->threadsPerWarp;
  llvm::Expected<MatrixLayouts> layouts = provider.getLayouts(*instr, shape);
  if (!layouts) {
    llvm::consumeError(layouts.takeError());
    return failure();
  }
  if (layouts->a != gpu::toLinearLayout(aType) ||
      layouts->b != gpu::toLinearLayout(bType) ||
      layouts->acc != gpu::toLinearLayout(cType))
    return failure();
  return AcceleratedDot{dot, instr, std::move(*layouts)};
}

namespace {

/// Checks that `layout` is a distributed layout of a tensor of `shape`.
llvm::Error checkShape(const LinearLayout &layout, ArrayRef<int64_t> shape,
                       StringRef what) {
  auto outDims = layout.getOutDims();
  bool matches = outDims.size() == shape.size();
  for (unsigned d = 0; matches && d < shape.size(); ++d)
    matches = outDims[d].second == shape[d];
  if (!matches || !layout.hasInDim("register") || !layout.isSurjective())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the target's " + what.str() +
            " layout does not cover the tensor's shape");
  return llvm::Error::success();
}

class AccelerateDotPass
    : public PassWrapper<AccelerateDotPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AccelerateDotPass)

  AccelerateDotPass(TargetDescription target,
                    std::shared_ptr<const MatrixLayoutProvider> provider)
      : target(std::move(target)), provider(std::move(provider)) {}

  StringRef getArgument() const final { return "tessera-accelerate-dot"; }
  StringRef getDescription() const final {
    return "Give dots the layouts of the target's matrix instructions";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<TesseraGPUDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<LaunchShape> launch = getLaunchShape(module);
    if (failed(launch)) {
      module.emitError("accelerate-dot needs laid-out IR: run convert-to-gpu "
                       "first");
      return signalPassFailure();
    }
    SmallVector<DotOp> dots;
    module.walk([&](DotOp dot) { dots.push_back(dot); });
    for (DotOp dot : dots)
      if (failed(accelerate(dot, *launch)))
        return signalPassFailure();
  }

private:
  LogicalResult accelerate(DotOp dot, const LaunchShape &launch) {
    if (target.matrixInstructions.empty())
      return success();
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto bType = cast<RankedTensorType>(dot.getB().getType());
    auto cType = cast<RankedTensorType>(dot.getC().getType());
    if (!cType.getEncoding())
      return success();
    InputPrecision precision = dot.getInputPrecision();
    std::string aDtype = getMatrixDtype(aType.getElementType(), precision);
    std::string bDtype = getMatrixDtype(bType.getElementType(), precision);
    std::string accDtype =
        getMatrixDtype(cType.getElementType(), InputPrecision::ieee);
    auto remark = [&]() {
      return dot.emitRemark("dot of ")
             << aType.getElementType() << " x " << bType.getElementType()
             << " -> " << cType.getElementType() << " stays on multiply-adds: ";
    };
    if (cType.getRank() != 2) {
      remark() << "the " << target.backend
               << " target's matrix instructions take two-dimensional dots";
      return success();
    }

    DotShape shape;
    shape.m = cType.getShape()[0];
    shape.n = cType.getShape()[1];
    shape.k = aType.getShape()[1];
    shape.numWarps = launch.numWarps;
    shape.threadsPerWarp = launch.threadsPerWarp;
    SmallVector<std::string> passedOver;
    for (const MatrixInstruction &instr : target.matrixInstructions) {
      if (instr.aType != aDtype || instr.bType != bDtype ||
          instr.accType != accDtype)
        continue;
      llvm::Expected<MatrixLayouts> layouts =
          provider->getLayouts(instr, shape);
      if (!layouts) {
        passedOver.push_back(instr.name + ": " +
                             llvm::toString(layouts.takeError()));
        continue;
      }
      for (auto [layout, tensor, what] :
           {std::tuple(&layouts->a, aType, "A operand"),
            std::tuple(&layouts->b, bType, "B operand"),
            std::tuple(&layouts->acc, cType, "accumulator")})
        if (llvm::Error err = checkShape(*layout, tensor.getShape(), what))
          return dot.emitError("matrix instruction ")
                 << instr.name << ": " << llvm::toString(std::move(err));
      rewrite(dot, instr, *layouts);
      return success();
    }
    if (passedOver.empty())
      remark() << "the " << target.backend << " target (" << target.arch
               << ") has no matrix instruction for " << aDtype << " x "
               << bDtype << " -> " << accDtype;
    else
      remark() << llvm::join(passedOver, "; ");
    return success();
  }

  /// Rebuilds `dot` with operands and result in `layouts`.
  void rewrite(DotOp dot, const MatrixInstruction &instr,
               const MatrixLayouts &layouts) {
    MLIRContext *ctx = dot.getContext();
    OpBuilder builder(dot);
    Location loc = dot.getLoc();
    auto convert = [&](Value value, const LinearLayout &layout) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      return ConvertLayoutOp::create(
          builder, loc, withEncoding(type, LinearAttr::get(ctx, layout)),
          value);
    };
    Value a = convert(dot.getA(), layouts.a);
    Value b = convert(dot.getB(), layouts.b);
    Value c = convert(dot.getC(), layouts.acc);
    auto accelerated =
        DotOp::create(builder, loc, c.getType(), a, b, c,
                      dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
    accelerated->setAttr(kMatrixInstructionAttrName,
                         builder.getStringAttr(instr.name));
    Value back = ConvertLayoutOp::create(builder, loc, dot.getType(),
                                         accelerated.getResult());
    dot.replaceAllUsesWith(back);
    dot.erase();
  }

  TargetDescription target;
  std::shared_ptr<const MatrixLayoutProvider> provider;
};

} // namespace

std::unique_ptr<Pass> mlir::tessera::createAccelerateDotPass(
    TargetDescription target,
    std::shared_ptr<const MatrixLayoutProvider> provider) {
  return std::make_unique<AccelerateDotPass>(std::move(target),
                                             std::move(provider));
}
