//===- Tutorial03Matmul.cpp - Cases of 03_matmul --------------------------===//
//
// C = act(A B) with grouped tile order: small explicit blocks that wrap
// rows and columns, mask the K tail and the store, the leaky_relu epilogue,
// and an fp8 e4m3 product with B given as the (K, N) view of an (N, K)
// tensor; then the file's own autotune configs on a larger odd shape.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::cdiv;
using runtime::KernelArg;

static constexpr llvm::StringLiteral kFile = "03_matmul";
static constexpr llvm::StringLiteral kKernel = "matmul_kernel";

namespace {
struct MatmulProblem {
  int64_t m, n, k;
  DType dtype;
  bool leakyRelu = false;
};

/// Inputs as the tutorial passes them: fp16 B row-major (K, N); fp8 B the
/// (K, N) view of an (N, K) row-major tensor (the K-major operand fp8
/// matrix instructions want).
struct MatmulInputs {
  HostTensor a, b;
  int64_t strideBk, strideBn;

  double getB(int64_t k, int64_t n) const {
    return b.get(k * strideBk + n * strideBn);
  }
};
} // namespace

static MatmulInputs makeInputs(CaseContext &ctx, const MatmulProblem &p) {
  MatmulInputs in{HostTensor(p.dtype, {p.m, p.k}), HostTensor(), 0, 0};
  fillNormal(in.a, ctx.getRng());
  if (p.dtype == DType::F16) {
    in.b = HostTensor(p.dtype, {p.k, p.n});
    in.strideBk = p.n;
    in.strideBn = 1;
  } else {
    in.b = HostTensor(p.dtype, {p.n, p.k});
    in.strideBk = 1;
    in.strideBn = p.k;
  }
  fillNormal(in.b, ctx.getRng());
  return in;
}

static void runMatmul(CaseContext &ctx, const MatmulProblem &p,
                      const KernelConfig *config) {
  MatmulInputs in = makeInputs(ctx, p);
  DeviceTensor a = ctx.upload(in.a), b = ctx.upload(in.b);
  DeviceTensor c = ctx.poisoned(DType::F16, {p.m, p.n});
  runtime::Grid grid([p](const runtime::LaunchMeta &meta) {
    return runtime::GridDims{uint64_t(cdiv(p.m, meta["BLOCK_SIZE_M"]) *
                                      cdiv(p.n, meta["BLOCK_SIZE_N"])),
                             1, 1};
  });
  ctx.launch(
      kKernel, grid,
      {a, b, c, p.m, p.n, p.k, p.k, int64_t(1), in.strideBk, in.strideBn, p.n,
       int64_t(1)},
      {{"ACTIVATION", KernelArg::string(p.leakyRelu ? "leaky_relu" : "")}}, {},
      config);
  if (ctx.isCompileOnly())
    return;
  HostTensor out = ctx.download(c);
  MatmulReference ref = referenceMatmul(
      p.m, p.n, p.k,
      [&](int64_t i, int64_t k) { return in.a.get(i * p.k + k); },
      [&](int64_t k, int64_t j) { return in.getB(k, j); });
  if (p.leakyRelu)
    for (double &v : ref.values)
      v = v >= 0 ? v : 0.01 * v;
  checkMatmulOutput(ctx, "c", out, ref);
}

static std::string describe(const MatmulProblem &p) {
  std::string name = getShortDTypeName(p.dtype).str() + "," +
                     std::to_string(p.m) + "x" + std::to_string(p.n) + "x" +
                     std::to_string(p.k);
  if (p.dtype == DType::F8E4M3)
    name += ",b-transposed";
  if (p.leakyRelu)
    name += ",leaky_relu";
  return name;
}

void mlir::tessera::conformance::addMatmulTutorial(Suite &suite) {
  suite.addConfigValidationCase(kFile, kKernel);

  // README: small blocks (BLOCK_SIZE_M, _N, _K, GROUP_SIZE_M).
  struct Small {
    MatmulProblem problem;
    int64_t bm, bn, bk, group;
  };
  const Small smalls[] = {
      {{64, 64, 64, DType::F16}, 32, 32, 32, 2},
      {{67, 45, 39, DType::F16}, 16, 32, 16, 2},
      {{67, 45, 39, DType::F16, /*leakyRelu=*/true}, 32, 16, 16, 4},
      {{16, 16, 16, DType::F16}, 16, 16, 16, 8},
      {{48, 40, 64, DType::F8E4M3}, 16, 16, 32, 2},
  };
  for (const Small &s : smalls) {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = kKernel.str();
    spec.name = describe(s.problem) + ",blocks=" + std::to_string(s.bm) + "x" +
                std::to_string(s.bn) + "x" + std::to_string(s.bk) +
                ",group=" + std::to_string(s.group);
    spec.requirements = requireDTypes({s.problem.dtype, DType::F16});
    auto config =
        std::make_shared<KernelConfig>(makeConfig({{"BLOCK_SIZE_M", s.bm},
                                                   {"BLOCK_SIZE_N", s.bn},
                                                   {"BLOCK_SIZE_K", s.bk},
                                                   {"GROUP_SIZE_M", s.group}}));
    MatmulProblem problem = s.problem;
    spec.run = [problem, config](CaseContext &ctx) {
      runMatmul(ctx, problem, config.get());
    };
    suite.addCase(std::move(spec));
  }

  // The file's configs on an odd shape: every tile size leaves tails.
  for (MatmulProblem p : {MatmulProblem{200, 136, 168, DType::F16},
                          MatmulProblem{200, 136, 168, DType::F8E4M3}})
    suite.addConfigCases(kFile, kKernel, describe(p),
                         requireDTypes({p.dtype, DType::F16}),
                         [p](CaseContext &ctx, const KernelConfig *config) {
                           runMatmul(ctx, p, config);
                         });

  // GUIDE: 8192^3, fp16 and fp8 e4m3 (C fp16), 2 M N K FLOPs. Scaled (the
  // cpu backend): 512^3 of those, and fp16 and fp32 (C fp32) at 512^3 and
  // 2048^3, the shapes the cpu is compared with the host's BLAS at.
  bool scaled = suite.getOptions().scaledBenchmarks;
  std::vector<MatmulProblem> problems;
  for (DType dtype : {DType::F16, DType::F8E4M3}) {
    int64_t size = scaled ? 512 : 8192;
    problems.push_back({size, size, size, dtype});
  }
  if (scaled)
    for (MatmulProblem p : {MatmulProblem{512, 512, 512, DType::F32},
                            MatmulProblem{2048, 2048, 2048, DType::F16},
                            MatmulProblem{2048, 2048, 2048, DType::F32}})
      problems.push_back(p);
  auto configs =
      std::make_shared<BenchConfigs>(getBenchConfigs(suite, kFile, kKernel));
  for (const MatmulProblem &p : problems) {
    BenchSpec bench;
    bench.file = kFile.str();
    bench.kernel = kKernel.str();
    bench.name = describe(p);
    bench.scaled = scaled;
    DType outType = p.dtype == DType::F32 ? DType::F32 : DType::F16;
    bench.requirements = requireDTypes({p.dtype, outType});
    bench.run = [p, outType, configs](BenchContext &ctx) {
      // randn, as cuBLAS comparisons use (a GPU draws more power on
      // random normal data than on uniform data of smaller magnitude).
      HostTensor a(p.dtype, {p.m, p.k}), b(p.dtype, {p.k, p.n});
      fillNormal(a, ctx.getRng());
      fillNormal(b, ctx.getRng());
      DeviceTensor da = ctx.upload(a), db = ctx.upload(b);
      DeviceTensor dc = ctx.poisoned(outType, {p.m, p.n});
      // fp8 B is read K-major, as the (K, N) view of an (N, K) tensor.
      bool transposed = p.dtype == DType::F8E4M3;
      int64_t strideBk = transposed ? 1 : p.n;
      int64_t strideBn = transposed ? p.k : 1;
      runtime::Grid grid([p](const runtime::LaunchMeta &meta) {
        return runtime::GridDims{uint64_t(cdiv(p.m, meta["BLOCK_SIZE_M"]) *
                                          cdiv(p.n, meta["BLOCK_SIZE_N"])),
                                 1, 1};
      });
      ctx.setFlops(2.0 * p.m * p.n * p.k);
      timeConfigs(ctx, *configs, [&](const KernelConfig *config) {
        ctx.launch(kKernel, grid,
                   {da, db, dc, p.m, p.n, p.k, p.k, int64_t(1), strideBk,
                    strideBn, p.n, int64_t(1)},
                   {{"ACTIVATION", KernelArg::string("")}}, {}, config);
      });
    };
    suite.addBenchmark(std::move(bench));
  }
}
