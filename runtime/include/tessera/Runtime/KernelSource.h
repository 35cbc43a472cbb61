//===- KernelSource.h - A kernel file loaded for compilation ----*- C++ -*-===//
//
// A KernelSource holds one Triton kernel file as the frontend sees it: its
// text in a SourceMgr, the scanned KernelModule and the modules it imports
// (a ModuleSet searching the file's package root and directory, then the
// module path: `--module-path`, TESSERA_MODULE_PATH, PYTHONPATH), the
// diagnostics engine and a host evaluator over its globals. It also hashes
// what a compiled kernel of the file depends on: the file's text and the
// text of every file it imports from its own directory tree (`from .helpers
// import f`, `import mylib`), followed transitively; library imports such as
// `triton` are not files of the set and are left out. (The compiler's cache
// key also hashes the lowered kernel, which covers every module it read.)
//
// A KernelSource can also hold a program an embedder resolved itself
// (docs/embedding.md): each unit becomes a module of the set whose globals
// are injected, and the program's text is what is hashed.
//
// The frontend objects are not thread-safe, and a diagnostics engine
// counts errors for good: each operation on the file (a compilation, an
// evaluation of heuristics) runs in a SourceScope, which holds the file's
// lock and gives the operation its own engine and evaluator, so that one
// failed operation never fails the next.
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

namespace tessera::frontend {
class ModuleSet;
} // namespace tessera::frontend

namespace mlir::tessera::runtime {

/// The largest kernel file read: Triton files are kilobytes; a file past
/// this is not one.
inline constexpr uint64_t kMaxKernelFileSize = uint64_t(16) << 20;

/// The directories modules are searched in after the kernel file's own:
/// `explicitDirs` (`--module-path`), then TESSERA_MODULE_PATH and
/// PYTHONPATH (colon-separated), in that order, without empty entries.
std::vector<std::string>
resolveModuleSearchPath(llvm::ArrayRef<std::string> explicitDirs = {});

class KernelSource {
public:
  /// Reads and scans the kernel file `path`; its imports are searched in
  /// its package root and directory, then in `modulePath` (see
  /// resolveModuleSearchPath). Fails with the file's diagnostics
  /// (file:line:col, source line, caret) when a jit function does not
  /// parse, or naming the file when it cannot be read, is not a regular
  /// file or is larger than kMaxKernelFileSize.
  static llvm::Expected<std::unique_ptr<KernelSource>>
  load(llvm::StringRef path,
       llvm::ArrayRef<std::string> modulePath = resolveModuleSearchPath());

  /// Scans `text` as if it were the file `path` (imports resolve relative
  /// to it).
  static llvm::Expected<std::unique_ptr<KernelSource>>
  fromText(llvm::StringRef text, llvm::StringRef path,
           llvm::ArrayRef<std::string> modulePath = resolveModuleSearchPath());

  /// The program `json` (docs/embedding.md) whose kernel is the function
  /// unit `entryUnit`: getPath() is that unit's file, the jit function is
  /// found under the unit's def name, and the source hash is the program's.
  /// Fails naming the unit and field of a malformed program, or with the
  /// diagnostics of a unit that does not parse.
  static llvm::Expected<std::unique_ptr<KernelSource>>
  fromProgram(llvm::StringRef json, llvm::StringRef entryUnit);

  ~KernelSource();

  llvm::StringRef getPath() const { return path; }
  /// The text of the kernel's own file (for a program, the entry unit's
  /// buffer).
  llvm::StringRef getText() const;
  /// The name of the kernel's def in a program's entry unit; empty for a
  /// file.
  llvm::StringRef getEntryName() const { return entryName; }
  /// The kernel file's module and the modules it imports.
  ::tessera::frontend::ModuleSet &getModuleSet() { return *modules; }

  /// SHA-256 (hex) of the file's text and of the local files it imports.
  const std::string &getSourceHash() const { return sourceHash; }
  /// The local files it imports, transitively, as paths relative to the
  /// kernel file's directory, sorted.
  llvm::ArrayRef<std::string> getLocalImports() const { return localImports; }

  /// The jit function `name`, or an error naming the file and the jit
  /// functions it has.
  llvm::Expected<const ::tessera::frontend::JitFunction *>
  getJitFunction(llvm::StringRef name);

private:
  friend class SourceScope;
  KernelSource();
  llvm::Error initialize(std::unique_ptr<llvm::MemoryBuffer> buffer,
                         llvm::ArrayRef<std::string> modulePath);
  /// Builds the modules of a parsed program (KernelSourceProgram.cpp).
  llvm::Error initializeProgram(llvm::StringRef json,
                                llvm::StringRef entryUnit);

  std::string path;
  std::string entryName;
  llvm::SourceMgr sourceMgr;
  /// The buffer of the kernel's own file.
  unsigned mainBuffer = 0;
  std::unique_ptr<::tessera::frontend::ModuleSet> modules;
  /// What scanning reported.
  std::string scanText;
  std::unique_ptr<llvm::raw_string_ostream> scanStream;
  std::unique_ptr<::tessera::frontend::DiagnosticEngine> scanDiags;
  /// The kernel file's module (owned by `modules`).
  ::tessera::frontend::KernelModule *module = nullptr;
  std::string sourceHash;
  std::vector<std::string> localImports;
  std::mutex mutex;
};

/// One operation on a kernel file: holds the file's lock, and collects what
/// the frontend reports during the operation in an engine of its own.
class SourceScope {
public:
  explicit SourceScope(KernelSource &source);
  ~SourceScope();

  KernelSource &getSource() { return source; }
  ::tessera::frontend::KernelModule &getModule() { return *source.module; }
  ::tessera::frontend::ModuleSet &getModuleSet() { return *source.modules; }
  llvm::SourceMgr &getSourceMgr() { return source.sourceMgr; }
  ::tessera::frontend::DiagnosticEngine &getDiagnostics() { return diags; }
  /// An evaluator over the file's globals reporting to getDiagnostics().
  ::tessera::frontend::HostEvaluator &getEvaluator();

  /// Everything reported so far, rendered as printed (location, message,
  /// source line, caret), and forgets it.
  std::string takeText();
  /// An error carrying takeText(), or `fallback` when nothing was reported.
  llvm::Error makeError(const llvm::Twine &fallback);

private:
  KernelSource &source;
  std::lock_guard<std::mutex> lock;
  std::string text;
  llvm::raw_string_ostream os;
  ::tessera::frontend::DiagnosticEngine diags;
  std::unique_ptr<::tessera::frontend::HostEvaluator> evaluator;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_KERNELSOURCE_H
