//===- TutorialSupport.cpp - Helpers shared by the tutorial files ---------===//
#include "Tutorials.h"

#include <cmath>

using namespace mlir::tessera::conformance;

Requirements
mlir::tessera::conformance::requireDTypes(std::initializer_list<DType> dtypes) {
  Requirements requirements;
  for (DType dtype : dtypes)
    requirements.addDType(getDTypeName(dtype));
  return requirements;
}

MatmulReference mlir::tessera::conformance::referenceMatmul(
    int64_t m, int64_t n, int64_t k,
    llvm::function_ref<double(int64_t, int64_t)> a,
    llvm::function_ref<double(int64_t, int64_t)> b) {
  MatmulReference ref;
  ref.values.assign(static_cast<size_t>(m * n), 0.0);
  ref.magnitudes.assign(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t kk = 0; kk < k; ++kk) {
      double aik = a(i, kk);
      for (int64_t j = 0; j < n; ++j) {
        double product = aik * b(kk, j);
        ref.values[i * n + j] += product;
        ref.magnitudes[i * n + j] += std::fabs(product);
      }
    }
  return ref;
}

int64_t mlir::tessera::conformance::nextPowerOf2(int64_t value) {
  int64_t p = 1;
  while (p < value)
    p <<= 1;
  return p;
}

llvm::StringRef mlir::tessera::conformance::getShortDTypeName(DType dtype) {
  switch (dtype) {
  case DType::F8E4M3:
    return "fp8e4m3";
  case DType::F8E5M2:
    return "fp8e5m2";
  default:
    return getDTypeName(dtype);
  }
}

BenchConfigs
mlir::tessera::conformance::getBenchConfigs(Suite &suite, llvm::StringRef stem,
                                            llvm::StringRef kernel) {
  BenchConfigs result;
  ConfigMode mode = suite.getOptions().configMode;
  if (mode == ConfigMode::Tune)
    return result;
  result.tune = false;
  llvm::Expected<KernelInfo> info = suite.getKernelInfo(stem, kernel);
  if (!info) {
    result.error = llvm::toString(info.takeError());
    return result;
  }
  if (mode == ConfigMode::All) {
    result.configs = info->configs;
    return result;
  }
  for (unsigned index : selectRepresentativeConfigs(info->configs))
    result.configs.push_back(info->configs[index]);
  return result;
}

void mlir::tessera::conformance::timeConfigs(
    BenchContext &ctx, const BenchConfigs &configs,
    const std::function<void(const KernelConfig *)> &launch) {
  if (!configs.error.empty()) {
    ctx.fail(configs.error);
    return;
  }
  if (configs.tune) {
    // The first launch tunes; the timing then sees the chosen config only.
    launch(nullptr);
    ctx.time("autotuned: " + ctx.getLastTunedConfig(),
             [&] { launch(nullptr); });
    return;
  }
  for (const KernelConfig &config : configs.configs)
    ctx.time(config.str(), [&] { launch(&config); });
}

void mlir::tessera::conformance::checkMatmulOutput(CaseContext &ctx,
                                                   llvm::StringRef name,
                                                   const HostTensor &out,
                                                   const MatmulReference &ref) {
  DType dtype = out.getDType();
  ctx.checkError(name, out, ref.values, getTolerance(dtype, Accuracy::Dot));
  if (dtype != DType::F8E4M3 || ctx.hasFailed())
    return;
  std::vector<double> allowance;
  for (double magnitude : ref.magnitudes)
    allowance.push_back(kFp8AccumulationError * magnitude);
  ctx.check((name + " max fp8 ulps").str(),
            maxFp8E4M3Ulps(out.toDoubles(), ref.values, allowance),
            kFp8MaxUlps);
}
