//===- JitKernel.cpp - A @triton.jit function ready to launch -------------===//
#include "tessera/Runtime/JitKernel.h"

#include "tessera/Frontend/Compile.h"
#include "tessera/Runtime/Benchmark.h"
#include "tessera/Runtime/HostValues.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
namespace fe = ::tessera::frontend;

static llvm::Error launchError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A compilation's remarks (why a dot stays on multiply-adds...) go to the
/// log: a program that launches kernels does not print them by default.
static void logRemarks(const CompileResult &compiled) {
  llvm::StringRef remarks = llvm::StringRef(compiled.remarks).rtrim();
  if (!remarks.empty())
    getLogger().info("{}", remarks.str());
}

JitKernel::~JitKernel() {
  Device *device = runtime.getDevice();
  if (!device)
    return;
  for (auto &entry : table)
    if (llvm::Error err =
            device->getDriver().unloadModule(entry.getValue()->module))
      getLogger().warn("{}", llvm::toString(std::move(err)));
}

llvm::Expected<std::unique_ptr<JitKernel>>
JitKernel::create(Runtime &runtime, std::shared_ptr<KernelSource> source,
                  llvm::StringRef name) {
  std::unique_ptr<JitKernel> kernel(
      new JitKernel(runtime, std::move(source), name.str()));
  if (llvm::Error err = kernel->initialize())
    return std::move(err);
  return kernel;
}

llvm::ArrayRef<TuneCandidate> JitKernel::getConfigs() const {
  return autotuner ? autotuner->getCandidates()
                   : llvm::ArrayRef<TuneCandidate>();
}

//===----------------------------------------------------------------------===//
// What the kernel file says about the kernel
//===----------------------------------------------------------------------===//

llvm::Error JitKernel::initialize() {
  SourceScope scope(*source);
  llvm::Expected<const fe::JitFunction *> fn = source->getJitFunction(name);
  if (!fn)
    return fn.takeError();
  fe::HostEvaluator &eval = scope.getEvaluator();

  for (const fe::Parameter &p : (*fn)->def->getParams()) {
    if (p.kind == fe::ParamKind::VarPositional ||
        p.kind == fe::ParamKind::VarKeyword)
      return launchError(source->getPath() + ": kernel '" + name +
                         "' takes *args or **kwargs, which kernels cannot");
    KernelParamInfo info;
    info.name = p.name.str();
    info.isConstexpr = fe::isConstexprParam(p);
    if (p.defaultValue) {
      // A default that cannot be evaluated matters only when a launch
      // leaves the parameter out; that launch reports it missing. Its
      // diagnostics must not fail the decorators below.
      fe::DiagnosticEngine quiet(scope.getSourceMgr(), /*os=*/nullptr);
      fe::HostEvaluator quietEval(&scope.getModule(), quiet);
      llvm::FailureOr<fe::HostValue> value = quietEval.evaluate(p.defaultValue);
      if (succeeded(value)) {
        llvm::Expected<KernelArg> arg =
            fromHostValue(*value, "the default of '" + info.name + "'");
        if (arg)
          info.defaultValue = std::move(*arg);
        else
          llvm::consumeError(arg.takeError());
      }
    }
    params.push_back(std::move(info));
  }
  auto indexOf = [&](llvm::StringRef param) -> std::optional<unsigned> {
    for (unsigned i = 0, e = params.size(); i < e; ++i)
      if (params[i].name == param)
        return i;
    return std::nullopt;
  };
  auto indicesOf = [&](llvm::ArrayRef<std::string> names, llvm::StringRef what,
                       std::vector<unsigned> &out) -> llvm::Error {
    for (const std::string &n : names) {
      std::optional<unsigned> index = indexOf(n);
      if (!index)
        return launchError(source->getPath() + ": " + what + " names '" + n +
                           "', which is not a parameter of kernel '" + name +
                           "'");
      out.push_back(*index);
    }
    return llvm::Error::success();
  };

  if (const fe::DecoratorInfo *d =
          (*fn)->findDecorator(fe::DecoratorKind::Jit)) {
    llvm::FailureOr<fe::JitOptions> jit = fe::readJitOptions(eval, *d);
    if (failed(jit))
      return scope.makeError("cannot read @triton.jit options");
    auto mark = [&](llvm::ArrayRef<fe::HostValue> list, bool alignmentOnly) {
      for (const fe::HostValue &v : list) {
        std::optional<unsigned> index;
        if (v.isInt() && v.getInt() >= 0 && v.getInt() < int64_t(params.size()))
          index = v.getInt();
        else if (v.isString())
          index = indexOf(v.getString());
        if (!index)
          continue;
        if (alignmentOnly)
          params[*index].doNotSpecializeOnAlignment = true;
        else
          params[*index].doNotSpecialize = true;
      }
    };
    mark(jit->doNotSpecialize, false);
    mark(jit->doNotSpecializeOnAlignment, true);
  }

  if (const fe::DecoratorInfo *d =
          (*fn)->findDecorator(fe::DecoratorKind::Heuristics)) {
    llvm::FailureOr<fe::HeuristicsSpec> spec = fe::readHeuristics(eval, *d);
    if (failed(spec))
      return scope.makeError("cannot read @triton.heuristics");
    heuristics = std::move(*spec);
  }

  if (const fe::DecoratorInfo *d =
          (*fn)->findDecorator(fe::DecoratorKind::Autotune)) {
    llvm::FailureOr<fe::AutotuneSpec> spec = fe::readAutotune(eval, *d);
    if (failed(spec))
      return scope.makeError("cannot read @triton.autotune");
    autotune = std::move(*spec);
    std::vector<TuneCandidate> candidates;
    for (const fe::TuneConfig &config : autotune->configs) {
      TuneCandidate candidate;
      for (const auto &[key, value] : config.kwargs) {
        llvm::Expected<KernelArg> arg =
            fromHostValue(value, "autotune value '" + key + "'");
        if (!arg)
          return arg.takeError();
        candidate.constexprs.emplace_back(key, std::move(*arg));
      }
      candidate.numWarps = static_cast<int>(config.numWarps);
      candidate.numStages = static_cast<int>(config.numStages);
      candidate.numCTAs = static_cast<int>(config.numCtas);
      candidate.maxNumRegs = static_cast<int>(config.maxnreg.value_or(0));
      if (!config.preHook.isNone())
        getLogger().warn("{}: kernel '{}': a config's pre_hook is Python "
                         "code the runtime cannot run; it is ignored",
                         source->getPath().str(), name);
      candidates.push_back(std::move(candidate));
    }
    if (llvm::Error err =
            indicesOf(autotune->key, "the autotune key", keyParams))
      return err;
    if (llvm::Error err =
            indicesOf(autotune->resetToZero, "reset_to_zero", resetParams))
      return err;
    if (llvm::Error err =
            indicesOf(autotune->restoreValue, "restore_value", restoreParams))
      return err;
    if (!autotune->preHook.isNone() || !autotune->postHook.isNone())
      getLogger().warn("{}: kernel '{}': autotune pre_hook/post_hook are "
                       "Python code the runtime cannot run; they are ignored",
                       source->getPath().str(), name);

    TuningScope tuning;
    tuning.backend = runtime.getPluginIdentity().name;
    if (Device *device = runtime.getDevice()) {
      tuning.deviceName = device->getProperties().name;
      tuning.arch = device->getProperties().arch;
    }
    tuning.kernelName = name;
    tuning.file = source->getPath().str();
    tuning.sourceHash = source->getSourceHash();
    autotuner = std::make_unique<Autotuner>(
        std::move(candidates), runtime.getTuningStore(), std::move(tuning));
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Binding the values of a launch
//===----------------------------------------------------------------------===//

llvm::Error JitKernel::bindArguments(llvm::ArrayRef<KernelArg> args,
                                     llvm::ArrayRef<NamedKernelArg> kwargs,
                                     Binding &binding) const {
  if (args.size() > params.size())
    return launchError("kernel '" + name + "' takes " +
                       llvm::Twine(params.size()) + " arguments, " +
                       llvm::Twine(args.size()) + " were given");
  binding.values.assign(args.begin(), args.end());
  binding.values.resize(params.size());
  binding.given.assign(params.size(), false);
  std::fill(binding.given.begin(), binding.given.begin() + args.size(), true);
  for (const auto &[key, value] : kwargs) {
    unsigned i = 0, e = params.size();
    while (i < e && params[i].name != key)
      ++i;
    if (i == e)
      return launchError("kernel '" + name + "' has no parameter named '" +
                         key + "'");
    if (binding.given[i])
      return launchError("kernel '" + name + "' got two values for '" + key +
                         "'");
    binding.values[i] = value;
    binding.given[i] = true;
  }
  return llvm::Error::success();
}

llvm::Error JitKernel::completeBinding(Binding &binding,
                                       const TuneCandidate *config,
                                       const LaunchOptions &options) {
  llvm::SmallVector<bool, 16> set = binding.given;
  auto setValue = [&](llvm::StringRef key, KernelArg value,
                      llvm::StringRef by) -> llvm::Error {
    for (unsigned i = 0, e = params.size(); i < e; ++i) {
      if (params[i].name != key)
        continue;
      if (binding.given[i])
        return launchError("argument '" + key + "' of kernel '" + name +
                           "' is set by " + by + "; do not pass it");
      binding.values[i] = std::move(value);
      set[i] = true;
      return llvm::Error::success();
    }
    return launchError(by + " sets '" + key +
                       "', which is not a parameter of kernel '" + name + "'");
  };

  if (config)
    for (const auto &[key, value] : config->constexprs)
      if (llvm::Error err = setValue(key, value, "the autotune config"))
        return err;

  if (heuristics) {
    SourceScope scope(*source);
    std::vector<fe::HostKwarg> known;
    for (unsigned i = 0, e = params.size(); i < e; ++i)
      if (set[i])
        known.emplace_back(params[i].name, toHostValue(binding.values[i]));
    llvm::FailureOr<std::vector<fe::HostKwarg>> computed =
        fe::evaluateHeuristics(scope.getEvaluator(), *heuristics, known);
    if (failed(computed))
      return scope.makeError("cannot evaluate the heuristics of "
                             "kernel '" +
                             name + "'");
    for (const auto &[key, value] : *computed) {
      llvm::Expected<KernelArg> arg =
          fromHostValue(value, "heuristic '" + key + "'");
      if (!arg)
        return arg.takeError();
      if (llvm::Error err = setValue(key, std::move(*arg), "a heuristic"))
        return err;
    }
  }

  std::vector<std::string> missing;
  for (unsigned i = 0, e = params.size(); i < e; ++i) {
    if (set[i])
      continue;
    if (params[i].defaultValue)
      binding.values[i] = *params[i].defaultValue;
    else
      missing.push_back("'" + params[i].name + "'");
  }
  if (!missing.empty())
    return launchError("kernel '" + name + "' is missing argument" +
                       (missing.size() > 1 ? "s " : " ") +
                       llvm::join(missing, ", "));

  binding.numWarps = options.numWarps.value_or(config ? config->numWarps : 4);
  // Triton's rule on every target (a cpu program ignores the count, but the
  // same launch must fail there as on a GPU).
  if (binding.numWarps < 1 || !llvm::isPowerOf2_32(binding.numWarps))
    return launchError("kernel '" + name +
                       "': num_warps must be a power of 2, got " +
                       llvm::Twine(binding.numWarps));
  binding.numStages =
      options.numStages.value_or(config ? config->numStages : 3);
  binding.numCTAs = options.numCTAs.value_or(config ? config->numCTAs : 1);
  binding.maxNumRegs =
      options.maxNumRegs.value_or(config ? config->maxNumRegs : 0);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Dispatch: from values to a loaded module
//===----------------------------------------------------------------------===//

std::string JitKernel::getTableKey(const ArgumentSpecialization &spec,
                                   const Binding &binding) {
  std::string key = spec.signature;
  key += "|w";
  key += std::to_string(binding.numWarps);
  key += 's';
  key += std::to_string(binding.numStages);
  key += 'c';
  key += std::to_string(binding.numCTAs);
  key += 'r';
  key += std::to_string(binding.maxNumRegs);
  return key;
}

CompileRequest JitKernel::makeCompileRequest(const ArgumentSpecialization &spec,
                                             const Binding &binding,
                                             llvm::StringRef arch) const {
  CompileRequest request;
  request.kernel = name;
  request.signature = spec.signature;
  request.completeSignature = true;
  request.options.arch = arch.str();
  request.options.numWarps = binding.numWarps;
  request.options.numStages = binding.numStages;
  request.options.numCTAs = binding.numCTAs;
  request.options.maxNumRegs = binding.maxNumRegs;
  return request;
}

llvm::Expected<ArgPacker>
JitKernel::createPacker(const CompiledKernel &kernel,
                        const ArgumentSpecialization &spec) const {
  if (kernel.params.size() != spec.runtimeParams.size())
    return launchError(
        "backend '" + runtime.getPluginIdentity().name + "' compiled kernel '" +
        name + "' with " + llvm::Twine(kernel.params.size()) +
        " parameters, but its specialization '" + spec.signature + "' passes " +
        llvm::Twine(spec.runtimeParams.size()));
  std::vector<std::string> names;
  for (unsigned index : spec.runtimeParams)
    names.push_back(params[index].name);
  return ArgPacker::create(kernel.params, names);
}

llvm::Expected<LoadedKernel *> JitKernel::getOrLoad(const Binding &binding) {
  llvm::Expected<ArgumentSpecialization> spec =
      specializeArguments(params, binding.values);
  if (!spec)
    return spec.takeError();
  std::string key = getTableKey(*spec, binding);
  {
    std::lock_guard<std::mutex> lock(tableMutex);
    auto it = table.find(key);
    if (it != table.end()) {
      ++dispatchHits;
      return it->getValue().get();
    }
  }

  // One compilation at a time per kernel: a second thread missing on the
  // same key waits and then finds it.
  std::lock_guard<std::mutex> loadLock(loadMutex);
  {
    std::lock_guard<std::mutex> lock(tableMutex);
    auto it = table.find(key);
    if (it != table.end())
      return it->getValue().get();
  }
  llvm::Expected<Device &> device = runtime.requireDevice();
  if (!device)
    return device.takeError();

  CompileRequest request =
      makeCompileRequest(*spec, binding,
                         runtime.getOptions().arch.empty()
                             ? llvm::StringRef(device->getProperties().arch)
                             : runtime.getOptions().arch);
  getLogger().debug("compiling {}({}) num_warps={} num_stages={}", name,
                    spec->signature, binding.numWarps, binding.numStages);
  llvm::Expected<CompileResult> compiled =
      runtime.getCompiler().compile(*source, request, EmitStage::Binary);
  if (!compiled)
    return compiled.takeError();
  logRemarks(*compiled);
  ++loads;
  if (compiled->cacheHit)
    ++diskCacheHits;

  auto loaded = std::make_unique<LoadedKernel>();
  loaded->kernel = std::move(*compiled->kernel);
  loaded->runtimeParams = spec->runtimeParams;
  loaded->signature = spec->signature;
  loaded->options = compiled->options;
  loaded->fromDiskCache = compiled->cacheHit;
  llvm::Expected<ArgPacker> packer = createPacker(loaded->kernel, *spec);
  if (!packer)
    return packer.takeError();
  loaded->packer = std::move(*packer);
  llvm::Expected<ModuleHandle> module =
      device->getDriver().loadModule(device->getIndex(), loaded->kernel);
  if (!module)
    return module.takeError();
  loaded->module = *module;
  // The bytes live on in the driver; only the metadata is needed here.
  loaded->kernel.binary.clear();
  std::lock_guard<std::mutex> lock(tableMutex);
  auto [it, inserted] = table.try_emplace(key, std::move(loaded));
  return it->getValue().get();
}

llvm::Error JitKernel::run(const LoadedKernel &kernel, const Binding &binding,
                           const Grid &grid) {
  LaunchMeta meta(params, binding.values, binding.numWarps, binding.numStages,
                  binding.numCTAs);
  llvm::Expected<std::array<uint32_t, 3>> dims = grid.resolve(meta);
  if (!dims)
    return launchError("kernel '" + name +
                       "': " + llvm::toString(dims.takeError()));
  if ((*dims)[0] == 0 || (*dims)[1] == 0 || (*dims)[2] == 0)
    return llvm::Error::success();
  PackedArgs packed;
  if (llvm::Error err =
          kernel.packer.pack(binding.values, packed, kernel.runtimeParams))
    return launchError("kernel '" + name +
                       "': " + llvm::toString(std::move(err)));
  LaunchConfig config;
  config.grid = *dims;
  config.numWarps = kernel.kernel.numWarps;
  config.threadsPerWarp = kernel.kernel.threadsPerWarp;
  config.numCTAs = kernel.kernel.numCTAs;
  config.sharedMemoryBytes = kernel.kernel.sharedMemoryBytes;
  Device *device = runtime.getDevice();
  return device->getDriver().launch(kernel.module, config,
                                    packed.getPointers());
}

//===----------------------------------------------------------------------===//
// Autotuning
//===----------------------------------------------------------------------===//

llvm::Expected<std::string>
JitKernel::getTuningKey(const Binding &binding) const {
  std::string key;
  for (unsigned index : keyParams) {
    if (!binding.given[index])
      return launchError("kernel '" + name + "' is autotuned on '" +
                         params[index].name +
                         "', which the launch does not "
                         "pass");
    if (!key.empty())
      key += ',';
    const KernelArg &value = binding.values[index];
    key += params[index].name;
    key += '=';
    if (value.isPointer()) {
      key += '*';
      key += value.getText();
    } else {
      key += value.repr();
    }
  }
  // Like Triton, the element types of the pointers are part of the key.
  key += '|';
  bool first = true;
  for (unsigned i = 0, e = params.size(); i < e; ++i) {
    if (!binding.given[i] || !binding.values[i].isPointer())
      continue;
    if (!first)
      key += ',';
    first = false;
    key += binding.values[i].getText();
  }
  return key;
}

std::vector<unsigned> JitKernel::pruneConfigs(const Binding &binding) {
  std::vector<unsigned> all;
  for (unsigned i = 0, e = autotune->configs.size(); i < e; ++i)
    all.push_back(i);
  const fe::HostValue &prune = autotune->pruneConfigsBy;
  if (!prune.isDict())
    return all;

  SourceScope scope(*source);
  fe::HostEvaluator &eval = scope.getEvaluator();
  llvm::SMLoc loc = autotune->loc.ptr;
  auto giveUp = [&](llvm::StringRef what) {
    std::string why = scope.takeText();
    llvm::StringRef firstLine = llvm::StringRef(why).split('\n').first;
    if (!warnedPrune)
      getLogger().warn(
          "kernel '{}': cannot evaluate prune_configs_by ({}{}{}); "
          "timing every config",
          name, what.str(), firstLine.empty() ? "" : ": ", firstLine.str());
    warnedPrune = true;
    return all;
  };
  fe::HostValue::Items namedItems;
  std::vector<fe::HostKwarg> namedKwargs;
  for (unsigned i = 0, e = params.size(); i < e; ++i) {
    if (!binding.given[i])
      continue;
    fe::HostValue v = toHostValue(binding.values[i]);
    namedItems.emplace_back(fe::HostValue::string(params[i].name), v);
    namedKwargs.emplace_back(params[i].name, v);
  }
  std::vector<unsigned> kept = all;

  if (const fe::HostValue *early = prune.lookup("early_config_prune");
      early && !early->isNone()) {
    fe::HostValue::Elements configs;
    for (unsigned i : kept)
      configs.push_back(fe::HostValue::config(autotune->configs[i]));
    llvm::FailureOr<fe::HostValue> result = eval.call(
        *early, {fe::HostValue::list(configs), fe::HostValue::dict(namedItems)},
        {}, loc);
    if (failed(result) || !result->isSequence())
      return giveUp("early_config_prune");
    std::vector<unsigned> survivors;
    for (const fe::HostValue &c : result->getElements()) {
      if (!c.isConfig())
        return giveUp("early_config_prune returned a non-Config");
      std::string repr = c.getConfig().repr();
      for (unsigned i : kept)
        if (autotune->configs[i].repr() == repr &&
            llvm::find(survivors, i) == survivors.end()) {
          survivors.push_back(i);
          break;
        }
    }
    kept = std::move(survivors);
  }

  const fe::HostValue *model = prune.lookup("perf_model");
  const fe::HostValue *topK = prune.lookup("top_k");
  if (model && !model->isNone() && topK && topK->isNumber()) {
    size_t keep =
        topK->isFloat() && topK->getFloat() <= 1.0
            ? static_cast<size_t>(std::ceil(topK->getFloat() * kept.size()))
            : static_cast<size_t>(std::max<int64_t>(
                  1, static_cast<int64_t>(topK->getNumber())));
    if (keep < kept.size()) {
      std::vector<std::pair<double, unsigned>> estimates;
      for (unsigned i : kept) {
        const fe::TuneConfig &c = autotune->configs[i];
        std::vector<fe::HostKwarg> kwargs = namedKwargs;
        for (const auto &kv : c.kwargs)
          kwargs.push_back(kv);
        kwargs.emplace_back("num_warps", fe::HostValue::integer(c.numWarps));
        kwargs.emplace_back("num_stages", fe::HostValue::integer(c.numStages));
        kwargs.emplace_back("num_ctas", fe::HostValue::integer(c.numCtas));
        llvm::FailureOr<fe::HostValue> t = eval.call(*model, {}, kwargs, loc);
        if (failed(t) || !t->isNumber())
          return giveUp("perf_model");
        estimates.emplace_back(t->getNumber(), i);
      }
      std::stable_sort(estimates.begin(), estimates.end());
      kept.clear();
      for (size_t j = 0; j < keep; ++j)
        kept.push_back(estimates[j].second);
    }
  }
  if (kept.empty())
    return giveUp("it left no config");
  return kept;
}

llvm::Expected<unsigned> JitKernel::selectConfig(const Binding &binding,
                                                 const std::string &key,
                                                 const Grid *grid,
                                                 const LaunchOptions &options) {
  std::lock_guard<std::mutex> tuneLock(tuneMutex);
  if (std::optional<unsigned> index = autotuner->recall(key))
    return *index;
  llvm::Expected<Device &> device = runtime.requireDevice();
  if (!device)
    return device.takeError();

  // Buffers a trial may change are saved now and put back before every
  // trial and after the last.
  struct Saved {
    unsigned param;
    std::vector<char> bytes;
  };
  std::vector<Saved> saved;
  auto sizedPointer = [&](unsigned index,
                          llvm::StringRef what) -> llvm::Expected<uint64_t> {
    const KernelArg &arg = binding.values[index];
    if (!binding.given[index] || !arg.isPointer() || arg.getSizeBytes() == 0)
      return launchError("kernel '" + name + "': cannot " + what + " '" +
                         params[index].name +
                         "': pass it as a Buffer so that its size is known");
    return arg.getSizeBytes();
  };
  for (unsigned index : restoreParams) {
    llvm::Expected<uint64_t> size = sizedPointer(index, "restore");
    if (!size)
      return size.takeError();
    Saved s{index, std::vector<char>(*size)};
    if (llvm::Error err = device->getDriver().copyToHost(
            device->getIndex(), s.bytes.data(),
            binding.values[index].getAddress(), *size))
      return std::move(err);
    saved.push_back(std::move(s));
  }
  for (unsigned index : resetParams)
    if (llvm::Expected<uint64_t> size = sizedPointer(index, "reset"); !size)
      return size.takeError();
  auto resetState = [&]() -> llvm::Error {
    Driver &driver = device->getDriver();
    for (unsigned index : resetParams)
      if (llvm::Error err = driver.fill(device->getIndex(),
                                        binding.values[index].getAddress(), 0,
                                        binding.values[index].getSizeBytes()))
        return err;
    for (const Saved &s : saved)
      if (llvm::Error err = driver.copyToDevice(
              device->getIndex(), binding.values[s.param].getAddress(),
              s.bytes.data(), s.bytes.size()))
        return err;
    return llvm::Error::success();
  };

  if (!grid)
    return launchError("kernel '" + name +
                       "' must be tuned for these arguments, which needs a "
                       "grid: launch it");
  ++tunings;
  std::vector<unsigned> allowed = pruneConfigs(binding);
  BenchOptions bench = runtime.getOptions().tuning;
  bench.setup = resetState;
  Autotuner::Measure measure = [&](unsigned index) -> llvm::Expected<double> {
    Binding trial = binding;
    if (llvm::Error err =
            completeBinding(trial, &autotuner->getCandidates()[index], options))
      return std::move(err);
    llvm::Expected<LoadedKernel *> loaded = getOrLoad(trial);
    if (!loaded)
      return loaded.takeError();
    llvm::Expected<BenchStats> stats = benchmark(
        device->getDriver(), device->getIndex(),
        [&] { return run(**loaded, trial, *grid); }, bench);
    if (!stats)
      return stats.takeError();
    return stats->median;
  };
  llvm::Expected<unsigned> best = autotuner->select(key, allowed, measure);
  if (llvm::Error err = resetState())
    return std::move(err);
  return best;
}

llvm::Expected<std::optional<TuneCandidate>>
JitKernel::getTunedConfig(llvm::ArrayRef<KernelArg> args,
                          llvm::ArrayRef<NamedKernelArg> kwargs) {
  if (!autotuner)
    return std::nullopt;
  Binding binding;
  if (llvm::Error err = bindArguments(args, kwargs, binding))
    return std::move(err);
  llvm::Expected<std::string> key = getTuningKey(binding);
  if (!key)
    return key.takeError();
  llvm::Expected<unsigned> index =
      selectConfig(binding, *key, /*grid=*/nullptr, {});
  if (!index)
    return index.takeError();
  return autotuner->getCandidates()[*index];
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

llvm::Expected<const LoadedKernel *>
JitKernel::dispatch(const Grid *grid, llvm::ArrayRef<KernelArg> args,
                    llvm::ArrayRef<NamedKernelArg> kwargs,
                    const LaunchOptions &options) {
  Binding binding;
  if (llvm::Error err = bindArguments(args, kwargs, binding))
    return std::move(err);
  const TuneCandidate *config = nullptr;
  if (autotuner) {
    llvm::Expected<std::string> key = getTuningKey(binding);
    if (!key)
      return key.takeError();
    std::optional<unsigned> index = autotuner->lookup(*key);
    if (!index) {
      llvm::Expected<unsigned> chosen =
          selectConfig(binding, *key, grid, options);
      if (!chosen)
        return chosen.takeError();
      index = *chosen;
    }
    config = &autotuner->getCandidates()[*index];
  }
  if (llvm::Error err = completeBinding(binding, config, options))
    return std::move(err);
  llvm::Expected<LoadedKernel *> loaded = getOrLoad(binding);
  if (!loaded)
    return loaded.takeError();
  if (grid)
    if (llvm::Error err = run(**loaded, binding, *grid))
      return std::move(err);
  return *loaded;
}

llvm::Error JitKernel::launch(const Grid &grid, llvm::ArrayRef<KernelArg> args,
                              llvm::ArrayRef<NamedKernelArg> kwargs,
                              const LaunchOptions &options) {
  ++launches;
  llvm::Expected<const LoadedKernel *> loaded =
      dispatch(&grid, args, kwargs, options);
  return loaded ? llvm::Error::success() : loaded.takeError();
}

llvm::Expected<const LoadedKernel *>
JitKernel::prepare(llvm::ArrayRef<KernelArg> args,
                   llvm::ArrayRef<NamedKernelArg> kwargs,
                   const LaunchOptions &options) {
  return dispatch(nullptr, args, kwargs, options);
}

llvm::Expected<const CompiledSpecialization *> JitKernel::compile(
    llvm::ArrayRef<KernelArg> args, llvm::ArrayRef<NamedKernelArg> kwargs,
    const LaunchOptions &options, std::optional<unsigned> configIndex) {
  Binding binding;
  if (llvm::Error err = bindArguments(args, kwargs, binding))
    return std::move(err);
  const TuneCandidate *config = nullptr;
  if (autotuner) {
    llvm::ArrayRef<TuneCandidate> candidates = autotuner->getCandidates();
    if (!configIndex)
      return launchError("kernel '" + name + "' is autotuned over " +
                         llvm::Twine(candidates.size()) +
                         " configs: without a device none can be chosen by "
                         "timing, so name the config to compile");
    if (*configIndex >= candidates.size())
      return launchError("kernel '" + name + "' has no autotune config " +
                         llvm::Twine(*configIndex) + " (it has " +
                         llvm::Twine(candidates.size()) + ")");
    config = &candidates[*configIndex];
  } else if (configIndex) {
    return launchError("kernel '" + name +
                       "' is not autotuned: it has no config " +
                       llvm::Twine(*configIndex));
  }
  if (llvm::Error err = completeBinding(binding, config, options))
    return std::move(err);
  llvm::Expected<ArgumentSpecialization> spec =
      specializeArguments(params, binding.values);
  if (!spec)
    return spec.takeError();
  std::string key = getTableKey(*spec, binding);

  llvm::Expected<const CompiledSpecialization *> entry =
      getOrCompile(*spec, binding, key);
  if (!entry)
    return entry.takeError();
  // What a launch checks on the host before it runs: every value fits its
  // parameter's type.
  PackedArgs packed;
  if (llvm::Error err =
          (*entry)->packer.pack(binding.values, packed, spec->runtimeParams))
    return launchError("kernel '" + name +
                       "': " + llvm::toString(std::move(err)));
  return *entry;
}

llvm::Expected<const CompiledSpecialization *>
JitKernel::getOrCompile(const ArgumentSpecialization &spec,
                        const Binding &binding, const std::string &key) {
  std::lock_guard<std::mutex> loadLock(loadMutex);
  {
    std::lock_guard<std::mutex> lock(tableMutex);
    auto it = compiledTable.find(key);
    if (it != compiledTable.end())
      return it->getValue().get();
  }
  // Without a device the session's architecture is the target; empty, the
  // compiler takes the backend's default.
  CompileRequest request =
      makeCompileRequest(spec, binding, runtime.getOptions().arch);
  getLogger().debug("compiling {}({}) num_warps={} num_stages={} (no load)",
                    name, spec.signature, binding.numWarps, binding.numStages);
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<CompileResult> compiled =
      runtime.getCompiler().compile(*source, request, EmitStage::Binary);
  if (!compiled)
    return compiled.takeError();
  logRemarks(*compiled);
  auto result = std::make_unique<CompiledSpecialization>();
  result->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ++loads;
  if (compiled->cacheHit)
    ++diskCacheHits;
  result->kernel = std::move(*compiled->kernel);
  result->signature = spec.signature;
  result->options = compiled->options;
  result->fromDiskCache = compiled->cacheHit;
  llvm::Expected<ArgPacker> packer = createPacker(result->kernel, spec);
  if (!packer)
    return packer.takeError();
  result->packer = std::move(*packer);
  std::lock_guard<std::mutex> lock(tableMutex);
  auto [it, inserted] = compiledTable.try_emplace(key, std::move(result));
  return it->getValue().get();
}

JitKernel::Statistics JitKernel::getStatistics() const {
  Statistics s;
  s.launches = launches;
  s.dispatchHits = dispatchHits;
  s.loads = loads;
  s.diskCacheHits = diskCacheHits;
  s.tunings = tunings;
  return s;
}
