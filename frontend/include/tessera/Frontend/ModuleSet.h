//===- ModuleSet.h - The modules a kernel file imports ----------*- C++ -*-===//
//
// Real kernels rarely live alone: their helpers come from other modules of
// their package or of a library (`from .utils import helper`, `import
// lib.ext as ext`, Inductor's `triton_helpers`). A ModuleSet finds such
// modules on a search path the way Python's import system does (regular
// packages with `__init__.py`, plain modules, namespace packages), scans
// each one once into a KernelModule when it is first needed, and owns them.
// Module-level names are then evaluated lazily by the HostEvaluator, which
// follows imports into the set, so a library file whose host code Tessera
// cannot run costs nothing unless a kernel uses what that code binds.
//
// `triton` and everything under it is the language itself, never a file.
// A module that cannot be found or does not scan is remembered with the
// reason; it is an error only where a kernel uses a name from it.
//
// An embedder that resolved a kernel's globals itself (the Python package,
// docs/embedding.md) adds modules with their values injected instead.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_MODULESET_H
#define TESSERA_FRONTEND_MODULESET_H

#include "tessera/Frontend/KernelModule.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::frontend {

/// Why a module could not be imported.
struct MissingModule {
  std::string name;
  std::string reason;
};

/// Where a kernel file sits among Python packages, and where its imports
/// are searched.
struct KernelFileInfo {
  /// The package its relative imports start from ("" outside packages).
  std::string package;
  /// Its own qualified name (`pkg.kernels`), under which other modules
  /// importing it find the same module.
  std::string moduleName;
  /// Its top-level package's directory (when in a package), its own
  /// directory, then the extra directories.
  std::vector<std::string> searchPath;
};

/// Describes the kernel file `path` (walking up `__init__.py` files as
/// Python's `-m` would name it) with `extraDirs` searched last.
KernelFileInfo describeKernelFile(llvm::StringRef path,
                                  llvm::ArrayRef<std::string> extraDirs);

class ModuleSet {
public:
  /// Modules are searched in `searchPath`, in order (directories).
  ModuleSet(llvm::SourceMgr &sourceMgr, std::vector<std::string> searchPath);
  ~ModuleSet();
  ModuleSet(const ModuleSet &) = delete;
  ModuleSet &operator=(const ModuleSet &) = delete;

  /// Scans buffer `bufferId` of the SourceMgr as module `name` whose
  /// relative imports start from `package`; scan errors go to `diags`,
  /// which must outlive the set. `aliases` are other names the module is
  /// known by (the kernel file runs as "__main__" but is also
  /// `pkg.kernels` when it lies in a package). An embedder's unit is not
  /// importable by name (`importable` false): several units may share one.
  KernelModule &addModule(unsigned bufferId, DiagnosticEngine &diags,
                          llvm::StringRef name, llvm::StringRef package,
                          llvm::ArrayRef<std::string> aliases = {},
                          bool importable = true);

  /// A module without source, named `name` and printed as `file` in
  /// messages: an embedder's namespace whose globals it injects. It is not
  /// found by importing `name`.
  KernelModule &addEmptyModule(llvm::StringRef name, llvm::StringRef file);

  /// The module `name` (absolute, dotted), found on the search path and
  /// scanned on first use, its parent packages first. Null when it is the
  /// language, cannot be found or does not scan; `why` then says which.
  const KernelModule *importModule(llvm::StringRef name,
                                   std::string *why = nullptr);

  /// The absolute name `from <level dots><name> import ...` names inside
  /// `from` (Python's rules, with a kernel file outside any package taken
  /// as the top level of its own directory: "" for `from . import x`,
  /// whose names are then top-level modules).
  llvm::Expected<std::string> resolveRelative(const KernelModule &from,
                                              unsigned level,
                                              llvm::StringRef name) const;

  /// The module that failed to import and made `qualifiedName` unknown: the
  /// longest failed module name that is `qualifiedName` or one of its
  /// prefixes.
  std::optional<MissingModule>
  findMissing(llvm::StringRef qualifiedName) const;

  /// True for `triton` and the names under it: the language, never a file.
  static bool isLanguageModule(llvm::StringRef name);

  llvm::ArrayRef<std::string> getSearchPath() const { return searchPath; }
  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }
  /// The files scanned so far, in load order (for messages and tests).
  llvm::ArrayRef<std::string> getLoadedFiles() const { return loadedFiles; }

private:
  /// Creates the module for `path` as `name`; null with `why` on failure.
  KernelModule *loadFile(llvm::StringRef path, llvm::StringRef name,
                         llvm::StringRef package, std::string &why);
  KernelModule *fail(llvm::StringRef name, std::string reason,
                     std::string *why);

  llvm::SourceMgr &sourceMgr;
  std::vector<std::string> searchPath;
  std::vector<std::unique_ptr<KernelModule>> modules;
  /// Engines the scanned files report to (modules keep a reference).
  std::vector<std::unique_ptr<DiagnosticEngine>> engines;
  llvm::StringMap<KernelModule *> byName;
  llvm::StringMap<std::string> failures;
  /// The directories a package's submodules are searched in.
  llvm::DenseMap<const KernelModule *, std::vector<std::string>> packageDirs;
  std::vector<std::string> loadedFiles;
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_MODULESET_H
