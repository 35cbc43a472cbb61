//===- main.cpp - Runs a Triton kernel from C++, JIT and ahead of time ----===//
//
// tessera-example-app KERNEL.py AOT.tkb [N]
//
// Opens a session on the cpu backend, then adds two vectors of N floats
// twice with the kernel `add_kernel(x, y, out, n, BLOCK_SIZE)`: compiled
// from KERNEL.py when launched (JIT), and loaded from AOT.tkb, which
// `tessera compile --emit bin` wrote for the signature
// '*fp32:16,*fp32:16,*fp32:16,i32,1024'. Each result is checked against the
// host's sum; the exit code is 0 only when both are right.
//
//===----------------------------------------------------------------------===//
#include "tessera/Runtime/Grid.h"
#include "tessera/Runtime/LoadedModule.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/TunedKernel.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <vector>

using namespace mlir::tessera::runtime;

namespace {

/// Prints `error` after `what` and returns true when there was one.
bool failed(llvm::Error error, llvm::StringRef what) {
  if (!error)
    return false;
  llvm::errs() << "tessera-example-app: " << what << ": "
               << llvm::toString(std::move(error)) << "\n";
  return true;
}

/// The inputs, and a buffer per vector on the session's device.
struct Vectors {
  std::vector<float> x, y;
  Buffer dx, dy, dout;
};

llvm::Expected<Vectors> makeVectors(Runtime &rt, int64_t n) {
  Vectors v;
  for (int64_t i = 0; i < n; ++i) {
    v.x.push_back(0.25f * i);
    v.y.push_back(3.0f - i);
  }
  size_t bytes = n * sizeof(float);
  for (Buffer *buffer : {&v.dx, &v.dy, &v.dout}) {
    llvm::Expected<Buffer> allocated = rt.allocate(bytes, "fp32");
    if (!allocated)
      return allocated.takeError();
    *buffer = std::move(*allocated);
  }
  if (llvm::Error error = v.dx.copyFromHost(v.x.data(), bytes))
    return std::move(error);
  if (llvm::Error error = v.dy.copyFromHost(v.y.data(), bytes))
    return std::move(error);
  if (llvm::Error error = v.dout.fill(0xff)) // NaNs: a skipped element shows
    return std::move(error);
  return std::move(v);
}

/// Reads the output back and compares it with x + y; prints the verdict.
bool check(Runtime &rt, Vectors &v, llvm::StringRef how) {
  std::vector<float> out(v.x.size());
  if (failed(rt.getDevice()->synchronize(), how) ||
      failed(v.dout.copyToHost(out.data(), out.size() * sizeof(float)), how))
    return false;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] != v.x[i] + v.y[i]) {
      llvm::errs() << "tessera-example-app: " << how << ": out[" << i
                   << "] = " << out[i] << ", expected " << v.x[i] + v.y[i]
                   << "\n";
      return false;
    }
  llvm::outs() << how << ": " << out.size() << " elements correct\n";
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    llvm::errs() << "usage: tessera-example-app KERNEL.py AOT.tkb [N]\n";
    return 2;
  }
  int64_t n = argc > 3 ? std::atoll(argv[3]) : 4097;

  RuntimeOptions options;
  options.backend = "cpu";
  options.disableCache = true;
  llvm::Expected<std::unique_ptr<Runtime>> rt = Runtime::open(options);
  if (failed(rt.takeError(), "cannot open a session"))
    return 1;
  llvm::outs() << "backend: " << (*rt)->getBackend().getName() << " "
               << (*rt)->getPluginIdentity().version << "\n";

  // Compiled when launched, for the values of this launch.
  llvm::Expected<TunedKernel &> add = (*rt)->getKernel(argv[1], "add_kernel");
  if (failed(add.takeError(), argv[1]))
    return 1;
  llvm::Expected<Vectors> jit = makeVectors(**rt, n);
  if (failed(jit.takeError(), "jit"))
    return 1;
  Grid grid([n](const LaunchMeta &meta) -> GridDims {
    return {static_cast<uint64_t>(cdiv(n, meta["BLOCK_SIZE"])), 1, 1};
  });
  if (failed(add->launch(grid, {jit->dx, jit->dy, jit->dout, n},
                         {{"BLOCK_SIZE", 1024}}),
             "jit launch") ||
      !check(**rt, *jit, "jit"))
    return 1;

  // Compiled ahead of time; no frontend, no compiler at run time.
  llvm::Expected<Device &> device = (*rt)->requireDevice();
  if (failed(device.takeError(), "aot"))
    return 1;
  llvm::Expected<std::unique_ptr<LoadedModule>> module =
      LoadedModule::loadFile(*device, argv[2]);
  if (failed(module.takeError(), argv[2]))
    return 1;
  llvm::Expected<Vectors> aot = makeVectors(**rt, n);
  if (failed(aot.takeError(), "aot"))
    return 1;
  uint32_t blocks = static_cast<uint32_t>(cdiv(n, 1024));
  if (failed(
          (*module)->launch({blocks, 1, 1}, {aot->dx, aot->dy, aot->dout, n}),
          "aot launch") ||
      !check(**rt, *aot, "aot"))
    return 1;
  return 0;
}
