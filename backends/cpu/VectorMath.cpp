//===- VectorMath.cpp - The host's vector math library --------------------===//
#include "VectorMath.h"

#include "llvm/Support/DynamicLibrary.h"

using namespace mlir::tessera;

bool cpu::loadVectorMathLibrary() {
  static bool loaded = [] {
    std::string error;
    return !llvm::sys::DynamicLibrary::LoadLibraryPermanently(
        kVectorMathLibrary.data(), &error);
  }();
  return loaded;
}

llvm::Error cpu::requireVectorMathLibrary(llvm::StringRef library,
                                          llvm::StringRef kernel) {
  if (library != kVectorMathLibrary)
    return llvm::createStringError(
        "cpu: kernel '" + kernel + "' calls the vector math library '" +
        library + "', which this backend does not know (it uses " +
        kVectorMathLibrary + ")");
  if (!loadVectorMathLibrary())
    return llvm::createStringError(
        "cpu: kernel '" + kernel + "' was compiled to call " + library +
        " (glibc's vector math library), which this host cannot load; "
        "recompile it here");
  return llvm::Error::success();
}
