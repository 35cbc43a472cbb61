//===- LanguageNames.cpp - What the Triton language offers ----------------===//
#include "Builtins.h"

#include "tessera/Frontend/Language.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <mutex>

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;

/// Modules and objects of the language that are neither builtins nor dtypes
/// nor math functions: what host code imports or tests for.
static const char *const kOtherNames[] = {
    "triton",
    "triton.language",
    "triton.language.core",
    "triton.language.math",
    "triton.language.standard",
    "triton.language.random",
    "triton.language.extra",
    "triton.language.extra.libdevice",
    "triton.language.tensor",
    "triton.language.dtype",
    "triton.language.block_type",
    "triton.language.tensor_descriptor",
    "triton.language.PropagateNan",
    "triton.language.constexpr_function",
    "triton.jit",
    "triton.autotune",
    "triton.heuristics",
    "triton.Config",
    "triton.cdiv",
    "triton.next_power_of_2",
    "triton.constexpr_function",
    "triton.runtime",
    "triton.runtime.jit",
    "triton.runtime.autotuner",
    "triton.runtime.driver",
    "triton.testing",
    "triton.tools",
    "triton.tools.tensor_descriptor",
    "triton.tools.tensor_descriptor.TensorDescriptor",
    "triton.__version__",
};

/// The dtypes triton.language binds.
static const char *const kDTypes[] = {
    "int1",       "int8",     "int16",       "int32",      "int64",
    "uint8",      "uint16",   "uint32",      "uint64",     "float8e4nv",
    "float8e4b8", "float8e5", "float8e5b16", "float16",    "bfloat16",
    "float32",    "float64",  "void",        "float8e4b15"};

static const char *const kLibdevice[] = {
#define LIBDEVICE(NAME, SIGNATURES, PURE) #NAME,
#include "LibdeviceFunctions.def"
};

static const llvm::StringSet<> &getNameSet() {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> set;
    for (const char *n : kOtherNames)
      set.insert(n);
    for (const char *n : kDTypes)
      set.insert((llvm::Twine("triton.language.") + n).str());
    for (const char *n : kLibdevice)
      set.insert((llvm::Twine("triton.language.extra.libdevice.") + n).str());
    for (const std::string &n : BuiltinRegistry::get().getNames())
      if (llvm::StringRef(n).starts_with("triton."))
        set.insert(n);
    return set;
  }();
  return names;
}

namespace {
/// The per-target modules under triton.language.extra that the targets
/// present added; guarded because runtimes open targets from any thread.
struct TargetModules {
  std::mutex mutex;
  llvm::StringSet<> names;
};
} // namespace

static TargetModules &getTargetModules() {
  static TargetModules modules;
  return modules;
}

void tessera::frontend::addTargetLanguageModule(llvm::StringRef name) {
  TargetModules &modules = getTargetModules();
  std::lock_guard<std::mutex> lock(modules.mutex);
  modules.names.insert(name);
}

std::vector<std::string> tessera::frontend::getTargetLanguageModules() {
  TargetModules &modules = getTargetModules();
  std::lock_guard<std::mutex> lock(modules.mutex);
  std::vector<std::string> out;
  for (const auto &entry : modules.names)
    out.push_back(entry.getKey().str());
  std::sort(out.begin(), out.end());
  return out;
}

/// Whether `name` is a target's module under triton.language.extra, its
/// `libdevice` submodule or a function of it: `triton.language.extra.M`,
/// `triton.language.extra.M.libdevice[.FN]` for an added module M.
static bool isTargetModuleName(llvm::StringRef name,
                               const llvm::StringSet<> &languageNames) {
  if (!name.consume_front("triton.language.extra."))
    return false;
  auto [module, rest] = name.split('.');
  {
    TargetModules &modules = getTargetModules();
    std::lock_guard<std::mutex> lock(modules.mutex);
    if (!modules.names.contains(module))
      return false;
  }
  if (rest.empty() || rest == "libdevice")
    return true;
  if (!rest.consume_front("libdevice."))
    return false;
  return languageNames.contains(
      ("triton.language.extra.libdevice." + rest).str());
}

bool tessera::frontend::isLanguageName(llvm::StringRef qualifiedName) {
  const llvm::StringSet<> &names = getNameSet();
  if (names.contains(qualifiedName))
    return true;
  if (isTargetModuleName(qualifiedName, names))
    return true;
  std::string canonical = canonicalBuiltinName(qualifiedName);
  if (names.contains(canonical))
    return true;
  // Older Triton versions exposed the math library as tl.math.NAME.
  llvm::StringRef rest = qualifiedName;
  if (rest.consume_front("triton.language.math."))
    return names.contains(("triton.language.extra.libdevice." + rest).str());
  return false;
}

std::vector<std::string> tessera::frontend::getLanguageNames() {
  std::vector<std::string> out;
  for (const auto &entry : getNameSet())
    out.push_back(entry.getKey().str());
  for (const std::string &module : getTargetLanguageModules()) {
    out.push_back("triton.language.extra." + module);
    out.push_back("triton.language.extra." + module + ".libdevice");
  }
  std::sort(out.begin(), out.end());
  return out;
}
