//===- Suite.cpp - The cases and benchmarks of the tutorials --------------===//
#include "tessera/Conformance/Suite.h"

#include "Tutorials.h"

#include "tessera/Conformance/CaseContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace mlir::tessera::conformance;

llvm::StringRef
mlir::tessera::conformance::stringifyConfigMode(ConfigMode mode) {
  switch (mode) {
  case ConfigMode::Tune:
    return "tune";
  case ConfigMode::Subset:
    return "subset";
  case ConfigMode::All:
    return "all";
  }
  return "";
}

std::optional<ConfigMode>
mlir::tessera::conformance::parseConfigMode(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ConfigMode>>(name)
      .Case("tune", ConfigMode::Tune)
      .Case("subset", ConfigMode::Subset)
      .Case("all", ConfigMode::All)
      .Default(std::nullopt);
}

ConfigMode
mlir::tessera::conformance::getCompileOnlyConfigMode(ConfigMode mode) {
  return mode == ConfigMode::Tune ? ConfigMode::All : mode;
}

Suite::Suite(SuiteOptions options) : options(std::move(options)) {}
Suite::~Suite() = default;

std::string Suite::getKernelPath(llvm::StringRef stem) const {
  llvm::SmallString<256> path(options.kernelDir);
  llvm::sys::path::append(path, stem + ".py");
  return std::string(path);
}

llvm::Expected<KernelFile &> Suite::getKernelFile(llvm::StringRef stem) {
  auto it = files.find(stem);
  if (it != files.end())
    return *it->second;
  llvm::Expected<std::unique_ptr<KernelFile>> file =
      KernelFile::load(getKernelPath(stem));
  if (!file)
    return file.takeError();
  KernelFile &result = **file;
  files[stem] = std::move(*file);
  return result;
}

llvm::Expected<KernelInfo> Suite::getKernelInfo(llvm::StringRef stem,
                                                llvm::StringRef kernel) {
  std::lock_guard<std::mutex> lock(filesMutex);
  llvm::Expected<KernelFile &> file = getKernelFile(stem);
  if (!file)
    return file.takeError();
  return file->getKernel(kernel);
}

void Suite::addConfigCases(
    llvm::StringRef stem, llvm::StringRef kernel, llvm::StringRef name,
    const Requirements &requirements,
    std::function<void(CaseContext &, const KernelConfig *)> run) {
  CaseSpec spec;
  spec.file = stem.str();
  spec.kernel = kernel.str();
  spec.requirements = requirements;
  if (options.configMode == ConfigMode::Tune) {
    spec.name = (name + ",autotuned").str();
    spec.run = [run](CaseContext &ctx) { run(ctx, nullptr); };
    addCase(std::move(spec));
    return;
  }
  llvm::Expected<KernelInfo> info = getKernelInfo(stem, kernel);
  if (!info) {
    // Reported when the case runs, so that a broken file fails its cases
    // instead of the whole run.
    std::string message = llvm::toString(info.takeError());
    spec.name = (name + ",configs").str();
    spec.run = [message](CaseContext &ctx) { ctx.fail(message); };
    addCase(std::move(spec));
    return;
  }
  std::vector<unsigned> indices;
  if (options.configMode == ConfigMode::Subset) {
    indices = selectRepresentativeConfigs(info->configs);
  } else {
    for (unsigned i = 0, e = info->configs.size(); i < e; ++i)
      indices.push_back(i);
  }
  for (unsigned index : indices) {
    CaseSpec configSpec = spec;
    configSpec.name = (name + ",config=" + llvm::Twine(index)).str();
    auto config = std::make_shared<KernelConfig>(info->configs[index]);
    configSpec.run = [run, config](CaseContext &ctx) {
      ctx.note("config: " + config->str());
      run(ctx, config.get());
    };
    addCase(std::move(configSpec));
  }
}

void Suite::addConfigValidationCase(llvm::StringRef stem,
                                    llvm::StringRef kernel) {
  CaseSpec spec;
  spec.file = stem.str();
  spec.kernel = kernel.str();
  spec.name = "configs";
  llvm::Expected<KernelInfo> info = getKernelInfo(stem, kernel);
  if (!info) {
    std::string message = llvm::toString(info.takeError());
    spec.run = [message](CaseContext &ctx) { ctx.fail(message); };
  } else {
    std::vector<std::string> problems = validateAutotuneConfigs(*info);
    size_t configs = info->configs.size();
    spec.run = [problems, configs](CaseContext &ctx) {
      ctx.note(llvm::Twine(configs) + " configs");
      if (!problems.empty())
        ctx.note(llvm::join(problems, "\n"));
      ctx.check("config problems", static_cast<double>(problems.size()), 0);
    };
  }
  addCase(std::move(spec));
}

std::unique_ptr<Suite>
mlir::tessera::conformance::buildTutorialSuite(SuiteOptions options) {
  auto suite = std::make_unique<Suite>(std::move(options));
  addVectorAddTutorial(*suite);
  addFusedSoftmaxTutorial(*suite);
  addMatmulTutorial(*suite);
  addDropoutTutorial(*suite);
  addLayerNormTutorial(*suite);
  addFusedAttentionTutorial(*suite);
  addExternFunctionsTutorial(*suite);
  addGroupedGemmTutorial(*suite);
  addPersistentMatmulTutorial(*suite);
  return suite;
}
