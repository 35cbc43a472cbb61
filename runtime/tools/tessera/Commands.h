//===- Commands.h - The subcommands of the tessera tool ---------*- C++ -*-===//
#ifndef TESSERA_TOOLS_TESSERA_COMMANDS_H
#define TESSERA_TOOLS_TESSERA_COMMANDS_H

#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/SessionFlags.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace mlir::tessera::tool {

/// Each subcommand gets argv[0] = "tessera <subcommand>" and the rest of
/// the arguments, and returns the exit code.
int runPluginsCommand(int argc, char **argv);
int runCompileCommand(int argc, char **argv);
int runConformanceCommand(int argc, char **argv);
int runBenchCommand(int argc, char **argv);

/// The flags every subcommand shares (--backend, ...), from the runtime.
using runtime::SessionFlags;

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
