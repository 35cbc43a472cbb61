//===- StageTimes.h - Wall time of each step of one compilation -*- C++ -*-===//
//
// A compilation records how long each of its steps took: the frontend, every
// pipeline stage, and the LLVM and tool steps of the backend's emitter. The
// runtime hands one StageTimes to every step of a compilation (plugins get
// it through CompileOptions::times); `tessera compile --time-stages` prints
// it and the conformance report keeps it per kernel. Steps that run tools
// Tessera does not own (an assembler, a linker) are marked external, so that
// Tessera's own share of a compile can be told apart.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_SUPPORT_STAGETIMES_H
#define TESSERA_SUPPORT_STAGETIMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>
#include <vector>

namespace mlir::tessera {

/// The steps of one compilation with their wall time, in the order they
/// began. Steps nest: a step timed while another is open is its part, named
/// "outer/inner" (the runtime times "binary"; the plugin's code generator
/// and assembler within it are "binary/codegen", "binary/assembler"). One
/// compilation runs on one thread: no locking.
class StageTimes {
public:
  struct Step {
    /// The path of the step ("binary/assembler").
    std::string name;
    /// How many steps it is nested in.
    unsigned depth = 0;
    double seconds = 0;
    /// Runs a tool that is not Tessera's (an assembler, a linker).
    bool external = false;
  };

  /// Adds `seconds` to step `name` within the steps now open, creating it
  /// when new (a step that runs twice adds up).
  void add(llvm::StringRef name, double seconds, bool external = false);
  llvm::ArrayRef<Step> getSteps() const { return steps; }
  bool empty() const { return steps.empty(); }
  /// The seconds of the step at path `name`; 0 when it did not run.
  double lookup(llvm::StringRef name) const;
  /// The sum of the outermost steps.
  double getTotalSeconds() const;
  /// The total less every external step: the time spent in Tessera.
  double getOwnSeconds() const;

  /// One line per step (indented by depth: name, milliseconds, share of the
  /// total), then the total and, when a step is external, Tessera's own
  /// part.
  void print(llvm::raw_ostream &os) const;
  /// {"steps": [{"name", "seconds", "external"}...], "total_seconds",
  /// "own_seconds"}.
  llvm::json::Value toJSON() const;

private:
  friend class StageTimer;
  /// The index of step `name` within the open steps, created when new.
  size_t getOrCreate(llvm::StringRef name, bool external);

  std::vector<Step> steps;
  /// The steps being timed, outermost first.
  std::vector<size_t> open;
};

/// Times one step of a StageTimes from its construction to stop() (or its
/// destruction); steps timed meanwhile are its parts. Does nothing when the
/// StageTimes is null. Timers end in the reverse order they began.
class StageTimer {
public:
  StageTimer(StageTimes *times, llvm::StringRef name, bool external = false);
  ~StageTimer() { stop(); }
  StageTimer(const StageTimer &) = delete;
  StageTimer &operator=(const StageTimer &) = delete;

  /// Records the time so far; later calls do nothing.
  void stop();

private:
  StageTimes *times;
  size_t index = 0;
  std::chrono::steady_clock::time_point start;
};

} // namespace mlir::tessera

#endif // TESSERA_SUPPORT_STAGETIMES_H
