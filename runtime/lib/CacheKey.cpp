//===- CacheKey.cpp - What a compiled kernel is addressed by --------------===//
#include "tessera/Runtime/CacheKey.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace mlir::tessera::runtime;

std::string mlir::tessera::runtime::sha256Hex(llvm::StringRef text) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string mlir::tessera::runtime::hashPluginFile(llvm::StringRef path) {
  if (path.empty())
    return "";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return "unreadable";
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>((*file)->getBufferStart()),
      (*file)->getBufferSize()));
  return llvm::utohexstr(hash.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(hash.low64, /*LowerCase=*/true, 16);
}

std::string CacheKeyInputs::str() const {
  // Each field on its own line with its length, so that no two different
  // inputs print alike (a newline inside a field cannot fake a field).
  std::string text;
  llvm::raw_string_ostream os(text);
  auto field = [&](llvm::StringRef name, llvm::StringRef value) {
    os << name << "[" << value.size() << "]=" << value << "\n";
  };
  field("tessera", tesseraVersion);
  field("plugin", plugin.name);
  field("plugin-version", plugin.version);
  field("plugin-description", sha256Hex(plugin.description));
  field("plugin-binary", pluginBinary);
  field("target", target);
  field("options", options);
  field("pipeline", pipelineHash);
  field("source", sourceHash);
  field("module", moduleHash);
  field("kernel", kernelName);
  field("specialization", specialization);
  return text;
}

std::string
mlir::tessera::runtime::computeCacheKey(const CacheKeyInputs &inputs) {
  return sha256Hex("tessera-cache-key v" + std::to_string(kCacheFormatVersion) +
                   "\n" + inputs.str());
}
