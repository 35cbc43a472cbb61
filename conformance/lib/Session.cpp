//===- Session.cpp - Flags and setup shared by conformance and bench ------===//
#include "Session.h"

#include "tessera/Runtime/BackendSelection.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;
namespace cl = llvm::cl;

SessionFlags::SessionFlags(cl::OptionCategory &category)
    : session(category),
      kernelFilters("kernel",
                    cl::desc("Only the cases whose id (FILE/KERNEL/CASE) "
                             "contains this string, or matches it as a glob "
                             "when it has * or ? (repeatable)"),
                    cl::value_desc("filter"), cl::cat(category)),
      kernelsDir("kernels-dir",
                 cl::desc("Directory of the kernel files (default: "
                          "kernels/ of the conformance directory, "
                          "TESSERA_CONFORMANCE_DIR)"),
                 cl::value_desc("dir"), cl::cat(category)),
      configs("configs",
              cl::desc("How autotuned kernels run: 'tune' (the runtime's "
                       "autotuner), 'subset' (representative configs, one "
                       "case each) or 'all' (every config, one case each); "
                       "default subset on cpu, tune elsewhere"),
              cl::value_desc("mode"), cl::cat(category)),
      json("json",
           cl::desc("Write the report as JSON to this file ('-' for "
                    "standard output)"),
           cl::value_desc("file"), cl::cat(category)) {}

bool mlir::tessera::conformance::parseFlags(int argc, char **argv,
                                            cl::OptionCategory &category,
                                            llvm::StringRef overview) {
  cl::HideUnrelatedOptions(category);
  return cl::ParseCommandLineOptions(argc, argv, overview, &llvm::errs());
}

std::string mlir::tessera::conformance::findConformanceDir(const char *argv0) {
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("TESSERA_CONFORMANCE_DIR");
      env && !env->empty())
    return *env;
  // <prefix>/bin/tessera -> <prefix>/share/tessera/conformance.
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  if (!executable.empty()) {
    llvm::SmallString<256> dir(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
    llvm::sys::path::append(dir, "share", "tessera", "conformance");
    if (llvm::sys::fs::is_directory(dir))
      return std::string(dir);
  }
  return TESSERA_CONFORMANCE_SOURCE_DIR;
}

llvm::Expected<ConfigMode>
mlir::tessera::conformance::getConfigMode(const SessionFlags &flags,
                                          ConfigMode fallback) {
  if (flags.configs.empty())
    return fallback;
  if (std::optional<ConfigMode> mode = parseConfigMode(flags.configs))
    return *mode;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "--configs must be tune, subset or all, not "
                                 "'" +
                                     flags.configs + "'");
}

llvm::Expected<Session>
mlir::tessera::conformance::openSession(const SessionFlags &flags,
                                        bool compileOnly) {
  llvm::Expected<runtime::RuntimeOptions> given =
      flags.session.getRuntimeOptions();
  if (!given)
    return given.takeError();
  runtime::RuntimeOptions options = std::move(*given);
  options.compileOnly = compileOnly;

  Session session;
  llvm::Expected<std::unique_ptr<runtime::Runtime>> rt =
      runtime::Runtime::open(options);
  if (!rt)
    return rt.takeError();
  session.runtime = std::move(*rt);
  session.backend = session.runtime->getPluginIdentity().name;
  llvm::Expected<TargetDescription> target =
      session.runtime->getBackend().describe(
          session.runtime->getOptions().arch);
  if (!target)
    return target.takeError();
  session.target = std::move(*target);
  session.arch = session.target.arch;
  session.pluginVersion = session.runtime->getPluginIdentity().version;
  if (runtime::Device *device = session.runtime->getDevice()) {
    session.device = device->describe();
    session.driver = device->getProperties().driverVersion;
  }
  llvm::Expected<ConfigMode> mode = getConfigMode(
      flags, session.backend == runtime::kFallbackBackend ? ConfigMode::Subset
                                                          : ConfigMode::Tune);
  if (!mode)
    return mode.takeError();
  session.compileOnly = compileOnly;
  session.configMode = compileOnly ? getCompileOnlyConfigMode(*mode) : *mode;
  return session;
}

bool mlir::tessera::conformance::matchesFilter(
    llvm::ArrayRef<std::string> filters, llvm::StringRef id) {
  if (filters.empty())
    return true;
  for (llvm::StringRef filter : filters) {
    if (filter.find_first_of("*?") == llvm::StringRef::npos) {
      if (id.contains(filter))
        return true;
      continue;
    }
    llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(filter);
    if (!glob) {
      llvm::consumeError(glob.takeError());
      continue;
    }
    if (glob->match(id))
      return true;
  }
  return false;
}

llvm::Error mlir::tessera::conformance::checkFiltersMatch(
    llvm::ArrayRef<std::string> filters, llvm::ArrayRef<std::string> ids) {
  for (const std::string &filter : filters)
    if (llvm::none_of(ids, [&](const std::string &id) {
          return matchesFilter(filter, id);
        }))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--kernel '" + filter +
              "' matches no case; --list shows the ids it may match");
  return llvm::Error::success();
}

void mlir::tessera::conformance::printError(llvm::StringRef program,
                                            llvm::Error err) {
  std::string text = llvm::toString(std::move(err));
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  llvm::StringRef firstLine = llvm::StringRef(text).split('\n').first;
  // A diagnostic without a file already says "error: " (one about a flag's
  // value); the program's name goes before it, not a second "error:".
  if (firstLine.contains(": error: "))
    llvm::errs() << text << "\n";
  else if (firstLine.starts_with("error: "))
    llvm::errs() << program << ": " << text << "\n";
  else
    llvm::errs() << program << ": error: " << text << "\n";
}
