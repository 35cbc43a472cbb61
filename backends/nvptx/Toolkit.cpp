//===- Toolkit.cpp - Where the CUDA toolkit's pieces are ------------------===//
#include "Toolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <optional>

using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

std::optional<std::string> getEnv(const char *name) {
  std::optional<std::string> value = llvm::sys::Process::GetEnv(name);
  if (value && value->empty())
    return std::nullopt;
  return value;
}

llvm::Error notFound(llvm::StringRef what, llvm::ArrayRef<std::string> tried,
                     const llvm::Twine &hint) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "nvptx: " + what + " not found; searched " +
                                     llvm::join(tried, ", ") + " (" + hint +
                                     ")");
}

/// "$NAME=value", for messages.
std::string describeEnv(const char *name, llvm::StringRef value) {
  return (llvm::Twine("$") + name + "=" + value).str();
}

std::string underRoot(llvm::StringRef root, llvm::StringRef relative) {
  llvm::SmallString<256> path(root);
  llvm::sys::path::append(path, relative);
  return std::string(path);
}

} // namespace

std::vector<std::string> nvptx::getCudaRoots() {
  std::vector<std::string> roots;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> root = getEnv(var))
      roots.push_back(*root);
  roots.push_back("/usr/local/cuda");
  return roots;
}

llvm::Expected<std::string> nvptx::findLibdevice() {
  std::vector<std::string> tried;
  if (std::optional<std::string> env = getEnv(kLibdeviceEnv)) {
    // An explicit choice that is wrong must not silently become another
    // version of the library.
    if (llvm::sys::fs::is_regular_file(*env))
      return *env;
    return notFound("libdevice", {describeEnv(kLibdeviceEnv, *env)},
                    "not a file");
  }
  for (const std::string &root : getCudaRoots()) {
    tried.push_back(underRoot(root, "nvvm/libdevice/libdevice.10.bc"));
    if (llvm::sys::fs::is_regular_file(tried.back()))
      return tried.back();
  }
  return notFound("libdevice", tried,
                  (llvm::Twine("set $") + kLibdeviceEnv +
                   " to libdevice.10.bc or $CUDA_HOME to the CUDA toolkit")
                      .str());
}

llvm::Expected<std::string> nvptx::findPtxas() {
  if (std::optional<std::string> env = getEnv(kPtxasEnv)) {
    if (llvm::sys::fs::can_execute(*env) && !llvm::sys::fs::is_directory(*env))
      return *env;
    return notFound("ptxas", {describeEnv(kPtxasEnv, *env)},
                    "not an executable file");
  }
  std::vector<std::string> tried = {"PATH"};
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  for (const std::string &root : getCudaRoots()) {
    tried.push_back(underRoot(root, "bin/ptxas"));
    if (llvm::sys::fs::can_execute(tried.back()))
      return tried.back();
  }
  return notFound("ptxas", tried,
                  (llvm::Twine("set $") + kPtxasEnv +
                   " or $CUDA_HOME, or put the CUDA toolkit's bin/ on PATH")
                      .str());
}

std::vector<std::string> nvptx::getNvJitLinkCandidates() {
  if (std::optional<std::string> env = getEnv(kNvJitLinkEnv))
    return {*env};
  // The newest ABI first; the unversioned name is a development symlink
  // that may point at any of them.
  static const char *const kNames[] = {"libnvJitLink.so.13",
                                       "libnvJitLink.so.12", "libnvJitLink.so"};
  std::vector<std::string> candidates(std::begin(kNames), std::end(kNames));
  for (const std::string &root : getCudaRoots())
    for (const char *name : kNames)
      candidates.push_back(underRoot(root, std::string("lib64/") + name));
  return candidates;
}
