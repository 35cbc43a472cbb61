//===- KernelRecord.cpp - A GPU kernel's launch facts through LLVM --------===//
#include "tessera/Backend/KernelRecord.h"

#include "tessera/Backend/Signature.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Layout/LinearLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// The named metadata: one node per kernel, {name, types, names, shared
/// bytes, extra}.
constexpr char kKernelsMetadata[] = "tessera.kernels";

struct RecordSignaturePass
    : public PassWrapper<RecordSignaturePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RecordSignaturePass)

  explicit RecordSignaturePass(std::string target)
      : target(std::move(target)) {}

  StringRef getArgument() const final { return "tessera-record-signature"; }

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(kKernelAttrName))
        return;
      MLIRContext *ctx = func.getContext();
      SmallVector<Attribute> types, names;
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
        // Tensor maps are hidden: the driver adds them from their recipes.
        if (isa<tessera::gpu::TensorMapType>(type))
          continue;
        FailureOr<std::string> recorded = getKernelParamTypeName(func, i);
        if (failed(recorded)) {
          failedAny = true;
          continue;
        }
        std::string name = *recorded;
        if (name.empty()) {
          func.emitError("kernel parameter ")
              << i << " of type " << type << " cannot be passed to " << target
              << " launch";
          failedAny = true;
          continue;
        }
        types.push_back(StringAttr::get(ctx, name));
        auto argName = func.getArgAttrOfType<StringAttr>(i, "tessera.name");
        names.push_back(argName ? argName
                                : StringAttr::get(ctx, "arg" + llvm::Twine(i)));
      }
      dropSignatureTypeAttrs(func);
      func->setAttr(kSignatureTypesAttrName, ArrayAttr::get(ctx, types));
      func->setAttr(kSignatureNamesAttrName, ArrayAttr::get(ctx, names));
    });
    if (failedAny)
      signalPassFailure();
  }

  std::string target;
};

struct CheckSharedMemoryPass
    : public PassWrapper<CheckSharedMemoryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckSharedMemoryPass)

  CheckSharedMemoryPass(uint64_t limit, std::string arch)
      : limit(limit), arch(std::move(arch)) {}

  StringRef getArgument() const final { return "tessera-check-shared-memory"; }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto bytes = module->getAttrOfType<IntegerAttr>(kSharedMemoryAttrName);
    if (!bytes || uint64_t(bytes.getInt()) <= limit)
      return;
    // At the kernel's definition, without the module printed after it.
    Location loc = module.getLoc();
    module.walk([&](LLVM::LLVMFuncOp func) {
      if (func->hasAttr(kKernelAttrName))
        loc = func.getLoc();
    });
    mlir::emitError(loc, "the kernel needs ")
        << bytes.getInt() << " bytes of shared memory; " << arch
        << " gives a block at most " << limit
        << " (fewer stages or smaller tiles fit)";
    signalPassFailure();
  }

  uint64_t limit;
  std::string arch;
};

struct CheckElementsPerThreadPass
    : public PassWrapper<CheckElementsPerThreadPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckElementsPerThreadPass)

  explicit CheckElementsPerThreadPass(unsigned limit) : limit(limit) {}

  StringRef getArgument() const final {
    return "tessera-check-elements-per-thread";
  }

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](Operation *op) {
      for (Value value : op->getResults()) {
        auto type = dyn_cast<RankedTensorType>(value.getType());
        auto layout = type ? dyn_cast_or_null<gpu::DistributedLayoutAttr>(
                                 type.getEncoding())
                           : nullptr;
        if (!layout)
          continue;
        uint64_t elements =
            layout.toLinearLayout(type.getShape()).getInDimSize(kRegisterDim);
        // The operands of a multiply-add dot repeat each thread's rows (or
        // columns) along K; the dot lowering consumes them in a loop-free
        // sequence of FMAs whose size the result's count bounds, not the
        // elementwise chains the limit is for.
        uint64_t allowed = isa<gpu::DotOperandAttr>(layout)
                               ? uint64_t(limit) * kDotOperandAllowance
                               : limit;
        if (elements <= allowed)
          continue;
        std::string block;
        for (int64_t d : type.getShape())
          block += std::to_string(d) + "x";
        llvm::raw_string_ostream(block) << type.getElementType();
        op->emitError("this block puts ")
            << elements << " of its elements in each thread (a " << block
            << " block), more than the " << allowed
            << " a tensor may hold per thread; more warps (num_warps) or a "
            << "smaller block fit";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  unsigned limit;
};

std::string joinStrings(ArrayAttr array, StringRef separator) {
  SmallVector<StringRef> parts;
  for (Attribute a : array)
    parts.push_back(cast<StringAttr>(a).getValue());
  return llvm::join(parts, separator);
}

} // namespace

std::unique_ptr<Pass>
mlir::tessera::createRecordSignaturePass(llvm::StringRef target) {
  return std::make_unique<RecordSignaturePass>(target.str());
}

std::unique_ptr<Pass>
mlir::tessera::createCheckSharedMemoryPass(uint64_t limit,
                                           llvm::StringRef arch) {
  return std::make_unique<CheckSharedMemoryPass>(limit, arch.str());
}

std::unique_ptr<Pass>
mlir::tessera::createCheckElementsPerThreadPass(unsigned limit) {
  return std::make_unique<CheckElementsPerThreadPass>(limit);
}

void mlir::tessera::recordKernels(ModuleOp module, llvm::Module &llvmModule,
                                  llvm::StringRef extraAttrName) {
  uint64_t shared = 0;
  if (auto attr = module->getAttrOfType<IntegerAttr>(kSharedMemoryAttrName))
    shared = attr.getInt();
  llvm::LLVMContext &ctx = llvmModule.getContext();
  llvm::NamedMDNode *md = llvmModule.getOrInsertNamedMetadata(kKernelsMetadata);
  auto text = [&](llvm::StringRef s) { return llvm::MDString::get(ctx, s); };
  module.walk([&](LLVM::LLVMFuncOp func) {
    auto types = func->getAttrOfType<ArrayAttr>(kSignatureTypesAttrName);
    auto names = func->getAttrOfType<ArrayAttr>(kSignatureNamesAttrName);
    if (!types || !names)
      return;
    std::string extra;
    if (!extraAttrName.empty())
      if (auto lines = func->getAttrOfType<ArrayAttr>(extraAttrName))
        extra = joinStrings(lines, "\n");
    md->addOperand(llvm::MDNode::get(
        ctx, {text(func.getName()), text(joinStrings(types, ",")),
              text(joinStrings(names, ",")), text(std::to_string(shared)),
              text(extra)}));
  });
}

std::optional<KernelRecord>
mlir::tessera::findKernelRecord(const llvm::Module &llvmModule,
                                llvm::StringRef name) {
  const llvm::NamedMDNode *md = llvmModule.getNamedMetadata(kKernelsMetadata);
  if (!md)
    return std::nullopt;
  for (const llvm::MDNode *node : md->operands()) {
    auto field = [&](unsigned i) {
      return cast<llvm::MDString>(node->getOperand(i))->getString();
    };
    if (node->getNumOperands() != 5 || field(0) != name)
      continue;
    auto split = [](llvm::StringRef s) {
      std::vector<std::string> out;
      SmallVector<StringRef> parts;
      if (!s.empty())
        s.split(parts, ',');
      for (StringRef p : parts)
        out.push_back(p.str());
      return out;
    };
    KernelRecord record;
    record.name = field(0).str();
    record.types = split(field(1));
    record.names = split(field(2));
    field(3).getAsInteger(10, record.sharedMemory);
    record.extra = field(4).str();
    return record;
  }
  return std::nullopt;
}
