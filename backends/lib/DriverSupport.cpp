//===- DriverSupport.cpp - Errors every device driver reports -------------===//
#include "tessera/Backend/DriverSupport.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tessera;

llvm::Error mlir::tessera::getDeviceUnavailableError(
    llvm::StringRef backend, unsigned device, const llvm::Twine &step,
    unsigned count, const llvm::Twine &noDevices) {
  std::string why =
      count == 0 ? noDevices.str()
                 : llvm::formatv("no such device ({0} present)", count).str();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("{0} device {1}: cannot {2}: {3}", backend, device,
                    step.str(), why));
}

llvm::Error mlir::tessera::markUnusable(llvm::Error err, llvm::StringRef what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::toString(std::move(err)) + "; " + what +
                                     " is now unusable in this process");
}
