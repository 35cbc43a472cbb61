//===- Decorators.h - Triton decorators read as data ------------*- C++ -*-===//
//
// @triton.jit(...), @triton.autotune(...) and @triton.heuristics(...) are
// evaluated on the host into plain data. Configs may be written as list
// comprehensions, refer to module constants and lists, or be filtered by a
// module-level function; whatever cannot be evaluated is an error at the
// construct.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_DECORATORS_H
#define TESSERA_FRONTEND_DECORATORS_H

#include "tessera/Frontend/HostEvaluator.h"

namespace tessera::frontend {

/// Arguments of @triton.jit(...).
struct JitOptions {
  /// Parameter names or indices listed in do_not_specialize.
  std::vector<HostValue> doNotSpecialize;
  std::vector<HostValue> doNotSpecializeOnAlignment;
  std::optional<bool> noinline;
  std::optional<bool> debug;
  /// Any other keyword (repr, launch_metadata, ...), evaluated if possible.
  std::vector<std::pair<std::string, HostValue>> other;
};

/// Arguments of @triton.autotune(...).
struct AutotuneSpec {
  std::vector<TuneConfig> configs;
  /// Argument names whose change triggers re-tuning.
  std::vector<std::string> key;
  std::vector<std::string> resetToZero;
  std::vector<std::string> restoreValue;
  /// The prune_configs_by dict (functions inside), or None.
  HostValue pruneConfigsBy;
  HostValue preHook, postHook, doBench;
  std::optional<int64_t> warmup, rep;
  bool useCudaGraph = false;
  bool cacheResults = false;
  SourceLoc loc;
};

/// Arguments of @triton.heuristics({...}): name -> function of the launch
/// arguments, in order (later ones see the results of earlier ones).
struct HeuristicsSpec {
  std::vector<std::pair<std::string, HostValue>> values;
  SourceLoc loc;
};

llvm::FailureOr<JitOptions> readJitOptions(HostEvaluator &eval,
                                           const DecoratorInfo &decorator);
/// The jit options of `fn`: an embedder's, else its @triton.jit(...)'s,
/// else the defaults.
llvm::FailureOr<JitOptions> getJitOptions(HostEvaluator &eval,
                                          const JitFunction &fn);
llvm::FailureOr<AutotuneSpec> readAutotune(HostEvaluator &eval,
                                           const DecoratorInfo &decorator);
llvm::FailureOr<HeuristicsSpec> readHeuristics(HostEvaluator &eval,
                                               const DecoratorInfo &decorator);

/// Runs heuristics over the launch arguments `args` (name -> value, in
/// order), as Triton does at launch time: each function gets a dict of the
/// arguments plus the values computed so far. Returns the computed values.
llvm::FailureOr<std::vector<HostKwarg>>
evaluateHeuristics(HostEvaluator &eval, const HeuristicsSpec &spec,
                   llvm::ArrayRef<HostKwarg> args);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_DECORATORS_H
