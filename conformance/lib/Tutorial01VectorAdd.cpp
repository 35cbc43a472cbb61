//===- Tutorial01VectorAdd.cpp - Cases of 01_vector_add -------------------===//
//
// out = x + y over n elements: tails of every size against the block,
// several programs, and a block smaller than the default.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

#include "tessera/Conformance/Bench.h"

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::cdiv;

static constexpr llvm::StringLiteral kFile = "01_vector_add";

static void runVectorAdd(CaseContext &ctx, int64_t n, int64_t block) {
  HostTensor x(DType::F32, {n}), y(DType::F32, {n});
  fillNormal(x, ctx.getRng());
  fillNormal(y, ctx.getRng());
  DeviceTensor dx = ctx.upload(x), dy = ctx.upload(y);
  DeviceTensor out = ctx.poisoned(DType::F32, {n});
  ctx.launch("add_kernel", cdiv(n, block), {dx, dy, out, n},
             {{"BLOCK_SIZE", block}});
  if (ctx.isCompileOnly())
    return;
  HostTensor result = ctx.download(out);
  std::vector<double> ref(n);
  for (int64_t i = 0; i < n; ++i)
    ref[i] = x.get(i) + y.get(i);
  ctx.checkError("out", result, ref,
                 getTolerance(DType::F32, Accuracy::Elementwise));
}

void mlir::tessera::conformance::addVectorAddTutorial(Suite &suite) {
  struct Shape {
    int64_t n, block;
  };
  for (Shape s : {Shape{1, 1024}, Shape{1000, 1024}, Shape{4097, 1024},
                  Shape{1000, 128}}) {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "add_kernel";
    spec.name = "n=" + std::to_string(s.n);
    if (s.block != 1024)
      spec.name += ",BLOCK_SIZE=" + std::to_string(s.block);
    spec.requirements = requireDTypes({DType::F32});
    spec.run = [s](CaseContext &ctx) { runVectorAdd(ctx, s.n, s.block); };
    suite.addCase(std::move(spec));
  }

  // GUIDE: fp32, 2^28 elements; 3 * 4 bytes move per element.
  bool scaled = suite.getOptions().scaledBenchmarks;
  int exponent = scaled ? 22 : 28;
  BenchSpec bench;
  bench.file = kFile.str();
  bench.kernel = "add_kernel";
  bench.name = "fp32,n=2^" + std::to_string(exponent);
  bench.scaled = scaled;
  bench.requirements = requireDTypes({DType::F32});
  bench.run = [exponent](BenchContext &ctx) {
    int64_t n = int64_t(1) << exponent;
    HostTensor x(DType::F32, {n}), y(DType::F32, {n});
    fillUniform(x, ctx.getRng(), -1, 1);
    fillUniform(y, ctx.getRng(), -1, 1);
    DeviceTensor dx = ctx.upload(x), dy = ctx.upload(y);
    DeviceTensor out = ctx.poisoned(DType::F32, {n});
    ctx.setBytes(3.0 * 4 * n);
    ctx.time("BLOCK_SIZE=1024", [&] {
      ctx.launch("add_kernel", cdiv(n, 1024), {dx, dy, out, n},
                 {{"BLOCK_SIZE", 1024}});
    });
  };
  suite.addBenchmark(std::move(bench));
}
