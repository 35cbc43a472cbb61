//===- AxisInfo.h - Contiguity, divisibility and constancy ------*- C++ -*-===//
//
// The axis-info analysis: for every integer or pointer value (scalar or
// block), per dimension, how long its runs of consecutive values are, what
// power of two divides it, and how long its runs of equal values are. The
// memory lowering and the coalescing pass read it to pick the vector width of
// loads and stores, so every fact it states must hold on every execution.
//
// Conventions
// -----------
// A scalar is described as a block of shape [1]; a rank-0 tensor likewise.
// Along dimension `d` of size `S`, with `C`, `D`, `K` the contiguity,
// divisibility and constancy of `d`:
//
// * Contiguity `C` (a divisor of `S`): cut the dimension into aligned runs of
//   `C` elements (indices [jC, jC + C)); inside each run the element at
//   index `jC + t` is the element at `jC` plus `t` steps. A step is 1 for
//   integers and one pointee (`sizeof(pointee)` bytes) for pointers, so
//   pointer contiguity counts elements.
// * Divisibility `D` (a power of two): the first element of every run of `C`
//   is a multiple of `D`. With `C == 1` every element is. Integers are
//   measured in their own units, pointers in BYTES of the address. So
//   `make_range 0..128` has contiguity 128 and the divisibility of 0, and a
//   block of f32 pointers `p + [0, 1, ..., 127]` with `p` 16-byte aligned has
//   contiguity 128 and divisibility 16. Zero is divisible by every power of
//   two; the analysis caps divisibility at `kMaxDivisibility`.
// * Constancy `K` (a divisor of `S`): the aligned runs of `K` elements hold
//   equal values. A splat has constancy `S` along every dimension.
//
// Besides those, a fact may carry the value every element equals (scalars and
// splats) and whether every element is known to be non-negative (read as a
// signed integer), which the rules of signed division and remainder need.
//
// Divisibility is exact under the wrap-around of fixed-width integers (a
// power of two up to 2^width divides a value exactly when it divides its bit
// pattern). Contiguity and non-negativity assume, as Triton does, that the
// integer arithmetic that builds indices does not overflow; a kernel whose
// index arithmetic overflows addresses the wrong elements whatever the
// vector width.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ANALYSIS_AXISINFO_H
#define TESSERA_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace mlir {
class DataFlowSolver;
} // namespace mlir

namespace mlir::tessera {

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

/// What is known about the elements of one integer or pointer value, per
/// dimension (see the file comment for the exact meaning). The
/// default-constructed fact is the lattice's bottom: nothing computed yet.
/// Joining two facts keeps what holds for both.
class AxisInfo {
public:
  using DimVector = llvm::SmallVector<int64_t, 4>;

  /// The largest divisibility stated; the divisibility of zero.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 62;

  /// The uninitialized fact (nothing computed yet).
  AxisInfo() = default;
  /// A fact with one entry per dimension in each vector.
  AxisInfo(llvm::ArrayRef<int64_t> contiguity,
           llvm::ArrayRef<int64_t> divisibility,
           llvm::ArrayRef<int64_t> constancy,
           std::optional<int64_t> constantValue = std::nullopt,
           bool nonNegative = false);

  /// Nothing known about a value of `rank` dimensions (contiguity,
  /// divisibility and constancy 1).
  static AxisInfo getPessimistic(unsigned rank);
  /// Nothing known about a value of `type`: one dimension per tensor
  /// dimension, one for anything else.
  static AxisInfo getPessimistic(Type type);
  /// A block of `shape` (empty for a scalar) whose every element is `value`.
  static AxisInfo getConstant(llvm::ArrayRef<int64_t> shape, int64_t value);

  /// The largest power of two dividing `value`; kMaxDivisibility for 0.
  static int64_t getDivisibilityOf(int64_t value);

  /// False for the default-constructed bottom fact.
  bool isInitialized() const { return !contiguity.empty(); }
  /// Number of dimensions (1 for scalars); 0 when uninitialized.
  unsigned getRank() const { return contiguity.size(); }

  int64_t getContiguity(unsigned dim) const { return contiguity[dim]; }
  int64_t getDivisibility(unsigned dim) const { return divisibility[dim]; }
  int64_t getConstancy(unsigned dim) const { return constancy[dim]; }
  llvm::ArrayRef<int64_t> getContiguity() const { return contiguity; }
  llvm::ArrayRef<int64_t> getDivisibility() const { return divisibility; }
  llvm::ArrayRef<int64_t> getConstancy() const { return constancy; }

  /// The value every element equals, when known. Integers are stored
  /// sign-extended from their width, except `i1`, stored as 0 or 1.
  std::optional<int64_t> getConstantValue() const { return constantValue; }
  /// True when every element, read as a signed integer, is >= 0.
  bool isNonNegative() const { return nonNegative; }

  /// A power of two that divides every element whose index along `dim` is a
  /// multiple of `stride`. `unit` is the size of one contiguity step: 1 for
  /// integers, the pointee's byte size for pointers (passing 1 for a pointer
  /// is sound, only weaker).
  int64_t getDivisibilityAt(unsigned dim, int64_t stride,
                            int64_t unit = 1) const;
  /// A power of two that divides every element.
  int64_t getElementDivisibility(int64_t unit = 1) const;

  /// The facts that hold for both `lhs` and `rhs` (of the same rank): gcd of
  /// contiguities and constancies, divisibility re-read at the joined runs'
  /// starts, constant kept when equal. An uninitialized side is ignored.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool operator==(const AxisInfo &other) const;
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }

  /// Prints `contiguity = [..], divisibility = [..], constancy = [..],
  /// constant = <value or none>, non_negative = <bool>`.
  void print(llvm::raw_ostream &os) const;

private:
  DimVector contiguity;
  DimVector divisibility;
  DimVector constancy;
  std::optional<int64_t> constantValue;
  bool nonNegative = false;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const AxisInfo &info) {
  info.print(os);
  return os;
}

//===----------------------------------------------------------------------===//
// The data-flow analysis
//===----------------------------------------------------------------------===//

/// The lattice element the solver keeps per SSA value.
class AxisInfoLattice : public dataflow::Lattice<AxisInfo> {
public:
  using Lattice::Lattice;
};

/// Sparse forward analysis computing an AxisInfo for every value. Load it in
/// a DataFlowSolver together with `dataflow::DeadCodeAnalysis` and
/// `dataflow::SparseConstantPropagation` (which MLIR's sparse analyses need);
/// ModuleAxisInfoAnalysis does that for you.
///
/// Function arguments take their divisibility from the `tessera.divisibility`
/// argument attribute and are otherwise unknown. Operations the analysis does
/// not model get the pessimistic fact; `scf` control flow (and any region or
/// branch op implementing MLIR's control-flow interfaces) is followed by the
/// framework, which joins the facts of all incoming edges.
class AxisInfoAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult
  visitOperation(Operation *op,
                 llvm::ArrayRef<const AxisInfoLattice *> operands,
                 llvm::ArrayRef<AxisInfoLattice *> results) override;

  /// Loop induction variables: divisibility from the lower bound and step.
  void
  visitNonControlFlowArguments(Operation *op, const RegionSuccessor &successor,
                               llvm::ArrayRef<AxisInfoLattice *> argLattices,
                               unsigned firstIndex) override;

  /// Entry points (function arguments, results of unmodelled ops): the
  /// pessimistic fact, refined by `tessera.divisibility` on arguments.
  void setToEntryState(AxisInfoLattice *lattice) override;
};

/// Computes the fact of the result of a single-result op from its operands'
/// facts, for the ops the analysis models; std::nullopt for the others. This
/// is the analysis's transfer function, exposed for tests and for passes that
/// create values after the analysis ran.
std::optional<AxisInfo> inferAxisInfo(Operation *op,
                                      llvm::ArrayRef<AxisInfo> operands);

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

/// Runs AxisInfoAnalysis over `root` (a module, or any op) and answers
/// queries afterwards. The facts describe the IR as it was when the
/// analysis ran. Usable as an MLIR pass analysis
/// (`getAnalysis<ModuleAxisInfoAnalysis>()`).
///
/// The `order` arguments of the helpers list the dimensions from fastest to
/// slowest varying (a layout's order); an empty order means row-major, the
/// last dimension fastest. Scalars behave as blocks of one element.
class ModuleAxisInfoAnalysis {
public:
  explicit ModuleAxisInfoAnalysis(Operation *root);
  ~ModuleAxisInfoAnalysis();
  ModuleAxisInfoAnalysis(ModuleAxisInfoAnalysis &&) noexcept;
  ModuleAxisInfoAnalysis &operator=(ModuleAxisInfoAnalysis &&) noexcept;

  /// The fact computed for `value`, or the pessimistic fact when there is
  /// none (dead code, a value created after the analysis ran, or a failed
  /// solver run).
  AxisInfo getAxisInfo(Value value) const;

  /// The computed fact for `value`, or nullptr when there is none.
  const AxisInfo *lookup(Value value) const;

  /// Number of consecutive elements along the fastest dimension that a block
  /// of pointers `ptr` addresses in runs (its contiguity there); 1 for
  /// scalars and non-pointers.
  unsigned getPtrContiguity(Value ptr,
                            llvm::ArrayRef<unsigned> order = {}) const;

  /// The widest access, in elements, that is both contiguous and aligned to
  /// its own size along the fastest dimension: the largest power of two
  /// dividing the contiguity and `divisibility / sizeof(pointee)`. A thread
  /// that holds an aligned run of that many elements may move them with one
  /// access of that many times `sizeof(pointee)` bytes. At least 1.
  unsigned getPtrAlignment(Value ptr,
                           llvm::ArrayRef<unsigned> order = {}) const;

  /// Constancy of a mask along the fastest dimension: the number of aligned
  /// consecutive elements that share one mask bit, so that one vector access
  /// can be predicated as a whole. 1 for scalars.
  unsigned getMaskAlignment(Value mask,
                            llvm::ArrayRef<unsigned> order = {}) const;

  /// The widest access, in elements, of a masked (or, with a null `mask`,
  /// unmasked) load or store through `ptr`: its pointer alignment, cut to
  /// the run one mask bit covers. What the lowering vectorizes by, at most
  /// the thread's own run of elements.
  unsigned getAccessAlignment(Value ptr, Value mask,
                              llvm::ArrayRef<unsigned> order = {}) const;

private:
  std::unique_ptr<DataFlowSolver> solver;
  bool valid = false;
};

/// Registers `tessera-test-print-axis-info`, which runs the analysis and
/// reports the fact of every integer and pointer value as a remark.
void registerTestAxisInfoPass();

} // namespace mlir::tessera

MLIR_DECLARE_EXPLICIT_TYPE_ID(mlir::tessera::AxisInfoLattice)
MLIR_DECLARE_EXPLICIT_TYPE_ID(mlir::tessera::AxisInfoAnalysis)

#endif // TESSERA_ANALYSIS_AXISINFO_H
