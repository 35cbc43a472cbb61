//===- Requirements.cpp - What a case needs from the target ---------------===//
#include "tessera/Conformance/Requirements.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;

Requirements &Requirements::addDType(llvm::StringRef dtype) {
  if (!llvm::is_contained(dtypes, dtype))
    dtypes.push_back(dtype.str());
  return *this;
}

std::optional<std::string> mlir::tessera::conformance::getUnsupportedReason(
    const Requirements &requirements, const TargetDescription &target) {
  std::vector<std::string> missing;
  std::vector<std::string> missingTypes;
  for (const std::string &dtype : requirements.dtypes)
    if (!target.supportsDtype(dtype))
      missingTypes.push_back(dtype);
  if (!missingTypes.empty())
    missing.push_back("no " + llvm::join(missingTypes, ", ") +
                      " in the target's dtypes");
  if (requirements.tensorMemoryCopy && !target.tensorMemoryCopy)
    missing.push_back("needs tensor-memory copies");
  if (requirements.clusters && !target.clusters)
    missing.push_back("needs block clusters");
  if (requirements.warpSpecialization && !target.warpSpecialization)
    missing.push_back("needs warp specialization");
  if (requirements.inlineAsm && !target.inlineAsm)
    missing.push_back("needs inline assembly");
  if (missing.empty())
    return std::nullopt;
  return "target " + target.backend + (target.arch.empty() ? "" : ":") +
         target.arch + ": " + llvm::join(missing, "; ");
}
