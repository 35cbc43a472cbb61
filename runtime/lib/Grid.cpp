//===- Grid.cpp - The grid of a launch ------------------------------------===//
#include "tessera/Runtime/Grid.h"

using namespace mlir::tessera::runtime;

LaunchMeta::LaunchMeta(llvm::ArrayRef<KernelParamInfo> params,
                       llvm::ArrayRef<KernelArg> values, int numWarps,
                       int numStages, int numCTAs)
    : params(params), values(values), numWarps(KernelArg::integer(numWarps)),
      numStages(KernelArg::integer(numStages)),
      numCTAs(KernelArg::integer(numCTAs)) {
  assert(params.size() == values.size() && "one value per parameter");
}

const KernelArg *LaunchMeta::lookup(llvm::StringRef name) const {
  for (size_t i = 0, e = params.size(); i < e; ++i)
    if (params[i].name == name)
      return &values[i];
  if (name == "num_warps")
    return &numWarps;
  if (name == "num_stages")
    return &numStages;
  if (name == "num_ctas")
    return &numCTAs;
  return nullptr;
}

int64_t LaunchMeta::getInt(llvm::StringRef name) const {
  const KernelArg *value = lookup(name);
  if (value && (value->isInt() || value->isBool()))
    return value->getInt();
  if (error.empty() && value && value->isUInt())
    error = "the grid asked for '" + name.str() + "', which is " +
            value->repr() + ", beyond the int64 range grids compute in";
  if (error.empty())
    error = value ? "the grid asked for '" + name.str() +
                        "' as an integer, but it is " + value->describe()
                  : "the grid asked for '" + name.str() +
                        "', which is not a parameter of the kernel";
  return 0;
}

llvm::Expected<std::array<uint32_t, 3>>
Grid::resolve(const LaunchMeta &meta) const {
  meta.error.clear();
  GridDims d = function ? function(meta) : dims;
  if (!meta.getError().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   meta.getError());
  std::array<uint32_t, 3> result;
  for (unsigned i = 0; i < 3; ++i) {
    if (d[i] > 0x7fffffffu)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "grid dimension " + llvm::Twine(i) +
                                         " is " + llvm::Twine(d[i]) +
                                         ", more than 2^31 - 1 programs");
    result[i] = static_cast<uint32_t>(d[i]);
  }
  return result;
}
