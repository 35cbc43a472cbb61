//===- Backend.cpp - Defaults and anchors of the plugin interface ---------===//
#include "tessera/Backend/Backend.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mlir::tessera;

Backend::~Backend() = default;
Driver::~Driver() = default;

std::string CompileOptions::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "arch=" << arch << " num-warps=" << numWarps
     << " num-stages=" << numStages << " num-ctas=" << numCTAs
     << " maxnreg=" << maxNumRegs << " fp-fusion=" << enableFPFusion
     << " line-info=" << lineInfo;
  std::vector<std::string> keys;
  for (const auto &entry : extra)
    keys.push_back(entry.getKey().str());
  std::sort(keys.begin(), keys.end());
  for (const std::string &key : keys)
    os << " " << key << "=" << extra.lookup(key);
  return s;
}

PipelineOptions
Backend::getPipelineOptions(const TargetDescription &target,
                            const CompileOptions &options) const {
  PipelineOptions result;
  result.numWarps = options.numWarps;
  result.threadsPerWarp = target.warpSize;
  result.numCTAs = options.numCTAs;
  result.numStages = options.numStages;
  result.target = target.backend;
  result.maxVectorBits = target.maxVectorBits;
  for (const auto &entry : options.extra)
    result.extra[entry.getKey()] = entry.getValue();
  return result;
}

llvm::Error mlir::tessera::checkCompileOptions(const Backend &backend,
                                               const TargetDescription &target,
                                               const CompileOptions &options) {
  auto invalid = [&](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   message + " (backend " + target.backend +
                                       ", arch " + target.arch + ")");
  };
  PipelineOptions layout = backend.getPipelineOptions(target, options);
  int64_t threads = int64_t(layout.numWarps) * layout.threadsPerWarp;
  int64_t maxWarps =
      std::max<int64_t>(1, target.maxThreadsPerBlock /
                               std::max<int64_t>(1, layout.threadsPerWarp));
  if (options.numWarps < 1 || !llvm::isPowerOf2_64(options.numWarps) ||
      layout.numWarps < 1 || threads > target.maxThreadsPerBlock)
    return invalid(
        "num_warps must be a power of 2 from 1 to " + llvm::Twine(maxWarps) +
        " (at most " + llvm::Twine(target.maxThreadsPerBlock) +
        " threads per program), got " + llvm::Twine(options.numWarps));
  if (options.numStages < 0)
    return invalid("num_stages must be 0 or more, got " +
                   llvm::Twine(options.numStages));
  unsigned maxCTAs = std::max(1u, target.maxClusterSize);
  if (options.numCTAs < 1 || layout.numCTAs < 1 ||
      unsigned(layout.numCTAs) > maxCTAs)
    return invalid("num_ctas must be from 1 to " + llvm::Twine(maxCTAs) +
                   ", got " + llvm::Twine(options.numCTAs));
  if (options.maxNumRegs != 0 &&
      (options.maxNumRegs < kMinRegistersPerThread ||
       unsigned(options.maxNumRegs) > target.maxRegistersPerThread))
    return invalid("maxnreg must be 0 (the target's limit) or from " +
                   llvm::Twine(kMinRegistersPerThread) + " to " +
                   llvm::Twine(target.maxRegistersPerThread) + ", got " +
                   llvm::Twine(options.maxNumRegs));
  return llvm::Error::success();
}

llvm::Expected<double>
Driver::timeMilliseconds(unsigned device,
                         const std::function<llvm::Error()> &work) {
  if (llvm::Error err = synchronize(device))
    return std::move(err);
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error err = work())
    return std::move(err);
  if (llvm::Error err = synchronize(device))
    return std::move(err);
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(end - start).count();
}
