//===- KernelFile.cpp - What the runner reads from a kernel file ----------===//
#include "tessera/Conformance/KernelFile.h"

#include "tessera/Frontend/Decorators.h"
#include "tessera/Frontend/HostEvaluator.h"
#include "tessera/Frontend/KernelModule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <set>

using namespace mlir::tessera::conformance;
namespace fe = ::tessera::frontend;

struct KernelFile::Impl {
  llvm::SourceMgr sourceMgr;
  std::string diagnosticText;
  llvm::raw_string_ostream diagnosticStream{diagnosticText};
  fe::DiagnosticEngine diags{sourceMgr, &diagnosticStream};
  std::unique_ptr<fe::KernelModule> module;
  std::unique_ptr<fe::HostEvaluator> evaluator;

  llvm::Error makeError(const llvm::Twine &fallback) {
    std::string text = std::move(diagnosticText);
    diagnosticText.clear();
    if (text.empty())
      text = fallback.str();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
  }
};

KernelFile::KernelFile() : impl(std::make_unique<Impl>()) {}
KernelFile::~KernelFile() = default;

llvm::Expected<std::unique_ptr<KernelFile>>
KernelFile::load(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read kernel file '" + path +
                                       "': " + buffer.getError().message());
  return fromText((*buffer)->getBuffer(), path);
}

llvm::Expected<std::unique_ptr<KernelFile>>
KernelFile::fromText(llvm::StringRef text, llvm::StringRef path) {
  std::unique_ptr<KernelFile> file(new KernelFile());
  file->path = path.str();
  file->text = text.str();
  if (llvm::Error err = file->initialize())
    return std::move(err);
  return file;
}

llvm::Error KernelFile::initialize() {
  unsigned id = impl->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(text, path), llvm::SMLoc());
  impl->module = fe::KernelModule::scan(impl->sourceMgr, id, impl->diags);
  if (impl->diags.hadError())
    return impl->makeError("cannot scan '" + path + "'");
  impl->evaluator =
      std::make_unique<fe::HostEvaluator>(impl->module.get(), impl->diags);
  return llvm::Error::success();
}

/// The jit function `name` or an error listing the file's jit functions.
static llvm::Expected<const fe::JitFunction *>
findJitFunction(fe::KernelModule &module, llvm::StringRef path,
                llvm::StringRef name) {
  if (const fe::JitFunction *fn = module.lookupJitFunction(name))
    return fn;
  std::vector<std::string> names;
  for (const fe::JitFunction &fn : module.getJitFunctions())
    names.push_back(fn.getName().str());
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "'" + path + "' has no @triton.jit function '" + name +
          "' (it has: " + llvm::join(names, ", ") + ")");
}

llvm::Expected<KernelInfo> KernelFile::getKernel(llvm::StringRef name) {
  llvm::Expected<const fe::JitFunction *> fn =
      findJitFunction(*impl->module, path, name);
  if (!fn)
    return fn.takeError();
  KernelInfo info;
  info.name = name.str();
  for (const fe::Parameter &param : (*fn)->def->getParams()) {
    info.params.push_back(param.name.str());
    std::optional<std::string> annotation =
        param.annotation ? impl->module->getQualifiedName(param.annotation)
                         : std::nullopt;
    info.constexprParams.push_back(annotation &&
                                   *annotation == "triton.language.constexpr");
  }
  const fe::DecoratorInfo *autotune =
      (*fn)->findDecorator(fe::DecoratorKind::Autotune);
  if (!autotune)
    return info;
  llvm::FailureOr<fe::AutotuneSpec> spec =
      fe::readAutotune(*impl->evaluator, *autotune);
  if (failed(spec))
    return impl->makeError("cannot read the @triton.autotune of '" + name +
                           "'");
  info.autotuned = true;
  info.key = spec->key;
  for (const fe::TuneConfig &tc : spec->configs) {
    KernelConfig config;
    config.constexprs = tc.kwargs;
    config.numWarps = static_cast<int>(tc.numWarps);
    config.numStages = static_cast<int>(tc.numStages);
    config.numCTAs = static_cast<int>(tc.numCtas);
    config.maxNumRegs = static_cast<int>(tc.maxnreg.value_or(0));
    info.configs.push_back(std::move(config));
  }
  return info;
}

const fe::HostValue *KernelConfig::lookup(llvm::StringRef name) const {
  for (const auto &[key, value] : constexprs)
    if (key == name)
      return &value;
  return nullptr;
}

std::string KernelConfig::str() const {
  std::vector<std::string> parts;
  for (const auto &[key, value] : constexprs)
    parts.push_back(key + "=" + value.repr());
  parts.push_back("num_warps=" + std::to_string(numWarps));
  parts.push_back("num_stages=" + std::to_string(numStages));
  if (numCTAs != 1)
    parts.push_back("num_ctas=" + std::to_string(numCTAs));
  if (maxNumRegs != 0)
    parts.push_back("maxnreg=" + std::to_string(maxNumRegs));
  return llvm::join(parts, ", ");
}

std::vector<std::string>
mlir::tessera::conformance::validateAutotuneConfigs(const KernelInfo &kernel) {
  std::vector<std::string> problems;
  if (!kernel.autotuned) {
    problems.push_back("kernel '" + kernel.name + "' is not autotuned");
    return problems;
  }
  if (kernel.configs.empty())
    problems.push_back("the config list is empty");
  auto indexOf = [&](llvm::StringRef name) -> std::optional<size_t> {
    auto it = llvm::find(kernel.params, name);
    if (it == kernel.params.end())
      return std::nullopt;
    return it - kernel.params.begin();
  };
  for (size_t i = 0, e = kernel.configs.size(); i < e; ++i) {
    for (const auto &[key, value] : kernel.configs[i].constexprs) {
      std::optional<size_t> index = indexOf(key);
      if (!index)
        problems.push_back("config " + std::to_string(i) + " sets '" + key +
                           "', which is not a parameter");
      else if (!kernel.constexprParams[*index])
        problems.push_back("config " + std::to_string(i) + " sets '" + key +
                           "', which is not a tl.constexpr parameter");
    }
    if (kernel.configs[i].numWarps <= 0 ||
        (kernel.configs[i].numWarps & (kernel.configs[i].numWarps - 1)))
      problems.push_back("config " + std::to_string(i) + " has num_warps=" +
                         std::to_string(kernel.configs[i].numWarps) +
                         ", not a power of two");
  }
  for (const std::string &key : kernel.key)
    if (!indexOf(key))
      problems.push_back("autotune key '" + key + "' is not a parameter");
  return problems;
}

std::vector<unsigned> mlir::tessera::conformance::selectRepresentativeConfigs(
    llvm::ArrayRef<KernelConfig> configs) {
  if (configs.empty())
    return {};
  std::set<unsigned> chosen = {0};
  auto tileVolume = [](const KernelConfig &config) {
    double volume = 1;
    for (const auto &[key, value] : config.constexprs)
      if (llvm::StringRef(key).starts_with("BLOCK") && value.isInt())
        volume *= static_cast<double>(value.getInt());
    return volume;
  };
  unsigned smallest = 0;
  for (unsigned i = 1, e = configs.size(); i < e; ++i)
    if (tileVolume(configs[i]) < tileVolume(configs[smallest]))
      smallest = i;
  chosen.insert(smallest);
  // Every value of every boolean meta-parameter, once.
  std::set<std::pair<std::string, bool>> covered;
  for (unsigned index : chosen)
    for (const auto &[key, value] : configs[index].constexprs)
      if (value.isBool())
        covered.insert({key, value.getBool()});
  for (unsigned i = 0, e = configs.size(); i < e; ++i)
    for (const auto &[key, value] : configs[i].constexprs)
      if (value.isBool() && covered.insert({key, value.getBool()}).second)
        chosen.insert(i);
  return std::vector<unsigned>(chosen.begin(), chosen.end());
}
