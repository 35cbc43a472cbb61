//===- CaseContext.cpp - What a case uses to run on a device --------------===//
#include "tessera/Conformance/CaseContext.h"

#include "tessera/Conformance/Suite.h"
#include "tessera/Conformance/Tolerance.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
using runtime::KernelArg;

/// Where placeholder addresses start (never 0, which reads as a null
/// pointer) and how they are aligned: as device allocations are (CUDA's
/// 256 bytes), so that pointers specialize (`*fp32:16`) as on a device.
static constexpr uint64_t kPlaceholderBase = uint64_t(1) << 40;
static constexpr uint64_t kPlaceholderAlignment = 256;

KernelArg DeviceTensor::arg(uint64_t offsetBytes) const {
  if (buffer)
    return KernelArg::buffer(buffer, offsetBytes, getDTypeName(dtype));
  uint64_t size =
      offsetBytes < placeholderBytes ? placeholderBytes - offsetBytes : 0;
  return KernelArg::pointer(placeholderAddress + offsetBytes,
                            getDTypeName(dtype), size);
}

llvm::Expected<runtime::TunedKernel &>
KernelLibrary::getKernel(llvm::StringRef stem, llvm::StringRef name) {
  return runtime.getKernel(suite.getKernelPath(stem), name);
}

llvm::Expected<runtime::TunedKernel &>
KernelLibrary::getUntunedKernel(llvm::StringRef stem, llvm::StringRef name) {
  llvm::Expected<runtime::TunedKernel &> kernel = getKernel(stem, name);
  if (!kernel)
    return kernel.takeError();
  return kernel->getUntuned();
}

CompileOrigin KernelLibrary::classify(const runtime::KernelVariant &compiled) {
  if (!recorded.insert(&compiled).second)
    return CompileOrigin::Reused;
  return compiled.fromDiskCache ? CompileOrigin::DiskCache
                                : CompileOrigin::Compiled;
}

CaseContext::CaseContext(KernelLibrary &kernels,
                         const TargetDescription &target, llvm::StringRef file,
                         uint64_t seed, bool aheadOfTime)
    : kernels(kernels), target(target), file(file.str()), rng(seed),
      nextPlaceholder(kPlaceholderBase), aheadOfTime(aheadOfTime) {}

unsigned CaseContext::getMultiprocessorCount() const {
  if (runtime::Device *device = getRuntime().getDevice())
    if (device->getProperties().multiprocessorCount)
      return device->getProperties().multiprocessorCount;
  return std::max(1u, target.multiprocessorCount);
}

void CaseContext::fail(const llvm::Twine &message) {
  if (!error)
    error = message.str();
}

void CaseContext::fail(llvm::Error err) {
  std::string message = llvm::toString(std::move(err));
  while (!message.empty() && message.back() == '\n')
    message.pop_back();
  fail(message);
}

DeviceTensor CaseContext::allocate(DType dtype, std::vector<int64_t> shape) {
  DeviceTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = std::move(shape);
  if (hasFailed())
    return tensor;
  int64_t elements = 1;
  for (int64_t extent : tensor.shape)
    elements *= extent;
  // Zero-element tensors still get one byte: kernels receive a valid
  // address that they never read.
  size_t bytes = std::max<size_t>(1, elements * getDTypeBytes(dtype));
  if (isCompileOnly()) {
    tensor.placeholderAddress = nextPlaceholder;
    tensor.placeholderBytes = bytes;
    nextPlaceholder += llvm::alignTo(bytes, kPlaceholderAlignment);
    return tensor;
  }
  llvm::Expected<runtime::Buffer> buffer =
      getRuntime().allocate(bytes, getDTypeName(dtype));
  if (!buffer) {
    fail(buffer.takeError());
    return tensor;
  }
  tensor.buffer = std::move(*buffer);
  return tensor;
}

DeviceTensor CaseContext::upload(const HostTensor &host) {
  DeviceTensor tensor = allocate(host.getDType(), host.getShape().vec());
  if (hasFailed() || host.getSizeBytes() == 0 || isCompileOnly())
    return tensor;
  if (llvm::Error err =
          tensor.buffer.copyFromHost(host.data(), host.getSizeBytes()))
    fail(std::move(err));
  return tensor;
}

DeviceTensor CaseContext::poisoned(DType dtype, std::vector<int64_t> shape) {
  DeviceTensor tensor = allocate(dtype, std::move(shape));
  if (!hasFailed() && !isCompileOnly())
    if (llvm::Error err = tensor.buffer.fill(0xFF))
      fail(std::move(err));
  return tensor;
}

DeviceTensor CaseContext::zeros(DType dtype, std::vector<int64_t> shape) {
  DeviceTensor tensor = allocate(dtype, std::move(shape));
  if (!hasFailed() && !isCompileOnly())
    if (llvm::Error err = tensor.buffer.fill(0))
      fail(std::move(err));
  return tensor;
}

HostTensor CaseContext::download(const DeviceTensor &tensor) {
  HostTensor host(tensor.dtype, tensor.shape);
  host.fillBytes(0xFF);
  if (hasFailed())
    return host;
  if (isCompileOnly()) {
    // A bug of the case, not of the backend: its checks would compare
    // poison with a reference.
    fail("the case reads a result back in a compile-only run; it must "
         "return after its launches when CaseContext::isCompileOnly()");
    return host;
  }
  if (host.getSizeBytes() == 0)
    return host;
  // Waiting first also reports what a kernel raised (a fault, an assert).
  if (runtime::Device *device = getRuntime().getDevice())
    if (llvm::Error err = device->synchronize()) {
      fail(std::move(err));
      return host;
    }
  if (llvm::Error err =
          tensor.buffer.copyToHost(host.data(), host.getSizeBytes()))
    fail(std::move(err));
  return host;
}

void CaseContext::launch(llvm::StringRef name, const runtime::Grid &grid,
                         llvm::ArrayRef<KernelArg> args,
                         llvm::ArrayRef<runtime::NamedKernelArg> kwargs,
                         const runtime::LaunchOptions &options,
                         const KernelConfig *config) {
  if (hasFailed())
    return;
  llvm::Expected<runtime::TunedKernel &> kernel =
      config ? kernels.getUntunedKernel(file, name)
             : kernels.getKernel(file, name);
  if (!kernel) {
    fail(kernel.takeError());
    return;
  }
  std::vector<runtime::NamedKernelArg> allKwargs(kwargs.begin(), kwargs.end());
  runtime::LaunchOptions allOptions = options;
  if (config) {
    for (const auto &[key, value] : config->constexprs) {
      if (value.isBool())
        allKwargs.emplace_back(key, KernelArg::boolean(value.getBool()));
      else if (value.isInt())
        allKwargs.emplace_back(key, KernelArg::integer(value.getInt()));
      else if (value.isFloat())
        allKwargs.emplace_back(key, KernelArg::floating(value.getFloat()));
      else if (value.isString())
        allKwargs.emplace_back(key, KernelArg::string(value.getString()));
      else {
        fail("config value " + key + "=" + value.repr() +
             " cannot be passed to a kernel");
        return;
      }
    }
    allOptions.numWarps = options.numWarps.value_or(config->numWarps);
    allOptions.numStages = options.numStages.value_or(config->numStages);
    allOptions.numCTAs = options.numCTAs.value_or(config->numCTAs);
    if (config->maxNumRegs)
      allOptions.maxNumRegs = config->maxNumRegs;
  }
  if (isCompileOnly()) {
    compileLaunch(*kernel, args, allKwargs, allOptions);
    return;
  }
  if (llvm::Error err = kernel->launch(grid, args, allKwargs, allOptions)) {
    fail(std::move(err));
    return;
  }
  if (!config && kernel->isAutotuned()) {
    llvm::Expected<std::optional<runtime::TuneCandidate>> chosen =
        kernel->getTunedConfig(args, kwargs);
    if (!chosen)
      fail(chosen.takeError());
    else if (*chosen && (*chosen)->str() != lastTunedConfig) {
      lastTunedConfig = (*chosen)->str();
      note("autotuned " + name + ": " + lastTunedConfig);
    }
  }
}

void CaseContext::compileLaunch(runtime::TunedKernel &kernel,
                                llvm::ArrayRef<KernelArg> args,
                                llvm::ArrayRef<runtime::NamedKernelArg> kwargs,
                                const runtime::LaunchOptions &options) {
  // Every config, several at once; the first failure fails the case.
  std::vector<llvm::Expected<const runtime::KernelVariant *>> results =
      kernel.compileEveryConfig(args, kwargs, options);
  for (llvm::Expected<const runtime::KernelVariant *> &result : results) {
    if (!result) {
      if (!hasFailed())
        fail(result.takeError());
      else
        llvm::consumeError(result.takeError());
      continue;
    }
    if (!hasFailed() && !aheadOfTime)
      addCompileRecord(kernel, **result);
  }
}

void CaseContext::addCompileRecord(const runtime::TunedKernel &kernel,
                                   const runtime::KernelVariant &result) {
  // A case launching one specialization twice compiled it once.
  if (!compiledHere.insert(&result).second)
    return;
  const CompiledKernel &binary = result.kernel;
  CompileRecord record;
  record.kernel = kernel.getName().str();
  record.signature = result.signature;
  record.numWarps = result.options.numWarps;
  record.numStages = result.options.numStages;
  record.registers = binary.registers;
  record.spillBytes = binary.spillBytes;
  record.sharedMemoryBytes = binary.sharedMemoryBytes;
  record.format = binary.format;
  record.binaryBytes = result.binarySize;
  record.seconds = result.seconds;
  record.times = result.times;
  record.origin = kernels.classify(result);
  compiled.push_back(std::move(record));
}

void CaseContext::check(llvm::StringRef name, double value, double tolerance) {
  if (hasFailed())
    return;
  checks.push_back({name.str(), value, tolerance});
}

void CaseContext::checkError(llvm::StringRef name, const HostTensor &out,
                             llvm::ArrayRef<double> ref, double tolerance) {
  if (hasFailed())
    return;
  if (static_cast<size_t>(out.size()) != ref.size()) {
    fail(llvm::formatv("{0}: the output has {1} elements, the reference {2}",
                       name, out.size(), ref.size()));
    return;
  }
  check(name, relativeNormError(out.toDoubles(), ref), tolerance);
}

void CaseContext::note(const llvm::Twine &text) {
  if (!notes.empty())
    notes += "\n";
  notes += text.str();
}

CaseOutcome CaseContext::takeOutcome() {
  CaseOutcome outcome;
  outcome.error = std::move(error);
  if (!outcome.error)
    outcome.checks = std::move(checks);
  outcome.compiledOnly = !compiled.empty();
  return outcome;
}

KernelConfig mlir::tessera::conformance::makeConfig(
    std::initializer_list<std::pair<const char *, int64_t>> values,
    int numWarps, int numStages) {
  KernelConfig config;
  for (const auto &[key, value] : values)
    config.constexprs.emplace_back(
        key, ::tessera::frontend::HostValue::integer(value));
  config.numWarps = numWarps;
  config.numStages = numStages;
  return config;
}
