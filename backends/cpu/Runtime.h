//===- Runtime.h - What compiled CPU kernels call at run time ---*- C++ -*-===//
//
// Kernels call a few helpers of the plugin: printing, failed assertions and
// float conversions LLVM has no instructions for (fp8) or would take from a
// compiler runtime library (f16/bf16 on hosts without conversion
// instructions). The driver gives the JIT their addresses; the lowering names
// them through the constants below.
//
// Each program instance runs on one thread, so the helpers find the instance
// they serve (its program id, the launch it belongs to) in thread-local
// state the driver sets up: kernels pass no context to them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_CPU_RUNTIME_H
#define TESSERA_BACKENDS_CPU_RUNTIME_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tessera::cpu {

//===----------------------------------------------------------------------===//
// Symbols the lowering calls
//===----------------------------------------------------------------------===//

/// `uint8_t (double x, int32_t format, int32_t towardZero)`: x rounded to an
/// fp8 format (Fp8Format), to nearest even or towards zero; overflow gives
/// infinity where the format has one and NaN otherwise, like APFloat.
constexpr llvm::StringLiteral kToFp8Symbol = "__tessera_cpu_to_fp8";
/// `void (const char *prefix, int32_t operand, int32_t numOperands,
/// int32_t rank, int64_t i0, int64_t i1, int64_t i2, int64_t i3,
/// int32_t kind, int32_t bits, int64_t intValue, double floatValue,
/// int32_t hex)`: prints one element (PrintKind).
constexpr llvm::StringLiteral kPrintSymbol = "__tessera_cpu_print";
/// `void (const char *prefix)`: prints a line without operands.
constexpr llvm::StringLiteral kPrintLineSymbol = "__tessera_cpu_print_line";
/// `void (const char *message, const char *file, int32_t line,
/// const char *function, int32_t rank, int64_t i0, int64_t i1, int64_t i2,
/// int64_t i3)`: a failed device assertion; records it and leaves the
/// program instance (never returns).
constexpr llvm::StringLiteral kAssertFailSymbol = "__tessera_cpu_assert_fail";

/// The fp8 formats, as the conversion helpers number them.
enum class Fp8Format : int32_t {
  None = -1,
  E4M3FN = 0,
  E5M2 = 1,
  E4M3FNUZ = 2,
  E5M2FNUZ = 3,
  E4M3B11FNUZ = 4,
};

/// The fp8 format of `type`, None for any other type.
Fp8Format getFp8Format(Type type);

/// How a printed element is to be read.
enum class PrintKind : int32_t { Signed = 0, Unsigned = 1, Float = 2 };

//===----------------------------------------------------------------------===//
// Helpers themselves (also used by tests and by the host-side references)
//===----------------------------------------------------------------------===//

/// Rounds `x` to `format` (see kToFp8Symbol).
uint8_t convertToFp8(double x, Fp8Format format, bool towardZero);
/// The value of the fp8 number `bits` of `format`.
float convertFromFp8(uint8_t bits, Fp8Format format);
/// IEEE half and bfloat16 conversions, rounding to nearest even.
uint16_t convertToHalf(double x);
uint16_t convertToBFloat(double x);
float convertFromHalf(uint16_t bits);

/// The runtime symbols compiled kernels may reference, with their addresses.
std::vector<std::pair<llvm::StringRef, void *>> getRuntimeSymbols();

//===----------------------------------------------------------------------===//
// State of the running program instance
//===----------------------------------------------------------------------===//

/// What a launch collects from its instances: the first failed assertion.
struct LaunchState {
  /// Set once an instance failed; no further instance starts.
  std::atomic<bool> failed{false};
  std::mutex mutex;
  /// The first failure's message (under `mutex`).
  std::string error;
};

/// The instance a thread runs now.
struct InstanceContext {
  int32_t pid[3] = {0, 0, 0};
  LaunchState *launch = nullptr;
  /// Where a failed assertion jumps back to, in the driver.
  std::jmp_buf *exit = nullptr;
};

/// The calling thread's instance (null outside a launch).
InstanceContext *&currentInstance();

} // namespace mlir::tessera::cpu

#endif // TESSERA_BACKENDS_CPU_RUNTIME_H
