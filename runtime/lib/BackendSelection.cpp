//===- BackendSelection.cpp - Choosing the backend of a session -----------===//
#include "tessera/Runtime/BackendSelection.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Runtime/Environment.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

BackendProvider::~BackendProvider() = default;

std::string
mlir::tessera::runtime::resolveBackendRequest(llvm::StringRef requested) {
  if (!requested.empty())
    return requested.str();
  if (std::optional<std::string> env = getEnvironmentValue(kBackendEnvVar))
    return *env;
  return "auto";
}

static llvm::Error selectionError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<SelectedBackend>
mlir::tessera::runtime::selectBackend(BackendProvider &provider,
                                      llvm::StringRef request) {
  std::vector<PluginIdentity> available = provider.listBackends();
  auto find = [&](llvm::StringRef name) -> const PluginIdentity * {
    for (const PluginIdentity &id : available)
      if (id.name == name)
        return &id;
    return nullptr;
  };
  auto names = [&] {
    std::vector<std::string> list;
    for (const PluginIdentity &id : available)
      list.push_back(id.name);
    return list.empty() ? std::string("none") : llvm::join(list, ", ");
  };

  if (request != "auto") {
    const PluginIdentity *id = find(request);
    if (!id)
      return selectionError("no backend named '" + request +
                            "'; available: " + names());
    llvm::Expected<std::shared_ptr<Backend>> backend =
        provider.createBackend(request);
    if (!backend)
      return backend.takeError();
    return SelectedBackend{std::move(*backend), *id};
  }

  // auto: a device beats the CPU; the first plugin in precedence order wins.
  std::vector<std::string> tried;
  for (const PluginIdentity &id : available) {
    if (id.name == kFallbackBackend)
      continue;
    llvm::Expected<std::shared_ptr<Backend>> backend =
        provider.createBackend(id.name);
    if (!backend) {
      tried.push_back(id.name + ": " + llvm::toString(backend.takeError()));
      continue;
    }
    Driver &driver = (*backend)->getDriver();
    if (driver.getDeviceCount() > 0) {
      getLogger().debug("backend auto: chose '{}'", id.name);
      return SelectedBackend{std::move(*backend), id};
    }
    std::string why = driver.getUnavailableReason();
    tried.push_back(id.name + ": " + (why.empty() ? "no device" : why));
  }
  const PluginIdentity *fallback = find(kFallbackBackend);
  if (!fallback)
    return selectionError(
        "backend auto: no GPU backend has a device and there is no '" +
        kFallbackBackend + "' backend" +
        (tried.empty() ? std::string() : " (" + llvm::join(tried, "; ") + ")"));
  for (const std::string &line : tried)
    getLogger().debug("backend auto: skipped {}", line);
  llvm::Expected<std::shared_ptr<Backend>> backend =
      provider.createBackend(kFallbackBackend);
  if (!backend)
    return backend.takeError();
  return SelectedBackend{std::move(*backend), *fallback};
}
