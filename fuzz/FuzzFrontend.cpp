//===- FuzzFrontend.cpp - Fuzz target: kernel file to tessera IR ----------===//
//
// A kernel file, lowered to the `tessera` dialect and verified. The kernel
// and its signature come from two optional header lines,
//
//   # fuzz-kernel: NAME
//   # fuzz-signature: *fp32:16,i32,1024
//
// (the seed corpus carries those of the lit tests' RUN lines); without
// them the first @triton.jit function is lowered with a signature guessed
// from its parameters: constexprs 16, names with "ptr" *fp32, others i32.
//
//===----------------------------------------------------------------------===//
#include "FuzzScan.h"
#include "FuzzSupport.h"

#include "tessera/Frontend/Compile.h"
#include "tessera/Frontend/KernelModule.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace tessera::frontend;

namespace {
/// The value of the header line `# fuzz-<field>: value`, if any.
std::optional<std::string> headerField(llvm::StringRef text,
                                       llvm::StringRef field) {
  std::string prefix = ("# fuzz-" + field + ": ").str();
  for (llvm::StringRef rest = text; !rest.empty();) {
    auto [line, next] = rest.split('\n');
    if (!line.starts_with("#"))
      break;
    if (line.consume_front(prefix))
      return line.rtrim().str();
    rest = next;
  }
  return std::nullopt;
}

std::string guessSignature(const FunctionDefStmt &def) {
  std::string signature;
  for (const Parameter &param : def.getParams()) {
    std::string entry = "i32";
    llvm::StringRef annotation;
    if (param.annotation) {
      const SourceRange &range = param.annotation->getRange();
      annotation =
          llvm::StringRef(range.begin.getPointer(),
                          range.end.getPointer() - range.begin.getPointer());
    }
    if (annotation.contains("constexpr"))
      entry = "16";
    else if (param.name.contains_insensitive("ptr"))
      entry = "*fp32:16";
    signature += (signature.empty() ? "" : ",") + entry;
  }
  return signature;
}

/// One context for many inputs: creating one and loading the dialects costs
/// more than lowering most inputs. It is renewed now and then, since it
/// keeps every type and attribute it ever uniqued.
mlir::MLIRContext &getContext() {
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned uses = 0;
  if (!context || ++uses % 256 == 0) {
    context = std::make_unique<mlir::MLIRContext>(
        mlir::MLIRContext::Threading::DISABLED);
    loadFrontendDialects(*context);
    // The frontend's IR is verified below; the diagnostics of a broken
    // input must not print.
    context->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
  }
  return *context;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tessera::fuzz::silenceLogging();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text = tessera::fuzz::asText(data, size);
  llvm::raw_null_ostream sink;
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  tessera::fuzz::ScannedFile file(text, "fuzz.py", diagStream);
  KernelModule *module = file.module.get();
  DiagnosticEngine &diags = file.diags;
  if (diags.hadError() || module->getJitFunctions().empty())
    return 0;

  const JitFunction *kernel = &module->getJitFunctions().front();
  if (std::optional<std::string> name = headerField(text, "kernel"))
    for (const JitFunction &fn : module->getJitFunctions())
      if (fn.getName() == *name)
        kernel = &fn;
  std::string signature =
      headerField(text, "signature").value_or(guessSignature(*kernel->def));
  std::optional<unsigned> config;
  if (kernel->findDecorator(DecoratorKind::Autotune))
    config = 0;

  // Internal errors are told by the message itself, never by searching the
  // printed text: that echoes the source line, which may contain anything
  // (a mutated test file quoting "internal compiler error" once did).
  std::vector<Diagnostic> reported;
  diags.setCollector(&reported);
  llvm::FailureOr<Specialization> spec = specializeKernel(
      *module, kernel->getName(), signature, {}, config, diags);
  if (failed(spec))
    return 0;
  CompileOptions options;
  options.staticPrintStream = &sink;
  mlir::MLIRContext &context = getContext();
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      lowerKernel(*module, kernel->getName(), *spec, context, diags, options);
  // A user error is fine; IR that does not verify is a compiler bug, which
  // lowerKernel reports as an internal error.
  bool internalError = llvm::any_of(reported, [](const Diagnostic &d) {
    return llvm::StringRef(d.message).starts_with("internal compiler error");
  });
  diags.setCollector(nullptr);
  if (internalError || (ir && failed(mlir::verify(*ir)))) {
    llvm::errs() << diagnostics;
    __builtin_trap();
  }
  return 0;
}
