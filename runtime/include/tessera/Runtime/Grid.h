//===- Grid.h - The grid of a launch ----------------------------*- C++ -*-===//
//
// A launch runs over a 1-3 dimensional grid of programs, given as numbers or
// as a function of the launch's values (Triton's `grid = lambda META:
// (triton.cdiv(n, META['BLOCK_SIZE']),)`), which sees the constexprs the
// chosen autotune config and heuristics set.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_GRID_H
#define TESSERA_RUNTIME_GRID_H

#include "tessera/Runtime/KernelSpecializer.h"

#include <array>
#include <functional>

namespace mlir::tessera::runtime {

/// Programs along x, y and z.
using GridDims = std::array<uint64_t, 3>;

/// Triton's cdiv: the number of blocks of `b` that cover `a`.
constexpr int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The values of one launch, by parameter name (Triton's META), plus
/// `num_warps`, `num_stages` and `num_ctas`.
class LaunchMeta {
public:
  LaunchMeta(llvm::ArrayRef<KernelParamInfo> params,
             llvm::ArrayRef<KernelArg> values, int numWarps, int numStages,
             int numCTAs);

  /// The value of `name`, or null.
  const KernelArg *lookup(llvm::StringRef name) const;

  /// The integer `name` (a bool reads as 0/1). A name that is not an
  /// integer of this launch reads as 0 and makes the launch fail naming it.
  int64_t getInt(llvm::StringRef name) const;
  int64_t operator[](llvm::StringRef name) const { return getInt(name); }

  /// What getInt() could not answer, empty when all was well.
  const std::string &getError() const { return error; }

private:
  friend class Grid;
  llvm::ArrayRef<KernelParamInfo> params;
  llvm::ArrayRef<KernelArg> values;
  KernelArg numWarps, numStages, numCTAs;
  mutable std::string error;
};

/// A grid: fixed dimensions, or a function of the launch's values.
class Grid {
public:
  using Function = std::function<GridDims(const LaunchMeta &)>;

  Grid(uint64_t x, uint64_t y = 1, uint64_t z = 1) : dims{x, y, z} {}
  Grid(GridDims dims) : dims(dims) {}
  Grid(Function function) : function(std::move(function)) {}

  /// The dimensions for `meta`; fails when the function asked for a value
  /// the launch does not have or a dimension exceeds 2^31 - 1. A dimension
  /// of 0 means nothing is launched.
  llvm::Expected<std::array<uint32_t, 3>> resolve(const LaunchMeta &meta) const;

private:
  GridDims dims = {1, 1, 1};
  Function function;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_GRID_H
