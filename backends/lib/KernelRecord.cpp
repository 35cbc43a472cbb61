//===- KernelRecord.cpp - A GPU kernel's launch facts through LLVM --------===//
#include "tessera/Backend/KernelRecord.h"

#include "tessera/Backend/Signature.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Layout/LinearLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

struct RecordSignaturePass
    : public PassWrapper<RecordSignaturePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RecordSignaturePass)

  explicit RecordSignaturePass(std::string target)
      : target(std::move(target)) {}

  StringRef getArgument() const final { return "tessera-record-signature"; }

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](func::FuncOp func) {
      if (func->hasAttr(kKernelAttrName))
        failedAny |= failed(recordKernelSignature(func, target));
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

LogicalResult mlir::tessera::recordKernelSignature(FunctionOpInterface kernel,
                                                   llvm::StringRef target) {
  MLIRContext *ctx = kernel->getContext();
  SmallVector<Attribute> types, names;
  bool failedAny = false;
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    // Tensor maps are hidden (the driver adds them from their recipes), as
    // is what a plugin marks so.
    if (isa<tessera::gpu::TensorMapType>(type) ||
        kernel.getArgAttr(i, kHiddenArgAttrName))
      continue;
    FailureOr<std::string> recorded = getKernelParamTypeName(kernel, i);
    if (failed(recorded)) {
      failedAny = true;
      continue;
    }
    if (recorded->empty()) {
      kernel->emitError("kernel parameter ")
          << i << " of type " << type << " cannot be passed to " << target
          << " launch; a launch passes scalars and pointers";
      failedAny = true;
      continue;
    }
    types.push_back(StringAttr::get(ctx, *recorded));
    auto argName = kernel.getArgAttrOfType<StringAttr>(i, kArgNameAttrName);
    names.push_back(argName ? argName
                            : StringAttr::get(ctx, "arg" + llvm::Twine(i)));
  }
  if (failedAny)
    return failure();
  dropSignatureTypeAttrs(kernel);
  kernel->setAttr(kSignatureTypesAttrName, ArrayAttr::get(ctx, types));
  kernel->setAttr(kSignatureNamesAttrName, ArrayAttr::get(ctx, names));
  return success();
}

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

void mlir::tessera::addGPULowerToLLVMPasses(
    OpPassManager &pm, llvm::StringRef launchTarget,
    std::shared_ptr<LoweringHooks> hooks, const PipelineOptions &options,
    const TargetDescription &target, unsigned sharedAddressSpace) {
  pm.addPass(createRecordSignaturePass(launchTarget));
  pm.addPass(createCheckElementsPerThreadPass(kMaxElementsPerThread));
  GPULoweringOptions lowering;
  lowering.sharedAddressSpace = sharedAddressSpace;
  lowering.maxVectorBits = options.maxVectorBits;
  buildLowerToLLVMPipeline(pm, std::move(hooks), lowering);
  pm.addPass(
      createCheckSharedMemoryPass(target.maxSharedMemoryPerBlock, target.arch));
}

void mlir::tessera::setKernelMetadata(Operation *kernel, llvm::StringRef key,
                                      Attribute value) {
  NamedAttrList entries;
  if (auto dict =
          kernel->getAttrOfType<DictionaryAttr>(kKernelMetadataAttrName))
    entries.assign(dict.getValue());
  entries.set(key, value);
  kernel->setAttr(kKernelMetadataAttrName,
                  entries.getDictionary(kernel->getContext()));
}

namespace {
/// The function of `module` that launches kernel `name`: its entry wrapper
/// if a plugin made one, else the kernel itself; null when neither carries
/// the signature record.
Operation *findLaunchedFunction(ModuleOp module, llvm::StringRef name) {
  Operation *kernel = nullptr;
  for (Operation &op : module.getBody()->getOperations()) {
    if (!op.hasAttr(kSignatureTypesAttrName))
      continue;
    if (auto of = op.getAttrOfType<StringAttr>(kEntryOfAttrName);
        of && of.getValue() == name)
      return &op;
    if (auto symbol =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        symbol && symbol.getValue() == name)
      kernel = &op;
  }
  return kernel;
}

llvm::Expected<std::string> getMetadataText(StringRef key, Attribute value) {
  if (auto text = dyn_cast<StringAttr>(value))
    return text.str();
  if (auto lines = dyn_cast<ArrayAttr>(value);
      lines && llvm::all_of(lines, llvm::IsaPred<StringAttr>))
    return joinStrings(lines, "\n");
  return llvm::createStringError(
      "kernel metadata '" + key +
      "' is neither a string nor an array of strings");
}
} // namespace

llvm::Expected<CompiledKernel>
mlir::tessera::buildCompiledKernel(ModuleOp module, llvm::StringRef kernelName,
                                   const TargetDescription &target,
                                   const CompileOptions &options) {
  Operation *function = findLaunchedFunction(module, kernelName);
  if (!function && !SymbolTable::lookupSymbolIn(module, kernelName))
    return llvm::createStringError("backend '" + target.backend +
                                   "' lowered no kernel named '" + kernelName +
                                   "'");
  if (!function)
    return llvm::createStringError(
        "backend '" + target.backend + "' lowered no kernel '" + kernelName +
        "' with a signature record (its lower-to-llvm stage runs the "
        "record-signature pass before the lowering)");
  CompiledKernel kernel;
  kernel.backend = target.backend;
  kernel.arch = target.arch;
  kernel.name = SymbolTable::getSymbolName(function).str();
  auto types = function->getAttrOfType<ArrayAttr>(kSignatureTypesAttrName);
  auto names = function->getAttrOfType<ArrayAttr>(kSignatureNamesAttrName);
  for (auto [i, type] : llvm::enumerate(types)) {
    auto name = names && i < names.size() ? dyn_cast<StringAttr>(names[i])
                                          : StringAttr();
    auto typeName = dyn_cast<StringAttr>(type);
    if (!typeName)
      return llvm::createStringError("kernel '" + kernelName +
                                     "' has a malformed signature record");
    kernel.params.push_back(
        {name ? name.str() : "arg" + std::to_string(i), typeName.str()});
  }
  kernel.numWarps = options.numWarps;
  kernel.threadsPerWarp = target.warpSize;
  kernel.numCTAs = options.numCTAs;
  kernel.numStages = options.numStages;
  if (auto bytes = module->getAttrOfType<IntegerAttr>(kSharedMemoryAttrName))
    kernel.sharedMemoryBytes = bytes.getInt();
  kernel.metadata["kernel"] = kernelName.str();
  if (auto dict =
          function->getAttrOfType<DictionaryAttr>(kKernelMetadataAttrName))
    for (NamedAttribute entry : dict) {
      llvm::Expected<std::string> text =
          getMetadataText(entry.getName(), entry.getValue());
      if (!text)
        return text.takeError();
      kernel.metadata[entry.getName().str()] = std::move(*text);
    }
  return kernel;
}
