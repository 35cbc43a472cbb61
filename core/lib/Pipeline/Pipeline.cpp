//===- Pipeline.cpp - Named compilation stages with anchors ---------------===//
#include "tessera/Pipeline/Pipeline.h"
#include "tessera/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::tessera;

std::string PipelineOptions::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "num-warps=" << numWarps << " threads-per-warp=" << threadsPerWarp
     << " num-ctas=" << numCTAs << " num-stages=" << numStages
     << " target=" << target << " max-vector-bits=" << maxVectorBits;
  std::vector<std::string> keys;
  for (const auto &entry : extra)
    keys.push_back(entry.getKey().str());
  llvm::sort(keys);
  for (const std::string &key : keys)
    os << " " << key << "=" << extra.lookup(key);
  return s;
}

bool DumpOptions::wants(StringRef stage) const {
  return llvm::any_of(after, [&](const std::string &name) {
    return name == "all" || name == stage;
  });
}

//===----------------------------------------------------------------------===//
// The stage-dump pass
//===----------------------------------------------------------------------===//

namespace {
/// Writes the module after a stage: to `<directory>/<index>-<stage>.mlir`, or
/// to standard error under a header. Printed with debug locations so that
/// the file can be fed back in with its source locations intact.
struct DumpStagePass
    : public PassWrapper<DumpStagePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DumpStagePass)

  DumpStagePass() = default;
  DumpStagePass(const DumpStagePass &other) : PassWrapper(other) {}
  DumpStagePass(StringRef stage, unsigned index, StringRef directory) {
    this->stage = stage.str();
    this->index = index;
    this->directory = directory.str();
  }

  StringRef getArgument() const final { return "tessera-dump-stage"; }
  StringRef getDescription() const final {
    return "Write the IR after a pipeline stage";
  }

  void runOnOperation() override {
    OpPrintingFlags flags;
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
    if (directory.empty()) {
      llvm::errs() << "// -----// IR after stage '" << stage
                   << "' //----- //\n";
      getOperation()->print(llvm::errs(), flags);
      llvm::errs() << "\n";
      return;
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
      getOperation()->emitError("cannot create dump directory '")
          << directory << "': " << ec.message();
      return signalPassFailure();
    }
    SmallString<128> path(directory);
    llvm::sys::path::append(
        path, llvm::formatv("{0:02}-{1}.mlir", (unsigned)index, stage).str());
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      getOperation()->emitError("cannot write '")
          << path << "': " << ec.message();
      return signalPassFailure();
    }
    getOperation()->print(os, flags);
    os << "\n";
  }

  Option<std::string> stage{*this, "stage", llvm::cl::desc("Stage name")};
  Option<unsigned> index{*this, "index", llvm::cl::desc("Stage position"),
                         llvm::cl::init(0)};
  Option<std::string> directory{*this, "dir",
                                llvm::cl::desc("Output directory")};
};
} // namespace

//===----------------------------------------------------------------------===//
// Pipeline
//===----------------------------------------------------------------------===//

std::optional<size_t> Pipeline::find(StringRef name) const {
  for (size_t i = 0; i < stages.size(); ++i)
    if (stages[i].name == name)
      return i;
  return std::nullopt;
}

bool Pipeline::contains(StringRef name) const { return find(name).has_value(); }

void Pipeline::append(PipelineStage stage) {
  assert(!contains(stage.name) && "duplicate stage name");
  stages.push_back(std::move(stage));
}

llvm::Error Pipeline::insert(StringRef anchor, PipelineStage stage) {
  auto error = [&](const Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "pipeline anchor '" + anchor + "': " + msg);
  };
  if (anchor == "begin" || anchor == "end") {
    if (contains(stage.name))
      return error("a stage named '" + stage.name + "' already exists");
    stages.insert(anchor == "begin" ? stages.begin() : stages.end(),
                  std::move(stage));
    return llvm::Error::success();
  }
  auto [kind, name] = anchor.split(':');
  if (name.empty() ||
      (kind != "after" && kind != "before" && kind != "replace"))
    return error("expected 'after:STAGE', 'before:STAGE', 'replace:STAGE', "
                 "'begin' or 'end'");
  std::optional<size_t> pos = find(name);
  if (!pos)
    return error("no stage named '" + name +
                 "'; stages are: " + llvm::join(getStageNames(), ", "));
  if (kind == "replace") {
    if (stage.name != name && contains(stage.name))
      return error("a stage named '" + stage.name + "' already exists");
    stages[*pos] = std::move(stage);
    return llvm::Error::success();
  }
  if (contains(stage.name))
    return error("a stage named '" + stage.name + "' already exists");
  stages.insert(stages.begin() + *pos + (kind == "after" ? 1 : 0),
                std::move(stage));
  return llvm::Error::success();
}

std::vector<std::string> Pipeline::getStageNames() const {
  std::vector<std::string> names;
  for (const PipelineStage &stage : stages)
    names.push_back(stage.name);
  return names;
}

llvm::Expected<std::pair<size_t, size_t>>
Pipeline::getRange(StringRef startAfter, StringRef stopAfter,
                   const DumpOptions &dump) const {
  size_t begin = 0, end = stages.size();
  auto lookup = [&](StringRef name, StringRef what) -> llvm::Expected<size_t> {
    if (std::optional<size_t> pos = find(name))
      return *pos;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   what + " stage '" + name +
                                       "' does not exist; stages are: " +
                                       llvm::join(getStageNames(), ", "));
  };
  if (!startAfter.empty()) {
    auto pos = lookup(startAfter, "start-after");
    if (!pos)
      return pos.takeError();
    begin = *pos + 1;
  }
  if (!stopAfter.empty()) {
    auto pos = lookup(stopAfter, "stop-after");
    if (!pos)
      return pos.takeError();
    end = *pos + 1;
  }
  for (const std::string &name : dump.after)
    if (name != "all" && !contains(name))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot dump after stage '" + name +
                                         "': no such stage; stages are: " +
                                         llvm::join(getStageNames(), ", "));
  return std::make_pair(begin, end);
}

llvm::Error Pipeline::build(OpPassManager &pm, const PipelineOptions &options,
                            StringRef startAfter, StringRef stopAfter,
                            const DumpOptions &dump) const {
  llvm::Expected<std::pair<size_t, size_t>> range =
      getRange(startAfter, stopAfter, dump);
  if (!range)
    return range.takeError();
  for (size_t i = range->first; i < range->second; ++i)
    buildStage(pm, i, options, dump);
  return llvm::Error::success();
}

void Pipeline::buildStage(OpPassManager &pm, size_t index,
                          const PipelineOptions &options,
                          const DumpOptions &dump) const {
  stages[index].build(pm, options);
  if (dump.wants(stages[index].name))
    pm.addPass(std::make_unique<DumpStagePass>(stages[index].name, index,
                                               dump.directory));
}

void Pipeline::print(llvm::raw_ostream &os,
                     const PipelineOptions &options) const {
  for (const PipelineStage &stage : stages) {
    OpPassManager pm(ModuleOp::getOperationName());
    stage.build(pm, options);
    os << stage.name << ": ";
    pm.printAsTextualPipeline(os);
    os << "\n";
  }
}

std::string Pipeline::hash(const PipelineOptions &options) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os, options);
  os << options.str();
  return llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true);
}

namespace {
/// Times each pass a stage runs on the module as a part of the stage's step
/// ("lower-to-llvm/canonicalize"), so that a stage of several passes shows
/// which of them took the time. Passes on nested operations (which MLIR may
/// run on other threads) are inside the module-level pass that runs them.
class PassStepTimer : public PassInstrumentation {
public:
  explicit PassStepTimer(StageTimes *times) : times(times) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    if (!isa<ModuleOp>(op))
      return;
    // Passes of a nested pipeline ("func.func(...)") run inside an adaptor,
    // a pass with no argument and an internal class name.
    StringRef name = pass->getArgument();
    if (name.empty())
      name = pass->getName().contains("PassAdaptor") ? "nested-pipeline"
                                                     : pass->getName();
    running.push_back(std::make_unique<StageTimer>(times, name));
  }
  void runAfterPass(Pass *, Operation *op) override { finish(op); }
  void runAfterPassFailed(Pass *, Operation *op) override { finish(op); }

private:
  void finish(Operation *op) {
    if (isa<ModuleOp>(op) && !running.empty())
      running.pop_back();
  }

  StageTimes *times;
  std::vector<std::unique_ptr<StageTimer>> running;
};
} // namespace

LogicalResult Pipeline::run(ModuleOp module, const PipelineOptions &options,
                            StringRef startAfter, StringRef stopAfter,
                            const DumpOptions &dump, StageTimes *times) const {
  if (!times) {
    PassManager pm(module.getContext());
    if (llvm::Error err = build(pm, options, startAfter, stopAfter, dump))
      return module.emitError(llvm::toString(std::move(err)));
    return pm.run(module);
  }
  // The same passes in the same order, one pass manager per stage, so that
  // each stage's time is its own.
  llvm::Expected<std::pair<size_t, size_t>> range =
      getRange(startAfter, stopAfter, dump);
  if (!range)
    return module.emitError(llvm::toString(range.takeError()));
  for (size_t i = range->first; i < range->second; ++i) {
    PassManager stagePM(module.getContext());
    buildStage(stagePM, i, options, dump);
    StageTimer timer(times, stages[i].name);
    if (stagePM.size() > 1)
      stagePM.addInstrumentation(std::make_unique<PassStepTimer>(times));
    if (failed(stagePM.run(module)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The core stages
//===----------------------------------------------------------------------===//

Pipeline mlir::tessera::buildCorePipeline() {
  Pipeline p;
  using Opts = const PipelineOptions &;
  p.append({"inline", "inline device functions into kernels",
            [](OpPassManager &pm, Opts) { pm.addPass(createInlinerPass()); }});
  p.append(
      {"canonicalize", "fold and simplify block-level IR",
       [](OpPassManager &pm, Opts) { pm.addPass(createCanonicalizerPass()); }});
  p.append({"cse", "remove common subexpressions",
            [](OpPassManager &pm, Opts) { pm.addPass(createCSEPass()); }});
  p.append({"licm", "hoist loop-invariant code", [](OpPassManager &pm, Opts) {
              pm.addPass(createLoopInvariantCodeMotionPass());
            }});
  p.append(
      {"symbol-dce", "drop device functions no kernel calls",
       [](OpPassManager &pm, Opts) { pm.addPass(createSymbolDCEPass()); }});
  p.append({"convert-to-gpu", "give every tensor a layout",
            [](OpPassManager &pm, Opts o) {
              TesseraConvertToGPUOptions opts;
              opts.numWarps = o.numWarps;
              opts.threadsPerWarp = o.threadsPerWarp;
              opts.numCTAs = o.numCTAs;
              opts.target = o.target;
              pm.addPass(createTesseraConvertToGPU(opts));
            }});
  p.append({"coalesce", "choose layouts for memory accesses",
            [](OpPassManager &pm, Opts o) {
              TesseraCoalesceOptions opts;
              opts.maxVectorBits = o.maxVectorBits;
              pm.addPass(createTesseraCoalesce(opts));
            }});
  // After every pass that picks layouts for its own ops (coalescing of
  // memory accesses goes right before it), so that the rest follows them.
  p.append({"remove-layout-conversions",
            "move computation into the layouts that need fewest conversions",
            [](OpPassManager &pm, Opts) {
              pm.addPass(createTesseraRemoveLayoutConversions());
            }});
  p.append({"cleanup", "canonicalize and cse the laid-out IR",
            [](OpPassManager &pm, Opts) {
              pm.addPass(createCanonicalizerPass());
              pm.addPass(createCSEPass());
            }});
  return p;
}

//===----------------------------------------------------------------------===//
// tessera-opt registration
//===----------------------------------------------------------------------===//

namespace {
struct CorePipelineCLOptions
    : public PassPipelineOptions<CorePipelineCLOptions> {
  Option<int> numWarps{*this, "num-warps", llvm::cl::init(4)};
  Option<int> threadsPerWarp{*this, "threads-per-warp", llvm::cl::init(32)};
  Option<int> numCTAs{*this, "num-ctas", llvm::cl::init(1)};
  Option<std::string> target{*this, "target", llvm::cl::init("")};
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

void mlir::tessera::registerPipelinePasses() {
  PassRegistration<DumpStagePass>();
  // Registered by hand rather than with PassPipelineRegistration so that a
  // bad stage name is reported as an error instead of aborting.
  registerPassPipeline(
      "tessera-core", "Run the vendor-free stages of the core pipeline",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        CorePipelineCLOptions cl;
        if (failed(cl.parseFromString(text)))
          return failure();
        PipelineOptions options;
        options.numWarps = cl.numWarps;
        options.threadsPerWarp = cl.threadsPerWarp;
        options.numCTAs = cl.numCTAs;
        options.target = cl.target;
        DumpOptions dump;
        dump.after.assign(cl.dumpAfter.begin(), cl.dumpAfter.end());
        dump.directory = cl.dumpDir;
        if (llvm::Error err = buildCorePipeline().build(
                pm, options, cl.startAfter, cl.stopAfter, dump))
          return errorHandler(llvm::toString(std::move(err)));
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(CorePipelineCLOptions());
      });
}
