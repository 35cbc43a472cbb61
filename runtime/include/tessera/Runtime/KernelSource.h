//===- KernelSource.h - A kernel file loaded for compilation ----*- C++ -*-===//
//
// A KernelSource holds one Triton kernel file as the frontend sees it: its
// text in a SourceMgr, the scanned KernelModule, the diagnostics engine and
// a host evaluator over its globals. It also hashes what a compiled kernel
// of the file depends on: the file's text and the text of every file it
// imports from its own directory tree (`from .helpers import f`,
// `import mylib`), followed transitively; library imports such as `triton`
// are not files of the set and are left out.
//
// The frontend objects are not thread-safe: callers hold getMutex() while
// they use them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_KERNELSOURCE_H
#define TESSERA_RUNTIME_KERNELSOURCE_H

#include "tessera/Frontend/HostEvaluator.h"
#include "tessera/Frontend/KernelModule.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mlir::tessera::runtime {

class KernelSource {
public:
  /// Reads and scans the kernel file `path`. Fails with the file's
  /// diagnostics (file:line:col, source line, caret) when a jit function
  /// does not parse, or naming the file when it cannot be read.
  static llvm::Expected<std::unique_ptr<KernelSource>>
  load(llvm::StringRef path);

  /// Scans `text` as if it were the file `path` (imports resolve relative
  /// to it).
  static llvm::Expected<std::unique_ptr<KernelSource>>
  fromText(llvm::StringRef text, llvm::StringRef path);

  ~KernelSource();

  llvm::StringRef getPath() const { return path; }
  llvm::StringRef getText() const;

  /// SHA-256 (hex) of the file's text and of the local files it imports.
  const std::string &getSourceHash() const { return sourceHash; }
  /// The local files it imports, transitively, as paths relative to the
  /// kernel file's directory, sorted.
  llvm::ArrayRef<std::string> getLocalImports() const { return localImports; }

  ::tessera::frontend::KernelModule &getModule() { return *module; }
  ::tessera::frontend::DiagnosticEngine &getDiagnostics() { return *diags; }
  ::tessera::frontend::HostEvaluator &getEvaluator() { return *evaluator; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }
  std::mutex &getMutex() { return mutex; }

  /// The jit function `name`, or an error naming the file and the jit
  /// functions it has.
  llvm::Expected<const ::tessera::frontend::JitFunction *>
  getJitFunction(llvm::StringRef name);

  /// Everything reported to getDiagnostics() since the last call, rendered
  /// as printed (location, message, source line, caret).
  std::string takeDiagnostics();

  /// An error carrying takeDiagnostics(), or `fallback` when nothing was
  /// reported.
  llvm::Error makeDiagnosticsError(const llvm::Twine &fallback);

private:
  KernelSource() = default;
  llvm::Error initialize(std::unique_ptr<llvm::MemoryBuffer> buffer);

  std::string path;
  llvm::SourceMgr sourceMgr;
  std::string diagnosticText;
  std::unique_ptr<llvm::raw_string_ostream> diagnosticStream;
  std::unique_ptr<::tessera::frontend::DiagnosticEngine> diags;
  std::unique_ptr<::tessera::frontend::KernelModule> module;
  std::unique_ptr<::tessera::frontend::HostEvaluator> evaluator;
  std::string sourceHash;
  std::vector<std::string> localImports;
  std::mutex mutex;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_KERNELSOURCE_H
