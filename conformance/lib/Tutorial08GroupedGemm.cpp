//===- Tutorial08GroupedGemm.cpp - Cases of 08_grouped_gemm ---------------===//
//
// Several GEMMs of different sizes in one launch, described by device
// arrays of raw addresses, sizes and leading dimensions: the tile walk
// across GEMMs with fewer programs than tiles and with idle programs, A
// with a padded leading dimension, tails in every dimension; and the
// descriptor kernel (B given transposed), fp16 and fp8 e4m3.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::KernelArg;

static constexpr llvm::StringLiteral kFile = "08_grouped_gemm";

namespace {
struct GemmShape {
  int64_t m, n, k;
};

/// One GEMM of the group: A (M, K) with leading dimension lda, B either
/// (K, N) or transposed (N, K), C (M, N).
struct Gemm {
  GemmShape shape;
  int64_t lda, ldb, ldc;
  HostTensor a, b;
  DeviceTensor da, db, dc;
};

/// The group's GEMMs on the device and the arrays describing them.
struct Group {
  std::vector<Gemm> gemms;
  DeviceTensor aPtrs, bPtrs, cPtrs, sizes, lds;
};
} // namespace

static Group makeGroup(CaseContext &ctx, llvm::ArrayRef<GemmShape> shapes,
                       DType dtype, bool transposedB, int64_t padA) {
  Group group;
  for (GemmShape s : shapes) {
    Gemm g{s, s.k + padA, transposedB ? s.k : s.n, s.n, {}, {}, {}, {}, {}};
    g.a = HostTensor(dtype, {s.m, g.lda});
    g.b = transposedB ? HostTensor(dtype, {s.n, s.k})
                      : HostTensor(dtype, {s.k, s.n});
    fillNormal(g.a, ctx.getRng());
    fillNormal(g.b, ctx.getRng());
    g.da = ctx.upload(g.a);
    g.db = ctx.upload(g.b);
    g.dc = ctx.poisoned(DType::F16, {s.m, s.n});
    group.gemms.push_back(std::move(g));
  }
  int64_t count = shapes.size();
  HostTensor aPtrs(DType::I64, {count}), bPtrs(DType::I64, {count}),
      cPtrs(DType::I64, {count}), sizes(DType::I32, {3 * count}),
      lds(DType::I32, {3 * count});
  for (int64_t i = 0; i < count; ++i) {
    const Gemm &g = group.gemms[i];
    aPtrs.setInt(i, static_cast<int64_t>(g.da.getAddress()));
    bPtrs.setInt(i, static_cast<int64_t>(g.db.getAddress()));
    cPtrs.setInt(i, static_cast<int64_t>(g.dc.getAddress()));
    int64_t size[3] = {g.shape.m, g.shape.n, g.shape.k};
    int64_t ld[3] = {g.lda, g.ldb, g.ldc};
    for (int j = 0; j < 3; ++j) {
      sizes.setInt(3 * i + j, size[j]);
      lds.setInt(3 * i + j, ld[j]);
    }
  }
  group.aPtrs = ctx.upload(aPtrs);
  group.bPtrs = ctx.upload(bPtrs);
  group.cPtrs = ctx.upload(cPtrs);
  group.sizes = ctx.upload(sizes);
  group.lds = ctx.upload(lds);
  return group;
}

static void checkGroup(CaseContext &ctx, Group &group, bool transposedB) {
  if (ctx.isCompileOnly())
    return;
  for (size_t i = 0; i < group.gemms.size(); ++i) {
    const Gemm &g = group.gemms[i];
    HostTensor c = ctx.download(g.dc);
    MatmulReference ref = referenceMatmul(
        g.shape.m, g.shape.n, g.shape.k,
        [&](int64_t r, int64_t k) { return g.a.get(r * g.lda + k); },
        [&](int64_t k, int64_t col) {
          return transposedB ? g.b.get(col * g.ldb + k)
                             : g.b.get(k * g.ldb + col);
        });
    checkMatmulOutput(ctx, "C[" + std::to_string(i) + "]", c, ref);
  }
}

static runtime::Grid numSmGrid() {
  return runtime::Grid([](const runtime::LaunchMeta &meta) {
    return runtime::GridDims{uint64_t(meta["NUM_SM"]), 1, 1};
  });
}

static void runPointerGroup(CaseContext &ctx, llvm::ArrayRef<GemmShape> shapes,
                            int64_t padA, const KernelConfig *config) {
  Group group = makeGroup(ctx, shapes, DType::F16, /*transposedB=*/false, padA);
  ctx.launch("grouped_matmul_kernel", numSmGrid(),
             {group.aPtrs, group.bPtrs, group.cPtrs, group.sizes, group.lds,
              int64_t(shapes.size())},
             {}, {}, config);
  checkGroup(ctx, group, /*transposedB=*/false);
}

static void runDescriptorGroup(CaseContext &ctx,
                               llvm::ArrayRef<GemmShape> shapes, DType dtype,
                               const KernelConfig *config) {
  Group group = makeGroup(ctx, shapes, dtype, /*transposedB=*/true, 0);
  ctx.launch("grouped_matmul_desc_kernel", numSmGrid(),
             {group.aPtrs, group.bPtrs, group.cPtrs, group.sizes, group.lds,
              int64_t(shapes.size())},
             {{"FP8", KernelArg::boolean(dtype != DType::F16)}}, {}, config);
  checkGroup(ctx, group, /*transposedB=*/true);
}

static std::string describeGroup(llvm::ArrayRef<GemmShape> shapes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "group=";
  for (size_t i = 0; i < shapes.size(); ++i)
    os << (i ? "+" : "") << shapes[i].m << "x" << shapes[i].n << "x"
       << shapes[i].k;
  return text;
}

void mlir::tessera::conformance::addGroupedGemmTutorial(Suite &suite) {
  for (const char *kernel :
       {"grouped_matmul_kernel", "grouped_matmul_desc_kernel"})
    suite.addConfigValidationCase(kFile, kernel);

  // README: (M, N, K) per GEMM; A's leading dimension padded by 3.
  static const std::vector<GemmShape> pointerShapes = {
      {40, 24, 40}, {17, 33, 20}, {64, 64, 64}, {1, 8, 5}};
  for (int64_t sms : {3, 64}) {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "grouped_matmul_kernel";
    spec.name = "fp16," + describeGroup(pointerShapes) +
                ",lda=K+3,NUM_SM=" + std::to_string(sms) + ",blocks=16x16x16";
    spec.requirements = requireDTypes({DType::F16, DType::I32, DType::I64});
    auto config =
        std::make_shared<KernelConfig>(makeConfig({{"NUM_SM", sms},
                                                   {"BLOCK_SIZE_M", 16},
                                                   {"BLOCK_SIZE_N", 16},
                                                   {"BLOCK_SIZE_K", 16}}));
    spec.run = [config](CaseContext &ctx) {
      runPointerGroup(ctx, pointerShapes, 3, config.get());
    };
    suite.addCase(std::move(spec));
  }
  // Descriptor rule: leading dimensions times the element size are
  // multiples of 16 bytes.
  static const std::vector<GemmShape> descShapes = {
      {40, 24, 48}, {17, 40, 32}, {64, 64, 64}, {1, 16, 16}};
  for (DType dtype : {DType::F16, DType::F8E4M3}) {
    int64_t bk = dtype == DType::F16 ? 16 : 32;
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "grouped_matmul_desc_kernel";
    spec.name = getShortDTypeName(dtype).str() + ",b-transposed," +
                describeGroup(descShapes) + ",NUM_SM=3,blocks=16x16x" +
                std::to_string(bk);
    spec.requirements =
        requireDTypes({dtype, DType::F16, DType::I32, DType::I64});
    auto config =
        std::make_shared<KernelConfig>(makeConfig({{"NUM_SM", 3},
                                                   {"BLOCK_SIZE_M", 16},
                                                   {"BLOCK_SIZE_N", 16},
                                                   {"BLOCK_SIZE_K", bk}}));
    spec.run = [dtype, config](CaseContext &ctx) {
      runDescriptorGroup(ctx, descShapes, dtype, config.get());
    };
    suite.addCase(std::move(spec));
  }

  // The file's configs: tiles of 64 and 128 with 132 or 264 programs.
  static const std::vector<GemmShape> tunedShapes = {
      {96, 80, 64}, {33, 48, 48}, {128, 128, 128}, {1, 16, 16}};
  suite.addConfigCases(kFile, "grouped_matmul_kernel",
                       "fp16," + describeGroup(tunedShapes),
                       requireDTypes({DType::F16, DType::I32, DType::I64}),
                       [](CaseContext &ctx, const KernelConfig *config) {
                         runPointerGroup(ctx, tunedShapes, 0, config);
                       });
  for (DType dtype : {DType::F16, DType::F8E4M3})
    suite.addConfigCases(
        kFile, "grouped_matmul_desc_kernel",
        getShortDTypeName(dtype).str() + ",b-transposed," +
            describeGroup(tunedShapes),
        requireDTypes({dtype, DType::F16, DType::I32, DType::I64}),
        [dtype](CaseContext &ctx, const KernelConfig *config) {
          runDescriptorGroup(ctx, tunedShapes, dtype, config);
        });

  // The tutorial's benchmark: four square fp16 GEMMs.
  bool scaled = suite.getOptions().scaledBenchmarks;
  std::vector<GemmShape> benchShapes;
  for (int64_t size : scaled ? std::vector<int64_t>{32, 64, 128, 256}
                             : std::vector<int64_t>{128, 256, 512, 1024})
    benchShapes.push_back({size, size, size});
  for (const char *kernel :
       {"grouped_matmul_kernel", "grouped_matmul_desc_kernel"}) {
    bool desc = llvm::StringRef(kernel) == "grouped_matmul_desc_kernel";
    auto configs =
        std::make_shared<BenchConfigs>(getBenchConfigs(suite, kFile, kernel));
    BenchSpec bench;
    bench.file = kFile.str();
    bench.kernel = kernel;
    bench.name = "fp16," + describeGroup(benchShapes);
    bench.scaled = scaled;
    bench.requirements = requireDTypes({DType::F16, DType::I32, DType::I64});
    bench.run = [benchShapes, desc, configs](BenchContext &ctx) {
      Group group = makeGroup(ctx, benchShapes, DType::F16, desc, 0);
      double flops = 0;
      for (GemmShape s : benchShapes)
        flops += 2.0 * s.m * s.n * s.k;
      ctx.setFlops(flops);
      std::vector<runtime::NamedKernelArg> kwargs;
      if (desc)
        kwargs.push_back({"FP8", KernelArg::boolean(false)});
      timeConfigs(ctx, *configs, [&](const KernelConfig *config) {
        ctx.launch(desc ? "grouped_matmul_desc_kernel"
                        : "grouped_matmul_kernel",
                   numSmGrid(),
                   {group.aPtrs, group.bPtrs, group.cPtrs, group.sizes,
                    group.lds, int64_t(benchShapes.size())},
                   kwargs, {}, config);
      });
    };
    suite.addBenchmark(std::move(bench));
  }
}
