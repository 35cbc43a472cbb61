//===- CpuTestUtils.h - Compile and run tessera IR on the CPU plugin -*- C++
//-*-===//
//
// The end-to-end tests go through the plugin as the runtime would: they load
// tessera-plugin-cpu.so, compile hand-written tessera IR with the core
// pipeline plus the backend's stages, emit the object, load it into the
// driver and launch it on a grid.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_CPU_UNITTESTS_CPUTESTUTILS_H
#define TESSERA_BACKENDS_CPU_UNITTESTS_CPUTESTUTILS_H

#include "tessera/Backend/Backend.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::cpu::test {

/// The CPU backend from the built plugin (loaded once per process).
Backend &getBackend();

/// Compiles the kernel `name` in the tessera-dialect `ir`; fails the test
/// with the compiler's messages when compilation fails.
llvm::Expected<CompiledKernel>
compileKernel(llvm::StringRef ir, llvm::StringRef name,
              const CompileOptions &options = {});

/// Device memory holding a copy of a host vector.
class DeviceBuffer {
public:
  template <typename T>
  explicit DeviceBuffer(const std::vector<T> &host)
      : DeviceBuffer(host.data(), host.size() * sizeof(T)) {}
  DeviceBuffer(const void *data, size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  /// The device address, as a kernel pointer argument takes it.
  uint64_t &address() { return addr; }

  template <typename T> std::vector<T> read() const {
    std::vector<T> host(bytes / sizeof(T));
    readInto(host.data());
    return host;
  }

private:
  void readInto(void *dst) const;
  uint64_t addr = 0;
  size_t bytes;
};

/// A loaded kernel.
class LoadedKernel {
public:
  explicit LoadedKernel(const CompiledKernel &kernel);
  ~LoadedKernel();

  /// Launches over `grid` with `args` (pointers to each argument's value)
  /// and synchronizes; returns the synchronize error, if any.
  llvm::Error run(std::array<uint32_t, 3> grid, std::vector<void *> args);

private:
  ModuleHandle handle = 0;
};

/// Compiles, loads and runs; fails the test on any error.
void compileAndRun(llvm::StringRef ir, llvm::StringRef name,
                   std::array<uint32_t, 3> grid, std::vector<void *> args);

/// Restores an environment variable (or its absence) when destroyed.
class RestoreEnvOnExit {
public:
  explicit RestoreEnvOnExit(const char *name);
  ~RestoreEnvOnExit();
  RestoreEnvOnExit(const RestoreEnvOnExit &) = delete;
  RestoreEnvOnExit &operator=(const RestoreEnvOnExit &) = delete;

private:
  std::string name;
  std::optional<std::string> saved;
};

/// Sets TESSERA_CPU_THREADS for the following launches (0: unset).
void setLaunchThreads(unsigned threads);

} // namespace mlir::tessera::cpu::test

#define ASSERT_NO_LLVM_ERROR(expr)                                             \
  do {                                                                         \
    llvm::Error assertErr = (expr);                                            \
    ASSERT_FALSE(static_cast<bool>(assertErr))                                 \
        << llvm::toString(std::move(assertErr));                               \
  } while (0)

#endif // TESSERA_BACKENDS_CPU_UNITTESTS_CPUTESTUTILS_H
