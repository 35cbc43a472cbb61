//===- ExternalCommands.cpp - Subcommands of the conformance library ------===//
//
// `tessera conformance` and `tessera bench` belong to the conformance
// runner (conformance/, contract in tessera/Conformance/Conformance.h).
// When it is not part of the build they say so and exit with 2.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#ifdef TESSERA_HAVE_CONFORMANCE
#include "tessera/Conformance/Conformance.h"
#endif

#include "llvm/Support/raw_ostream.h"

using namespace mlir::tessera::tool;

#ifndef TESSERA_HAVE_CONFORMANCE
static int notBuilt(llvm::StringRef subcommand) {
  llvm::errs() << "tessera " << subcommand
               << ": error: the conformance runner is not part of this build "
                  "(the TesseraConformance library from conformance/ was not "
                  "built)\n";
  return 2;
}
#endif

int mlir::tessera::tool::runConformanceCommand(int argc, char **argv) {
#ifdef TESSERA_HAVE_CONFORMANCE
  return conformance::runConformance(argc, argv);
#else
  return notBuilt("conformance");
#endif
}

int mlir::tessera::tool::runBenchCommand(int argc, char **argv) {
#ifdef TESSERA_HAVE_CONFORMANCE
  return conformance::runBenchmarks(argc, argv);
#else
  return notBuilt("bench");
#endif
}
