//===- Version.cpp - Tessera version information --------------------------===//
#include "tessera/Support/Version.h"

#include "llvm/Config/llvm-config.h"

using namespace mlir::tessera;

llvm::StringRef mlir::tessera::getTesseraVersion() { return TESSERA_VERSION; }

unsigned mlir::tessera::getLLVMMajorVersion() { return LLVM_VERSION_MAJOR; }
