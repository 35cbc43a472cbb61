//===- EndToEndFixture.h - Kernel files run on every backend ----*- C++ -*-===//
//
// The fixture of the end-to-end tests that run the kernels of a file in
// Inputs/ on each backend of the build: launched where the backend has a
// device (the cpu always), compiled only (to catch lowering failures) for
// an architecture of a GPU backend without one.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_UNITTESTS_ENDTOENDFIXTURE_H
#define TESSERA_RUNTIME_UNITTESTS_ENDTOENDFIXTURE_H

#include "TestSupport.h"

#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/PluginBackends.h"
#include "tessera/Runtime/Runtime.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mlir::tessera::runtime::testing {

/// The path of `name` in runtime/unittests/Inputs; TESSERA_SOURCE_DIR in the
/// environment wins, for a test binary carried to another machine.
inline std::string kernelFile(const std::string &name) {
  const char *root = std::getenv("TESSERA_SOURCE_DIR");
  return std::string(root ? root : TESSERA_SOURCE_DIR) +
         "/runtime/unittests/Inputs/" + name;
}

/// A backend to try, and the architecture to compile for when it has no
/// device (empty: its first).
struct BackendCase {
  std::string name;
  std::string arch;
};

inline void PrintTo(const BackendCase &c, std::ostream *os) { *os << c.name; }

/// One case per backend of the plugins the runtime discovers (the build's,
/// wherever this test runs from, and TESSERA_PLUGIN_PATH's), so that a new
/// plugin is tested without editing the tests; `archs` names the
/// architecture to compile for without a device where its first one would
/// leave out what the file tests (TMA descriptors need sm_90a).
inline std::vector<BackendCase>
getBackendCases(const std::map<std::string, std::string> &archs) {
  std::vector<BackendCase> cases;
  for (const PluginIdentity &plugin : PluginBackendProvider().listBackends()) {
    auto arch = archs.find(plugin.name);
    cases.push_back({plugin.name, arch == archs.end() ? "" : arch->second});
  }
  return cases;
}

/// The test name of a backend case (gtest names allow letters, digits and
/// underscores).
inline std::string
getBackendCaseName(const ::testing::TestParamInfo<BackendCase> &info) {
  std::string name = info.param.name;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

/// Host data of one kernel argument: its bytes and element type.
struct HostArray {
  std::vector<uint8_t> bytes;
  std::string dtype;

  template <typename T>
  static HostArray of(const std::vector<T> &values, std::string dtype) {
    HostArray array;
    array.bytes.resize(values.size() * sizeof(T));
    std::memcpy(array.bytes.data(), values.data(), array.bytes.size());
    array.dtype = std::move(dtype);
    return array;
  }
  template <typename T> std::vector<T> as() const {
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
};

class EndToEndTest : public ::testing::TestWithParam<BackendCase> {
protected:
  /// The kernel file's name in runtime/unittests/Inputs.
  virtual std::string inputFile() const = 0;

  void SetUp() override {
    BackendCase param = GetParam();
    RuntimeOptions options;
    options.backend = param.name;
    options.disableCache = true;
    options.allowNoDevice = true;
    options.dump = DumpOptions();
    llvm::Expected<std::unique_ptr<Runtime>> opened = Runtime::open(options);
    if (!opened) {
      std::string why = llvm::toString(opened.takeError());
      if (why.find("no backend named") != std::string::npos)
        GTEST_SKIP() << why;
      FAIL() << why;
    }
    rt = std::move(*opened);
    if (rt->getDevice()) {
      std::printf("%s: running on device %u (%s)\n", param.name.c_str(),
                  rt->getDevice()->getIndex(),
                  rt->getDevice()->getProperties().name.c_str());
      return;
    }
    // No device: compile for a named architecture, run nothing.
    std::string arch = param.arch;
    if (arch.empty()) {
      std::vector<std::string> archs = rt->getBackend().getArchitectures();
      ASSERT_FALSE(archs.empty()) << param.name << " has no architecture";
      arch = archs.front();
    }
    std::printf("%s: no device, compiling only for %s\n", param.name.c_str(),
                arch.c_str());
    options.allowNoDevice = false;
    options.compileOnly = true;
    options.arch = arch;
    llvm::Expected<std::unique_ptr<Runtime>> compileOnly =
        Runtime::open(options);
    ASSERT_EXPECTED(compileOnly);
    rt = std::move(*compileOnly);
  }

  /// Launches `kernel` on a grid of `programs` with `inputs` then `outputs`
  /// (zero-filled, of the given element counts) as its first arguments and
  /// returns the outputs; nullopt after compiling only.
  std::optional<std::vector<HostArray>>
  run(llvm::StringRef kernelName, uint64_t programs,
      const std::vector<HostArray> &inputs,
      const std::vector<HostArray> &outputs, std::vector<KernelArg> scalars,
      std::vector<NamedKernelArg> kwargs, int numWarps) {
    llvm::Expected<JitKernel &> kernel =
        rt->getJitKernel(kernelFile(inputFile()), kernelName);
    if (!kernel) {
      ADD_FAILURE() << llvm::toString(kernel.takeError());
      return std::nullopt;
    }
    LaunchOptions options;
    options.numWarps = numWarps;
    std::vector<Buffer> buffers;
    std::vector<KernelArg> args;
    for (const std::vector<HostArray> *group : {&inputs, &outputs})
      for (const HostArray &array : *group) {
        if (rt->isCompileOnly()) {
          // A 16-byte aligned address that is never read.
          args.push_back(
              KernelArg::pointer((uint64_t(1) << 40) + args.size() * 4096,
                                 array.dtype, array.bytes.size()));
          continue;
        }
        llvm::Expected<Buffer> buffer =
            rt->allocate(array.bytes.size(), array.dtype);
        if (!buffer) {
          ADD_FAILURE() << llvm::toString(buffer.takeError());
          return std::nullopt;
        }
        llvm::Error err =
            group == &inputs
                ? buffer->copyFromHost(array.bytes.data(), array.bytes.size())
                : buffer->fill(0);
        if (err) {
          ADD_FAILURE() << llvm::toString(std::move(err));
          return std::nullopt;
        }
        args.push_back(*buffer);
        buffers.push_back(std::move(*buffer));
      }
    args.insert(args.end(), scalars.begin(), scalars.end());
    if (rt->isCompileOnly()) {
      llvm::Expected<const KernelVariant *> compiled =
          kernel->compile(args, kwargs, options);
      if (!compiled)
        ADD_FAILURE() << llvm::toString(compiled.takeError());
      return std::nullopt;
    }
    if (llvm::Error err = kernel->launch(programs, args, kwargs, options)) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return std::nullopt;
    }
    if (llvm::Error err = rt->getDevice()->synchronize()) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return std::nullopt;
    }
    std::vector<HostArray> results = outputs;
    for (size_t i = 0; i < outputs.size(); ++i) {
      HostArray &result = results[i];
      if (llvm::Error err = buffers[inputs.size() + i].copyToHost(
              result.bytes.data(), result.bytes.size())) {
        ADD_FAILURE() << llvm::toString(std::move(err));
        return std::nullopt;
      }
    }
    return results;
  }

  std::unique_ptr<Runtime> rt;
};

} // namespace mlir::tessera::runtime::testing

#endif // TESSERA_RUNTIME_UNITTESTS_ENDTOENDFIXTURE_H
