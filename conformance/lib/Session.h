//===- Session.h - Flags and setup shared by conformance and bench -*- C++
//-*-===//
//
// Both subcommands take the runtime's session flags (runtime::SessionFlags:
// --backend, --plugin, --device, --arch, --cache-dir, --no-cache,
// --log-level, mirroring the TESSERA_* variables) and the runner's own
// (--kernels-dir, --configs), and open one runtime session. The options are
// constructed per call, never as globals: the `tessera` binary registers its
// own options for its other subcommands, and LLVM's option registry is
// process-wide.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_LIB_SESSION_H
#define TESSERA_CONFORMANCE_LIB_SESSION_H

#include "tessera/Conformance/Suite.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/SessionFlags.h"

#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>

namespace mlir::tessera::conformance {

/// The runtime's session flags (runtime::SessionFlags: --backend,
/// --plugin, --device, --arch, --cache-dir, --no-cache, --log-level) and the
/// runner's own.
struct SessionFlags {
  explicit SessionFlags(llvm::cl::OptionCategory &category);

  runtime::SessionFlags session;
  llvm::cl::list<std::string> kernelFilters;
  llvm::cl::opt<std::string> kernelsDir;
  llvm::cl::opt<std::string> configs;
  llvm::cl::opt<std::string> json;
};

/// Parses `argv` with only `category`'s options visible; false (after
/// printing why) on a usage error.
bool parseFlags(int argc, char **argv, llvm::cl::OptionCategory &category,
                llvm::StringRef overview);

/// The conformance directory (holding kernels/ and expectations/):
/// TESSERA_CONFORMANCE_DIR, else share/tessera/conformance next to the
/// running program's prefix (an install), else the source tree this
/// library was built from.
std::string findConformanceDir(const char *argv0);

/// An open session and what the runner reads from it.
struct Session {
  std::unique_ptr<runtime::Runtime> runtime;
  TargetDescription target;
  /// The backend's name, architecture and device ("cpu", "x86-64", ...);
  /// no device in a compile-only session.
  std::string backend, arch, device;
  /// The device's driver ("CUDA driver 13.0"; empty when unknown or without
  /// a device) and the plugin's version.
  std::string driver, pluginVersion;
  ConfigMode configMode = ConfigMode::Tune;
  /// Kernels are compiled for `arch`, never run.
  bool compileOnly = false;
};

/// Opens the session the flags ask for; the config mode is --configs, else
/// subset on the cpu backend (timing every config there would take
/// minutes per kernel) and tune elsewhere. A compile-only session opens
/// the backend but no device (runtime::RuntimeOptions::compileOnly), takes
/// its target from --arch (required where the backend has no device) and
/// compiles every config where tune was asked for.
llvm::Expected<Session> openSession(const SessionFlags &flags,
                                    bool compileOnly = false);

/// The config mode --configs asks for, or `fallback`; an error for a bad
/// name.
llvm::Expected<ConfigMode> getConfigMode(const SessionFlags &flags,
                                         ConfigMode fallback);

/// True when `id` matches one of `filters` (or there are none): a filter
/// with `*` or `?` is a glob over the whole id, any other a substring of
/// it. Ids contain commas, so filters are repeated flags, not a list.
bool matchesFilter(llvm::ArrayRef<std::string> filters, llvm::StringRef id);

/// An error naming the first of `filters` that matches none of `ids`: a
/// mistyped `--kernel` must not run zero cases and pass.
llvm::Error checkFiltersMatch(llvm::ArrayRef<std::string> filters,
                              llvm::ArrayRef<std::string> ids);

/// Prints `err` to standard error as "tessera SUBCOMMAND: error: ...".
void printError(llvm::StringRef program, llvm::Error err);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_LIB_SESSION_H
