//===- TuningStore.cpp - Autotuning results kept on disk ------------------===//
#include "tessera/Runtime/TuningStore.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/CacheKey.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

namespace {
constexpr int64_t kTuningFormat = 1;

/// A file-name-safe form of `text`: letters, digits, '.', '_' and '-' stay,
/// everything else becomes '_'.
std::string sanitize(llvm::StringRef text) {
  std::string out;
  for (char c : text)
    out += (llvm::isAlnum(c) || c == '.' || c == '_' || c == '-') ? c : '_';
  return out.empty() ? "_" : out;
}

/// The file's JSON object when it exists, parses and belongs to `scope`.
std::optional<llvm::json::Object> readFile(llvm::StringRef path,
                                           const TuningScope &scope) {
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  llvm::Expected<std::string> text = readWholeFile(path);
  if (!text) {
    getLogger().debug("autotune: {}", llvm::toString(text.takeError()));
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(*text);
  if (!value) {
    getLogger().warn("autotune: ignoring unreadable results '{}': {}", path,
                     llvm::toString(value.takeError()));
    return std::nullopt;
  }
  llvm::json::Object *object = value->getAsObject();
  if (!object || object->getInteger("format") != kTuningFormat ||
      object->getString("kernel") != scope.kernelName ||
      object->getString("source") != scope.sourceHash) {
    getLogger().debug("autotune: ignoring results '{}' of another format or "
                      "kernel",
                      path);
    return std::nullopt;
  }
  return std::move(*object);
}
} // namespace

TuningStore::TuningStore(std::string cacheDirectory) {
  llvm::SmallString<256> path(cacheDirectory);
  llvm::sys::path::append(path, "autotune");
  directory = std::string(path);
}

std::string TuningStore::getPath(const TuningScope &scope) const {
  llvm::SmallString<256> path(directory);
  std::string id =
      sha256Hex(scope.kernelName + "\n" + scope.sourceHash).substr(0, 32);
  llvm::sys::path::append(
      path, sanitize(scope.backend + "-" + scope.deviceName + "-" + scope.arch),
      scope.kernelName + "-" + id + ".json");
  return std::string(path);
}

std::optional<TuningRecord> TuningStore::lookup(const TuningScope &scope,
                                                llvm::StringRef key) {
  std::lock_guard<std::mutex> lock(mutex);
  std::optional<llvm::json::Object> file = readFile(getPath(scope), scope);
  if (!file)
    return std::nullopt;
  const llvm::json::Object *results = file->getObject("results");
  const llvm::json::Object *entry = results ? results->getObject(key) : nullptr;
  if (!entry)
    return std::nullopt;
  std::optional<llvm::StringRef> config = entry->getString("config");
  std::optional<double> ms = entry->getNumber("ms");
  if (!config || !ms)
    return std::nullopt;
  return TuningRecord{config->str(), *ms};
}

llvm::Error TuningStore::store(const TuningScope &scope, llvm::StringRef key,
                               const TuningRecord &record) {
  std::lock_guard<std::mutex> lock(mutex);
  std::string path = getPath(scope);
  std::optional<llvm::json::Object> file = readFile(path, scope);
  if (!file)
    file = llvm::json::Object{
        {"format", kTuningFormat},    {"backend", scope.backend},
        {"device", scope.deviceName}, {"arch", scope.arch},
        {"kernel", scope.kernelName}, {"file", scope.file},
        {"source", scope.sourceHash}, {"results", llvm::json::Object()}};
  llvm::json::Object *results = file->getObject("results");
  if (!results) {
    (*file)["results"] = llvm::json::Object();
    results = file->getObject("results");
  }
  (*results)[key] = llvm::json::Object{{"config", record.config},
                                       {"ms", record.milliseconds}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(*file))) << "\n";
  return writeFileAtomically(path, text);
}
