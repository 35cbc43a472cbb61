//===- Tutorial06FusedAttention.cpp - Cases of 06_fused_attention ---------===//
//
// Flash-attention forward with pointers and with in-kernel tensor
// descriptors, causal (off-band and on-band stages) and not, on
// contiguous and strided (Z, N, H, D) views; the backward preprocess and
// the dK/dV/dQ kernel with its masked diagonal slices. References are the
// float64 softmax(s Q K^T) V, its log-sum-exp in base 2, and its exact
// gradients.
//
//===----------------------------------------------------------------------===//
#include "Tutorials.h"

#include <cmath>
#include <numbers>

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::KernelArg;

static constexpr llvm::StringLiteral kFile = "06_fused_attention";

namespace {
struct AttentionShape {
  int64_t z, h, n, d;
  bool causal;
};

/// A (Z, H, N, D) tensor as strides over its storage.
struct View4 {
  HostTensor storage;
  int64_t strides[4];

  double at(int64_t z, int64_t h, int64_t n, int64_t d) const {
    return storage.get(z * strides[0] + h * strides[1] + n * strides[2] +
                       d * strides[3]);
  }
};

/// Contiguous (Z, H, N, D), or (Z, N, H, D) storage seen as (Z, H, N, D).
View4 makeView(DType dtype, const AttentionShape &s, bool headsInner) {
  View4 v{HostTensor(dtype, headsInner
                                ? std::vector<int64_t>{s.z, s.n, s.h, s.d}
                                : std::vector<int64_t>{s.z, s.h, s.n, s.d}),
          {}};
  if (headsInner) {
    int64_t strides[4] = {s.n * s.h * s.d, s.d, s.h * s.d, 1};
    std::copy(strides, strides + 4, v.strides);
  } else {
    int64_t strides[4] = {s.h * s.n * s.d, s.n * s.d, s.d, 1};
    std::copy(strides, strides + 4, v.strides);
  }
  return v;
}

/// Forward results in float64, per (z, h) row-major (N, D) and (N).
struct AttentionRef {
  std::vector<double> o;   // (Z, H, N, D) contiguous
  std::vector<double> lse; // (Z*H, N), base 2
  std::vector<double> p;   // (Z, H, N, N) probabilities
};
} // namespace

static AttentionRef referenceForward(const AttentionShape &s, const View4 &q,
                                     const View4 &k, const View4 &v,
                                     double scale) {
  AttentionRef ref;
  ref.o.assign(s.z * s.h * s.n * s.d, 0.0);
  ref.lse.assign(s.z * s.h * s.n, 0.0);
  ref.p.assign(s.z * s.h * s.n * s.n, 0.0);
  std::vector<double> row(s.n);
  for (int64_t z = 0; z < s.z; ++z)
    for (int64_t h = 0; h < s.h; ++h) {
      int64_t head = z * s.h + h;
      for (int64_t i = 0; i < s.n; ++i) {
        double rowMax = -INFINITY;
        for (int64_t j = 0; j < s.n; ++j) {
          if (s.causal && j > i) {
            row[j] = -INFINITY;
            continue;
          }
          double dot = 0;
          for (int64_t d = 0; d < s.d; ++d)
            dot += q.at(z, h, i, d) * k.at(z, h, j, d);
          row[j] = scale * dot;
          rowMax = std::max(rowMax, row[j]);
        }
        double sum = 0;
        for (int64_t j = 0; j < s.n; ++j)
          sum += row[j] = std::exp(row[j] - rowMax);
        ref.lse[head * s.n + i] = (rowMax + std::log(sum)) / std::numbers::ln2;
        double *p = &ref.p[(head * s.n + i) * s.n];
        for (int64_t j = 0; j < s.n; ++j)
          p[j] = row[j] / sum;
        for (int64_t d = 0; d < s.d; ++d) {
          double acc = 0;
          for (int64_t j = 0; j < s.n; ++j)
            acc += p[j] * v.at(z, h, j, d);
          ref.o[(head * s.n + i) * s.d + d] = acc;
        }
      }
    }
  return ref;
}

/// The (Z, H, N, D) elements of `view`'s storage in contiguous order.
static HostTensor gather(const View4 &view, const AttentionShape &s) {
  HostTensor out(view.storage.getDType(), {s.z, s.h, s.n, s.d});
  int64_t index = 0;
  for (int64_t z = 0; z < s.z; ++z)
    for (int64_t h = 0; h < s.h; ++h)
      for (int64_t n = 0; n < s.n; ++n)
        for (int64_t d = 0; d < s.d; ++d)
          out.set(index++, view.at(z, h, n, d));
  return out;
}

/// sm_scale as the kernel sees it: fp32.
static double getScale(int64_t headDim) {
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(headDim)));
}

static runtime::Grid forwardGrid(const AttentionShape &s) {
  return runtime::Grid([s](const runtime::LaunchMeta &meta) {
    return runtime::GridDims{uint64_t(s.n / meta["BLOCK_M"]),
                             uint64_t(s.z * s.h), 1};
  });
}

/// Launches `_attn_fwd` (strided pointers) or `_attn_fwd_desc`.
static void launchForward(CaseContext &ctx, bool desc, const AttentionShape &s,
                          const DeviceTensor &q, const DeviceTensor &k,
                          const DeviceTensor &v, const DeviceTensor &m,
                          const DeviceTensor &o, double scale,
                          const int64_t (&strides)[4],
                          const int64_t (&oStrides)[4],
                          const KernelConfig *config) {
  std::vector<runtime::NamedKernelArg> kwargs = {{"HEAD_DIM", s.d},
                                                 {"STAGE", s.causal ? 3 : 1}};
  if (desc) {
    ctx.launch("_attn_fwd_desc", forwardGrid(s),
               {q, k, v, KernelArg::floating(scale), m, o, s.z, s.h, s.n},
               kwargs, {}, config);
    return;
  }
  std::vector<KernelArg> args = {q, k, v, KernelArg::floating(scale), m, o};
  for (int tensor = 0; tensor < 3; ++tensor)
    args.insert(args.end(), strides, strides + 4);
  args.insert(args.end(), oStrides, oStrides + 4);
  args.insert(args.end(), {s.z, s.h, s.n});
  ctx.launch("_attn_fwd", forwardGrid(s), args, kwargs, {}, config);
}

static void runForward(CaseContext &ctx, const AttentionShape &s, bool desc,
                       bool strided, double scale, const KernelConfig *config) {
  View4 q = makeView(DType::F16, s, strided),
        k = makeView(DType::F16, s, strided),
        v = makeView(DType::F16, s, strided);
  for (View4 *t : {&q, &k, &v})
    fillNormal(t->storage, ctx.getRng());
  View4 oView = makeView(DType::F16, s, strided);
  DeviceTensor dq = ctx.upload(q.storage), dk = ctx.upload(k.storage),
               dv = ctx.upload(v.storage);
  DeviceTensor dout = ctx.poisoned(DType::F16, oView.storage.getShape().vec());
  DeviceTensor dm = ctx.poisoned(DType::F32, {s.z * s.h, s.n});
  launchForward(ctx, desc, s, dq, dk, dv, dm, dout, scale, q.strides,
                oView.strides, config);
  if (ctx.isCompileOnly())
    return;
  oView.storage = ctx.download(dout);
  HostTensor m = ctx.download(dm);

  AttentionRef ref = referenceForward(s, q, k, v, scale);
  ctx.checkError("o", gather(oView, s), ref.o,
                 getTolerance(DType::F16, Accuracy::Dot));
  if (!strided)
    ctx.checkError("M (log2-sum-exp)", m, ref.lse,
                   getTolerance(DType::F32, Accuracy::Reduction));
}

static void runBackward(CaseContext &ctx, const AttentionShape &s) {
  View4 q = makeView(DType::F16, s, false), k = makeView(DType::F16, s, false),
        v = makeView(DType::F16, s, false),
        dOut = makeView(DType::F16, s, false);
  for (View4 *t : {&q, &k, &v, &dOut})
    fillNormal(t->storage, ctx.getRng());
  double scale = getScale(s.d);
  std::vector<int64_t> shape = {s.z, s.h, s.n, s.d};
  DeviceTensor dq = ctx.upload(q.storage), dk = ctx.upload(k.storage),
               dv = ctx.upload(v.storage), ddo = ctx.upload(dOut.storage);
  DeviceTensor o = ctx.poisoned(DType::F16, shape);
  DeviceTensor m = ctx.poisoned(DType::F32, {s.z * s.h, s.n});
  // The forward with small blocks gives M for the backward.
  KernelConfig forwardConfig = makeConfig({{"BLOCK_M", 32}, {"BLOCK_N", 16}});
  launchForward(ctx, /*desc=*/false, s, dq, dk, dv, m, o, scale, q.strides,
                q.strides, &forwardConfig);
  DeviceTensor delta = ctx.poisoned(DType::F32, {s.z * s.h, s.n});
  ctx.launch("_attn_bwd_preprocess",
             runtime::GridDims{uint64_t(s.n / 32), uint64_t(s.z * s.h), 1},
             {o, ddo, delta, s.z, s.h, s.n},
             {{"BLOCK_M", 32}, {"HEAD_DIM", s.d}});
  DeviceTensor gq = ctx.poisoned(DType::F16, shape),
               gk = ctx.poisoned(DType::F16, shape),
               gv = ctx.poisoned(DType::F16, shape);
  // Blocks (M1, N1, M2, N2) = (32, 64, 64, 32) with slice factor 2: the
  // masked diagonal steps use 16-wide slices, the smallest dot K on GPUs.
  runtime::LaunchOptions options;
  options.numWarps = 4;
  options.numStages = 5;
  ctx.launch("_attn_bwd",
             runtime::GridDims{uint64_t(s.n / 64), 1, uint64_t(s.z * s.h)},
             {dq, dk, dv, KernelArg::floating(scale), ddo, gq, gk, gv, m, delta,
              q.strides[0], q.strides[1], q.strides[2], q.strides[3], s.h, s.n},
             {{"BLOCK_M1", 32},
              {"BLOCK_N1", 64},
              {"BLOCK_M2", 64},
              {"BLOCK_N2", 32},
              {"BLK_SLICE_FACTOR", 2},
              {"HEAD_DIM", s.d},
              {"CAUSAL", KernelArg::boolean(s.causal)}},
             options);
  if (ctx.isCompileOnly())
    return;
  HostTensor hostO = ctx.download(o), hostDelta = ctx.download(delta),
             hostDq = ctx.download(gq), hostDk = ctx.download(gk),
             hostDv = ctx.download(gv);

  // Delta is checked against the kernel's own O, which it reads.
  std::vector<double> refDelta(s.z * s.h * s.n, 0.0);
  for (int64_t row = 0; row < s.z * s.h * s.n; ++row)
    for (int64_t d = 0; d < s.d; ++d)
      refDelta[row] +=
          hostO.get(row * s.d + d) * dOut.storage.get(row * s.d + d);

  AttentionRef ref = referenceForward(s, q, k, v, scale);
  size_t elements = s.z * s.h * s.n * s.d;
  std::vector<double> refDq(elements, 0.0), refDk(elements, 0.0),
      refDv(elements, 0.0);
  std::vector<double> dp(s.n);
  for (int64_t z = 0; z < s.z; ++z)
    for (int64_t h = 0; h < s.h; ++h) {
      int64_t head = z * s.h + h;
      for (int64_t i = 0; i < s.n; ++i) {
        const double *p = &ref.p[(head * s.n + i) * s.n];
        double rowDelta = 0;
        for (int64_t j = 0; j < s.n; ++j) {
          double acc = 0;
          for (int64_t d = 0; d < s.d; ++d)
            acc += dOut.at(z, h, i, d) * v.at(z, h, j, d);
          dp[j] = acc;
          rowDelta += p[j] * acc;
        }
        for (int64_t j = 0; j < s.n; ++j) {
          if (p[j] == 0)
            continue;
          double ds = p[j] * (dp[j] - rowDelta);
          for (int64_t d = 0; d < s.d; ++d) {
            refDv[(head * s.n + j) * s.d + d] += p[j] * dOut.at(z, h, i, d);
            refDq[(head * s.n + i) * s.d + d] += scale * ds * k.at(z, h, j, d);
            refDk[(head * s.n + j) * s.d + d] += scale * ds * q.at(z, h, i, d);
          }
        }
      }
    }
  ctx.checkError("delta", hostDelta, refDelta,
                 getTolerance(DType::F32, Accuracy::Reduction));
  double tolerance = getTolerance(DType::F16, Accuracy::AttentionBackward);
  ctx.checkError("dq", hostDq, refDq, tolerance);
  ctx.checkError("dk", hostDk, refDk, tolerance);
  ctx.checkError("dv", hostDv, refDv, tolerance);
}

static std::string describe(const AttentionShape &s) {
  return "Z=" + std::to_string(s.z) + ",H=" + std::to_string(s.h) +
         ",N_CTX=" + std::to_string(s.n) + ",D=" + std::to_string(s.d) +
         (s.causal ? ",causal" : ",non-causal");
}

void mlir::tessera::conformance::addFusedAttentionTutorial(Suite &suite) {
  for (const char *kernel : {"_attn_fwd", "_attn_fwd_desc"})
    suite.addConfigValidationCase(kFile, kernel);

  // README: small shapes with explicit (BLOCK_M, BLOCK_N).
  struct Forward {
    AttentionShape shape;
    int64_t blockM, blockN;
  };
  const Forward forwards[] = {
      {{1, 2, 64, 32, false}, 32, 16},
      {{1, 2, 64, 32, true}, 32, 16},
      {{2, 1, 96, 64, true}, 32, 32},
      {{1, 1, 128, 16, false}, 64, 32},
  };
  for (const Forward &f : forwards)
    for (bool desc : {false, true}) {
      CaseSpec spec;
      spec.file = kFile.str();
      spec.kernel = desc ? "_attn_fwd_desc" : "_attn_fwd";
      spec.name = describe(f.shape) + ",BLOCK_M=" + std::to_string(f.blockM) +
                  ",BLOCK_N=" + std::to_string(f.blockN);
      spec.requirements = requireDTypes({DType::F16, DType::F32});
      auto config = std::make_shared<KernelConfig>(
          makeConfig({{"BLOCK_M", f.blockM}, {"BLOCK_N", f.blockN}}));
      AttentionShape shape = f.shape;
      spec.run = [shape, desc, config](CaseContext &ctx) {
        runForward(ctx, shape, desc, /*strided=*/false, getScale(shape.d),
                   config.get());
      };
      suite.addCase(std::move(spec));
    }
  {
    // Q, K, V, O stored as (Z, N, H, D) and passed as (Z, H, N, D) views.
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "_attn_fwd";
    AttentionShape shape{1, 2, 64, 32, true};
    spec.name = describe(shape) + ",strided-ZNHD,sm_scale=0.3";
    spec.requirements = requireDTypes({DType::F16, DType::F32});
    spec.run = [shape](CaseContext &ctx) {
      KernelConfig config = makeConfig({{"BLOCK_M", 32}, {"BLOCK_N", 16}});
      runForward(ctx, shape, /*desc=*/false, /*strided=*/true,
                 static_cast<float>(0.3), &config);
    };
    suite.addCase(std::move(spec));
  }
  for (AttentionShape shape : {AttentionShape{1, 2, 64, 32, false},
                               AttentionShape{1, 2, 128, 32, true},
                               AttentionShape{2, 1, 192, 16, true}}) {
    CaseSpec spec;
    spec.file = kFile.str();
    spec.kernel = "_attn_bwd_preprocess+_attn_bwd";
    spec.name = describe(shape) + ",blocks=32x64x64x32,slice=2";
    spec.requirements = requireDTypes({DType::F16, DType::F32});
    spec.run = [shape](CaseContext &ctx) { runBackward(ctx, shape); };
    suite.addCase(std::move(spec));
  }

  // The file's configs: N_CTX a multiple of every BLOCK_M.
  for (const char *kernel : {"_attn_fwd", "_attn_fwd_desc"})
    for (bool causal : {false, true}) {
      AttentionShape shape{1, 2, 256, 64, causal};
      bool desc = llvm::StringRef(kernel) == "_attn_fwd_desc";
      suite.addConfigCases(
          kFile, kernel, describe(shape),
          requireDTypes({DType::F16, DType::F32}),
          [shape, desc](CaseContext &ctx, const KernelConfig *config) {
            runForward(ctx, shape, desc, /*strided=*/false, getScale(shape.d),
                       config);
          });
    }

  // GUIDE: forward fp16, Z=4, H=32, N_CTX=4096, HEAD_DIM=128, causal and
  // not; 4 Z H N^2 D FLOPs, half of them when causal.
  bool scaled = suite.getOptions().scaledBenchmarks;
  for (const char *kernel : {"_attn_fwd", "_attn_fwd_desc"}) {
    auto configs =
        std::make_shared<BenchConfigs>(getBenchConfigs(suite, kFile, kernel));
    bool desc = llvm::StringRef(kernel) == "_attn_fwd_desc";
    for (bool causal : {false, true}) {
      AttentionShape s = scaled ? AttentionShape{1, 4, 512, 64, causal}
                                : AttentionShape{4, 32, 4096, 128, causal};
      BenchSpec bench;
      bench.file = kFile.str();
      bench.kernel = kernel;
      bench.name = "fp16," + describe(s);
      bench.scaled = scaled;
      bench.requirements = requireDTypes({DType::F16, DType::F32});
      bench.run = [s, desc, configs](BenchContext &ctx) {
        std::vector<int64_t> shape = {s.z, s.h, s.n, s.d};
        HostTensor q(DType::F16, shape), k(DType::F16, shape),
            v(DType::F16, shape);
        for (HostTensor *t : {&q, &k, &v})
          fillUniform(*t, ctx.getRng(), -1, 1);
        DeviceTensor dq = ctx.upload(q), dk = ctx.upload(k), dv = ctx.upload(v);
        DeviceTensor o = ctx.poisoned(DType::F16, shape);
        DeviceTensor m = ctx.poisoned(DType::F32, {s.z * s.h, s.n});
        int64_t strides[4] = {s.h * s.n * s.d, s.n * s.d, s.d, 1};
        double flops = 4.0 * s.z * s.h * s.n * s.n * s.d;
        ctx.setFlops(s.causal ? flops / 2 : flops);
        timeConfigs(ctx, *configs, [&](const KernelConfig *config) {
          launchForward(ctx, desc, s, dq, dk, dv, m, o, getScale(s.d), strides,
                        strides, config);
        });
      };
      suite.addBenchmark(std::move(bench));
    }
  }
}
