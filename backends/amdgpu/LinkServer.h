//===- LinkServer.h - lld's ELF driver in a process of its own --*- C++ -*-===//
//
// Code objects are linked by tessera-amdgpu-link (tools/), not in the host:
// lld's driver resets every llvm::cl option of its process and keeps global
// state. Starting a process per link costs tens of milliseconds (the
// linker loads libLLVM), so the linker runs as a server, started on the
// first link and kept for the process's life: each request is one link's
// arguments, each answer its exit code and lld's messages.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_LINKSERVER_H
#define TESSERA_BACKENDS_AMDGPU_LINKSERVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tessera::amdgpu {

/// What one link did.
struct LinkResult {
  int exitCode = 0;
  /// lld's output, warnings and errors.
  std::string messages;
};

/// Runs ld.lld with `args` (no program name; none may hold a tab or a
/// newline) in the link server of `linker`, starting it on first use and
/// again after it ended. Links of several threads take turns.
llvm::Expected<LinkResult> runLinkServer(llvm::StringRef linker,
                                         llvm::ArrayRef<std::string> args);

/// The flag that makes tessera-amdgpu-link serve requests on its standard
/// input and output.
inline constexpr char kServeFlag[] = "--tessera-serve";

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_LINKSERVER_H
