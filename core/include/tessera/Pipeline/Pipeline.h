//===- Pipeline.h - Named compilation stages with anchors -------*- C++ -*-===//
//
// A compilation pipeline is an ordered list of named stages, each adding
// passes to a pass manager. The core provides the vendor-free stages; a
// plugin inserts its own at anchors ("after:convert-to-gpu") or replaces a
// stage. The list prints and hashes (the hash is part of every cache key),
// and the IR after any stage can be dumped and later fed back in, starting
// the pipeline after that stage.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PIPELINE_PIPELINE_H
#define TESSERA_PIPELINE_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "tessera/Support/StageTimes.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir::tessera {

/// What the stages of a compilation are parameterized by.
struct PipelineOptions {
  /// Warps per block.
  int numWarps = 4;
  /// Threads per warp, from the target.
  int threadsPerWarp = 32;
  /// Blocks per cluster.
  int numCTAs = 1;
  /// Software pipelining depth of loops.
  int numStages = 3;
  /// The target's name, recorded on the module (e.g. "cpu").
  std::string target;
  /// Widest memory access of one thread, in bits.
  unsigned maxVectorBits = 128;
  /// Options a plugin's stages read, by name.
  llvm::StringMap<std::string> extra;

  /// A stable textual form of every option, for cache keys.
  std::string str() const;
};

/// One named stage: adds passes to `pm` for the given options.
struct PipelineStage {
  std::string name;
  std::string description;
  std::function<void(OpPassManager &pm, const PipelineOptions &options)> build;
};

/// Where the IR goes when a stage's output is dumped.
struct DumpOptions {
  /// Stage names after which to dump; "all" dumps after every stage.
  std::vector<std::string> after;
  /// Directory for one file per dumped stage (`NN-<stage>.mlir`); empty
  /// prints to standard error with a header line per stage.
  std::string directory;

  /// True when the IR after `stage` is to be dumped.
  bool wants(llvm::StringRef stage) const;
};

/// An ordered list of named stages.
class Pipeline {
public:
  /// Adds `stage` at the end.
  void append(PipelineStage stage);

  /// Adds `stage` at `anchor`: "after:NAME", "before:NAME", "replace:NAME",
  /// "begin" or "end". Fails, naming the anchor, when NAME is not a stage or
  /// the new stage's name is already taken.
  llvm::Error insert(llvm::StringRef anchor, PipelineStage stage);

  /// True when a stage has this name.
  bool contains(llvm::StringRef name) const;

  /// The stage names in order.
  std::vector<std::string> getStageNames() const;

  /// The stages in order.
  const std::vector<PipelineStage> &getStages() const { return stages; }

  /// Builds the passes of the stages strictly after `startAfter` (all when
  /// empty) up to and including `stopAfter` (the last when empty) into `pm`.
  /// Stages whose output `dump` asks for are followed by a pass that writes
  /// the IR. Fails when a named stage does not exist.
  llvm::Error build(OpPassManager &pm, const PipelineOptions &options,
                    llvm::StringRef startAfter = "",
                    llvm::StringRef stopAfter = "",
                    const DumpOptions &dump = {}) const;

  /// One line per stage: its name and its passes in MLIR's textual
  /// pipeline syntax.
  void print(llvm::raw_ostream &os, const PipelineOptions &options) const;

  /// A hash of the stages and their passes for these options (hex).
  std::string hash(const PipelineOptions &options) const;

  /// Runs the stages on `module` (see build()). With `times`, each stage
  /// runs in a pass manager of its own and its wall time is added to the
  /// step of its name.
  LogicalResult run(ModuleOp module, const PipelineOptions &options,
                    llvm::StringRef startAfter = "",
                    llvm::StringRef stopAfter = "",
                    const DumpOptions &dump = {},
                    StageTimes *times = nullptr) const;

private:
  std::vector<PipelineStage> stages;
  std::optional<size_t> find(llvm::StringRef name) const;
  /// The stages [first, second) strictly after `startAfter` up to and
  /// including `stopAfter`; fails naming an unknown stage, also in `dump`.
  llvm::Expected<std::pair<size_t, size_t>>
  getRange(llvm::StringRef startAfter, llvm::StringRef stopAfter,
           const DumpOptions &dump) const;
  /// Adds the passes of stage `index`, and its dump when asked for.
  void buildStage(OpPassManager &pm, size_t index,
                  const PipelineOptions &options,
                  const DumpOptions &dump) const;
};

/// The vendor-free stages every target starts from: inline, canonicalize,
/// cse, licm, symbol-dce (block-level cleanup), convert-to-gpu, coalesce,
/// cleanup.
Pipeline buildCorePipeline();

/// Registers the `tessera-core` pass pipeline (the core pipeline with its
/// options on the command line) and the stage-dump pass with tessera-opt.
void registerPipelinePasses();

} // namespace mlir::tessera

#endif // TESSERA_PIPELINE_PIPELINE_H
