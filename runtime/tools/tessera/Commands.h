//===- Commands.h - The subcommands of the tessera tool ---------*- C++ -*-===//
#ifndef TESSERA_TOOLS_TESSERA_COMMANDS_H
#define TESSERA_TOOLS_TESSERA_COMMANDS_H

#include "tessera/Runtime/Runtime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace mlir::tessera::tool {

/// Each subcommand gets argv[0] = "tessera <subcommand>" and the rest of
/// the arguments, and returns the exit code.
int runPluginsCommand(int argc, char **argv);
int runCompileCommand(int argc, char **argv);
int runConformanceCommand(int argc, char **argv);
int runBenchCommand(int argc, char **argv);

/// The flags every subcommand shares, each mirroring an environment
/// variable (a flag given wins). Construct once per process, before
/// parsing.
struct SessionFlags {
  explicit SessionFlags(llvm::cl::OptionCategory &category);

  llvm::cl::opt<std::string> backend;
  llvm::cl::list<std::string> plugins;
  llvm::cl::opt<int> device;
  llvm::cl::opt<std::string> arch;
  llvm::cl::opt<std::string> cacheDir;
  llvm::cl::opt<bool> noCache;
  llvm::cl::opt<std::string> logLevel;

  /// The RuntimeOptions these flags ask for (unset ones left to the
  /// environment), after applying --log-level; an error for a level or
  /// device index that does not exist.
  llvm::Expected<runtime::RuntimeOptions> getRuntimeOptions() const;
};

/// Parses `argv` with only the options of `category` visible, with the
/// flag/environment table after the option list of --help.
void parseSubcommand(int argc, char **argv, llvm::cl::OptionCategory &category,
                     llvm::StringRef overview);

/// Prints `err` to standard error: as is when it already reads
/// `file:line:col: error: ...`, else after "tessera: error: ".
void printError(llvm::Error err);

/// The flag/environment table (for help texts).
std::string getEnvironmentHelp();

} // namespace mlir::tessera::tool

#endif // TESSERA_TOOLS_TESSERA_COMMANDS_H
