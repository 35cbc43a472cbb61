//===- Tolerance.h - Error metrics and tolerances ---------------*- C++ -*-===//
//
// Outputs are compared with a float64 reference by relative norm error,
// ||out - ref||_2 / ||ref||_2, which is infinite when the output holds a
// NaN or an infinity (a poisoned element the kernel never wrote reads as
// NaN). Tolerances depend on the output's element type and on how the value
// was computed: an element-wise fp32 result is nearly exact, a reduction
// or a dot accumulates rounding, a low-precision output carries its own
// rounding.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_TOLERANCE_H
#define TESSERA_CONFORMANCE_TOLERANCE_H

#include "tessera/Conformance/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"

namespace mlir::tessera::conformance {

/// ||out - ref|| / ||ref|| in double; +inf if `out` has a non-finite
/// element; the absolute norm ||out - ref|| when ||ref|| is zero. The
/// arrays must have the same length.
double relativeNormError(llvm::ArrayRef<double> out,
                         llvm::ArrayRef<double> ref);

/// The largest |out - ref| over the elements, in units of the fp8 e4m3
/// spacing at ref (2^(floor(log2 |ref|) - 3), subnormal spacing below
/// 2^-6); +inf on a non-finite output. Correct rounding gives <= 0.5.
/// With `allowance` (one entry per element, or empty), that much of each
/// element's error is forgiven first.
double maxFp8E4M3Ulps(llvm::ArrayRef<double> out, llvm::ArrayRef<double> ref,
                      llvm::ArrayRef<double> allowance = {});

/// How an output was computed, which sets how much rounding it may carry.
enum class Accuracy {
  /// One or two correctly rounded operations per element (add, scale).
  Elementwise,
  /// Element-wise through exp, asin, ... and a normalizing sum (softmax).
  Transcendental,
  /// Sums and means over a row (layer norm, log-sum-exp).
  Reduction,
  /// A dot with fp32 accumulation (matmul, attention forward).
  Dot,
  /// Gradients through reductions (layer-norm backward).
  Backward,
  /// Gradients through two dots and a softmax (attention backward).
  AttentionBackward,
};

/// The tolerance on the relative norm error of an output of element type
/// `output` computed as `accuracy` says (conformance/README.md).
double getTolerance(DType output, Accuracy accuracy);

/// Largest fp8 e4m3 ulps an fp8 output may be off by.
inline constexpr double kFp8MaxUlps = 1.0;

/// The error an fp8 dot may add while accumulating, as a fraction of
/// sum_k |a_ik b_kj|. Hopper's fp8 tensor-core instructions (wgmma) keep
/// about 14 significant bits between products, and Triton 3.6 runs them so
/// by default on sm_90: its own tutorial 09 kernel measured up to 2^-13.2 of
/// that sum beyond one ulp (K = 160 to 8192, H100, 2026-11-22). Twice that
/// is allowed; a full fp32 accumulation stays near 2^-24.
inline constexpr double kFp8AccumulationError = 0x1p-12;

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_TOLERANCE_H
