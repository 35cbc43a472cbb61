//===- PluginSearch.cpp - Where the host looks for plugins ----------------===//
#include "tessera/Plugin/PluginSearch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <boost/dll/runtime_symbol_info.hpp>

#include <cstdlib>
#include <filesystem>
#include <set>

using namespace mlir::tessera;
namespace fs = std::filesystem;

namespace {
constexpr llvm::StringLiteral kFilePrefix = "tessera-plugin-";
constexpr llvm::StringLiteral kFileSuffix = ".so";

/// `<prefix>/lib/tessera/plugins` given `<prefix>/lib`.
fs::path pluginDirUnder(const fs::path &libDir) {
  return libDir / "tessera" / "plugins";
}

/// A normal form for recognizing one file reached by two paths.
std::string identity(const fs::path &path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? path.lexically_normal().string() : canonical.string();
}

PluginLoadFailure failure(const std::string &path, const llvm::Twine &reason) {
  return {path, (llvm::Twine(path) + ": " + reason).str()};
}
} // namespace

llvm::StringRef mlir::tessera::stringifyPluginOrigin(PluginOrigin origin) {
  switch (origin) {
  case PluginOrigin::Explicit:
    return "explicit";
  case PluginOrigin::Environment:
    return kPluginPathEnvVar;
  case PluginOrigin::ProgramPrefix:
    return "program prefix";
  case PluginOrigin::LibraryPrefix:
    return "library prefix";
  }
  llvm_unreachable("unknown plugin origin");
}

bool mlir::tessera::isPluginFileName(llvm::StringRef fileName) {
  return fileName.size() > kFilePrefix.size() + kFileSuffix.size() &&
         fileName.starts_with(kFilePrefix) && fileName.ends_with(kFileSuffix);
}

std::vector<PluginSearchEntry>
mlir::tessera::getPluginSearchPath(const PluginSearchOptions &options) {
  std::vector<PluginSearchEntry> entries;
  for (const std::string &path : options.paths)
    entries.push_back({path, PluginOrigin::Explicit, /*required=*/true});

  if (options.useEnvironment) {
    if (const char *env = std::getenv(kPluginPathEnvVar.data())) {
      llvm::SmallVector<llvm::StringRef> parts;
      llvm::StringRef(env).split(parts, ':', /*MaxSplit=*/-1,
                                 /*KeepEmpty=*/false);
      for (llvm::StringRef part : parts)
        entries.push_back(
            {part.str(), PluginOrigin::Environment, /*required=*/true});
    }
  }

  if (options.useDefaultDirectories) {
    // Both usually name one directory; findPluginFiles reads it once.
    boost::dll::fs::error_code ec;
    fs::path program = boost::dll::program_location(ec);
    if (!ec)
      entries.push_back(
          {pluginDirUnder(program.parent_path().parent_path() / "lib")
               .lexically_normal()
               .string(),
           PluginOrigin::ProgramPrefix, /*required=*/false});
    fs::path library = boost::dll::this_line_location(ec);
    if (!ec)
      entries.push_back(
          {pluginDirUnder(library.parent_path()).lexically_normal().string(),
           PluginOrigin::LibraryPrefix, /*required=*/false});
  }
  return entries;
}

std::vector<PluginCandidate>
mlir::tessera::findPluginFiles(const std::vector<PluginSearchEntry> &searchPath,
                               std::vector<PluginLoadFailure> &failures) {
  std::vector<PluginCandidate> candidates;
  std::set<std::string> seenFiles, seenDirs;
  auto addFile = [&](const fs::path &path, PluginOrigin origin) {
    if (seenFiles.insert(identity(path)).second)
      candidates.push_back({path.string(), origin});
  };

  for (const PluginSearchEntry &entry : searchPath) {
    fs::path path(entry.path);
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found) {
      if (entry.required)
        failures.push_back(failure(entry.path, "no such file or directory"));
      continue;
    }
    if (ec) {
      failures.push_back(failure(entry.path, llvm::Twine("cannot access it: ") +
                                                 ec.message()));
      continue;
    }
    if (!fs::is_directory(status)) {
      addFile(path, entry.origin);
      continue;
    }
    if (!seenDirs.insert(identity(path)).second)
      continue;

    std::vector<fs::path> files;
    fs::directory_iterator it(path, ec), end;
    // Every entry named like a plugin is a candidate, whatever it is: the
    // loader refuses a directory, a dangling link or a FIFO with a line
    // saying so, where skipping it would leave the user guessing.
    for (; !ec && it != end; it.increment(ec))
      if (isPluginFileName(it->path().filename().string()))
        files.push_back(it->path());
    if (ec) {
      failures.push_back(
          failure(entry.path,
                  llvm::Twine("cannot read the directory: ") + ec.message()));
      continue;
    }
    // Directory order is arbitrary; name order makes precedence between
    // two files of one directory reproducible.
    llvm::sort(files, [](const fs::path &a, const fs::path &b) {
      return a.filename() < b.filename();
    });
    for (const fs::path &file : files)
      addFile(file, entry.origin);
  }
  return candidates;
}
