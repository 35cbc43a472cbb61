//===- RuntimeBench.cpp - Compile and launch costs of the runtime ---------===//
//
// Measures, on one backend, what the runtime adds around a kernel: the
// first launch of tutorial 01's kernel in a fresh session with the disk
// cache off (frontend, core and plugin pipelines, code generation, load,
// run), the same from the disk cache, and the host time of a repeated
// launch that hits the in-memory dispatch table (one program over one
// element, so that the kernel's own work is negligible). Prints one line a
// measure. `bench/compile-times.sh` times cold compiles of every tutorial.
//
//===----------------------------------------------------------------------===//
#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Runtime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

static llvm::cl::opt<std::string>
    backendName("backend", llvm::cl::desc("Backend"), llvm::cl::init("cpu"));
static llvm::cl::opt<std::string>
    kernelsDir("kernels-dir", llvm::cl::desc("conformance/kernels directory"),
               llvm::cl::Required);
static llvm::cl::opt<unsigned> launches("launches",
                                        llvm::cl::desc("Repeated launches"),
                                        llvm::cl::init(20000));

using Clock = std::chrono::steady_clock;

static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

static std::unique_ptr<Runtime> open(llvm::StringRef cacheDir, bool noCache) {
  RuntimeOptions options;
  options.backend = backendName;
  options.cacheDirectory = cacheDir.str();
  options.disableCache = noCache;
  return llvm::cantFail(Runtime::open(options));
}

/// Seconds of the first launch of 01_vector_add's kernel in a fresh
/// session: compile (or load from the disk cache), load and run.
static double firstLaunch(Runtime &rt) {
  JitKernel &add = llvm::cantFail(
      rt.getJitKernel(kernelsDir + "/01_vector_add.py", "add_kernel"));
  Buffer x = llvm::cantFail(rt.allocate(4, "fp32"));
  auto start = Clock::now();
  llvm::cantFail(add.launch(1, {x, x, x, int64_t(1)}, {{"BLOCK_SIZE", 1024}}));
  llvm::cantFail(rt.getDevice()->synchronize());
  return secondsSince(start);
}

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv, "Tessera runtime costs\n");
  llvm::SmallString<128> cacheDir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("tessera-bench", cacheDir)) {
    llvm::errs() << "cannot create a cache directory: " << ec.message() << "\n";
    return 1;
  }

  {
    std::unique_ptr<Runtime> rt = open(cacheDir, /*noCache=*/true);
    llvm::outs() << "backend " << backendName << ", device "
                 << rt->getDevice()->getProperties().name << "\n";
    llvm::outs() << "first launch of 01_vector_add, no cache (compile, "
                    "load, run): "
                 << llvm::format("%.1f", firstLaunch(*rt) * 1e3) << " ms\n";
  }
  {
    std::unique_ptr<Runtime> rt = open(cacheDir, /*noCache=*/false);
    firstLaunch(*rt); // fills the disk cache
  }
  {
    std::unique_ptr<Runtime> rt = open(cacheDir, /*noCache=*/false);
    llvm::outs() << "first launch in a fresh session, from the disk cache: "
                 << llvm::format("%.1f", firstLaunch(*rt) * 1e3) << " ms\n";
  }

  std::unique_ptr<Runtime> rt = open(cacheDir, /*noCache=*/false);
  JitKernel &add = llvm::cantFail(
      rt->getJitKernel(kernelsDir + "/01_vector_add.py", "add_kernel"));
  Buffer x = llvm::cantFail(rt->allocate(4, "fp32"));
  int64_t one = 1;
  auto launch = [&] {
    llvm::cantFail(add.launch(1, {x, x, x, one}, {{"BLOCK_SIZE", 1024}}));
  };
  launch(); // compiles
  llvm::cantFail(rt->getDevice()->synchronize());
  std::vector<double> micros;
  micros.reserve(launches);
  for (unsigned i = 0; i < launches; ++i) {
    auto start = Clock::now();
    launch();
    micros.push_back(secondsSince(start) * 1e6);
  }
  llvm::cantFail(rt->getDevice()->synchronize());
  std::sort(micros.begin(), micros.end());
  llvm::outs() << "repeated launch of 01_vector_add add_kernel (grid 1, n=1), "
               << launches << " launches: median "
               << llvm::format("%.2f", micros[micros.size() / 2]) << " us, p10 "
               << llvm::format("%.2f", micros[micros.size() / 10])
               << " us, p90 "
               << llvm::format("%.2f", micros[micros.size() * 9 / 10])
               << " us\n";
  llvm::sys::fs::remove_directories(cacheDir);
  return 0;
}
