//===- VectorMath.h - The host's vector math library ------------*- C++ -*-===//
//
// Loops over blocks call math functions (exp, log, sin, ...) per element;
// LLVM's loop vectorizer turns those calls into calls of a vector math
// library's variants (`_ZGVeN16v_expf`: sixteen floats at a time) when the
// library is known to the optimizer and present where the code runs. The
// CPU backend uses glibc's libmvec: loaded into the process with global
// visibility, so that the JIT linker resolves the variants like libm's.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_CPU_VECTORMATH_H
#define TESSERA_BACKENDS_CPU_VECTORMATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::tessera::cpu {

/// The library, as the dynamic loader finds it.
inline constexpr llvm::StringLiteral kVectorMathLibrary = "libmvec.so.1";

/// The CompiledKernel metadata key naming the vector math library a kernel
/// calls; absent when it calls none.
inline constexpr llvm::StringLiteral kVectorMathMetadata = "vector-math";

/// Loads the library into the process (once); true when it is there. A
/// host without it compiles scalar calls of libm instead.
bool loadVectorMathLibrary();

/// Loads what a kernel compiled with `library` (its kVectorMathMetadata)
/// needs; the error names the library and the kernel when it is missing.
llvm::Error requireVectorMathLibrary(llvm::StringRef library,
                                     llvm::StringRef kernel);

} // namespace mlir::tessera::cpu

#endif // TESSERA_BACKENDS_CPU_VECTORMATH_H
