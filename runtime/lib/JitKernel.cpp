//===- JitKernel.cpp - A @triton.jit function ready to launch -------------===//
#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Environment.h"

#include "tessera/Frontend/Compile.h"
#include "tessera/Frontend/Decorators.h"
#include "tessera/Runtime/HostValues.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <chrono>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
namespace fe = ::tessera::frontend;

static llvm::Error launchError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A compilation's remarks (why a dot stays on multiply-adds...) go to the
/// log: a program that launches kernels does not print them by default.
static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

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
    if (entry.getValue()->isLoaded())
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

std::optional<unsigned> JitKernel::findParam(llvm::StringRef param) const {
  for (unsigned i = 0, e = params.size(); i < e; ++i)
    if (params[i].name == param)
      return i;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// What the source says about the kernel
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
  {
    // A program's options (docs/embedding.md), else @triton.jit(...)'s.
    llvm::FailureOr<fe::JitOptions> jit = fe::getJitOptions(eval, **fn);
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
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Binding the values of a launch
//===----------------------------------------------------------------------===//

llvm::Error JitKernel::bind(llvm::ArrayRef<KernelArg> args,
                            llvm::ArrayRef<NamedKernelArg> kwargs,
                            BoundArgs &bound) const {
  if (args.size() > params.size())
    return launchError("kernel '" + name + "' takes " +
                       llvm::Twine(params.size()) + " arguments, " +
                       llvm::Twine(args.size()) + " were given");
  bound.values.assign(args.begin(), args.end());
  bound.values.resize(params.size());
  bound.given.assign(params.size(), false);
  std::fill(bound.given.begin(), bound.given.begin() + args.size(), true);
  for (const auto &[key, value] : kwargs) {
    std::optional<unsigned> i = findParam(key);
    if (!i)
      return launchError("kernel '" + name + "' has no parameter named '" +
                         key + "'");
    if (bound.given[*i])
      return launchError("kernel '" + name + "' got two values for '" + key +
                         "'");
    bound.values[*i] = value;
    bound.given[*i] = true;
  }
  return llvm::Error::success();
}

llvm::Error JitKernel::complete(BoundArgs &bound) const {
  assert(bound.values.size() == params.size() &&
         bound.given.size() == params.size() && "values bound by bind()");
  std::vector<std::string> missing;
  for (unsigned i = 0, e = params.size(); i < e; ++i) {
    if (bound.given[i])
      continue;
    if (params[i].defaultValue) {
      bound.values[i] = *params[i].defaultValue;
      bound.given[i] = true;
    } else {
      missing.push_back("'" + params[i].name + "'");
    }
  }
  if (!missing.empty())
    return launchError("kernel '" + name + "' is missing argument" +
                       (missing.size() > 1 ? "s " : " ") +
                       llvm::join(missing, ", "));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// The dispatch table
//===----------------------------------------------------------------------===//

JitKernel::Shape JitKernel::getShape(const LaunchOptions &options) {
  Shape shape;
  shape.numWarps = options.numWarps.value_or(4);
  shape.numStages = options.numStages.value_or(3);
  shape.numCTAs = options.numCTAs.value_or(1);
  shape.maxNumRegs = options.maxNumRegs.value_or(0);
  return shape;
}

std::string JitKernel::getTableKey(const ArgumentSpecialization &spec,
                                   const Shape &shape) {
  std::string key = spec.signature;
  key += "|w";
  key += std::to_string(shape.numWarps);
  key += 's';
  key += std::to_string(shape.numStages);
  key += 'c';
  key += std::to_string(shape.numCTAs);
  key += 'r';
  key += std::to_string(shape.maxNumRegs);
  return key;
}

std::string JitKernel::getTargetArch() const {
  if (!runtime.getOptions().arch.empty())
    return runtime.getOptions().arch;
  if (Device *device = runtime.getDevice())
    return device->getProperties().arch;
  // Without a device the backend's default architecture.
  return "";
}

CompileRequest JitKernel::makeCompileRequest(const ArgumentSpecialization &spec,
                                             const Shape &shape,
                                             llvm::StringRef arch) const {
  CompileRequest request;
  request.kernel = name;
  request.signature = spec.signature;
  request.completeSignature = true;
  request.options.arch = arch.str();
  request.options.numWarps = shape.numWarps;
  request.options.numStages = shape.numStages;
  request.options.numCTAs = shape.numCTAs;
  request.options.maxNumRegs = shape.maxNumRegs;
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

llvm::Error JitKernel::load(KernelVariant &variant) {
  llvm::Expected<Device &> device = runtime.requireDevice();
  if (!device)
    return device.takeError();
  llvm::Expected<ModuleHandle> module =
      device->getDriver().loadModule(device->getIndex(), variant.kernel);
  if (!module)
    return module.takeError();
  variant.module = *module;
  // The bytes live on in the driver; only the metadata is needed here.
  variant.kernel.binary.clear();
  variant.kernel.binary.shrink_to_fit();
  variant.loaded.store(true, std::memory_order_release);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<KernelVariant>>
JitKernel::makeVariant(const ArgumentSpecialization &spec,
                       CompileResult compiled, double seconds) {
  logRemarks(compiled);
  auto entry = std::make_unique<KernelVariant>();
  entry->seconds = seconds;
  ++loads;
  if (compiled.cacheHit)
    ++diskCacheHits;
  entry->kernel = std::move(*compiled.kernel);
  entry->binarySize = entry->kernel.binary.size();
  entry->signature = spec.signature;
  entry->options = compiled.options;
  entry->cacheKey = compiled.cacheKey;
  entry->fromDiskCache = compiled.cacheHit;
  entry->times = std::move(compiled.times);
  entry->runtimeParams = spec.runtimeParams;
  llvm::Expected<ArgPacker> packer = createPacker(entry->kernel, spec);
  if (!packer)
    return packer.takeError();
  entry->packer = std::move(*packer);
  return std::move(entry);
}

KernelVariant *JitKernel::findOrClaim(llvm::StringRef key) {
  std::unique_lock<std::mutex> lock(tableMutex);
  compiledOne.wait(lock, [&] { return !compiling.contains(key); });
  if (auto it = table.find(key); it != table.end())
    return it->getValue().get();
  compiling.insert(key);
  return nullptr;
}

KernelVariant *JitKernel::release(llvm::StringRef key,
                                  std::unique_ptr<KernelVariant> variant) {
  KernelVariant *entry = nullptr;
  {
    std::lock_guard<std::mutex> lock(tableMutex);
    if (variant)
      entry =
          table.try_emplace(key, std::move(variant)).first->getValue().get();
    compiling.erase(key);
  }
  compiledOne.notify_all();
  return entry;
}

llvm::Expected<KernelVariant *>
JitKernel::getOrCompile(llvm::ArrayRef<KernelArg> values, const Shape &shape,
                        bool load) {
  llvm::Expected<ArgumentSpecialization> spec =
      specializeArguments(params, values);
  if (!spec)
    return spec.takeError();
  std::string key = getTableKey(*spec, shape);
  auto find = [&]() -> KernelVariant * {
    std::lock_guard<std::mutex> lock(tableMutex);
    auto it = table.find(key);
    return it == table.end() ? nullptr : it->getValue().get();
  };
  if (KernelVariant *variant = find();
      variant && (!load || variant->isLoaded())) {
    if (load)
      ++dispatchHits;
    return variant;
  }

  // A launch in a session without a device fails before compiling.
  if (load)
    if (llvm::Expected<Device &> device = runtime.requireDevice(); !device)
      return device.takeError();
  KernelVariant *variant = findOrClaim(key);
  if (!variant) {
    // Compiled outside any lock: other keys of this kernel compile at the
    // same time on other threads.
    CompileRequest request = makeCompileRequest(*spec, shape, getTargetArch());
    getLogger().debug("compiling {}({}) num_warps={} num_stages={}", name,
                      spec->signature, shape.numWarps, shape.numStages);
    auto start = std::chrono::steady_clock::now();
    llvm::Expected<CompileResult> compiled =
        runtime.getCompiler().compile(*source, request, EmitStage::Binary);
    llvm::Expected<std::unique_ptr<KernelVariant>> entry =
        compiled ? makeVariant(*spec, std::move(*compiled), secondsSince(start))
                 : llvm::Expected<std::unique_ptr<KernelVariant>>(
                       compiled.takeError());
    if (!entry) {
      release(key, nullptr);
      return entry.takeError();
    }
    variant = release(key, std::move(*entry));
  }
  if (load && !variant->isLoaded()) {
    std::lock_guard<std::mutex> loadLock(loadMutex);
    if (!variant->isLoaded())
      if (llvm::Error err = this->load(*variant))
        return std::move(err);
  }
  return variant;
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

llvm::Error JitKernel::run(const KernelVariant &variant, const BoundArgs &bound,
                           const Grid &grid, const LaunchOptions &options) {
  assert(variant.isLoaded() && "run a loaded variant");
  LaunchMeta meta(params, bound.values, variant.options.numWarps,
                  variant.options.numStages, variant.options.numCTAs);
  llvm::Expected<std::array<uint32_t, 3>> dims = grid.resolve(meta);
  if (!dims)
    return launchError("kernel '" + name +
                       "': " + llvm::toString(dims.takeError()));
  if ((*dims)[0] == 0 || (*dims)[1] == 0 || (*dims)[2] == 0)
    return llvm::Error::success();
  PackedArgs packed;
  if (llvm::Error err =
          variant.packer.pack(bound.values, packed, variant.runtimeParams))
    return launchError("kernel '" + name +
                       "': " + llvm::toString(std::move(err)));
  LaunchConfig config;
  config.grid = *dims;
  config.numWarps = variant.kernel.numWarps;
  config.threadsPerWarp = variant.kernel.threadsPerWarp;
  config.numCTAs = variant.kernel.numCTAs;
  config.sharedMemoryBytes = variant.kernel.sharedMemoryBytes;
  config.stream = options.stream;
  Device *device = runtime.getDevice();
  return device->getDriver().launch(variant.module, config,
                                    packed.getPointers());
}

llvm::Expected<const KernelVariant *>
JitKernel::dispatch(const Grid *grid, const BoundArgs &bound,
                    const LaunchOptions &options) {
  // Launches that set every parameter (the common case) use their values
  // as they are; others get a copy with the defaults.
  const BoundArgs *values = &bound;
  BoundArgs withDefaults;
  if (llvm::is_contained(bound.given, false)) {
    withDefaults = bound;
    if (llvm::Error err = complete(withDefaults))
      return std::move(err);
    values = &withDefaults;
  }
  llvm::Expected<KernelVariant *> variant =
      getOrCompile(values->values, getShape(options), /*load=*/true);
  if (!variant)
    return variant.takeError();
  if (grid)
    if (llvm::Error err = run(**variant, *values, *grid, options))
      return std::move(err);
  return *variant;
}

llvm::Error JitKernel::launch(const Grid &grid, const BoundArgs &bound,
                              const LaunchOptions &options) {
  ++launches;
  llvm::Expected<const KernelVariant *> variant =
      dispatch(&grid, bound, options);
  return variant ? llvm::Error::success() : variant.takeError();
}

llvm::Error JitKernel::launch(const Grid &grid, llvm::ArrayRef<KernelArg> args,
                              llvm::ArrayRef<NamedKernelArg> kwargs,
                              const LaunchOptions &options) {
  BoundArgs bound;
  if (llvm::Error err = bind(args, kwargs, bound)) {
    ++launches;
    return err;
  }
  return launch(grid, bound, options);
}

llvm::Expected<const KernelVariant *>
JitKernel::prepare(const BoundArgs &bound, const LaunchOptions &options) {
  return dispatch(nullptr, bound, options);
}

llvm::Expected<const KernelVariant *>
JitKernel::prepare(llvm::ArrayRef<KernelArg> args,
                   llvm::ArrayRef<NamedKernelArg> kwargs,
                   const LaunchOptions &options) {
  BoundArgs bound;
  if (llvm::Error err = bind(args, kwargs, bound))
    return std::move(err);
  return prepare(bound, options);
}

llvm::Expected<const KernelVariant *>
JitKernel::compile(const BoundArgs &bound, const LaunchOptions &options) {
  BoundArgs values = bound;
  if (llvm::Error err = complete(values))
    return std::move(err);
  llvm::Expected<KernelVariant *> variant =
      getOrCompile(values.values, getShape(options), /*load=*/false);
  if (!variant)
    return variant.takeError();
  if (llvm::Error err = checkValues(**variant, values.values))
    return std::move(err);
  return *variant;
}

llvm::Error JitKernel::checkValues(const KernelVariant &variant,
                                   llvm::ArrayRef<KernelArg> values) const {
  // What a launch checks on the host before it runs: every value fits its
  // parameter's type.
  PackedArgs packed;
  if (llvm::Error err =
          variant.packer.pack(values, packed, variant.runtimeParams))
    return launchError("kernel '" + name +
                       "': " + llvm::toString(std::move(err)));
  return llvm::Error::success();
}

std::vector<llvm::Expected<const KernelVariant *>>
JitKernel::compileAll(llvm::ArrayRef<Launch> launches) {
  // Each launch: its complete values and table key, or why it has none.
  struct Item {
    BoundArgs values;
    Shape shape;
    std::string key;
    std::optional<llvm::Error> error;
  };
  // Each specialization to compile: its job, then its result.
  struct Work {
    ArgumentSpecialization spec;
    std::string key;
    std::unique_ptr<CompileJob> job;
    std::optional<llvm::Expected<CompileResult>> result;
    double seconds = 0;
  };
  std::vector<Item> items(launches.size());
  std::vector<Work> work;
  llvm::StringSet<> queued;
  for (auto [item, launch] : llvm::zip(items, launches)) {
    item.values = launch.bound;
    if (llvm::Error err = complete(item.values)) {
      item.error = std::move(err);
      continue;
    }
    Shape shape = item.shape = getShape(launch.options);
    llvm::Expected<ArgumentSpecialization> spec =
        specializeArguments(params, item.values.values);
    if (!spec) {
      item.error = spec.takeError();
      continue;
    }
    item.key = getTableKey(*spec, shape);
    if (!queued.insert(item.key).second)
      continue;
    // Compiled already, or by another thread now: found at the end.
    {
      std::lock_guard<std::mutex> lock(tableMutex);
      if (table.count(item.key) || compiling.contains(item.key))
        continue;
      compiling.insert(item.key);
    }
    Work w;
    w.spec = std::move(*spec);
    w.key = item.key;
    CompileRequest request = makeCompileRequest(w.spec, shape, getTargetArch());
    getLogger().debug("compiling {}({}) num_warps={} num_stages={}", name,
                      w.spec.signature, shape.numWarps, shape.numStages);
    // The frontend part, here and in turn: each job leaves the source
    // free once lowered.
    auto start = std::chrono::steady_clock::now();
    KernelCompiler &compiler = runtime.getCompiler();
    llvm::Expected<std::unique_ptr<CompileJob>> job =
        compiler.specialize(*source, request);
    if (job)
      if (llvm::Error err = compiler.lower(**job))
        job = llvm::Expected<std::unique_ptr<CompileJob>>(std::move(err));
    w.seconds = secondsSince(start);
    if (job)
      w.job = std::move(*job);
    else
      w.result.emplace(job.takeError());
    work.push_back(std::move(w));
  }

  // The rest of each compilation, concurrently.
  auto finish = [this](Work &w) {
    auto start = std::chrono::steady_clock::now();
    w.result.emplace(runtime.getCompiler().run(*w.job, EmitStage::Binary));
    w.job.reset();
    w.seconds += secondsSince(start);
  };
  unsigned pending =
      llvm::count_if(work, [](Work &w) { return w.job != nullptr; });
  unsigned threads = std::min(pending, getCompileThreadCount());
  if (threads <= 1) {
    for (Work &w : work)
      if (w.job)
        finish(w);
  } else {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(threads));
    for (Work &w : work)
      if (w.job)
        pool.async([&finish, &w] { finish(w); });
    pool.wait();
  }

  // Into the table in the order of the launches, so that logs and
  // statistics read as if each had compiled in turn.
  llvm::StringMap<std::string> failures;
  for (Work &w : work) {
    llvm::Expected<CompileResult> &result = *w.result;
    llvm::Expected<std::unique_ptr<KernelVariant>> entry =
        result ? makeVariant(w.spec, std::move(*result), w.seconds)
               : llvm::Expected<std::unique_ptr<KernelVariant>>(
                     result.takeError());
    if (!entry) {
      failures[w.key] = llvm::toString(entry.takeError());
      release(w.key, nullptr);
      continue;
    }
    release(w.key, std::move(*entry));
  }
  std::vector<llvm::Expected<const KernelVariant *>> results;
  for (Item &item : items) {
    if (item.error) {
      results.push_back(std::move(*item.error));
      continue;
    }
    if (auto it = failures.find(item.key); it != failures.end()) {
      results.push_back(
          llvm::createStringError(llvm::inconvertibleErrorCode(), it->second));
      continue;
    }
    // This batch's entries are in the table; another thread's are waited
    // for (and compiled here if that thread failed).
    llvm::Expected<KernelVariant *> variant =
        getOrCompile(item.values.values, item.shape, /*load=*/false);
    if (!variant) {
      results.push_back(variant.takeError());
      continue;
    }
    if (llvm::Error err = checkValues(**variant, item.values.values))
      results.push_back(std::move(err));
    else
      results.push_back(*variant);
  }
  return results;
}

llvm::Expected<const KernelVariant *>
JitKernel::compile(llvm::ArrayRef<KernelArg> args,
                   llvm::ArrayRef<NamedKernelArg> kwargs,
                   const LaunchOptions &options) {
  BoundArgs bound;
  if (llvm::Error err = bind(args, kwargs, bound))
    return std::move(err);
  return compile(bound, options);
}

JitKernel::Statistics JitKernel::getStatistics() const {
  Statistics s;
  s.launches = launches;
  s.dispatchHits = dispatchHits;
  s.loads = loads;
  s.diskCacheHits = diskCacheHits;
  return s;
}
