//===- CpuRuntime.h - A cpu session for end-to-end tests --------*- C++ -*-===//
#ifndef TESSERA_RUNTIME_UNITTESTS_CPURUNTIME_H
#define TESSERA_RUNTIME_UNITTESTS_CPURUNTIME_H

#include "tessera/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace mlir::tessera::runtime::testing {

/// A cpu session with its own cache in `cacheDir`, or null when the build
/// has no cpu plugin (any other failure to open is a test failure).
inline std::unique_ptr<Runtime> openCPU(const std::string &cacheDir) {
  RuntimeOptions options;
  options.backend = "cpu";
  options.cacheDirectory = cacheDir;
  options.disableCache = false;
  options.dump = DumpOptions();
  llvm::Expected<std::unique_ptr<Runtime>> rt = Runtime::open(options);
  if (!rt) {
    std::string why = llvm::toString(rt.takeError());
    if (why.find("no backend named 'cpu'") == std::string::npos)
      ADD_FAILURE() << why;
    return nullptr;
  }
  return std::move(*rt);
}

} // namespace mlir::tessera::runtime::testing

#endif // TESSERA_RUNTIME_UNITTESTS_CPURUNTIME_H
