//===- Tutorial07ExternFunctions.cpp - Cases of 07_extern_functions -------===//
//
// libdevice.asin, bound by each backend to its math library, over [-1, 1]
// including the end points.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

#include <cmath>

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::cdiv;

static constexpr llvm::StringLiteral kFile = "07_extern_functions";

static void runAsin(CaseContext &ctx, int64_t n, int64_t block) {
  HostTensor x(DType::F32, {n});
  fillUniform(x, ctx.getRng(), -1, 1);
  // The ends of the domain, where asin is steepest.
  x.set(0, -1.0);
  x.set(n - 1, 1.0);
  DeviceTensor dx = ctx.upload(x);
  DeviceTensor dy = ctx.poisoned(DType::F32, {n});
  ctx.launch("asin_kernel", cdiv(n, block), {dx, dy, n},
             {{"BLOCK_SIZE", block}});
  if (ctx.isCompileOnly())
    return;
  HostTensor y = ctx.download(dy);
  std::vector<double> ref(n);
  for (int64_t i = 0; i < n; ++i)
    ref[i] = std::asin(x.get(i));
  ctx.checkError("y", y, ref,
                 getTolerance(DType::F32, Accuracy::Transcendental));
}

void mlir::tessera::conformance::addExternFunctionsTutorial(Suite &suite) {
  CaseSpec spec;
  spec.file = kFile.str();
  spec.kernel = "asin_kernel";
  spec.name = "fp32,n=1000,BLOCK_SIZE=256";
  spec.requirements = requireDTypes({DType::F32});
  spec.run = [](CaseContext &ctx) { runAsin(ctx, 1000, 256); };
  suite.addCase(std::move(spec));
}
