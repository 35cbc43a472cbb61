//===- CacheKey.h - What a compiled kernel is addressed by ------*- C++ -*-===//
//
// A compiled kernel is stored under the hash of everything that can change
// its bytes: the compiler (Tessera's version), the plugin (name, version, a
// hash of its description and one of its file's bytes, so that a rebuilt
// plugin never reads what its earlier build wrote), the target, the compile
// options, the pipeline, the source text of the kernel file and of the files it
// imports from its own directory, the `tessera` module the frontend lowered
// the kernel to (printed without locations: it holds what every helper and
// global of the kernel's closure contributed, from whatever file or live
// interpreter), the kernel and its specialization. Two inputs
// that differ in any of these get different keys; nothing else is in it, so
// the same kernel compiled again anywhere gets the same key.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_CACHEKEY_H
#define TESSERA_RUNTIME_CACHEKEY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tessera::runtime {

/// Who compiled it: the plugin as its descriptor names it, and the file it
/// was loaded from (empty for a backend created in process).
struct PluginIdentity {
  std::string name;
  std::string version;
  std::string description;
  std::string path;
};

/// The inputs of a cache key, each as stable text.
struct CacheKeyInputs {
  /// getTesseraVersion().
  std::string tesseraVersion;
  PluginIdentity plugin;
  /// hashPluginFile() of the plugin's file.
  std::string pluginBinary;
  /// TargetDescription::str().
  std::string target;
  /// CompileOptions::str().
  std::string options;
  /// Pipeline::hash() for the pipeline options of this compilation.
  std::string pipelineHash;
  /// KernelSource::getSourceHash(): the kernel file and its local imports.
  std::string sourceHash;
  /// SHA-256 of the frontend's `tessera` module without debug locations.
  std::string moduleHash;
  std::string kernelName;
  /// Specialization::key() of the frontend.
  std::string specialization;

  /// The inputs as `name=value` lines, in key order (what is hashed).
  std::string str() const;
};

/// The version of the key and entry formats; bumping it orphans every
/// existing entry (they are never read again).
inline constexpr unsigned kCacheFormatVersion = 1;

/// The key: a lowercase hex SHA-256 of `inputs.str()` and the format
/// version, 64 characters.
std::string computeCacheKey(const CacheKeyInputs &inputs);

/// A lowercase hex SHA-256 of `text`.
std::string sha256Hex(llvm::StringRef text);

/// A hash of the bytes of the plugin file `path` (XXH3-128, hex: a few
/// milliseconds for a plugin of megabytes); "" for an empty path, and
/// "unreadable" when the file cannot be read.
std::string hashPluginFile(llvm::StringRef path);

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_CACHEKEY_H
