//===- Pipeline.cpp - The CPU backend's compilation stages ----------------===//
//
// After the core's stages (which, with one thread per warp and one warp,
// leave every element of a block in one thread), four stages:
//
//   cpu-to-structured  tessera / tessera_gpu -> linalg, tensor, scf, and LLVM
//                      memory operations on i64 addresses; entry wrappers
//   cpu-bufferize      one-shot bufferization; allocations hoisted out of
//                      loops and freed where their lifetime ends
//   cpu-to-loops       linalg -> scf loops over memrefs, consecutive loops
//                      over a block's elements fused where legal
//   lower-to-llvm      fp8 and math legalization, everything -> LLVM dialect
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"
#include "Passes.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

void cpu::registerCpuDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, amx::AMXDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, LLVM::LLVMDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect,
                  ub::UBDialect, vector::VectorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  arith::registerBufferViewFlowOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  memref::registerBufferViewFlowOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

namespace {
using Opts = const PipelineOptions &;

/// memref.copy -> linalg.copy, which becomes loops: MLIR lowers a copy
/// between non-contiguous buffers to a call into its C runner library,
/// which a JIT-ed kernel does not have.
struct CopiesToLinalgPass
    : public PassWrapper<CopiesToLinalgPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CopiesToLinalgPass)

  StringRef getArgument() const final { return "tessera-cpu-copies-to-linalg"; }
  StringRef getDescription() const final {
    return "memref.copy -> linalg.copy (loops, no runtime library)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }

  void runOnOperation() override {
    getOperation().walk([](memref::CopyOp op) {
      OpBuilder b(op);
      linalg::CopyOp::create(b, op.getLoc(), op.getSource(), op.getTarget());
      op.erase();
    });
  }
};

void buildToStructured(OpPassManager &pm, Opts) {
  pm.addPass(createCarryPointerOffsetsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createToStructuredPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createFuseElementwisePass());
  pm.addPass(createCanonicalizerPass());
}

/// Largest buffer, and most bytes of buffers per function, kept on the
/// stack (launch threads have 64 MiB stacks). A buffer on the heap costs a
/// malloc per program, and glibc serves those of 128 KiB and more with
/// mmap: a 128x256 fp32 accumulator page-faulted 32 times per program, and
/// tutorial 03's matmul spent half its time in the kernel's page faults.
/// Stack pages stay mapped from one program to the next.
constexpr int64_t kMaxStackBuffer = 1 << 20;
constexpr int64_t kMaxStackBytesPerFunction = 4 << 20;

/// The bytes of a top-level buffer of static shape that may go on the
/// stack, or nullopt.
std::optional<int64_t> getStackBytes(Operation *op) {
  auto alloc = dyn_cast<memref::AllocOp>(op);
  if (!alloc || !isa<func::FuncOp>(op->getParentOp()))
    return std::nullopt;
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  int64_t bits = std::max(8u, type.getElementType().getIntOrFloatBitWidth());
  int64_t bytes = type.getNumElements() * bits / 8;
  if (bytes > kMaxStackBuffer)
    return std::nullopt;
  return bytes;
}

/// Buffers at the top level of a function (hoisting put every buffer of
/// static size there unless it escapes a loop) live on the stack when
/// small, up to a budget per function counted in program order; nested
/// ones stay on the heap, where a loop would grow the stack every
/// iteration.
bool isStackBuffer(Value value) {
  Operation *op = value.getDefiningOp();
  std::optional<int64_t> bytes = op ? getStackBytes(op) : std::nullopt;
  if (!bytes)
    return false;
  int64_t before = 0;
  for (Operation &other : *op->getBlock()) {
    if (&other == op)
      break;
    before += getStackBytes(&other).value_or(0);
  }
  return before + *bytes <= kMaxStackBytesPerFunction;
}

void buildBufferize(OpPassManager &pm, Opts) {
  bufferization::OneShotBufferizePassOptions options;
  // Device functions that survived inlining take and return buffers.
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop may carry a block computed anew each iteration.
  options.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  pm.addPass(createCanonicalizerPass());
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(bufferization::createBufferHoistingPass());
  fn.addPass(bufferization::createBufferLoopHoistingPass());
  fn.addPass(bufferization::createPromoteBuffersToStackPass(isStackBuffer));
  bufferization::buildBufferDeallocationPipeline(pm);
}

/// Vector registers of a host whose widest vector has `vectorBits`: x86
/// has 32 with AVX-512 and 16 before it (AArch64 has 32 NEON registers of
/// 128 bits; 16 only makes its dot tiles smaller).
unsigned getVectorRegisters(unsigned vectorBits) {
  return vectorBits >= 512 ? 32 : 16;
}

void buildToLoops(OpPassManager &pm, Opts options) {
  // Clones the deallocation pipeline left become allocations and copies,
  // and every copy a loop nest.
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(std::make_unique<CopiesToLinalgPass>());
  pm.addPass(createVectorizeDotsPass(
      options.maxVectorBits, getVectorRegisters(options.maxVectorBits),
      options.extra.lookup(kAmxBf16Option) == "1"));
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // One loop per block where legal (bounds are CSE'd constants by now).
  pm.addPass(createFuseLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
}

void buildLowerToLLVM(OpPassManager &pm, Opts) {
  pm.addPass(createLegalizeFloatsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCpuConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}
} // namespace

Pipeline cpu::buildCpuStages() {
  Pipeline p;
  p.append({"cpu-to-structured",
            "tessera ops -> linalg, tensor, scf and LLVM memory operations",
            buildToStructured});
  p.append({"cpu-bufferize", "tensors -> buffers", buildBufferize});
  p.append({"cpu-to-loops", "linalg -> loops", buildToLoops});
  p.append({std::string(kLowerToLLVMStage), "everything -> LLVM dialect",
            buildLowerToLLVM});
  return p;
}

llvm::Error cpu::addCpuStages(Pipeline &pipeline) {
  Pipeline stages = buildCpuStages();
  for (const PipelineStage &stage : stages.getStages())
    if (llvm::Error err = pipeline.insert("end", stage))
      return err;
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// tessera-cpu-opt registration
//===----------------------------------------------------------------------===//

namespace {
struct CpuPipelineCLOptions : public PassPipelineOptions<CpuPipelineCLOptions> {
  Option<std::string> startAfter{
      *this, "start-after", llvm::cl::desc("Run the stages after this one")};
  Option<std::string> stopAfter{*this, "stop-after",
                                llvm::cl::desc("Run up to this stage")};
  ListOption<std::string> dumpAfter{*this, "dump-after",
                                    llvm::cl::desc("Stages to dump, or all")};
  Option<std::string> dumpDir{*this, "dump-dir",
                              llvm::cl::desc("Directory for dumps")};
};
} // namespace

void cpu::registerCpuPasses() {
  // MLIR's passes the CPU tests run between the backend's own.
  registerSCFToControlFlowPass();
  registerPass([] { return std::make_unique<CopiesToLinalgPass>(); });
  registerPass([] { return createToStructuredPass(); });
  registerPass([] { return createCarryPointerOffsetsPass(); });
  registerPass([] { return createFuseElementwisePass(); });
  registerPass([] { return createFuseLoopsPass(); });
  registerPass([] { return createVectorizeDotsPass(); });
  registerPass([] { return createLegalizeFloatsPass(); });
  registerPass([] { return createCpuConvertToLLVMPass(); });
  registerPassPipeline(
      "tessera-cpu",
      "Run the core stages and the CPU backend's stages (one thread per "
      "program instance)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        CpuPipelineCLOptions cl;
        if (failed(cl.parseFromString(text)))
          return failure();
        PipelineOptions options;
        options.numWarps = 1;
        options.threadsPerWarp = 1;
        options.target = "cpu";
        Pipeline pipeline = buildCorePipeline();
        DumpOptions dump;
        dump.after.assign(cl.dumpAfter.begin(), cl.dumpAfter.end());
        dump.directory = cl.dumpDir;
        llvm::Error err = addCpuStages(pipeline);
        if (!err)
          err = pipeline.build(pm, options, cl.startAfter, cl.stopAfter, dump);
        if (err)
          return errorHandler(llvm::toString(std::move(err)));
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(CpuPipelineCLOptions());
      });
}
