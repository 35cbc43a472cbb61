//===- TunedKernel.cpp - @triton.autotune and @triton.heuristics ----------===//
#include "tessera/Runtime/TunedKernel.h"

#include "tessera/Runtime/Benchmark.h"
#include "tessera/Runtime/HostValues.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
namespace fe = ::tessera::frontend;

static llvm::Error launchError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

TunedKernel::~TunedKernel() = default;

llvm::Expected<std::unique_ptr<TunedKernel>>
TunedKernel::create(std::shared_ptr<JitKernel> kernel) {
  std::unique_ptr<TunedKernel> tuned(new TunedKernel(std::move(kernel)));
  if (llvm::Error err = tuned->initialize())
    return std::move(err);
  return tuned;
}

llvm::ArrayRef<TuneCandidate> TunedKernel::getConfigs() const {
  return autotuner ? autotuner->getCandidates()
                   : llvm::ArrayRef<TuneCandidate>();
}

TuningScope TunedKernel::getTuningScope(const JitKernel &kernel) {
  Runtime &runtime = kernel.getRuntime();
  TuningScope tuning;
  tuning.backend = runtime.getPluginIdentity().name;
  if (Device *device = runtime.getDevice()) {
    tuning.deviceName = device->getProperties().name;
    tuning.arch = device->getProperties().arch;
  }
  tuning.kernelName = kernel.getName().str();
  tuning.file = kernel.getSource().getPath().str();
  tuning.sourceHash = kernel.getSource().getSourceHash();
  return tuning;
}

TunedKernel &TunedKernel::getUntuned() {
  if (!autotuner)
    return *this;
  std::lock_guard<std::mutex> lock(tuneMutex);
  if (!untuned) {
    untuned.reset(new TunedKernel(jit));
    untuned->heuristics = heuristics;
  }
  return *untuned;
}

TunedKernel::Statistics TunedKernel::getStatistics() const {
  Statistics s;
  static_cast<JitKernel::Statistics &>(s) = jit->getStatistics();
  s.tunings = tunings;
  s.configsTimed = configsTimed;
  s.configsSameAsEarlier = configsSameAsEarlier;
  return s;
}

namespace {

/// What makes a launch of config `config` compiled to `variant` what it
/// is, but num_stages: the binary and everything launching it needs (not
/// the diagnostics, "-log" metadata), and the config's other settings (its
/// constexprs may shape the grid). Empty when the binary's bytes are gone
/// (a variant loaded before), which matches nothing.
std::string getLaunchIdentity(const KernelVariant &variant,
                              const TuneCandidate &config) {
  if (variant.kernel.binary.empty())
    return {};
  CompiledKernel kernel = variant.kernel;
  kernel.numStages = 0;
  for (auto it = kernel.metadata.begin(); it != kernel.metadata.end();)
    it = llvm::StringRef(it->first).ends_with("-log")
             ? kernel.metadata.erase(it)
             : std::next(it);
  TuneCandidate rest = config;
  rest.numStages = 0;
  return rest.str() + "\n" + kernel.serialize();
}

} // namespace

//===----------------------------------------------------------------------===//
// What the decorators say
//===----------------------------------------------------------------------===//

llvm::Error TunedKernel::initialize() {
  const std::string name = jit->getName().str();
  KernelSource &source = jit->getSource();
  SourceScope scope(source);
  llvm::Expected<const fe::JitFunction *> fn = source.getJitFunction(name);
  if (!fn)
    return fn.takeError();
  fe::HostEvaluator &eval = scope.getEvaluator();
  auto indicesOf = [&](llvm::ArrayRef<std::string> names, llvm::StringRef what,
                       std::vector<unsigned> &out) -> llvm::Error {
    for (const std::string &n : names) {
      std::optional<unsigned> index = jit->findParam(n);
      if (!index)
        return launchError(source.getPath() + ": " + what + " names '" + n +
                           "', which is not a parameter of kernel '" + name +
                           "'");
      out.push_back(*index);
    }
    return llvm::Error::success();
  };

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
                         source.getPath().str(), name);
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
                       source.getPath().str(), name);

    autotuner = std::make_unique<Autotuner>(std::move(candidates),
                                            jit->getRuntime().getTuningStore(),
                                            getTuningScope(*jit));
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Configs and heuristics
//===----------------------------------------------------------------------===//

llvm::Error TunedKernel::applyConfig(BoundArgs &bound,
                                     const TuneCandidate *config,
                                     LaunchOptions &options) {
  const std::string name = jit->getName().str();
  llvm::ArrayRef<KernelParamInfo> params = jit->getParams();
  llvm::SmallVector<bool, 16> given = bound.given;
  auto setValue = [&](llvm::StringRef key, KernelArg value,
                      llvm::StringRef by) -> llvm::Error {
    std::optional<unsigned> i = jit->findParam(key);
    if (!i)
      return launchError(by + " sets '" + key +
                         "', which is not a parameter of kernel '" + name +
                         "'");
    if (given[*i])
      return launchError("argument '" + key + "' of kernel '" + name +
                         "' is set by " + by + "; do not pass it");
    bound.values[*i] = std::move(value);
    bound.given[*i] = true;
    return llvm::Error::success();
  };

  if (config)
    for (const auto &[key, value] : config->constexprs)
      if (llvm::Error err = setValue(key, value, "the autotune config"))
        return err;

  if (heuristics) {
    SourceScope scope(jit->getSource());
    std::vector<fe::HostKwarg> known;
    for (unsigned i = 0, e = params.size(); i < e; ++i)
      if (bound.given[i])
        known.emplace_back(params[i].name, toHostValue(bound.values[i]));
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

  if (config) {
    options.numWarps = options.numWarps.value_or(config->numWarps);
    options.numStages = options.numStages.value_or(config->numStages);
    options.numCTAs = options.numCTAs.value_or(config->numCTAs);
    options.maxNumRegs = options.maxNumRegs.value_or(config->maxNumRegs);
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Autotuning
//===----------------------------------------------------------------------===//

llvm::Expected<std::string>
TunedKernel::getTuningKey(const BoundArgs &bound) const {
  const std::string name = jit->getName().str();
  llvm::ArrayRef<KernelParamInfo> params = jit->getParams();
  std::string key;
  for (unsigned index : keyParams) {
    if (!bound.given[index])
      return launchError("kernel '" + name + "' is autotuned on '" +
                         params[index].name +
                         "', which the launch does not "
                         "pass");
    if (!key.empty())
      key += ',';
    const KernelArg &value = bound.values[index];
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
    if (!bound.given[i] || !bound.values[i].isPointer())
      continue;
    if (!first)
      key += ',';
    first = false;
    key += bound.values[i].getText();
  }
  return key;
}

std::vector<unsigned> TunedKernel::pruneConfigs(const BoundArgs &bound) {
  const std::string name = jit->getName().str();
  llvm::ArrayRef<KernelParamInfo> params = jit->getParams();
  std::vector<unsigned> all;
  for (unsigned i = 0, e = autotune->configs.size(); i < e; ++i)
    all.push_back(i);
  const fe::HostValue &prune = autotune->pruneConfigsBy;
  if (!prune.isDict())
    return all;

  SourceScope scope(jit->getSource());
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
    if (!bound.given[i])
      continue;
    fe::HostValue v = toHostValue(bound.values[i]);
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

llvm::Expected<unsigned>
TunedKernel::selectConfig(const BoundArgs &bound, const std::string &key,
                          const Grid *grid, const LaunchOptions &options) {
  const std::string name = jit->getName().str();
  llvm::ArrayRef<KernelParamInfo> params = jit->getParams();
  Runtime &runtime = jit->getRuntime();
  std::lock_guard<std::mutex> tuneLock(tuneMutex);
  if (std::optional<unsigned> index = autotuner->recall(key))
    return *index;
  if (!grid)
    return launchError("kernel '" + name +
                       "' must be tuned for these arguments, which needs a "
                       "grid: launch it");
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
    const KernelArg &arg = bound.values[index];
    if (!bound.given[index] || !arg.isPointer() || arg.getSizeBytes() == 0)
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
            bound.values[index].getAddress(), *size))
      return std::move(err);
    saved.push_back(std::move(s));
  }
  for (unsigned index : resetParams)
    if (llvm::Expected<uint64_t> size = sizedPointer(index, "reset"); !size)
      return size.takeError();
  auto resetState = [&]() -> llvm::Error {
    Driver &driver = device->getDriver();
    for (unsigned index : resetParams)
      if (llvm::Error err =
              driver.fill(device->getIndex(), bound.values[index].getAddress(),
                          0, bound.values[index].getSizeBytes()))
        return err;
    for (const Saved &s : saved)
      if (llvm::Error err = driver.copyToDevice(
              device->getIndex(), bound.values[s.param].getAddress(),
              s.bytes.data(), s.bytes.size()))
        return err;
    return llvm::Error::success();
  };

  ++tunings;
  std::vector<unsigned> allowed = pruneConfigs(bound);
  BenchOptions bench = runtime.getOptions().tuning;
  bench.setup = resetState;
  auto makeTrial = [&](unsigned index, BoundArgs &trial,
                       LaunchOptions &trialOptions) -> llvm::Error {
    trial = bound;
    trialOptions = options;
    if (llvm::Error err = applyConfig(trial, &autotuner->getCandidates()[index],
                                      trialOptions))
      return err;
    return jit->complete(trial);
  };
  // Every config compiles before the first is timed, several at once; a
  // config that cannot compile fails its measurement with the reason. A
  // config that compiled to the same launch as an earlier one (only its
  // num_stages differs, and no loop could use them) is not timed again:
  // it takes the earlier one's time, so the earlier wins the tie, and the
  // tuning spends no device time on it.
  std::map<unsigned, std::string> compileErrors;
  std::map<unsigned, unsigned> sameAsEarlier;
  {
    std::vector<unsigned> indices = allowed;
    if (indices.empty())
      for (unsigned i = 0, e = autotuner->getCandidates().size(); i < e; ++i)
        indices.push_back(i);
    std::vector<JitKernel::Launch> launches;
    std::vector<unsigned> launched;
    for (unsigned index : indices) {
      if (index >= autotuner->getCandidates().size())
        continue; // select() names it
      JitKernel::Launch launch;
      if (llvm::Error err = makeTrial(index, launch.bound, launch.options)) {
        compileErrors[index] = llvm::toString(std::move(err));
        continue;
      }
      launches.push_back(std::move(launch));
      launched.push_back(index);
    }
    std::vector<llvm::Expected<const KernelVariant *>> compiled =
        jit->compileAll(launches);
    std::map<std::string, unsigned> firstWithIdentity;
    for (auto [index, result] : llvm::zip(launched, compiled)) {
      if (!result) {
        compileErrors[index] = llvm::toString(result.takeError());
        continue;
      }
      std::string identity =
          getLaunchIdentity(**result, autotuner->getCandidates()[index]);
      if (identity.empty())
        continue;
      auto [first, inserted] =
          firstWithIdentity.try_emplace(std::move(identity), index);
      if (!inserted)
        sameAsEarlier[index] = first->second;
    }
  }
  std::map<unsigned, double> timed;
  Autotuner::Measure measure = [&](unsigned index) -> llvm::Expected<double> {
    if (auto it = compileErrors.find(index); it != compileErrors.end())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     it->second);
    if (auto same = sameAsEarlier.find(index); same != sameAsEarlier.end())
      if (auto earlier = timed.find(same->second); earlier != timed.end()) {
        getLogger().debug("autotune {}: {} compiles to the launch of {}; "
                          "its time is that one's",
                          jit->getName().str(),
                          autotuner->getCandidates()[index].str(),
                          autotuner->getCandidates()[same->second].str());
        ++configsSameAsEarlier;
        return earlier->second;
      }
    BoundArgs trial;
    LaunchOptions trialOptions;
    if (llvm::Error err = makeTrial(index, trial, trialOptions))
      return std::move(err);
    llvm::Expected<const KernelVariant *> variant =
        jit->prepare(trial, trialOptions);
    if (!variant)
      return variant.takeError();
    llvm::Expected<BenchStats> stats = benchmark(
        device->getDriver(), device->getIndex(),
        [&] { return jit->run(**variant, trial, *grid, trialOptions); }, bench);
    if (!stats)
      return stats.takeError();
    ++configsTimed;
    timed[index] = stats->median;
    return stats->median;
  };
  llvm::Expected<unsigned> best = autotuner->select(key, allowed, measure);
  if (llvm::Error err = resetState())
    return std::move(err);
  return best;
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

llvm::Error TunedKernel::prepareBinding(const Grid *grid,
                                        llvm::ArrayRef<KernelArg> args,
                                        llvm::ArrayRef<NamedKernelArg> kwargs,
                                        BoundArgs &bound,
                                        LaunchOptions &options) {
  if (llvm::Error err = jit->bind(args, kwargs, bound))
    return err;
  const TuneCandidate *config = nullptr;
  if (autotuner) {
    llvm::Expected<std::string> key = getTuningKey(bound);
    if (!key)
      return key.takeError();
    std::optional<unsigned> index = autotuner->lookup(*key);
    if (!index) {
      llvm::Expected<unsigned> chosen =
          selectConfig(bound, *key, grid, options);
      if (!chosen)
        return chosen.takeError();
      index = *chosen;
    }
    config = &autotuner->getCandidates()[*index];
  }
  return applyConfig(bound, config, options);
}

llvm::Error TunedKernel::launch(const Grid &grid,
                                llvm::ArrayRef<KernelArg> args,
                                llvm::ArrayRef<NamedKernelArg> kwargs,
                                const LaunchOptions &options) {
  if (!autotuner && !heuristics)
    return jit->launch(grid, args, kwargs, options);
  BoundArgs bound;
  LaunchOptions chosen = options;
  if (llvm::Error err = prepareBinding(&grid, args, kwargs, bound, chosen))
    return err;
  return jit->launch(grid, bound, chosen);
}

llvm::Expected<const KernelVariant *>
TunedKernel::prepare(llvm::ArrayRef<KernelArg> args,
                     llvm::ArrayRef<NamedKernelArg> kwargs,
                     const LaunchOptions &options) {
  BoundArgs bound;
  LaunchOptions chosen = options;
  if (llvm::Error err = prepareBinding(nullptr, args, kwargs, bound, chosen))
    return std::move(err);
  return jit->prepare(bound, chosen);
}

llvm::Expected<JitKernel::Launch> TunedKernel::makeCompileLaunch(
    llvm::ArrayRef<KernelArg> args, llvm::ArrayRef<NamedKernelArg> kwargs,
    const LaunchOptions &options, std::optional<unsigned> configIndex) {
  const std::string name = jit->getName().str();
  JitKernel::Launch launch;
  BoundArgs &bound = launch.bound;
  if (llvm::Error err = jit->bind(args, kwargs, bound))
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
  launch.options = options;
  if (llvm::Error err = applyConfig(bound, config, launch.options))
    return std::move(err);
  return std::move(launch);
}

llvm::Expected<const KernelVariant *> TunedKernel::compile(
    llvm::ArrayRef<KernelArg> args, llvm::ArrayRef<NamedKernelArg> kwargs,
    const LaunchOptions &options, std::optional<unsigned> configIndex) {
  llvm::Expected<JitKernel::Launch> launch =
      makeCompileLaunch(args, kwargs, options, configIndex);
  if (!launch)
    return launch.takeError();
  return jit->compile(launch->bound, launch->options);
}

std::vector<llvm::Expected<const KernelVariant *>>
TunedKernel::compileEveryConfig(llvm::ArrayRef<KernelArg> args,
                                llvm::ArrayRef<NamedKernelArg> kwargs,
                                const LaunchOptions &options) {
  std::vector<std::optional<unsigned>> configs = {std::nullopt};
  if (autotuner) {
    configs.clear();
    for (unsigned i = 0, e = autotuner->getCandidates().size(); i < e; ++i)
      configs.push_back(i);
  }
  // Launches that cannot be made keep their error in place.
  std::vector<std::optional<llvm::Error>> errors;
  std::vector<JitKernel::Launch> launches;
  for (std::optional<unsigned> config : configs) {
    llvm::Expected<JitKernel::Launch> launch =
        makeCompileLaunch(args, kwargs, options, config);
    if (!launch) {
      errors.push_back(launch.takeError());
      continue;
    }
    errors.push_back(std::nullopt);
    launches.push_back(std::move(*launch));
  }
  std::vector<llvm::Expected<const KernelVariant *>> compiled =
      jit->compileAll(launches);
  std::vector<llvm::Expected<const KernelVariant *>> results;
  auto next = compiled.begin();
  for (std::optional<llvm::Error> &error : errors)
    results.push_back(
        error ? llvm::Expected<const KernelVariant *>(std::move(*error))
              : std::move(*next++));
  return results;
}

llvm::Expected<std::optional<TuneCandidate>>
TunedKernel::getTunedConfig(llvm::ArrayRef<KernelArg> args,
                            llvm::ArrayRef<NamedKernelArg> kwargs) {
  if (!autotuner)
    return std::nullopt;
  BoundArgs bound;
  if (llvm::Error err = jit->bind(args, kwargs, bound))
    return std::move(err);
  llvm::Expected<std::string> key = getTuningKey(bound);
  if (!key)
    return key.takeError();
  llvm::Expected<unsigned> index =
      selectConfig(bound, *key, /*grid=*/nullptr, {});
  if (!index)
    return index.takeError();
  return autotuner->getCandidates()[*index];
}
