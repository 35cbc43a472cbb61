//===- DriverSupport.h - Pieces every device driver needs -------*- C++ -*-===//
//
// What a plugin's Driver over a vendor API (CUDA's driver API, HIP) has in
// common besides the vendor calls: the table of loaded modules behind the
// opaque handles the runtime holds, and the errors of a call for a device
// that is absent or was made unusable by a fault. The wording is the same
// for every plugin, so a report reads alike whichever hardware ran it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_DRIVERSUPPORT_H
#define TESSERA_BACKEND_DRIVERSUPPORT_H

#include "tessera/Backend/Driver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <string>

namespace mlir::tessera {

/// The modules a driver loaded, by handle (the module's address, so a
/// handle is never reused while its module is loaded). Thread-safe.
template <typename ModuleT> class ModuleTable {
public:
  /// `backend` names the driver in errors ("nvptx").
  explicit ModuleTable(std::string backend) : backend(std::move(backend)) {}

  /// Keeps `module` and returns its handle.
  ModuleHandle insert(std::unique_ptr<ModuleT> module) {
    ModuleHandle handle = reinterpret_cast<ModuleHandle>(module.get());
    std::lock_guard<std::mutex> lock(mutex);
    modules[handle] = std::move(module);
    return handle;
  }

  /// The module of `handle`, or an error saying `step` (a verb phrase,
  /// "launch a kernel") got a handle this driver did not give out.
  llvm::Expected<ModuleT *> lookup(ModuleHandle handle,
                                   const llvm::Twine &step) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = modules.find(handle);
    if (it == modules.end())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     backend + ": cannot " + step + ": 0x" +
                                         llvm::utohexstr(handle) +
                                         " is not a module this driver loaded");
    return it->second.get();
  }

  /// Forgets the module of `handle` (after the vendor's unload).
  void erase(ModuleHandle handle) {
    std::lock_guard<std::mutex> lock(mutex);
    modules.erase(handle);
  }

  /// Calls `fn` on every loaded module; for a driver's destructor, when no
  /// other thread uses the table.
  template <typename Fn> void forEach(Fn fn) {
    for (auto &entry : modules)
      fn(*entry.second);
  }

private:
  std::string backend;
  std::mutex mutex;
  llvm::DenseMap<ModuleHandle, std::unique_ptr<ModuleT>> modules;
};

/// The error of `step` on device `device` of a driver with `count`
/// devices: "<backend> device <n>: cannot <step>: <why>", where `why` is
/// `noDevices` ("no CUDA device: <the library's reason>") when there are
/// none, else that the device does not exist.
llvm::Error getDeviceUnavailableError(llvm::StringRef backend, unsigned device,
                                      const llvm::Twine &step, unsigned count,
                                      const llvm::Twine &noDevices);

/// `err`, a vendor call's error after which `what` ("the device", "the
/// device's context") is unusable in this process, saying so.
llvm::Error markUnusable(llvm::Error err, llvm::StringRef what);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_DRIVERSUPPORT_H
