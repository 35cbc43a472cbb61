//===- Suite.h - The cases and benchmarks of the tutorials ------*- C++ -*-===//
//
// Each tutorial file (lib/TutorialNN*.cpp) adds its cases and benchmark
// workloads to a Suite. A case is identified as FILE/KERNEL/CASE, e.g.
// `01_vector_add/add_kernel/n=4097`; ids never contain spaces, so that
// expectation files and --kernel filters can name them.
//
// Autotuned kernels run in one of three ways (ConfigMode): through the
// runtime's autotuner (one case per shape, the tuner times every config and
// the chosen one is checked), or with explicit configs, one case each: a
// representative subset (selectRepresentativeConfigs) or every config.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_SUITE_H
#define TESSERA_CONFORMANCE_SUITE_H

#include "tessera/Conformance/KernelFile.h"
#include "tessera/Conformance/Requirements.h"

#include "llvm/ADT/StringMap.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::conformance {

class CaseContext;
class BenchContext;

/// How autotuned kernels run.
enum class ConfigMode {
  /// Through the runtime's autotuner (GPUs).
  Tune,
  /// Each config of selectRepresentativeConfigs() (the CPU).
  Subset,
  /// Every config, one case each.
  All,
};

llvm::StringRef stringifyConfigMode(ConfigMode mode);
std::optional<ConfigMode> parseConfigMode(llvm::StringRef name);

/// The mode a compile-only run uses instead of `mode`: without a device
/// nothing is timed, so the autotuner's choice becomes every config.
ConfigMode getCompileOnlyConfigMode(ConfigMode mode);

struct CaseSpec {
  /// The kernel file's stem ("01_vector_add").
  std::string file;
  /// The kernel, or kernels joined with '+', the case launches.
  std::string kernel;
  /// What distinguishes the case ("n=4097", "fp16,67x45x39,config=3").
  std::string name;
  Requirements requirements;
  /// Runs the case; errors and checks go to the context.
  std::function<void(CaseContext &)> run;

  std::string getId() const { return file + "/" + kernel + "/" + name; }
};

/// One timed workload of `tessera bench`.
struct BenchSpec {
  std::string file;
  std::string kernel;
  /// The workload ("fp16,8192x8192x8192"); with `scaled` set, the CPU
  /// shape used instead of the GUIDE's.
  std::string name;
  bool scaled = false;
  Requirements requirements;
  std::function<void(BenchContext &)> run;

  std::string getId() const { return file + "/" + kernel + "/" + name; }
};

struct SuiteOptions {
  /// Directory of the kernel files (conformance/kernels).
  std::string kernelDir;
  ConfigMode configMode = ConfigMode::Tune;
  /// Benchmarks on shapes small enough for the CPU.
  bool scaledBenchmarks = false;
};

class Suite {
public:
  explicit Suite(SuiteOptions options);
  ~Suite();

  const SuiteOptions &getOptions() const { return options; }
  llvm::ArrayRef<CaseSpec> getCases() const { return cases; }
  llvm::ArrayRef<BenchSpec> getBenchmarks() const { return benchmarks; }

  void addCase(CaseSpec spec) { cases.push_back(std::move(spec)); }
  void addBenchmark(BenchSpec spec) { benchmarks.push_back(std::move(spec)); }

  /// The path of kernel file `stem`.
  std::string getKernelPath(llvm::StringRef stem) const;
  /// The scanned kernel file `stem`, loaded once. Not for concurrent use
  /// (a KernelFile evaluates on its own state): cases that may run on
  /// several threads use getKernelInfo.
  llvm::Expected<KernelFile &> getKernelFile(llvm::StringRef stem);
  /// The jit function `kernel` of file `stem`; safe to call from several
  /// threads (conformance --jobs compiles cases concurrently).
  llvm::Expected<KernelInfo> getKernelInfo(llvm::StringRef stem,
                                           llvm::StringRef kernel);

  /// Adds the cases of autotuned `kernel` on one shape as the config mode
  /// says: `name + ",autotuned"` running `run(ctx, nullptr)`, or one case
  /// `name + ",config=I"` per selected config running `run(ctx, &config)`.
  /// A file whose configs cannot be read gives one failing case saying why.
  void
  addConfigCases(llvm::StringRef stem, llvm::StringRef kernel,
                 llvm::StringRef name, const Requirements &requirements,
                 std::function<void(CaseContext &, const KernelConfig *)> run);

  /// Adds the static check of the autotune configs of `kernel`:
  /// `STEM/KERNEL/configs`, needing no backend beyond the frontend.
  void addConfigValidationCase(llvm::StringRef stem, llvm::StringRef kernel);

private:
  SuiteOptions options;
  std::vector<CaseSpec> cases;
  std::vector<BenchSpec> benchmarks;
  llvm::StringMap<std::unique_ptr<KernelFile>> files;
  std::mutex filesMutex;
};

/// The suite of tutorials 01-09.
std::unique_ptr<Suite> buildTutorialSuite(SuiteOptions options);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_SUITE_H
