//===- TestAccelerateDot.cpp - accelerate-dot with a pretend target -------===//
//
// `tessera-test-accelerate-dot` runs the accelerate-dot pass for a target
// whose matrix instructions are given on the command line
// (`instructions=name:MxNxK:a*b->acc`). Its layouts are blocked ones (two by
// two elements per thread, lanes 8 x 4, warps along M) with the matching
// multiply-add operand layouts, so tests can see a dot change layouts and
// still lower. `decline` names instructions whose layouts it refuses.
//
//===----------------------------------------------------------------------===//
#include "tessera/Layout/LayoutConversions.h"
#include "tessera/Transforms/AccelerateDot.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

struct TestOptions : public PassPipelineOptions<TestOptions> {
  ListOption<std::string> instructions{
      *this, "instructions",
      llvm::cl::desc("Matrix instructions, name:MxNxK:a*b->acc")};
  ListOption<std::string> decline{
      *this, "decline",
      llvm::cl::desc("Instructions whose layouts the target refuses")};
};

class TestProvider : public MatrixLayoutProvider {
public:
  explicit TestProvider(ArrayRef<std::string> declined) {
    for (const std::string &name : declined)
      this->declined.insert(name);
  }

  llvm::Expected<MatrixLayouts>
  getLayouts(const MatrixInstruction &instr,
             const DotShape &shape) const override {
    if (declined.contains(instr.name))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "declined by the test target");
    if (shape.m < instr.m || shape.n < instr.n || shape.k % instr.k != 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("{0}x{1}x{2} is not tiled by {3}x{4}x{5}", shape.m,
                        shape.n, shape.k, instr.m, instr.n, instr.k)
              .str());
    BlockedLayoutParams params;
    params.sizePerThread = {2, 2};
    params.threadsPerWarp = {shape.threadsPerWarp / 4, 4};
    params.warpsPerCTA = {shape.numWarps, 1};
    params.order = {1, 0};
    MatrixLayouts layouts;
    layouts.acc = blockedToLinearLayout({shape.m, shape.n}, params);
    layouts.a =
        dotOperandOfBlockedToLinearLayout({shape.m, shape.k}, params, 0);
    layouts.b =
        dotOperandOfBlockedToLinearLayout({shape.k, shape.n}, params, 1);
    return layouts;
  }

private:
  llvm::StringSet<> declined;
};

/// Parses `name:MxNxK:a*b->acc`.
FailureOr<MatrixInstruction> parseInstruction(StringRef text) {
  SmallVector<StringRef> parts;
  text.split(parts, ':');
  if (parts.size() != 3)
    return failure();
  MatrixInstruction instr;
  instr.name = parts[0].str();
  SmallVector<StringRef> sizes;
  parts[1].split(sizes, 'x');
  if (sizes.size() != 3 || sizes[0].getAsInteger(10, instr.m) ||
      sizes[1].getAsInteger(10, instr.n) || sizes[2].getAsInteger(10, instr.k))
    return failure();
  auto [operands, acc] = parts[2].split("->");
  auto [a, b] = operands.split('*');
  if (a.empty() || b.empty() || acc.empty())
    return failure();
  instr.aType = a.str();
  instr.bType = b.str();
  instr.accType = acc.str();
  return instr;
}

} // namespace

void mlir::tessera::registerTestAccelerateDotPass() {
  registerPassPipeline(
      "tessera-test-accelerate-dot",
      "accelerate-dot for a target with the given matrix instructions (for "
      "tests)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        TestOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        TargetDescription target;
        target.backend = "test";
        target.arch = "test-arch";
        for (const std::string &spec : options.instructions) {
          FailureOr<MatrixInstruction> instr = parseInstruction(spec);
          if (failed(instr))
            return errorHandler("bad instruction '" + spec +
                                "', expected name:MxNxK:a*b->acc");
          target.matrixInstructions.push_back(*instr);
        }
        pm.addPass(createAccelerateDotPass(
            target, std::make_shared<TestProvider>(options.decline)));
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(TestOptions());
      });
}
