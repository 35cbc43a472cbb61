//===- Tutorial05LayerNorm.cpp - Cases of 05_layer_norm -------------------===//
//
// The forward pass (Y, Mean, Rstd, with a row longer than the block so the
// chunk loop runs) and the backward pass: dX per row, partial dW/dB rows
// accumulated under a spin lock per group, then summed by a second kernel.
// The lock array must come back to zero and the "written" flags must be
// set exactly for the groups that received rows.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

#include <cmath>

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::cdiv;
using runtime::KernelArg;

static constexpr llvm::StringLiteral kFile = "05_layer_norm";
static constexpr double kEps = 1e-5;

/// num_warps of the file's header: min(max(BLOCK / 256, 1), 8).
static int getNumWarps(int64_t block) {
  return static_cast<int>(
      std::min<int64_t>(std::max<int64_t>(block / 256, 1), 8));
}

namespace {
/// Per-row statistics in float64.
struct RowStats {
  std::vector<double> mean, rstd;
};
} // namespace

static RowStats computeStats(const HostTensor &x, int64_t rows, int64_t cols) {
  RowStats stats;
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      sum += x.get(r * cols + c);
    double mean = sum / cols;
    double var = 0;
    for (int64_t c = 0; c < cols; ++c) {
      double d = x.get(r * cols + c) - mean;
      var += d * d;
    }
    var /= cols;
    stats.mean.push_back(mean);
    stats.rstd.push_back(1.0 / std::sqrt(var + kEps));
  }
  return stats;
}

static void launchForward(CaseContext &ctx, const DeviceTensor &x,
                          const DeviceTensor &y, const DeviceTensor &w,
                          const DeviceTensor &b, const DeviceTensor &mean,
                          const DeviceTensor &rstd, int64_t rows, int64_t cols,
                          int64_t block) {
  runtime::LaunchOptions options;
  options.numWarps = getNumWarps(block);
  ctx.launch("_layer_norm_fwd_fused", rows,
             {x, y, w, b, mean, rstd, cols, cols, KernelArg::floating(kEps)},
             {{"BLOCK_SIZE", block}}, options);
}

static void runForward(CaseContext &ctx, int64_t rows, int64_t cols,
                       DType dtype, int64_t block) {
  HostTensor x(dtype, {rows, cols}), w(dtype, {cols}), b(dtype, {cols});
  fillNormal(x, ctx.getRng(), 2.0, 0.5);
  fillUniform(w, ctx.getRng());
  fillNormal(b, ctx.getRng());
  DeviceTensor dx = ctx.upload(x), dw = ctx.upload(w), db = ctx.upload(b);
  DeviceTensor dy = ctx.poisoned(dtype, {rows, cols});
  DeviceTensor dmean = ctx.poisoned(DType::F32, {rows});
  DeviceTensor drstd = ctx.poisoned(DType::F32, {rows});
  launchForward(ctx, dx, dy, dw, db, dmean, drstd, rows, cols, block);
  if (ctx.isCompileOnly())
    return;
  HostTensor y = ctx.download(dy), mean = ctx.download(dmean),
             rstd = ctx.download(drstd);

  RowStats stats = computeStats(x, rows, cols);
  std::vector<double> ref(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      ref[r * cols + c] =
          (x.get(r * cols + c) - stats.mean[r]) * stats.rstd[r] * w.get(c) +
          b.get(c);
  ctx.checkError("y", y, ref, getTolerance(dtype, Accuracy::Reduction));
  double statsTolerance = getTolerance(DType::F32, Accuracy::Reduction);
  ctx.checkError("mean", mean, stats.mean, statsTolerance);
  ctx.checkError("rstd", rstd, stats.rstd, statsTolerance);
}

static void runBackward(CaseContext &ctx, int64_t rows, int64_t cols,
                        DType dtype, int64_t group) {
  HostTensor x(dtype, {rows, cols}), w(dtype, {cols}), b(dtype, {cols}),
      dy(dtype, {rows, cols});
  fillNormal(x, ctx.getRng());
  fillUniform(w, ctx.getRng());
  fillNormal(b, ctx.getRng());
  fillNormal(dy, ctx.getRng());
  int64_t block = nextPowerOf2(cols);
  DeviceTensor dX = ctx.upload(x), dW = ctx.upload(w), dB = ctx.upload(b),
               dDY = ctx.upload(dy);
  DeviceTensor y = ctx.poisoned(dtype, {rows, cols});
  DeviceTensor mean = ctx.poisoned(DType::F32, {rows});
  DeviceTensor rstd = ctx.poisoned(DType::F32, {rows});
  launchForward(ctx, dX, y, dW, dB, mean, rstd, rows, cols, block);

  // The contract: Lock zeroed before the launch; partial sums poisoned, so
  // a group read before its first write shows up.
  DeviceTensor lock = ctx.zeros(DType::I32, {2 * group});
  DeviceTensor partialDw = ctx.poisoned(DType::F32, {group, cols});
  DeviceTensor partialDb = ctx.poisoned(DType::F32, {group, cols});
  DeviceTensor gradX = ctx.poisoned(dtype, {rows, cols});
  runtime::LaunchOptions options;
  options.numWarps = getNumWarps(block);
  ctx.launch(
      "_layer_norm_bwd_dx_fused", rows,
      {gradX, dDY, partialDw, partialDb, dX, dW, mean, rstd, lock, cols, cols},
      {{"GROUP_SIZE_M", group}, {"BLOCK_SIZE_N", block}}, options);
  DeviceTensor gradW = ctx.poisoned(dtype, {cols});
  DeviceTensor gradB = ctx.poisoned(dtype, {cols});
  // Small blocks so that both the row loop and the column mask run.
  int64_t partialRows = std::min(group, rows);
  ctx.launch("_layer_norm_bwd_dwdb", cdiv(cols, 16),
             {partialDw, partialDb, gradW, gradB, partialRows, cols},
             {{"BLOCK_SIZE_M", 4}, {"BLOCK_SIZE_N", 16}});
  if (ctx.isCompileOnly())
    return;
  HostTensor dx = ctx.download(gradX), dw = ctx.download(gradW),
             db = ctx.download(gradB), locks = ctx.download(lock);

  RowStats stats = computeStats(x, rows, cols);
  std::vector<double> refDx(rows * cols), refDw(cols, 0.0), refDb(cols, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> xhat(cols), g(cols);
    double meanXg = 0, meanG = 0;
    for (int64_t c = 0; c < cols; ++c) {
      xhat[c] = (x.get(r * cols + c) - stats.mean[r]) * stats.rstd[r];
      g[c] = w.get(c) * dy.get(r * cols + c);
      meanXg += xhat[c] * g[c];
      meanG += g[c];
      refDw[c] += dy.get(r * cols + c) * xhat[c];
      refDb[c] += dy.get(r * cols + c);
    }
    meanXg /= cols;
    meanG /= cols;
    for (int64_t c = 0; c < cols; ++c)
      refDx[r * cols + c] = stats.rstd[r] * (g[c] - (xhat[c] * meanXg + meanG));
  }
  double tolerance = getTolerance(dtype, Accuracy::Backward);
  ctx.checkError("dx", dx, refDx, tolerance);
  ctx.checkError("dw", dw, refDw, tolerance);
  ctx.checkError("db", db, refDb, tolerance);
  int64_t held = 0, wrongFlags = 0;
  for (int64_t g = 0; g < group; ++g) {
    held += locks.getInt(g) != 0;
    wrongFlags += locks.getInt(group + g) != (g < partialRows ? 1 : 0);
  }
  ctx.check("locks still held", double(held), 0);
  ctx.check("wrong written-flags", double(wrongFlags), 0);
}

void mlir::tessera::conformance::addLayerNormTutorial(Suite &suite) {
  struct Forward {
    int64_t rows, cols;
    DType dtype;
    int64_t block;
  };
  for (Forward f :
       {Forward{37, 100, DType::F32, 128}, Forward{19, 300, DType::F16, 64},
        Forward{1, 1, DType::F32, 1}}) {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "_layer_norm_fwd_fused";
    spec.name = getShortDTypeName(f.dtype).str() + "," +
                std::to_string(f.rows) + "x" + std::to_string(f.cols) +
                ",BLOCK_SIZE=" + std::to_string(f.block);
    spec.requirements = requireDTypes({f.dtype, DType::F32});
    spec.run = [f](CaseContext &ctx) {
      runForward(ctx, f.rows, f.cols, f.dtype, f.block);
    };
    suite.addCase(std::move(spec));
  }
  struct Backward {
    int64_t rows, cols;
    DType dtype;
    int64_t group;
  };
  for (Backward b :
       {Backward{37, 100, DType::F32, 8}, Backward{50, 64, DType::F16, 16},
        Backward{5, 33, DType::F32, 64}}) {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "_layer_norm_bwd_dx_fused+_layer_norm_bwd_dwdb";
    spec.name = getShortDTypeName(b.dtype).str() + "," +
                std::to_string(b.rows) + "x" + std::to_string(b.cols) +
                ",GROUP_SIZE_M=" + std::to_string(b.group);
    spec.requirements = requireDTypes({b.dtype, DType::F32, DType::I32});
    spec.run = [b](CaseContext &ctx) {
      runBackward(ctx, b.rows, b.cols, b.dtype, b.group);
    };
    suite.addCase(std::move(spec));
  }

  // GUIDE: forward, fp16 4096x8192; X read and Y written once.
  bool scaled = suite.getOptions().scaledBenchmarks;
  int64_t rows = scaled ? 512 : 4096, cols = scaled ? 2048 : 8192;
  BenchSpec bench;
  bench.file = kFile.str();
  bench.kernel = "_layer_norm_fwd_fused";
  bench.name = "fp16," + std::to_string(rows) + "x" + std::to_string(cols);
  bench.scaled = scaled;
  bench.requirements = requireDTypes({DType::F16, DType::F32});
  bench.run = [rows, cols](BenchContext &ctx) {
    HostTensor x(DType::F16, {rows, cols}), w(DType::F16, {cols}),
        b(DType::F16, {cols});
    fillUniform(x, ctx.getRng(), -2, 2);
    fillUniform(w, ctx.getRng());
    fillUniform(b, ctx.getRng());
    DeviceTensor dx = ctx.upload(x), dw = ctx.upload(w), db = ctx.upload(b);
    DeviceTensor dy = ctx.poisoned(DType::F16, {rows, cols});
    DeviceTensor mean = ctx.poisoned(DType::F32, {rows});
    DeviceTensor rstd = ctx.poisoned(DType::F32, {rows});
    // BLOCK_SIZE = min(64 KB / element size, next_power_of_2(N)).
    int64_t block = std::min<int64_t>(65536 / 2, nextPowerOf2(cols));
    ctx.setBytes(2.0 * 2 * rows * cols);
    ctx.time("BLOCK_SIZE=" + std::to_string(block), [&] {
      launchForward(ctx, dx, dy, dw, db, mean, rstd, rows, cols, block);
    });
  };
  suite.addBenchmark(std::move(bench));
}
