//===- ModuleSet.cpp - The modules a kernel file imports ------------------===//
#include "tessera/Frontend/ModuleSet.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace tessera::frontend;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// Larger files are not Python modules anyone writes by hand; refusing them
/// keeps a stray path (a log, a device) from being read whole.
static constexpr uint64_t kMaxModuleBytes = 16u << 20;

KernelFileInfo
tessera::frontend::describeKernelFile(llvm::StringRef filePath,
                                      llvm::ArrayRef<std::string> extraDirs) {
  llvm::SmallString<256> dir(filePath);
  path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  std::vector<std::string> parts;
  llvm::SmallString<256> current(dir);
  while (true) {
    llvm::SmallString<256> init(current);
    path::append(init, "__init__.py");
    if (!fs::exists(init))
      break;
    llvm::SmallString<256> real;
    if (fs::real_path(current, real))
      break;
    parts.insert(parts.begin(), path::filename(real).str());
    llvm::SmallString<256> parent(real);
    path::remove_filename(parent);
    if (parent.empty() || parent == real)
      break;
    current = parent;
  }
  KernelFileInfo info;
  info.package = llvm::join(parts, ".");
  llvm::StringRef stem = path::stem(filePath);
  if (stem == "__init__")
    info.moduleName = info.package;
  else
    info.moduleName =
        info.package.empty() ? stem.str() : info.package + "." + stem.str();
  auto add = [&](llvm::StringRef d) {
    if (!d.empty() && !llvm::is_contained(info.searchPath, d))
      info.searchPath.push_back(d.str());
  };
  if (!info.package.empty())
    add(current);
  add(dir);
  for (const std::string &d : extraDirs)
    add(d);
  return info;
}

ModuleSet::ModuleSet(llvm::SourceMgr &sourceMgr,
                     std::vector<std::string> searchPath)
    : sourceMgr(sourceMgr), searchPath(std::move(searchPath)) {}

ModuleSet::~ModuleSet() = default;

bool ModuleSet::isLanguageModule(llvm::StringRef name) {
  return name == "triton" || name.starts_with("triton.");
}

KernelModule &ModuleSet::addModule(unsigned bufferId, DiagnosticEngine &diags,
                                   llvm::StringRef name,
                                   llvm::StringRef package,
                                   llvm::ArrayRef<std::string> aliases,
                                   bool importable) {
  std::unique_ptr<KernelModule> module =
      KernelModule::scan(sourceMgr, bufferId, diags);
  module->moduleName = name.str();
  module->packageName = package.str();
  module->moduleSet = this;
  KernelModule &result = *module;
  modules.push_back(std::move(module));
  if (!importable)
    return result;
  byName[name] = &result;
  for (const std::string &alias : aliases)
    if (!alias.empty())
      byName[alias] = &result;
  return result;
}

KernelModule &ModuleSet::addEmptyModule(llvm::StringRef name,
                                        llvm::StringRef file) {
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy("", file), llvm::SMLoc());
  engines.push_back(std::make_unique<DiagnosticEngine>(sourceMgr, nullptr));
  std::unique_ptr<KernelModule> module =
      KernelModule::scan(sourceMgr, id, *engines.back());
  module->moduleName = name.str();
  module->packageName = name.rsplit('.').first.str();
  if (!name.contains('.'))
    module->packageName.clear();
  module->moduleSet = this;
  modules.push_back(std::move(module));
  return *modules.back();
}

KernelModule *ModuleSet::fail(llvm::StringRef name, std::string reason,
                              std::string *why) {
  if (why)
    *why = reason;
  failures[name] = std::move(reason);
  return nullptr;
}

KernelModule *ModuleSet::loadFile(llvm::StringRef filePath,
                                  llvm::StringRef name,
                                  llvm::StringRef package, std::string &why) {
  fs::file_status status;
  if (std::error_code ec = fs::status(filePath, status)) {
    why = "cannot read '" + filePath.str() + "': " + ec.message();
    return nullptr;
  }
  if (!fs::is_regular_file(status)) {
    why = "'" + filePath.str() + "' is not a regular file";
    return nullptr;
  }
  if (status.getSize() > kMaxModuleBytes) {
    why = "'" + filePath.str() + "' is larger than " +
          std::to_string(kMaxModuleBytes >> 20) + " MiB";
    return nullptr;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(filePath, /*IsText=*/true);
  if (!buffer) {
    why = "cannot read '" + filePath.str() + "': " + buffer.getError().message();
    return nullptr;
  }
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  // The scan's errors (a jit function of the file that does not parse) make
  // the module unusable; they are kept as the reason, rendered with the
  // file's line and caret.
  std::vector<Diagnostic> reported;
  engines.push_back(std::make_unique<DiagnosticEngine>(sourceMgr, nullptr));
  DiagnosticEngine &engine = *engines.back();
  engine.setCollector(&reported);
  KernelModule &module = addModule(id, engine, name, package);
  engine.setCollector(nullptr);
  loadedFiles.push_back(filePath.str());
  if (engine.hadError()) {
    byName.erase(name);
    std::string text;
    for (const Diagnostic &d : reported)
      if (d.severity == Severity::Error)
        text += engine.render(d);
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    why = "module '" + name.str() + "' does not compile:\n" + text;
    return nullptr;
  }
  return &module;
}

const KernelModule *ModuleSet::importModule(llvm::StringRef name,
                                            std::string *why) {
  auto known = byName.find(name);
  if (known != byName.end())
    return known->second;
  auto failed = failures.find(name);
  if (failed != failures.end()) {
    if (why)
      *why = failed->second;
    return nullptr;
  }
  if (isLanguageModule(name))
    return fail(name, "'" + name.str() + "' is part of the Triton language",
                why);
  bool valid = !name.empty() && llvm::all_of(llvm::split(name, '.'),
                                             [](llvm::StringRef part) {
                                               return !part.empty() &&
                                                      !part.contains('/');
                                             });
  if (!valid)
    return fail(name, "'" + name.str() + "' is not a module name", why);

  // Parents first, as Python imports them: `a.b.c` is searched in the
  // directories of package `a.b`.
  auto [parentName, last] = name.rsplit('.');
  std::vector<std::string> dirs;
  std::string package;
  if (last.empty()) {
    last = name;
    parentName = "";
    dirs = searchPath;
  } else {
    std::string parentWhy;
    const KernelModule *parent = importModule(parentName, &parentWhy);
    if (!parent)
      return fail(name, parentWhy, why);
    auto it = packageDirs.find(parent);
    if (it == packageDirs.end())
      return fail(name,
                  "'" + parentName.str() + "' is a module, not a package",
                  why);
    dirs = it->second;
    package = parentName.str();
  }

  // A regular package or a module in the first directory that has one;
  // only then the directories without `__init__.py`, together, as a
  // namespace package.
  std::vector<std::string> namespaceDirs;
  for (const std::string &dir : dirs) {
    llvm::SmallString<256> base(dir);
    path::append(base, last);
    llvm::SmallString<256> init(base);
    path::append(init, "__init__.py");
    std::string loadWhy;
    if (fs::exists(init)) {
      KernelModule *module = loadFile(init, name, name, loadWhy);
      if (!module)
        return fail(name, loadWhy, why);
      packageDirs[module] = {std::string(base)};
      return module;
    }
    llvm::SmallString<256> file(base);
    file += ".py";
    if (fs::exists(file)) {
      KernelModule *module = loadFile(file, name, package, loadWhy);
      if (!module)
        return fail(name, loadWhy, why);
      return module;
    }
    if (fs::is_directory(base))
      namespaceDirs.push_back(std::string(base));
  }
  if (!namespaceDirs.empty()) {
    KernelModule &module = addEmptyModule(name, namespaceDirs.front());
    module.packageName = name.str();
    byName[name] = &module;
    packageDirs[&module] = std::move(namespaceDirs);
    return &module;
  }
  std::string where =
      dirs.empty() ? std::string("the module search path is empty")
                   : "searched " + llvm::join(dirs, ", ");
  return fail(name,
              "module '" + name.str() + "' was not found (" + where +
                  "; add its root with --module-path or "
                  "TESSERA_MODULE_PATH)",
              why);
}

llvm::Expected<std::string>
ModuleSet::resolveRelative(const KernelModule &from, unsigned level,
                           llvm::StringRef name) const {
  llvm::StringRef base = from.getPackageName();
  // Outside any package, the kernel file's directory is the top level:
  // `from .x import y` names the top-level module `x`, and `from . import
  // x` the top-level module `x` ("" here).
  if (base.empty()) {
    if (level > 1)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "attempted relative import beyond top-level package");
    return name.str();
  }
  for (unsigned i = 1; i < level; ++i) {
    if (!base.contains('.'))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "attempted relative import beyond top-level package");
    base = base.rsplit('.').first;
  }
  return name.empty() ? base.str() : (base + "." + name).str();
}

std::optional<MissingModule>
ModuleSet::findMissing(llvm::StringRef qualifiedName) const {
  llvm::StringRef candidate = qualifiedName;
  while (!candidate.empty()) {
    auto it = failures.find(candidate);
    if (it != failures.end())
      return MissingModule{candidate.str(), it->second};
    if (!candidate.contains('.'))
      break;
    candidate = candidate.rsplit('.').first;
  }
  return std::nullopt;
}
