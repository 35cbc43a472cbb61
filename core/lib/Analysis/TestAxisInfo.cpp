//===- TestAxisInfo.cpp - Print the axis-info analysis as remarks ---------===//
//
// `tessera-test-print-axis-info` reports the fact of every integer and
// pointer value as a remark on the op that defines it, so that lit tests pin
// the analysis with `--verify-diagnostics`. Block arguments are reported on
// the op that owns their region: `arg #i` for function arguments,
// `region #r arg #i` for the others (loop induction variables and carried
// values). Loads and stores through blocks of pointers also get a remark
// with what ModuleAxisInfoAnalysis's helpers answer for them (row-major
// order): `access: contiguity = .., alignment = .., mask alignment = ..`.
//
//===----------------------------------------------------------------------===//
#include "AxisInfoImpl.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// Only values whose elements are integers or pointers carry meaningful
/// facts; the others are left out to keep the tests short.
bool isTracked(Value value) {
  axisinfo::TypeFacts facts = axisinfo::getTypeFacts(value.getType());
  return facts.isInt || facts.isPtr;
}

struct TestAxisInfoPass
    : public PassWrapper<TestAxisInfoPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)

  StringRef getArgument() const final { return "tessera-test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Report the axis-info analysis's facts as remarks (for tests)";
  }

  void runOnOperation() override {
    ModuleAxisInfoAnalysis analysis(getOperation());
    auto describe = [&](Value value) {
      std::string text;
      llvm::raw_string_ostream os(text);
      analysis.getAxisInfo(value).print(os);
      return text;
    };
    getOperation()->walk([&](Operation *op) {
      bool isFunction = isa<FunctionOpInterface>(op);
      for (Region &region : op->getRegions()) {
        if (region.empty())
          continue;
        for (BlockArgument arg : region.front().getArguments()) {
          if (!isTracked(arg))
            continue;
          InFlightDiagnostic remark = op->emitRemark();
          if (!isFunction)
            remark << "region #" << region.getRegionNumber() << " ";
          remark << "arg #" << arg.getArgNumber() << ": " << describe(arg);
        }
      }
      auto reportAccess = [&](Value ptr, Value mask) {
        if (!isa<RankedTensorType>(ptr.getType()))
          return;
        InFlightDiagnostic remark = op->emitRemark();
        remark << "access: contiguity = " << analysis.getPtrContiguity(ptr)
               << ", alignment = " << analysis.getPtrAlignment(ptr)
               << ", mask alignment = ";
        if (mask)
          remark << analysis.getMaskAlignment(mask);
        else
          remark << "none";
      };
      if (auto load = dyn_cast<LoadOp>(op))
        reportAccess(load.getPtr(), load.getMask());
      if (auto store = dyn_cast<StoreOp>(op))
        reportAccess(store.getPtr(), store.getMask());
      for (OpResult result : op->getResults()) {
        if (!isTracked(result))
          continue;
        InFlightDiagnostic remark = op->emitRemark();
        if (op->getNumResults() > 1)
          remark << "result #" << result.getResultNumber() << ": ";
        remark << describe(result);
      }
    });
  }
};

} // namespace

void mlir::tessera::registerTestAxisInfoPass() {
  PassRegistration<TestAxisInfoPass>();
}
