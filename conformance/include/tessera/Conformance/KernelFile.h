//===- KernelFile.h - What the runner reads from a kernel file --*- C++ -*-===//
//
// The runner needs a kernel file's jit functions as data before any backend
// is involved: parameter names, autotune configs and keys (to validate the
// configs statically and to choose which configs run). The jit function
// under a @triton.autotune decorator (Triton's `kernel.fn`), which launches
// with one explicit config, is the runtime's TunedKernel::getUntuned().
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_KERNELFILE_H
#define TESSERA_CONFORMANCE_KERNELFILE_H

#include "tessera/Frontend/HostValue.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tessera::conformance {

/// One triton.Config of an autotuned kernel.
struct KernelConfig {
  /// Meta-parameters in the order written (ints, bools, strings, floats).
  std::vector<std::pair<std::string, ::tessera::frontend::HostValue>>
      constexprs;
  int numWarps = 4;
  int numStages = 3;
  int numCTAs = 1;
  /// maxnreg, 0 when unset.
  int maxNumRegs = 0;

  /// The meta-parameter `name`, or null.
  const ::tessera::frontend::HostValue *lookup(llvm::StringRef name) const;
  /// "BLOCK_SIZE_M=128, ..., num_warps=8, num_stages=3".
  std::string str() const;
};

/// A @triton.jit function of a kernel file.
struct KernelInfo {
  std::string name;
  /// Parameter names in order, and which are annotated tl.constexpr.
  std::vector<std::string> params;
  std::vector<bool> constexprParams;
  bool autotuned = false;
  std::vector<KernelConfig> configs;
  std::vector<std::string> key;
};

/// A kernel file scanned by the frontend.
class KernelFile {
public:
  /// Reads and scans `path`; fails with the frontend's diagnostics.
  static llvm::Expected<std::unique_ptr<KernelFile>> load(llvm::StringRef path);
  /// Scans `text` as the file `path`.
  static llvm::Expected<std::unique_ptr<KernelFile>>
  fromText(llvm::StringRef text, llvm::StringRef path);
  ~KernelFile();

  llvm::StringRef getPath() const { return path; }
  llvm::StringRef getText() const { return text; }

  /// The jit function `name` with its autotune configs evaluated.
  llvm::Expected<KernelInfo> getKernel(llvm::StringRef name);

private:
  KernelFile();
  llvm::Error initialize();

  struct Impl;
  std::unique_ptr<Impl> impl;
  std::string path;
  std::string text;
};

/// Problems of an autotuned kernel's configs, one line each: a config that
/// sets something that is not a constexpr parameter, a key that is not a
/// parameter, an empty list. Empty when all is well.
std::vector<std::string> validateAutotuneConfigs(const KernelInfo &kernel);

/// The configs run where timing every one would be too slow (the CPU): the
/// first config (the tutorial's preferred one), the one with the smallest
/// tile (product of the BLOCK* meta-parameters; the first of equals), and
/// for every boolean meta-parameter the first config with each value not
/// yet covered. Indices in increasing order.
std::vector<unsigned>
selectRepresentativeConfigs(llvm::ArrayRef<KernelConfig> configs);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_KERNELFILE_H
