//===- Backend.cpp - Defaults and anchors of the plugin interface ---------===//
#include "tessera/Backend/Backend.h"

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
