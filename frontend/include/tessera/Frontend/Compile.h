//===- Compile.h - Lowering Triton-language kernels to tessera --*- C++ -*-===//
//
// The public entry point of the frontend's back half: lowers one kernel of
// a scanned kernel file, specialized for a launch, to a verified MLIR module
// of the `tessera` dialect (plus arith, math, scf, cf and func). The module
// holds the kernel, a public func.func with the unit attribute
// `tessera.kernel`, and the private device-function specializations it
// calls.
//
// User errors are reported to the DiagnosticEngine with the kernel file's
// line, column and caret, and yield a null module. IR that fails to verify
// is a compiler bug: it is reported as an internal error, never returned.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_COMPILE_H
#define TESSERA_FRONTEND_COMPILE_H

#include "tessera/Frontend/Codegen/Specialization.h"
#include "tessera/Frontend/KernelModule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>

namespace tessera::frontend {

/// Options of one compilation.
struct CompileOptions {
  /// Emit device asserts (Triton's `debug`; @triton.jit(debug=True) turns it
  /// on for a kernel too). Without it `assert` and tl.device_assert compile
  /// to nothing, as in Triton.
  bool debug = false;
  /// Where tl.static_print writes (stderr when null: stdout carries IR).
  llvm::raw_ostream *staticPrintStream = nullptr;
};

/// Lowers kernel `kernel` of `module` specialized by `spec`. Returns null
/// after reporting errors to `diags`.
mlir::OwningOpRef<mlir::ModuleOp>
lowerKernel(KernelModule &module, llvm::StringRef kernel,
            const Specialization &spec, mlir::MLIRContext &ctx,
            DiagnosticEngine &diags, const CompileOptions &options = {});

/// Loads the dialects the lowered IR uses into `ctx`.
void loadFrontendDialects(mlir::MLIRContext &ctx);

/// The specialization described by an ahead-of-time signature, named
/// constexprs (`NAME=VALUE`, values as Python expressions) and optionally
/// the autotune config at `autotuneConfig`, for kernel `kernel`. Errors go
/// to `diags` (a malformed signature or value is reported without a source
/// location).
llvm::FailureOr<Specialization> specializeKernel(
    KernelModule &module, llvm::StringRef kernel, llvm::StringRef signature,
    llvm::ArrayRef<std::string> namedConstexprs,
    std::optional<unsigned> autotuneConfig, DiagnosticEngine &diags);

/// The number of autotune configs of `kernel` (0 without @triton.autotune);
/// fails if they cannot be evaluated.
llvm::FailureOr<unsigned> countAutotuneConfigs(KernelModule &module,
                                               llvm::StringRef kernel,
                                               DiagnosticEngine &diags);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_COMPILE_H
