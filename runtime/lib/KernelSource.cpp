//===- KernelSource.cpp - A kernel file loaded for compilation ------------===//
#include "tessera/Runtime/KernelSource.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/CacheKey.h"
#include "tessera/Runtime/Environment.h"

#include "tessera/Frontend/ModuleSet.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

using namespace mlir::tessera::runtime;
using namespace ::tessera::frontend;

namespace {
/// The files an import may name, relative to `dir` (the importing file's
/// directory): `a.b` is a/b.py or a/b/__init__.py; `from a import b` may
/// also be the module a/b.py; leading dots climb from `dir`.
std::vector<std::string> importCandidates(llvm::StringRef dir,
                                          const ImportInfo &import) {
  llvm::StringRef module = import.module;
  size_t level = 0;
  while (module.consume_front("."))
    ++level;
  llvm::SmallString<256> base(dir);
  for (size_t i = 1; i < level; ++i)
    llvm::sys::path::remove_filename(base);

  llvm::SmallString<256> modulePath(base);
  if (!module.empty()) {
    llvm::SmallVector<llvm::StringRef> parts;
    module.split(parts, '.');
    for (llvm::StringRef part : parts)
      llvm::sys::path::append(modulePath, part);
  }
  std::vector<std::string> candidates;
  if (!module.empty()) {
    candidates.push_back((modulePath + ".py").str());
    candidates.push_back((modulePath + "/__init__.py").str());
  }
  if (!import.member.empty()) {
    llvm::SmallString<256> memberPath(modulePath);
    llvm::sys::path::append(memberPath, import.member + ".py");
    candidates.push_back(std::string(memberPath));
  }
  return candidates;
}

/// The imports of the Python file `text` (named `name` in messages),
/// scanned without reporting anything: a file of the set that does not
/// parse still counts by its text.
std::vector<ImportInfo> scanImports(llvm::StringRef text,
                                    llvm::StringRef name) {
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
  DiagnosticEngine diags(sm, /*os=*/nullptr);
  std::unique_ptr<KernelModule> module = KernelModule::scan(sm, id, diags);
  return std::vector<ImportInfo>(module->getImports().begin(),
                                 module->getImports().end());
}
} // namespace

std::vector<std::string> mlir::tessera::runtime::resolveModuleSearchPath(
    llvm::ArrayRef<std::string> explicitDirs) {
  std::vector<std::string> dirs;
  auto add = [&](llvm::StringRef dir) {
    if (!dir.empty() && !llvm::is_contained(dirs, dir))
      dirs.push_back(dir.str());
  };
  for (const std::string &dir : explicitDirs)
    add(dir);
  for (llvm::StringRef variable : {kModulePathEnvVar, llvm::StringLiteral("PYTHONPATH")})
    if (std::optional<std::string> value = getEnvironmentValue(variable)) {
      llvm::SmallVector<llvm::StringRef> parts;
      llvm::StringRef(*value).split(parts, ':');
      for (llvm::StringRef part : parts)
        add(part);
    }
  return dirs;
}


KernelSource::KernelSource() = default;
KernelSource::~KernelSource() = default;

llvm::Expected<std::unique_ptr<KernelSource>>
KernelSource::load(llvm::StringRef path,
                   llvm::ArrayRef<std::string> modulePath) {
  // A FIFO or a device named as the kernel file blocked or ran out of
  // memory; readWholeFile refuses them, and files past the limit.
  llvm::Expected<std::string> text = readWholeFile(path, kMaxKernelFileSize);
  if (!text) {
    std::string why = llvm::toString(text.takeError());
    llvm::StringRef reason(why);
    reason.consume_front(("cannot read '" + path + "': ").str());
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read kernel file '" + path +
                                       "': " + reason);
  }
  std::unique_ptr<KernelSource> source(new KernelSource());
  source->path = path.str();
  if (llvm::Error err =
          source->initialize(llvm::MemoryBuffer::getMemBufferCopy(*text, path),
                             modulePath))
    return std::move(err);
  return source;
}

llvm::Expected<std::unique_ptr<KernelSource>>
KernelSource::fromText(llvm::StringRef text, llvm::StringRef path,
                       llvm::ArrayRef<std::string> modulePath) {
  std::unique_ptr<KernelSource> source(new KernelSource());
  source->path = path.str();
  if (llvm::Error err = source->initialize(
          llvm::MemoryBuffer::getMemBufferCopy(text, path), modulePath))
    return std::move(err);
  return source;
}

llvm::Expected<std::unique_ptr<KernelSource>>
KernelSource::fromProgram(llvm::StringRef json, llvm::StringRef entryUnit) {
  std::unique_ptr<KernelSource> source(new KernelSource());
  if (llvm::Error err = source->initializeProgram(json, entryUnit))
    return std::move(err);
  return source;
}

llvm::StringRef KernelSource::getText() const {
  return sourceMgr.getMemoryBuffer(mainBuffer)->getBuffer();
}

llvm::Error
KernelSource::initialize(std::unique_ptr<llvm::MemoryBuffer> buffer,
                         llvm::ArrayRef<std::string> modulePath) {
  KernelFileInfo info = describeKernelFile(path, modulePath);
  modules = std::make_unique<ModuleSet>(sourceMgr, info.searchPath);

  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mainBuffer = id;
  scanStream = std::make_unique<llvm::raw_string_ostream>(scanText);
  scanDiags = std::make_unique<DiagnosticEngine>(sourceMgr, scanStream.get());
  module = &modules->addModule(id, *scanDiags, "__main__", info.package,
                               {info.moduleName});
  if (scanDiags->hadError()) {
    while (!scanText.empty() && scanText.back() == '\n')
      scanText.pop_back();
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        scanText.empty() ? "cannot scan '" + path + "'" : scanText);
  }

  // The hash covers the file and the local files it imports, each under
  // its path relative to the kernel file so that moving the set together
  // keeps its kernels' keys.
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  std::map<std::string, std::string> files; // relative path -> text
  std::vector<std::pair<std::string, std::vector<ImportInfo>>> work;
  work.emplace_back(std::string(dir),
                    std::vector<ImportInfo>(module->getImports().begin(),
                                            module->getImports().end()));
  std::set<std::string> seen;
  while (!work.empty()) {
    auto [importerDir, imports] = std::move(work.back());
    work.pop_back();
    for (const ImportInfo &import : imports) {
      for (const std::string &candidate :
           importCandidates(importerDir, import)) {
        llvm::SmallString<256> real;
        if (llvm::sys::fs::real_path(candidate, real) ||
            !llvm::sys::fs::is_regular_file(real) ||
            !seen.insert(std::string(real)).second)
          continue;
        llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
            llvm::MemoryBuffer::getFile(real, /*IsText=*/true);
        if (!text)
          continue;
        llvm::SmallString<256> relative(candidate);
        llvm::sys::path::remove_dots(relative, /*remove_dot_dot=*/true);
        std::string name(relative);
        llvm::StringRef nameRef(name);
        if (nameRef.consume_front(dir.str()))
          nameRef.consume_front("/");
        files[nameRef.str()] = (*text)->getBuffer().str();
        llvm::SmallString<256> childDir(candidate);
        llvm::sys::path::remove_filename(childDir);
        work.emplace_back(std::string(childDir),
                          scanImports((*text)->getBuffer(), candidate));
      }
    }
  }

  std::string all;
  llvm::raw_string_ostream os(all);
  os << "main[" << getText().size() << "]\n" << getText() << "\n";
  for (const auto &[name, text] : files) {
    os << "import " << name << "[" << text.size() << "]\n" << text << "\n";
    localImports.push_back(name);
  }
  sourceHash = sha256Hex(all);
  return llvm::Error::success();
}

llvm::Expected<const JitFunction *>
KernelSource::getJitFunction(llvm::StringRef name) {
  if (const JitFunction *fn = module->lookupJitFunction(name))
    return fn;
  std::vector<std::string> names;
  for (const JitFunction &fn : module->getJitFunctions())
    names.push_back(fn.getName().str());
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      path + ": no @triton.jit function named '" + name + "'" +
          (names.empty() ? std::string("; the file has none")
                         : "; it has: " + llvm::join(names, ", ")));
}

SourceScope::SourceScope(KernelSource &source)
    : source(source), lock(source.mutex), os(text),
      diags(source.sourceMgr, &os) {}

SourceScope::~SourceScope() = default;

HostEvaluator &SourceScope::getEvaluator() {
  if (!evaluator)
    evaluator = std::make_unique<HostEvaluator>(source.module, diags);
  return *evaluator;
}

std::string SourceScope::takeText() {
  std::string result = std::move(text);
  text.clear();
  return result;
}

llvm::Error SourceScope::makeError(const llvm::Twine &fallback) {
  std::string result = takeText();
  while (!result.empty() && result.back() == '\n')
    result.pop_back();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 result.empty() ? fallback.str() : result);
}
