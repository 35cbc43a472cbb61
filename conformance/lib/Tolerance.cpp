//===- Tolerance.cpp - Error metrics and tolerances -----------------------===//
#include "tessera/Conformance/Tolerance.h"

#include <cassert>
#include <cmath>
#include <limits>

using namespace mlir::tessera::conformance;

static constexpr double kInfinity = std::numeric_limits<double>::infinity();

double
mlir::tessera::conformance::relativeNormError(llvm::ArrayRef<double> out,
                                              llvm::ArrayRef<double> ref) {
  assert(out.size() == ref.size() && "outputs and references differ in size");
  // Sums of squares in long double: large outputs must not overflow the
  // norm and tiny differences must not vanish next to it.
  long double diff = 0, norm = 0;
  for (size_t i = 0, e = out.size(); i < e; ++i) {
    if (!std::isfinite(out[i]))
      return kInfinity;
    long double d = static_cast<long double>(out[i]) - ref[i];
    diff += d * d;
    norm += static_cast<long double>(ref[i]) * ref[i];
  }
  if (norm == 0)
    return static_cast<double>(std::sqrt(diff));
  return static_cast<double>(std::sqrt(diff) / std::sqrt(norm));
}

double
mlir::tessera::conformance::maxFp8E4M3Ulps(llvm::ArrayRef<double> out,
                                           llvm::ArrayRef<double> ref,
                                           llvm::ArrayRef<double> allowance) {
  assert(out.size() == ref.size() && "outputs and references differ in size");
  assert((allowance.empty() || allowance.size() == ref.size()) &&
         "an allowance per element, or none");
  double worst = 0;
  for (size_t i = 0, e = out.size(); i < e; ++i) {
    if (!std::isfinite(out[i]))
      return kInfinity;
    double magnitude = std::max(std::fabs(ref[i]), 0x1.0p-6);
    int exponent;
    std::frexp(magnitude, &exponent);
    double ulp = std::ldexp(1.0, exponent - 1 - 3);
    double error = std::fabs(out[i] - ref[i]);
    if (!allowance.empty())
      error = std::max(0.0, error - allowance[i]);
    worst = std::max(worst, error / ulp);
  }
  return worst;
}

double mlir::tessera::conformance::getTolerance(DType output,
                                                Accuracy accuracy) {
  switch (output) {
  case DType::F8E4M3:
  case DType::F8E5M2:
    // 3 (2) mantissa bits: rounding alone gives a few percent.
    return output == DType::F8E4M3 ? 4e-2 : 8e-2;
  case DType::F16:
  case DType::BF16: {
    // bf16 keeps 3 mantissa bits fewer than fp16.
    double scale = output == DType::BF16 ? 8.0 : 1.0;
    switch (accuracy) {
    case Accuracy::Elementwise:
    case Accuracy::Transcendental:
    case Accuracy::Reduction:
      return 1e-3 * scale;
    case Accuracy::Dot:
    case Accuracy::Backward:
      return 2e-3 * scale;
    case Accuracy::AttentionBackward:
      return 1e-2 * scale;
    }
    break;
  }
  default:
    // fp32 (and fp64, integer) outputs.
    switch (accuracy) {
    case Accuracy::Elementwise:
      return 1e-7;
    case Accuracy::Transcendental:
      return 1e-6;
    case Accuracy::Reduction:
    case Accuracy::Dot:
    case Accuracy::Backward:
    case Accuracy::AttentionBackward:
      return 1e-5;
    }
    break;
  }
  return 0;
}
