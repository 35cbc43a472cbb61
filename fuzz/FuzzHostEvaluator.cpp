//===- FuzzHostEvaluator.cpp - Fuzz target: Python at compile time --------===//
//
// A kernel file's host side, as the frontend evaluates it: every
// module-level name (constants, host functions called at module level,
// classes), then the autotune configs of every jit function. The process
// environment is replaced by a fixed one, so that `os.environ` reads the
// same on every machine.
//
//===----------------------------------------------------------------------===//
#include "FuzzScan.h"
#include "FuzzSupport.h"

#include "tessera/Frontend/Compile.h"
#include "tessera/Frontend/HostEvaluator.h"
#include "tessera/Frontend/KernelModule.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tessera::frontend;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tessera::fuzz::silenceLogging();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::raw_null_ostream sink;
  tessera::fuzz::ScannedFile file(tessera::fuzz::asText(data, size), "fuzz.py",
                                  sink);
  KernelModule *module = file.module.get();
  DiagnosticEngine &diags = file.diags;
  HostEvaluator eval(module, diags);
  eval.setEnvironment({{"TESSERA_FUZZ", "1"}});
  for (const std::string &name : module->getGlobalNames())
    (void)eval.evaluateGlobal(name, llvm::SMLoc());
  for (const JitFunction &fn : module->getJitFunctions())
    (void)countAutotuneConfigs(*module, fn.getName(), diags);
  return 0;
}
