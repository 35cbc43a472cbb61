//===- InitAll.h - Register every dialect and pass of the core --*- C++ -*-===//
#ifndef TESSERA_INITALL_H
#define TESSERA_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tessera {

/// Adds the tessera and tessera_gpu dialects and the MLIR dialects their IR
/// uses (arith, math, scf, cf, func, ...) to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers Tessera's passes and the named pipelines with MLIR's pass
/// registry, for tessera-opt's command line.
void registerAllPasses();

} // namespace mlir::tessera

#endif // TESSERA_INITALL_H
