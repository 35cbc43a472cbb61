//===- Tutorial09PersistentMatmul.cpp - Cases of 09_persistent_matmul -----===//
//
// The four matmuls of tutorial 09 (one program per tile or persistent,
// pointers or tensor descriptors, with and without the subtiled epilogue),
// C in the input type: clamped rows and columns, the K tail, the persistent
// loop with its separate epilogue counter and fewer programs than tiles,
// descriptor clipping on M/N tails; fp8 e4m3 outputs within one ulp.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::cdiv;
using runtime::KernelArg;

static constexpr llvm::StringLiteral kFile = "09_persistent_matmul";

namespace {
enum class Variant { Tiled, Persistent, Descriptor, DescriptorPersistent };

struct Problem {
  int64_t m, n, k;
  DType dtype;
};

llvm::StringRef getKernelName(Variant variant) {
  switch (variant) {
  case Variant::Tiled:
    return "matmul_kernel";
  case Variant::Persistent:
    return "matmul_kernel_persistent";
  case Variant::Descriptor:
    return "matmul_kernel_descriptor";
  case Variant::DescriptorPersistent:
    return "matmul_kernel_descriptor_persistent";
  }
  return "";
}

bool isPersistent(Variant v) {
  return v == Variant::Persistent || v == Variant::DescriptorPersistent;
}
bool usesDescriptors(Variant v) {
  return v == Variant::Descriptor || v == Variant::DescriptorPersistent;
}

/// How one launch is set up beyond the problem.
struct LaunchSetup {
  Variant variant;
  /// Programs of a persistent kernel (NUM_SMS).
  int64_t numSms = 0;
  /// EPILOGUE_SUBTILE when the case sets it (not the autotuner).
  std::optional<bool> epilogueSubtile;
};

/// A (N, K) row-major B ("bt"); the pointer kernels read B as (K, N):
/// a row-major copy for fp16, the transposed view of bt for fp8.
struct Operands {
  HostTensor a, bt, bRowMajor;
  DeviceTensor da, dbt, db, dc;
};
} // namespace

/// Operands of `p`, randn (the cases, and the benchmarks as cuBLAS
/// comparisons fill them).
static Operands makeOperands(CaseContext &ctx, const Problem &p) {
  Operands ops{HostTensor(p.dtype, {p.m, p.k}),
               HostTensor(p.dtype, {p.n, p.k}),
               HostTensor(),
               {},
               {},
               {},
               {}};
  fillNormal(ops.a, ctx.getRng());
  fillNormal(ops.bt, ctx.getRng());
  ops.da = ctx.upload(ops.a);
  ops.dbt = ctx.upload(ops.bt);
  if (p.dtype == DType::F16) {
    ops.bRowMajor = HostTensor(p.dtype, {p.k, p.n});
    for (int64_t k = 0; k < p.k; ++k)
      for (int64_t n = 0; n < p.n; ++n)
        ops.bRowMajor.set(k * p.n + n, ops.bt.get(n * p.k + k));
    ops.db = ctx.upload(ops.bRowMajor);
  }
  ops.dc = ctx.poisoned(p.dtype, {p.m, p.n});
  return ops;
}

static void launchMatmul(CaseContext &ctx, const Problem &p,
                         const LaunchSetup &setup, const Operands &ops,
                         const KernelConfig *config) {
  int64_t numSms = setup.numSms;
  bool persistent = isPersistent(setup.variant);
  runtime::Grid grid([p, persistent, numSms](const runtime::LaunchMeta &meta) {
    int64_t tiles =
        cdiv(p.m, meta["BLOCK_SIZE_M"]) * cdiv(p.n, meta["BLOCK_SIZE_N"]);
    return runtime::GridDims{
        uint64_t(persistent ? std::min(numSms, tiles) : tiles), 1, 1};
  });
  std::vector<runtime::NamedKernelArg> kwargs;
  if (persistent)
    kwargs.push_back({"NUM_SMS", numSms});
  if (usesDescriptors(setup.variant))
    kwargs.push_back({"WARP_SPECIALIZE", KernelArg::boolean(false)});
  if (setup.epilogueSubtile)
    kwargs.push_back(
        {"EPILOGUE_SUBTILE", KernelArg::boolean(*setup.epilogueSubtile)});
  llvm::StringRef name = getKernelName(setup.variant);
  if (usesDescriptors(setup.variant)) {
    ctx.launch(name, grid, {ops.da, ops.dbt, ops.dc, p.m, p.n, p.k}, kwargs, {},
               config);
    return;
  }
  // fp16 B row-major (K, N); fp8 B the (K, N) view of bt: stride_bk = 1.
  bool fp16 = p.dtype == DType::F16;
  const DeviceTensor &b = fp16 ? ops.db : ops.dbt;
  int64_t strideBk = fp16 ? p.n : 1, strideBn = fp16 ? 1 : p.k;
  ctx.launch(name, grid,
             {ops.da, b, ops.dc, p.m, p.n, p.k, p.k, int64_t(1), strideBk,
              strideBn, p.n, int64_t(1)},
             kwargs, {}, config);
}

static void runMatmul(CaseContext &ctx, const Problem &p,
                      const LaunchSetup &setup, const KernelConfig *config) {
  Operands ops = makeOperands(ctx, p);
  launchMatmul(ctx, p, setup, ops, config);
  if (ctx.isCompileOnly())
    return;
  HostTensor c = ctx.download(ops.dc);
  MatmulReference ref = referenceMatmul(
      p.m, p.n, p.k,
      [&](int64_t i, int64_t k) { return ops.a.get(i * p.k + k); },
      [&](int64_t k, int64_t j) { return ops.bt.get(j * p.k + k); });
  checkMatmulOutput(ctx, "c", c, ref);
}

static std::string describe(const Problem &p) {
  return getShortDTypeName(p.dtype).str() + "," + std::to_string(p.m) + "x" +
         std::to_string(p.n) + "x" + std::to_string(p.k);
}

static const Variant kVariants[] = {Variant::Tiled, Variant::Persistent,
                                    Variant::Descriptor,
                                    Variant::DescriptorPersistent};

void mlir::tessera::conformance::addPersistentMatmulTutorial(Suite &suite) {
  for (Variant v : kVariants)
    suite.addConfigValidationCase(kFile, getKernelName(v));

  // README: small shapes with explicit blocks; fp8 uses BLOCK_SIZE_N = 32
  // so that the subtiled epilogue's halves keep 16-byte rows.
  for (Problem p :
       {Problem{50, 40, 72, DType::F16}, Problem{16, 16, 16, DType::F16},
        Problem{50, 48, 64, DType::F8E4M3}}) {
    bool fp16 = p.dtype == DType::F16;
    auto config = std::make_shared<KernelConfig>(
        makeConfig({{"BLOCK_SIZE_M", 16},
                    {"BLOCK_SIZE_N", fp16 ? 16 : 32},
                    {"BLOCK_SIZE_K", 32},
                    {"GROUP_SIZE_M", 2}}));
    for (Variant v : kVariants) {
      std::vector<std::optional<bool>> subtiles = {std::nullopt};
      if (v == Variant::DescriptorPersistent)
        subtiles = {false, true};
      for (std::optional<bool> subtile : subtiles) {
        CaseSpec spec;
        spec.file = kFile.str();
        spec.kernel = getKernelName(v).str();
        spec.name = describe(p) + ",blocks=16x" + (fp16 ? "16" : "32") + "x32";
        LaunchSetup setup{v, 0, subtile};
        if (isPersistent(v)) {
          setup.numSms = 3;
          spec.name += ",NUM_SMS=3";
        }
        if (subtile)
          spec.name +=
              std::string(",EPILOGUE_SUBTILE=") + (*subtile ? "True" : "False");
        spec.requirements = requireDTypes({p.dtype});
        spec.run = [p, setup, config](CaseContext &ctx) {
          runMatmul(ctx, p, setup, config.get());
        };
        suite.addCase(std::move(spec));
      }
    }
  }

  // The file's configs (tiles of 128 x 128/256 x 64/128) on a shape with
  // tails everywhere; K and N keep the descriptors' 16-byte rule. One
  // program walks all (two or four) tiles of a persistent kernel, as each
  // does on a whole device with a large problem: its tile loop's iterations
  // follow each other, with the copies of a K loop of two or three
  // iterations running ahead into the next tile's.
  for (DType dtype : {DType::F16, DType::F8E4M3}) {
    Problem p{200, 144, 160, dtype};
    for (Variant v : kVariants)
      suite.addConfigCases(
          kFile, getKernelName(v), describe(p), requireDTypes({dtype}),
          [p, v](CaseContext &ctx, const KernelConfig *config) {
            LaunchSetup setup{v, 0, std::nullopt};
            if (isPersistent(v))
              setup.numSms = 1;
            runMatmul(ctx, p, setup, config);
          });
  }

  // GUIDE: 8192^3, fp16 and fp8 e4m3, C in the input type.
  bool scaled = suite.getOptions().scaledBenchmarks;
  int64_t size = scaled ? 512 : 8192;
  for (Variant v : kVariants) {
    auto configs = std::make_shared<BenchConfigs>(
        getBenchConfigs(suite, kFile, getKernelName(v)));
    for (DType dtype : {DType::F16, DType::F8E4M3}) {
      Problem p{size, size, size, dtype};
      BenchSpec bench;
      bench.file = kFile.str();
      bench.kernel = getKernelName(v).str();
      bench.name = describe(p);
      bench.scaled = scaled;
      bench.requirements = requireDTypes({dtype});
      bench.run = [p, v, configs](BenchContext &ctx) {
        Operands ops = makeOperands(ctx, p);
        LaunchSetup setup{v, 0, std::nullopt};
        if (isPersistent(v))
          setup.numSms = ctx.getMultiprocessorCount();
        ctx.setFlops(2.0 * p.m * p.n * p.k);
        timeConfigs(ctx, *configs, [&](const KernelConfig *config) {
          launchMatmul(ctx, p, setup, ops, config);
        });
      };
      suite.addBenchmark(std::move(bench));
    }
  }
}
