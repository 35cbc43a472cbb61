//===- Tutorial02FusedSoftmax.cpp - Cases of 02_fused_softmax -------------===//
//
// Row-wise softmax with the row in one block: a 1x1 input, columns padded
// with -inf up to the block, and the persistent row loop with fewer
// programs than rows.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

#include "tessera/Conformance/Bench.h"

#include <cmath>

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;

static constexpr llvm::StringLiteral kFile = "02_fused_softmax";
static constexpr int kNumWarps = 8;

/// The pipelining depth the file's header asks for: 4 with at least 200 KB
/// of shared memory per block, else 2.
static int getNumStages(const TargetDescription &target) {
  return target.maxSharedMemoryPerBlock >= 200 * 1024 ? 4 : 2;
}

static void launchSoftmax(CaseContext &ctx, const DeviceTensor &out,
                          const DeviceTensor &in, int64_t rows, int64_t cols,
                          int64_t programs) {
  int stages = getNumStages(ctx.getTarget());
  runtime::LaunchOptions options;
  options.numWarps = kNumWarps;
  options.numStages = stages;
  ctx.launch("softmax_kernel", programs, {out, in, cols, cols, rows, cols},
             {{"BLOCK_SIZE", nextPowerOf2(cols)}, {"num_stages", stages}},
             options);
}

static void runSoftmax(CaseContext &ctx, int64_t rows, int64_t cols,
                       int64_t programs, DType dtype) {
  HostTensor x(dtype, {rows, cols});
  fillNormal(x, ctx.getRng(), 4.0);
  DeviceTensor dx = ctx.upload(x);
  DeviceTensor dy = ctx.poisoned(dtype, {rows, cols});
  launchSoftmax(ctx, dy, dx, rows, cols, programs);
  if (ctx.isCompileOnly())
    return;
  HostTensor y = ctx.download(dy);

  std::vector<double> ref(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    double rowMax = -INFINITY;
    for (int64_t c = 0; c < cols; ++c)
      rowMax = std::max(rowMax, x.get(r * cols + c));
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      sum += ref[r * cols + c] = std::exp(x.get(r * cols + c) - rowMax);
    for (int64_t c = 0; c < cols; ++c)
      ref[r * cols + c] /= sum;
  }
  // The row sum's rounding dominates the error and grows with the row
  // length (about sqrt(n_cols) ulps summed in order), so softmax is held to
  // the reduction tolerance, not the one of a single exp.
  ctx.checkError("y", y, ref, getTolerance(dtype, Accuracy::Reduction));
}

void mlir::tessera::conformance::addFusedSoftmaxTutorial(Suite &suite) {
  struct Shape {
    int64_t rows, cols, programs;
    DType dtype;
  };
  for (Shape s :
       {Shape{1, 1, 1, DType::F32}, Shape{7, 33, 3, DType::F32},
        Shape{64, 1000, 8, DType::F32}, Shape{13, 129, 13, DType::F16}}) {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "softmax_kernel";
    spec.name = getShortDTypeName(s.dtype).str() + "," +
                std::to_string(s.rows) + "x" + std::to_string(s.cols) +
                ",grid=" + std::to_string(s.programs);
    spec.requirements = requireDTypes({s.dtype});
    spec.run = [s](CaseContext &ctx) {
      runSoftmax(ctx, s.rows, s.cols, s.programs, s.dtype);
    };
    suite.addCase(std::move(spec));
  }

  // GUIDE: fp32 4096x8192, each element read and written once.
  bool scaled = suite.getOptions().scaledBenchmarks;
  int64_t rows = scaled ? 512 : 4096, cols = scaled ? 2048 : 8192;
  BenchSpec bench;
  bench.file = kFile.str();
  bench.kernel = "softmax_kernel";
  bench.name = "fp32," + std::to_string(rows) + "x" + std::to_string(cols);
  bench.scaled = scaled;
  bench.requirements = requireDTypes({DType::F32});
  bench.run = [rows, cols](BenchContext &ctx) {
    HostTensor x(DType::F32, {rows, cols});
    fillUniform(x, ctx.getRng(), -4, 4);
    DeviceTensor dx = ctx.upload(x);
    DeviceTensor dy = ctx.poisoned(DType::F32, {rows, cols});
    // Four programs per multiprocessor, persistent over the rows.
    int64_t programs =
        std::min<int64_t>(rows, 4 * int64_t(ctx.getMultiprocessorCount()));
    ctx.setBytes(2.0 * 4 * rows * cols);
    ctx.time("grid=" + std::to_string(programs),
             [&] { launchSoftmax(ctx, dy, dx, rows, cols, programs); });
  };
  suite.addBenchmark(std::move(bench));
}
