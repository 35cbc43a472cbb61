//===- Tutorial04LowMemoryDropout.cpp - Cases of 04_low_memory_dropout ----===//
//
// Dropout with a given keep mask, and seeded dropout whose mask is Triton's
// Philox stream: the kept elements are compared bit for bit with the host
// model (Philox.h), and a second run with the same seed must reproduce the
// first exactly.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

#include "tessera/Conformance/Philox.h"

#include <cstring>

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::cdiv;
using runtime::KernelArg;

static constexpr llvm::StringLiteral kFile = "04_low_memory_dropout";

/// Inputs that are never exactly zero, so that a zero output means dropped.
static HostTensor makeNonZeroInput(CaseContext &ctx, int64_t n) {
  HostTensor x(DType::F32, {n});
  fillNormal(x, ctx.getRng());
  for (int64_t i = 0; i < n; ++i)
    if (x.get(i) == 0)
      x.set(i, 1.0);
  return x;
}

static void runDropout(CaseContext &ctx, int64_t n, float p, int64_t block) {
  HostTensor x = makeNonZeroInput(ctx, n);
  HostTensor keep(DType::I8, {n});
  for (int64_t i = 0; i < n; ++i)
    keep.setInt(i, ctx.getRng().uniform() > p ? 1 : 0);
  DeviceTensor dx = ctx.upload(x), dkeep = ctx.upload(keep);
  DeviceTensor out = ctx.poisoned(DType::F32, {n});
  ctx.launch("dropout_kernel", cdiv(n, block),
             {dx, dkeep, out, n, KernelArg::floating(p)},
             {{"BLOCK_SIZE", block}});
  if (ctx.isCompileOnly())
    return;
  HostTensor result = ctx.download(out);
  std::vector<double> ref(n);
  // The kernel sees p as fp32; the scale is computed from that value.
  double scale = 1.0 / (1.0 - static_cast<double>(p));
  for (int64_t i = 0; i < n; ++i)
    ref[i] = keep.getInt(i) ? x.get(i) * scale : 0.0;
  ctx.checkError("out", result, ref,
                 getTolerance(DType::F32, Accuracy::Elementwise));
}

static void launchSeeded(CaseContext &ctx, const DeviceTensor &x,
                         const DeviceTensor &out, int64_t n, float p,
                         int64_t seed) {
  ctx.launch("seeded_dropout_kernel", cdiv(n, 1024),
             {x, out, n, KernelArg::floating(p), seed}, {{"BLOCK_SIZE", 1024}});
}

static void runSeededDropout(CaseContext &ctx, int64_t n, float p,
                             int64_t seed) {
  HostTensor x = makeNonZeroInput(ctx, n);
  DeviceTensor dx = ctx.upload(x);
  DeviceTensor first = ctx.poisoned(DType::F32, {n});
  DeviceTensor second = ctx.poisoned(DType::F32, {n});
  launchSeeded(ctx, dx, first, n, p, seed);
  launchSeeded(ctx, dx, second, n, p, seed);
  if (ctx.isCompileOnly())
    return;
  HostTensor out = ctx.download(first), again = ctx.download(second);

  std::vector<double> ref(n);
  double scale = 1.0 / (1.0 - static_cast<double>(p));
  int64_t maskMismatches = 0, rerunDifferences = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool keep = tritonRand(seed, static_cast<uint32_t>(i)) > p;
    ref[i] = keep ? x.get(i) * scale : 0.0;
    maskMismatches += (out.get(i) != 0) != keep;
    rerunDifferences += out.getBits(i) != again.getBits(i);
  }
  ctx.checkError("out", out, ref,
                 getTolerance(DType::F32, Accuracy::Transcendental));
  ctx.check("mask mismatches vs the Philox model", double(maskMismatches), 0);
  ctx.check("elements differing on a rerun", double(rerunDifferences), 0);
}

void mlir::tessera::conformance::addDropoutTutorial(Suite &suite) {
  {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "dropout_kernel";
    spec.name = "n=1000,p=0.3,BLOCK_SIZE=256";
    spec.requirements = requireDTypes({DType::F32, DType::I8});
    spec.run = [](CaseContext &ctx) { runDropout(ctx, 1000, 0.3f, 256); };
    suite.addCase(std::move(spec));
  }
  struct Seeded {
    int64_t n;
    float p;
    int64_t seed;
    const char *name;
  };
  for (Seeded s : {Seeded{4099, 0.5f, 123, "n=4099,p=0.5,seed=123"},
                   Seeded{1000, 0.25f, 7, "n=1000,p=0.25,seed=7"}}) {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "seeded_dropout_kernel";
    spec.name = s.name;
    spec.requirements = requireDTypes({DType::F32, DType::I32});
    spec.run = [s](CaseContext &ctx) {
      runSeededDropout(ctx, s.n, s.p, s.seed);
    };
    suite.addCase(std::move(spec));
  }

  // GUIDE: seeded dropout, fp32, 2^26 elements, p = 0.5; read + write.
  bool scaled = suite.getOptions().scaledBenchmarks;
  int exponent = scaled ? 22 : 26;
  BenchSpec bench;
  bench.file = kFile.str();
  bench.kernel = "seeded_dropout_kernel";
  bench.name = "fp32,n=2^" + std::to_string(exponent) + ",p=0.5";
  bench.scaled = scaled;
  bench.requirements = requireDTypes({DType::F32, DType::I32});
  bench.run = [exponent](BenchContext &ctx) {
    int64_t n = int64_t(1) << exponent;
    HostTensor x(DType::F32, {n});
    fillUniform(x, ctx.getRng(), -1, 1);
    DeviceTensor dx = ctx.upload(x);
    DeviceTensor out = ctx.poisoned(DType::F32, {n});
    ctx.setBytes(2.0 * 4 * n);
    ctx.time("BLOCK_SIZE=1024,seed=123",
             [&] { launchSeeded(ctx, dx, out, n, 0.5f, 123); });
  };
  suite.addBenchmark(std::move(bench));
}
