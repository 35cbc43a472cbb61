//===- Tutorials.h - The per-tutorial files of the suite --------*- C++ -*-===//
//
// One file per Triton tutorial adds its cases (with their host references)
// and its benchmark workloads. Helpers that several tutorials share live
// here: the float64 matmul reference and a few launch utilities.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_LIB_TUTORIALS_H
#define TESSERA_CONFORMANCE_LIB_TUTORIALS_H

#include "tessera/Conformance/Bench.h"
#include "tessera/Conformance/CaseContext.h"
#include "tessera/Conformance/Suite.h"
#include "tessera/Conformance/Tolerance.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace mlir::tessera::conformance {

void addVectorAddTutorial(Suite &suite);
void addFusedSoftmaxTutorial(Suite &suite);
void addMatmulTutorial(Suite &suite);
void addDropoutTutorial(Suite &suite);
void addLayerNormTutorial(Suite &suite);
void addFusedAttentionTutorial(Suite &suite);
void addExternFunctionsTutorial(Suite &suite);
void addGroupedGemmTutorial(Suite &suite);
void addPersistentMatmulTutorial(Suite &suite);

/// Requirements listing `dtypes` (Triton names).
Requirements requireDTypes(std::initializer_list<DType> dtypes);

/// A matmul's reference: C = A B in float64 with float64 accumulation, and
/// the scale of each element's accumulation, sum_k |a_ik b_kj|; both
/// row-major (M, N).
struct MatmulReference {
  std::vector<double> values, magnitudes;
};

/// The reference of A B; `a(m, k)` and `b(k, n)` read the (already
/// rounded) inputs.
MatmulReference referenceMatmul(int64_t m, int64_t n, int64_t k,
                                llvm::function_ref<double(int64_t, int64_t)> a,
                                llvm::function_ref<double(int64_t, int64_t)> b);

/// The configs a benchmark of an autotuned kernel times: none in tune mode
/// (the runtime's autotuner chooses), else those the config mode selects.
struct BenchConfigs {
  bool tune = true;
  std::vector<KernelConfig> configs;
  /// Why the configs could not be read (the benchmark then fails).
  std::string error;
};
BenchConfigs getBenchConfigs(Suite &suite, llvm::StringRef stem,
                             llvm::StringRef kernel);

/// Times `launch(config)` for each config of `configs` and keeps the
/// fastest; in tune mode launches once through the autotuner (which times
/// every config) and times what it chose.
void timeConfigs(BenchContext &ctx, const BenchConfigs &configs,
                 const std::function<void(const KernelConfig *)> &launch);

/// Checks a matmul output: the relative error, and for fp8 outputs also
/// that every element is within one fp8 ulp of the reference once the error
/// an fp8 dot may add while accumulating (kFp8AccumulationError of
/// `ref.magnitudes`) is forgiven.
void checkMatmulOutput(CaseContext &ctx, llvm::StringRef name,
                       const HostTensor &out, const MatmulReference &ref);

/// Triton's next_power_of_2 (1 for 0).
int64_t nextPowerOf2(int64_t value);

/// "fp16", "fp8e4m3" (names in case ids).
llvm::StringRef getShortDTypeName(DType dtype);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_LIB_TUTORIALS_H
