//===- TargetDescription.cpp - What a target can do, as data --------------===//
#include "tessera/Target/TargetDescription.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir::tessera;

/// Triton spells integer dtypes two ways: `int32` (tl.int32) and `i32` (the
/// signature syntax); likewise `uint8` and `u8`, `int1` and `i1`. Both
/// compare equal here.
static std::string canonicalDtype(llvm::StringRef dtype) {
  if (dtype.consume_front("int"))
    return "i" + dtype.str();
  if (dtype.consume_front("uint"))
    return "u" + dtype.str();
  return dtype.str();
}

bool TargetDescription::supportsDtype(llvm::StringRef dtype) const {
  if (dtypes.empty())
    return true;
  std::string wanted = canonicalDtype(dtype);
  return llvm::any_of(dtypes, [&](const std::string &supported) {
    return canonicalDtype(supported) == wanted;
  });
}

std::string TargetDescription::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "backend=" << backend << " arch=" << arch << " warp=" << warpSize
     << " threads=" << maxThreadsPerBlock << " smem=" << sharedMemoryPerBlock
     << "/" << maxSharedMemoryPerBlock << " regs=" << registersPerBlock << "/"
     << maxRegistersPerThread << " sms=" << multiprocessorCount
     << " vec=" << maxVectorBits << " async=" << asyncCopy
     << " tmc=" << tensorMemoryCopy << " clusters=" << clusters << "/"
     << maxClusterSize << " ws=" << warpSpecialization
     << " asm=" << inlineAsm << " mma=[";
  for (const MatrixInstruction &mi : matrixInstructions)
    os << mi.name << ":" << mi.m << "x" << mi.n << "x" << mi.k << ":"
       << mi.aType << "," << mi.bType << "->" << mi.accType << ":" << mi.warps
       << (mi.operandsFromShared ? ":smem" : "") << ";";
  os << "] dtypes=[";
  llvm::interleave(dtypes, os, ",");
  os << "]";
  std::vector<std::string> keys;
  for (const auto &entry : extra)
    keys.push_back(entry.getKey().str());
  std::sort(keys.begin(), keys.end());
  for (const std::string &key : keys)
    os << " " << key << "=" << extra.lookup(key);
  return s;
}
