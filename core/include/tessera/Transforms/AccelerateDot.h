//===- AccelerateDot.h - Dots onto the target's matrix instructions -*- C++
//-*-//
//
// The core half of dot selection: the target lists its matrix instructions
// (TargetDescription::matrixInstructions) and supplies, through a
// MatrixLayoutProvider, the layouts one of them needs; the accelerate-dot
// pass checks each dot's element types against the table, asks the
// provider for layouts, and rewrites the dot into them. A dot no
// instruction takes stays on multiply-adds, with a remark saying why.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TRANSFORMS_ACCELERATEDOT_H
#define TESSERA_TRANSFORMS_ACCELERATEDOT_H

#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Layout/LinearLayout.h"
#include "tessera/Target/TargetDescription.h"

#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>

namespace mlir::tessera {

/// The name of the pipeline stage that runs the pass; targets with matrix
/// instructions add it after convert-to-gpu.
constexpr llvm::StringLiteral kAccelerateDotStage = "accelerate-dot";

/// The discardable attribute naming the matrix instruction (its
/// MatrixInstruction::name) a dot was given layouts for; the target's dot
/// lowering reads it.
constexpr llvm::StringLiteral kMatrixInstructionAttrName =
    "tessera_gpu.matrix_instruction";

/// The layouts of one dot on a matrix instruction, over the dot's shapes
/// (A: M x K, B: K x N, accumulator: M x N).
struct MatrixLayouts {
  LinearLayout a, b, acc;
};

/// What one dot asks of a matrix instruction.
struct DotShape {
  int64_t m = 0, n = 0, k = 0;
  /// Warps of the launch and threads per warp.
  unsigned numWarps = 4, threadsPerWarp = 32;
};

/// A target's choice of layouts for its matrix instructions.
class MatrixLayoutProvider {
public:
  virtual ~MatrixLayoutProvider();

  /// The layouts that let `instr` compute a dot of `shape`, or an error
  /// saying why it cannot (a shape it does not tile, an instruction the
  /// target's lowering does not emit yet).
  virtual llvm::Expected<MatrixLayouts>
  getLayouts(const MatrixInstruction &instr, const DotShape &shape) const = 0;
};

/// The Triton dtype name of a dot operand of element type `type`, as the
/// matrix-instruction table spells it: fp32 multiplied at tf32 precision is
/// "tf32"; integers are "int8", "int32", ... Empty for other types.
std::string getMatrixDtype(Type type, InputPrecision precision);

/// A dot accelerate-dot gave a matrix instruction, as a target's dot
/// lowering meets it.
struct AcceleratedDot {
  DotOp dot;
  /// The instruction, an entry of the TargetDescription passed to
  /// matchAcceleratedDot (which must outlive this).
  const MatrixInstruction *instr = nullptr;
  MatrixLayouts layouts;
};

/// `op` as a dot accelerate-dot gave an instruction of `target` whose name
/// starts with `prefix`, with operand types that instruction takes, when
/// its operands and accumulator are still in the layouts `provider` gives
/// it; failure (nothing emitted) otherwise, so the lowering can decline.
FailureOr<AcceleratedDot>
matchAcceleratedDot(Operation *op, llvm::StringRef prefix,
                    const TargetDescription &target,
                    const MatrixLayoutProvider &provider);

/// The accelerate-dot pass over laid-out (tessera_gpu) IR for `target`,
/// whose layouts come from `provider`.
std::unique_ptr<Pass>
createAccelerateDotPass(TargetDescription target,
                        std::shared_ptr<const MatrixLayoutProvider> provider);

/// Registers `tessera-test-accelerate-dot` with tessera-opt: the pass with
/// instructions given on the command line and layouts from a pretend
/// target, for lit tests.
void registerTestAccelerateDotPass();

} // namespace mlir::tessera

#endif // TESSERA_TRANSFORMS_ACCELERATEDOT_H
