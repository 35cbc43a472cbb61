//===- BackendSelection.h - Choosing the backend of a session ---*- C++ -*-===//
//
// Users pick a backend by name (`--backend nvptx`, TESSERA_BACKEND) or ask
// for `auto`: the first plugin, in discovery order, that is not `cpu` and
// whose driver reports a device; else `cpu`. The choice is made over a
// BackendProvider so that it can be tested without plugin files.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_BACKENDSELECTION_H
#define TESSERA_RUNTIME_BACKENDSELECTION_H

#include "tessera/Runtime/CacheKey.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::tessera {
class Backend;
} // namespace mlir::tessera

namespace mlir::tessera::runtime {

/// The backend that `auto` falls back to.
inline constexpr llvm::StringLiteral kFallbackBackend = "cpu";

/// The backends a session can choose from.
class BackendProvider {
public:
  virtual ~BackendProvider();
  /// The available backends in precedence order; cheap, creates nothing.
  virtual std::vector<PluginIdentity> listBackends() = 0;
  /// Creates the backend `name`; fails with one line saying why.
  virtual llvm::Expected<std::shared_ptr<Backend>>
  createBackend(llvm::StringRef name) = 0;
};

/// A backend chosen for a session.
struct SelectedBackend {
  std::shared_ptr<Backend> backend;
  PluginIdentity identity;
};

/// The request in force: `requested` when not empty, else TESSERA_BACKEND,
/// else "auto".
std::string resolveBackendRequest(llvm::StringRef requested);

/// Creates the backend `request` names (after resolveBackendRequest), or
/// for "auto" the first non-cpu backend with a device, else cpu. Fails
/// naming the backends there are (for an unknown name) or what each
/// candidate said (for auto without any).
llvm::Expected<SelectedBackend> selectBackend(BackendProvider &provider,
                                              llvm::StringRef request);

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_BACKENDSELECTION_H
