//===- LowerMemory.cpp - Loads, stores and atomics on the CPU -------------===//
//
// A block of pointers is a tensor of i64 addresses; a load or store through
// it is a loop nest visiting each element in row-major order, with LLVM
// memory operations guarded by the element's mask. Loop nests (rather than
// linalg ops) keep memory operations ordered with everything else: a
// linalg.generic on tensors counts as pure. Atomics lower to LLVM's
// atomicrmw / cmpxchg with the requested ordering; every scope is the whole
// system on a CPU.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "tessera/Analysis/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

/// The single value of a 1:1 converted operand, or null when absent.
Value single(ValueRange values) {
  assert(values.size() <= 1 && "expected a 1:1 conversion");
  return values.empty() ? Value() : values.front();
}

/// `value[ivs]` for tensors; scalars are the same for every element.
Value elementAt(OpBuilder &b, Location loc, Value value, ValueRange ivs) {
  if (!value || !isa<RankedTensorType>(value.getType()))
    return value;
  return tensor::ExtractOp::create(b, loc, value, ivs);
}

/// Runs `body` for each element (with its indices) of a value of `type`:
/// once for scalars, in a loop nest for tensors. `body` returns one scalar
/// per result type; the results are gathered into tensors.
SmallVector<Value> forEachElement(
    OpBuilder &b, Location loc, Type type, TypeRange scalarResultTypes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return body(b, loc, ValueRange{});
  SmallVector<Value> inits;
  for (Type scalar : scalarResultTypes)
    inits.push_back(createEmpty(
        b, loc, RankedTensorType::get(tensorType.getShape(), scalar)));
  return buildLoopNest(
      b, loc, tensorType.getShape(), inits,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs,
          ValueRange args) -> SmallVector<Value> {
        SmallVector<Value> values = body(nested, nestedLoc, ivs);
        SmallVector<Value> updated;
        for (auto [value, tensor] : llvm::zip(values, args))
          updated.push_back(
              tensor::InsertOp::create(nested, nestedLoc, value, tensor, ivs));
        return updated;
      });
}

/// The attributes the structured lowering reads on loads and stores through
/// blocks of pointers: the axis analysis's contiguity along one dimension,
/// and that dimension when it is not the last.
constexpr llvm::StringLiteral kContiguityAttr = "tessera_cpu.contiguity";
constexpr llvm::StringLiteral kContiguousDimAttr = "tessera_cpu.contiguous_dim";

/// Consecutive addresses of a block of pointers: `length` elements along
/// dimension `dim`.
struct Run {
  unsigned dim = 0;
  int64_t length = 1;
};

/// Visits every element of a block of pointers `ptrs`, calling `body` with
/// the element's indices and address (i64 or `!llvm.ptr`); the values it
/// returns are gathered into tensors of `scalarResultTypes`. Without a run
/// the visit is row-major. With one (length > 1), the innermost loop walks
/// one run along its dimension and computes each address from the run's
/// first one, loaded once: LLVM then sees consecutive accesses and
/// vectorizes them (for a run along another dimension than the last, such
/// as the columns of a transposed matrix, that dimension is the innermost
/// loop and the others keep their order outside it).
SmallVector<Value> forEachAddress(
    OpBuilder &b, Location loc, Value ptrs, Run run, int64_t elementBytes,
    TypeRange scalarResultTypes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange, Value)>
        body) {
  auto type = dyn_cast<RankedTensorType>(ptrs.getType());
  if (!type || run.length <= 1)
    return forEachElement(b, loc, ptrs.getType(), scalarResultTypes,
                          [&](OpBuilder &nb, Location l, ValueRange ivs) {
                            return body(nb, l, ivs,
                                        elementAt(nb, l, ptrs, ivs));
                          });
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> outerShape(shape);
  outerShape[run.dim] = shape[run.dim] / run.length;
  SmallVector<Value> inits;
  for (Type scalar : scalarResultTypes)
    inits.push_back(createEmpty(b, loc, RankedTensorType::get(shape, scalar)));
  return buildLoopNest(
      b, loc, outerShape, inits,
      [&](OpBuilder &ob, Location ol, ValueRange outer,
          ValueRange args) -> SmallVector<Value> {
        Value runStart = arith::MulIOp::create(ob, ol, outer[run.dim],
                                               createIndex(ob, ol, run.length));
        SmallVector<Value> indices(outer);
        indices[run.dim] = runStart;
        // A GEP from the run's first address rather than integer
        // arithmetic: LLVM's vectorizer follows pointers, not inttoptr.
        Value base =
            toLLVMPtr(ob, ol, tensor::ExtractOp::create(ob, ol, ptrs, indices));
        auto inner = scf::ForOp::create(
            ob, ol, createIndex(ob, ol, 0), createIndex(ob, ol, run.length),
            createIndex(ob, ol, 1), args,
            [&](OpBuilder &ib, Location il, Value t, ValueRange iterArgs) {
              SmallVector<Value> ivs(outer);
              ivs[run.dim] = arith::AddIOp::create(ib, il, runStart, t);
              Value offset =
                  arith::IndexCastOp::create(ib, il, ib.getI64Type(), t);
              Value address = LLVM::GEPOp::create(
                  ib, il, base.getType(), ib.getIntegerType(8 * elementBytes),
                  base, ValueRange{offset});
              SmallVector<Value> values = body(ib, il, ivs, address);
              SmallVector<Value> updated;
              for (auto [value, tensor] : llvm::zip(values, iterArgs))
                updated.push_back(
                    tensor::InsertOp::create(ib, il, value, tensor, ivs));
              scf::YieldOp::create(ib, il, updated);
            });
        return SmallVector<Value>(inner.getResults());
      });
}

/// The run recorded on `op` (length 1 without one); the last dimension
/// unless another is recorded.
Run getRun(Operation *op) {
  Run run;
  auto length = op->getAttrOfType<IntegerAttr>(kContiguityAttr);
  if (!length)
    return run;
  run.length = length.getInt();
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  run.dim = type.getRank() - 1;
  if (auto dim = op->getAttrOfType<IntegerAttr>(kContiguousDimAttr))
    run.dim = dim.getInt();
  return run;
}

/// `then()` when `mask` holds (always when there is no mask), `otherwise`
/// else; both yield values of `types`.
SmallVector<Value>
guarded(OpBuilder &b, Location loc, Value mask, TypeRange types,
        function_ref<SmallVector<Value>(OpBuilder &, Location)> then,
        function_ref<SmallVector<Value>(OpBuilder &, Location)> otherwise) {
  if (!mask)
    return then(b, loc);
  if (types.empty()) {
    scf::IfOp::create(b, loc, mask, [&](OpBuilder &nested, Location l) {
      then(nested, l);
      scf::YieldOp::create(nested, l);
    });
    return {};
  }
  auto ifOp = scf::IfOp::create(
      b, loc, mask,
      [&](OpBuilder &nested, Location l) {
        scf::YieldOp::create(nested, l, then(nested, l));
      },
      [&](OpBuilder &nested, Location l) {
        scf::YieldOp::create(nested, l, otherwise(nested, l));
      });
  return SmallVector<Value>(ifOp.getResults());
}

/// Loads through a pointer or a block of pointers.
struct LoadOpLowering : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (auto ptrType = dyn_cast<PointerType>(op.getPtr().getType());
        ptrType && ptrType.isBlockPointer())
      return lowerBlockPointerLoad(op, adaptor.getPtr(), *getTypeConverter(),
                                   rewriter);
    Location loc = op.getLoc();
    Value ptr = single(adaptor.getPtr());
    Value mask = single(adaptor.getMask());
    Value other = single(adaptor.getOther());
    Type elemType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getResult().getType()));
    bool isVolatile = op.getIsVolatile();
    SmallVector<Value> results = forEachAddress(
        rewriter, loc, ptr, getRun(op), getElementByteSize(elemType), elemType,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            Value address) -> SmallVector<Value> {
          return guarded(
              b, l, elementAt(b, l, mask, ivs), elemType,
              [&](OpBuilder &t, Location tl) -> SmallVector<Value> {
                return {loadScalar(t, tl, elemType, address, isVolatile)};
              },
              [&](OpBuilder &e, Location el) -> SmallVector<Value> {
                // Masked-off lanes read `other`, or zero without it.
                if (other)
                  return {elementAt(e, el, other, ivs)};
                return {createZero(e, el, elemType)};
              });
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct StoreOpLowering : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (auto ptrType = dyn_cast<PointerType>(op.getPtr().getType());
        ptrType && ptrType.isBlockPointer())
      return lowerBlockPointerStore(op, adaptor.getPtr(),
                                    single(adaptor.getValue()), rewriter);
    Location loc = op.getLoc();
    Value ptr = single(adaptor.getPtr());
    Value value = single(adaptor.getValue());
    Value mask = single(adaptor.getMask());
    Type elemType = getElementTypeOrSelf(value.getType());
    forEachAddress(
        rewriter, loc, ptr, getRun(op), getElementByteSize(elemType),
        TypeRange{},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            Value address) -> SmallVector<Value> {
          Value element = elementAt(b, l, value, ivs);
          guarded(
              b, l, elementAt(b, l, mask, ivs), TypeRange{},
              [&](OpBuilder &t, Location tl) -> SmallVector<Value> {
                storeScalar(t, tl, element, address);
                return {};
              },
              [](OpBuilder &, Location) -> SmallVector<Value> { return {}; });
          return {};
        });
    rewriter.eraseOp(op);
    return success();
  }
};

LLVM::AtomicOrdering getOrdering(MemSemantic sem) {
  switch (sem) {
  case MemSemantic::relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemSemantic::acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemSemantic::release:
    return LLVM::AtomicOrdering::release;
  case MemSemantic::acq_rel:
    return LLVM::AtomicOrdering::acq_rel;
  }
  llvm_unreachable("unknown memory semantic");
}

/// A compare-and-swap that fails only reads: it cannot release.
LLVM::AtomicOrdering getFailureOrdering(MemSemantic sem) {
  switch (sem) {
  case MemSemantic::acquire:
  case MemSemantic::acq_rel:
    return LLVM::AtomicOrdering::acquire;
  case MemSemantic::relaxed:
  case MemSemantic::release:
    return LLVM::AtomicOrdering::monotonic;
  }
  llvm_unreachable("unknown memory semantic");
}

FailureOr<LLVM::AtomicBinOp> getBinOp(RMWOp rmw, Type elemType) {
  bool isFloat = isa<FloatType>(elemType);
  switch (rmw) {
  case RMWOp::add:
    return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case RMWOp::fadd:
    if (!isFloat)
      return failure();
    return LLVM::AtomicBinOp::fadd;
  case RMWOp::max:
    return isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
  case RMWOp::min:
    return isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
  case RMWOp::umax:
    return isFloat ? FailureOr<LLVM::AtomicBinOp>(failure())
                   : LLVM::AtomicBinOp::umax;
  case RMWOp::umin:
    return isFloat ? FailureOr<LLVM::AtomicBinOp>(failure())
                   : LLVM::AtomicBinOp::umin;
  case RMWOp::And:
    return isFloat ? FailureOr<LLVM::AtomicBinOp>(failure())
                   : LLVM::AtomicBinOp::_and;
  case RMWOp::Or:
    return isFloat ? FailureOr<LLVM::AtomicBinOp>(failure())
                   : LLVM::AtomicBinOp::_or;
  case RMWOp::Xor:
    return isFloat ? FailureOr<LLVM::AtomicBinOp>(failure())
                   : LLVM::AtomicBinOp::_xor;
  case RMWOp::xchg:
    return LLVM::AtomicBinOp::xchg;
  }
  return failure();
}

std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

/// True for element types LLVM's atomics take as they are.
bool isAtomicCompatible(Type type) {
  if (auto f = dyn_cast<FloatType>(type))
    return LLVM::isCompatibleFloatingPointType(f);
  return type.isInteger(8) || type.isInteger(16) || type.isInteger(32) ||
         type.isInteger(64);
}

struct AtomicRMWOpLowering : public OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getVal().getType()));
    FailureOr<LLVM::AtomicBinOp> binOp = getBinOp(op.getRmwOp(), elemType);
    if (failed(binOp) || !isAtomicCompatible(elemType))
      return op.emitError()
             << "atomic '" << stringifyRMWOp(op.getRmwOp()) << "' on "
             << elemType << " is not supported on the CPU backend";
    LLVM::AtomicOrdering ordering = getOrdering(op.getSem());
    Value ptr = adaptor.getPtr(), val = adaptor.getVal(),
          mask = adaptor.getMask();
    std::string name = "__tessera_cpu_atomicrmw_" +
                       LLVM::stringifyAtomicBinOp(*binOp).str() + "_" +
                       LLVM::stringifyAtomicOrdering(ordering).str() + "_" +
                       typeName(elemType);
    SmallVector<Value> results = forEachElement(
        rewriter, loc, op.getPtr().getType(), elemType,
        [&](OpBuilder &b, Location l, ValueRange ivs) -> SmallVector<Value> {
          Value address = elementAt(b, l, ptr, ivs);
          Value operand = elementAt(b, l, val, ivs);
          return guarded(
              b, l, elementAt(b, l, mask, ivs), elemType,
              [&](OpBuilder &t, Location tl) -> SmallVector<Value> {
                return {callOutlined(
                    t, tl, op, name, ValueRange{address, operand}, elemType,
                    [&](OpBuilder &fb, Location fl, ValueRange args) {
                      return LLVM::AtomicRMWOp::create(
                          fb, fl, *binOp, toLLVMPtr(fb, fl, args[0]), args[1],
                          ordering);
                    })};
              },
              [&](OpBuilder &e, Location el) -> SmallVector<Value> {
                return {createZero(e, el, elemType)};
              });
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// cmpxchg works on integers: floats go through their bits.
struct AtomicCASOpLowering : public OpConversionPattern<AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getVal().getType()));
    if (!isAtomicCompatible(elemType))
      return op.emitError() << "atomic_cas on " << elemType
                            << " is not supported on the CPU backend";
    Type intType = rewriter.getIntegerType(elemType.getIntOrFloatBitWidth());
    LLVM::AtomicOrdering successOrdering = getOrdering(op.getSem());
    LLVM::AtomicOrdering failureOrdering = getFailureOrdering(op.getSem());
    Value ptr = adaptor.getPtr(), cmp = adaptor.getCmp(),
          val = adaptor.getVal();
    std::string name = "__tessera_cpu_cmpxchg_" +
                       LLVM::stringifyAtomicOrdering(successOrdering).str() +
                       "_" +
                       LLVM::stringifyAtomicOrdering(failureOrdering).str() +
                       "_" + typeName(intType);
    SmallVector<Value> results = forEachElement(
        rewriter, loc, op.getPtr().getType(), elemType,
        [&](OpBuilder &b, Location l, ValueRange ivs) -> SmallVector<Value> {
          Value address = elementAt(b, l, ptr, ivs);
          Value expected = elementAt(b, l, cmp, ivs);
          Value desired = elementAt(b, l, val, ivs);
          if (intType != elemType) {
            expected = arith::BitcastOp::create(b, l, intType, expected);
            desired = arith::BitcastOp::create(b, l, intType, desired);
          }
          Value old = callOutlined(
              b, l, op, name, ValueRange{address, expected, desired}, intType,
              [&](OpBuilder &fb, Location fl, ValueRange args) -> Value {
                auto cas = LLVM::AtomicCmpXchgOp::create(
                    fb, fl, toLLVMPtr(fb, fl, args[0]), args[1], args[2],
                    successOrdering, failureOrdering);
                return LLVM::ExtractValueOp::create(fb, fl, cas, 0);
              });
          if (intType != elemType)
            old = arith::BitcastOp::create(b, l, elemType, old);
          return {old};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void cpu::annotateContiguity(ModuleOp module) {
  ModuleAxisInfoAnalysis analysis(module);
  auto annotate = [&](Operation *op, Value ptr) {
    auto type = dyn_cast<RankedTensorType>(ptr.getType());
    if (!type || type.getRank() == 0)
      return;
    // The last dimension when it has runs; otherwise the dimension with the
    // longest (a transposed operand's columns).
    AxisInfo info = analysis.getAxisInfo(ptr);
    if (info.getRank() != static_cast<unsigned>(type.getRank()))
      return;
    ArrayRef<int64_t> shape = type.getShape();
    auto usable = [&](unsigned dim) {
      int64_t run = info.getContiguity(dim);
      return run > 1 && shape[dim] % run == 0 ? run : 1;
    };
    unsigned last = type.getRank() - 1, dim = last;
    if (usable(last) == 1)
      for (unsigned d = 0; d < last; ++d)
        if (usable(d) > usable(dim))
          dim = d;
    int64_t run = usable(dim);
    if (run == 1)
      return;
    Type i64 = IntegerType::get(op->getContext(), 64);
    op->setAttr(kContiguityAttr, IntegerAttr::get(i64, run));
    if (dim != last)
      op->setAttr(kContiguousDimAttr, IntegerAttr::get(i64, dim));
  };
  module.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      annotate(op, load.getPtr());
    else if (auto store = dyn_cast<StoreOp>(op))
      annotate(op, store.getPtr());
  });
}

void cpu::populateMemoryPatterns(const CpuTypeConverter &converter,
                                 RewritePatternSet &patterns) {
  patterns.add<LoadOpLowering, StoreOpLowering, AtomicRMWOpLowering,
               AtomicCASOpLowering>(converter, patterns.getContext());
}
