//===- AxisInfo.cpp - The axis-info lattice, analysis and driver ----------===//
#include "AxisInfoImpl.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::axisinfo;

MLIR_DEFINE_EXPLICIT_TYPE_ID(mlir::tessera::AxisInfoLattice)
MLIR_DEFINE_EXPLICIT_TYPE_ID(mlir::tessera::AxisInfoAnalysis)

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo::AxisInfo(ArrayRef<int64_t> contiguity, ArrayRef<int64_t> divisibility,
                   ArrayRef<int64_t> constancy,
                   std::optional<int64_t> constantValue, bool nonNegative)
    : contiguity(contiguity), divisibility(divisibility), constancy(constancy),
      constantValue(constantValue), nonNegative(nonNegative) {
  assert(contiguity.size() == divisibility.size() &&
         contiguity.size() == constancy.size() &&
         "one entry per dimension in each vector");
}

AxisInfo AxisInfo::getPessimistic(unsigned rank) {
  DimVector ones(std::max(rank, 1u), 1);
  return AxisInfo(ones, ones, ones);
}

AxisInfo AxisInfo::getPessimistic(Type type) {
  return getPessimistic(getTypeFacts(type).rank());
}

AxisInfo AxisInfo::getConstant(ArrayRef<int64_t> shape, int64_t value) {
  DimVector constancy;
  for (int64_t size : shape)
    constancy.push_back(size > 0 ? size : 1);
  if (constancy.empty())
    constancy.push_back(1);
  DimVector ones(constancy.size(), 1);
  return AxisInfo(ones, DimVector(constancy.size(), getDivisibilityOf(value)),
                  constancy, value, value >= 0);
}

int64_t AxisInfo::getDivisibilityOf(int64_t value) {
  if (value == 0)
    return kMaxDivisibility;
  unsigned zeros = llvm::countr_zero(static_cast<uint64_t>(value));
  return int64_t(1) << std::min(zeros, 62u);
}

int64_t AxisInfo::getDivisibilityAt(unsigned dim, int64_t stride,
                                    int64_t unit) const {
  int64_t run = contiguity[dim];
  if (stride % run == 0)
    return divisibility[dim];
  // Those elements sit a multiple of gcd(stride, run) steps after the first
  // element of their run.
  return std::gcd(divisibility[dim], std::gcd(stride, run) * unit);
}

int64_t AxisInfo::getElementDivisibility(int64_t unit) const {
  // Every dimension states a bound for all elements; all of them hold.
  int64_t best = 1;
  for (unsigned dim = 0, e = getRank(); dim < e; ++dim)
    best = std::max(best, getDivisibilityAt(dim, 1, unit));
  return best;
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  assert(lhs.getRank() == rhs.getRank() && "joining facts of unlike ranks");
  DimVector c, d, k;
  for (unsigned dim = 0, e = lhs.getRank(); dim < e; ++dim) {
    int64_t run = std::gcd(lhs.contiguity[dim], rhs.contiguity[dim]);
    c.push_back(run);
    // The joined runs may be shorter, so re-read divisibility at their
    // starts. Pointers use a unit of 1 here, which is sound, only weaker.
    d.push_back(std::min(lhs.getDivisibilityAt(dim, run),
                         rhs.getDivisibilityAt(dim, run)));
    k.push_back(std::gcd(lhs.constancy[dim], rhs.constancy[dim]));
  }
  std::optional<int64_t> constant;
  if (lhs.constantValue == rhs.constantValue)
    constant = lhs.constantValue;
  return AxisInfo(c, d, k, constant, lhs.nonNegative && rhs.nonNegative);
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy && constantValue == other.constantValue &&
         nonNegative == other.nonNegative;
}

void AxisInfo::print(raw_ostream &os) const {
  if (!isInitialized()) {
    os << "uninitialized";
    return;
  }
  auto list = [&](ArrayRef<int64_t> values) {
    os << '[';
    llvm::interleaveComma(values, os);
    os << ']';
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
  os << ", constant = ";
  if (constantValue)
    os << *constantValue;
  else
    os << "none";
  os << ", non_negative = " << (nonNegative ? "true" : "false");
}

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const AxisInfoLattice *> operands,
                                 ArrayRef<AxisInfoLattice *> results) {
  SmallVector<AxisInfo> infos;
  for (const AxisInfoLattice *operand : operands) {
    // Not computed yet: the solver visits `op` again once it is.
    if (!operand->getValue().isInitialized())
      return success();
    infos.push_back(operand->getValue());
  }
  std::optional<AxisInfo> info = inferAxisInfo(op, infos);
  if (!info) {
    setAllToEntryStates(results);
    return success();
  }
  propagateIfChanged(results[0], results[0]->join(*info));
  return success();
}

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  Value value = lattice->getAnchor();
  AxisInfo info = AxisInfo::getPessimistic(value.getType());
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Block *block = arg.getOwner();
    auto func = dyn_cast_or_null<FunctionOpInterface>(block->getParentOp());
    if (func && block->isEntryBlock() &&
        &func.getFunctionBody() == block->getParent()) {
      if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                         kDivisibilityAttrName);
          attr && attr.getValue().getSExtValue() > 0) {
        unsigned rank = info.getRank();
        // The attribute promises a power of two; only its largest
        // power-of-two factor is relied upon should it be something else.
        int64_t div =
            AxisInfo::getDivisibilityOf(attr.getValue().getSExtValue());
        AxisInfo::DimVector ones(rank, 1);
        info = AxisInfo(ones, AxisInfo::DimVector(rank, div), ones);
      }
    }
  }
  propagateIfChanged(lattice, lattice->join(info));
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<AxisInfoLattice *> argLattices, unsigned firstIndex) {
  Region *region = successor.getSuccessor();
  auto loop = dyn_cast<LoopLikeOpInterface>(op);
  std::optional<SmallVector<Value>> ivs;
  std::optional<SmallVector<OpFoldResult>> lbs, steps;
  if (loop && region && !region->empty()) {
    ivs = loop.getLoopInductionVars();
    lbs = loop.getLoopLowerBounds();
    steps = loop.getLoopSteps();
  }
  ProgramPoint *point = region && !region->empty()
                            ? getProgramPointBefore(&region->front())
                            : nullptr;
  // The fact of a loop bound, or nullopt while it is not computed yet (the
  // solver visits the block again once it is).
  auto boundFact = [&](OpFoldResult bound) -> std::optional<AxisInfo> {
    if (auto attr = dyn_cast<Attribute>(bound)) {
      if (auto integer = dyn_cast<IntegerAttr>(attr))
        return AxisInfo::getConstant({}, integer.getValue().getSExtValue());
      return AxisInfo::getPessimistic(1);
    }
    const AxisInfoLattice *lattice =
        getLatticeElementFor(point, cast<Value>(bound));
    if (!lattice->getValue().isInitialized())
      return std::nullopt;
    return lattice->getValue();
  };

  unsigned numInputs = successor.getSuccessorInputs().size();
  for (auto [index, lattice] : llvm::enumerate(argLattices)) {
    // Inputs carried by control flow are joined by the framework.
    if (index >= firstIndex && index < firstIndex + numInputs)
      continue;
    if (ivs && lbs && steps && ivs->size() == lbs->size() &&
        ivs->size() == steps->size()) {
      auto it = llvm::find(*ivs, lattice->getAnchor());
      if (it != ivs->end()) {
        size_t i = it - ivs->begin();
        std::optional<AxisInfo> lb = boundFact((*lbs)[i]);
        std::optional<AxisInfo> step = boundFact((*steps)[i]);
        if (!lb || !step)
          continue;
        // lb + n * step: a multiple of what divides both.
        int64_t div = std::min(lb->getElementDivisibility(),
                               step->getElementDivisibility());
        AxisInfo iv({1}, {div}, {1}, std::nullopt,
                    lb->isNonNegative() && step->isNonNegative());
        propagateIfChanged(lattice, lattice->join(iv));
        continue;
      }
    }
    setToEntryState(lattice);
  }
}

//===----------------------------------------------------------------------===//
// ModuleAxisInfoAnalysis
//===----------------------------------------------------------------------===//

ModuleAxisInfoAnalysis::ModuleAxisInfoAnalysis(Operation *root)
    : solver(std::make_unique<DataFlowSolver>()) {
  solver->load<dataflow::DeadCodeAnalysis>();
  solver->load<dataflow::SparseConstantPropagation>();
  solver->load<AxisInfoAnalysis>();
  valid = succeeded(solver->initializeAndRun(root));
}

ModuleAxisInfoAnalysis::~ModuleAxisInfoAnalysis() = default;
ModuleAxisInfoAnalysis::ModuleAxisInfoAnalysis(
    ModuleAxisInfoAnalysis &&) noexcept = default;
ModuleAxisInfoAnalysis &
ModuleAxisInfoAnalysis::operator=(ModuleAxisInfoAnalysis &&) noexcept = default;

const AxisInfo *ModuleAxisInfoAnalysis::lookup(Value value) const {
  if (!valid || !value)
    return nullptr;
  const auto *lattice = solver->lookupState<AxisInfoLattice>(value);
  if (!lattice || !lattice->getValue().isInitialized())
    return nullptr;
  return &lattice->getValue();
}

AxisInfo ModuleAxisInfoAnalysis::getAxisInfo(Value value) const {
  if (const AxisInfo *info = lookup(value))
    return *info;
  return AxisInfo::getPessimistic(value.getType());
}

namespace {
/// The fastest-varying dimension under `order`, for a fact of `rank`.
std::optional<unsigned> fastestDim(const AxisInfo &info,
                                   ArrayRef<unsigned> order) {
  unsigned dim = order.empty() ? info.getRank() - 1 : order.front();
  if (dim >= info.getRank())
    return std::nullopt;
  return dim;
}

unsigned toUnsigned(int64_t value) {
  return static_cast<unsigned>(
      std::clamp<int64_t>(value, 1, std::numeric_limits<unsigned>::max()));
}
} // namespace

unsigned
ModuleAxisInfoAnalysis::getPtrContiguity(Value ptr,
                                         ArrayRef<unsigned> order) const {
  TypeFacts facts = getTypeFacts(ptr.getType());
  if (!facts.isPtr || !isa<RankedTensorType>(ptr.getType()))
    return 1;
  AxisInfo info = getAxisInfo(ptr);
  std::optional<unsigned> dim = fastestDim(info, order);
  return dim ? toUnsigned(info.getContiguity(*dim)) : 1;
}

unsigned
ModuleAxisInfoAnalysis::getPtrAlignment(Value ptr,
                                        ArrayRef<unsigned> order) const {
  TypeFacts facts = getTypeFacts(ptr.getType());
  if (!facts.isPtr || !isa<RankedTensorType>(ptr.getType()) ||
      !llvm::isPowerOf2_64(facts.unit))
    return 1;
  AxisInfo info = getAxisInfo(ptr);
  std::optional<unsigned> dim = fastestDim(info, order);
  if (!dim)
    return 1;
  int64_t bytes = info.getDivisibility(*dim);
  if (bytes < facts.unit)
    return 1;
  // Aligned runs of `n` elements start at addresses divisible by
  // n * sizeof(pointee) when n divides both the contiguity and
  // divisibility / sizeof(pointee); the latter is a power of two.
  return toUnsigned(std::gcd(info.getContiguity(*dim), bytes / facts.unit));
}

unsigned
ModuleAxisInfoAnalysis::getMaskAlignment(Value mask,
                                         ArrayRef<unsigned> order) const {
  if (!isa<RankedTensorType>(mask.getType()))
    return 1;
  AxisInfo info = getAxisInfo(mask);
  std::optional<unsigned> dim = fastestDim(info, order);
  return dim ? toUnsigned(info.getConstancy(*dim)) : 1;
}

unsigned
ModuleAxisInfoAnalysis::getAccessAlignment(Value ptr, Value mask,
                                           ArrayRef<unsigned> order) const {
  unsigned vec = getPtrAlignment(ptr, order);
  return mask ? std::min(vec, getMaskAlignment(mask, order)) : vec;
}
