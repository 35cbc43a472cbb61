//===- tessera.cpp - The Tessera command line -----------------------------===//
//
// tessera <subcommand> [options]: `plugins` lists the backends and their
// devices, `compile` compiles one kernel of a kernel file to any stage,
// `conformance` and `bench` run the conformance library's runner. Every
// subcommand prints its own options with --help.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "tessera/Support/Version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace mlir::tessera;
using namespace mlir::tessera::tool;

namespace {
struct Subcommand {
  llvm::StringLiteral name;
  llvm::StringLiteral summary;
  int (*run)(int argc, char **argv);
};

constexpr Subcommand kSubcommands[] = {
    {"plugins",
     "list the plugins, their devices and targets, and the files "
     "that failed to load",
     runPluginsCommand},
    {"compile",
     "compile one kernel of a kernel file for a signature, to any "
     "stage (tessera, tessera-gpu, llvm, asm, bin)",
     runCompileCommand},
    {"conformance", "run the conformance kernels against host references",
     runConformanceCommand},
    {"bench", "time the benchmark workloads", runBenchCommand},
};

void printUsage(llvm::raw_ostream &os) {
  os << "OVERVIEW: Tessera, a compiler for Triton kernels\n\n"
     << "USAGE: tessera <subcommand> [options]\n\n"
     << "SUBCOMMANDS:\n";
  for (const Subcommand &s : kSubcommands)
    os << "  " << llvm::left_justify(s.name, 12) << " " << s.summary << "\n";
  os << "\n'tessera <subcommand> --help' lists a subcommand's options.\n\n"
     << getEnvironmentHelp();
}
/// Flushes standard output and reports a failed write once, turning the
/// exit code into 1: left pending, LLVM's stream would abort at exit with
/// "LLVM ERROR: IO failure on output stream" (`tessera plugins >
/// /dev/full`).
int finishStandardOutput(int code) {
  llvm::raw_fd_ostream &out = llvm::outs();
  out.flush();
  if (!out.has_error())
    return code;
  std::error_code ec = out.error();
  out.clear_error();
  llvm::errs() << "tessera: error: cannot write to standard output: "
               << ec.message() << "\n";
  return code ? code : 1;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 2) {
    printUsage(llvm::errs());
    return 1;
  }
  llvm::StringRef command = argv[1];
  if (command == "--help" || command == "-help" || command == "-h" ||
      command == "help") {
    printUsage(llvm::outs());
    return finishStandardOutput(0);
  }
  if (command == "--version" || command == "version") {
    llvm::outs() << "tessera " << getTesseraVersion() << " (LLVM "
                 << getLLVMMajorVersion() << ")\n";
    return finishStandardOutput(0);
  }
  for (const Subcommand &s : kSubcommands) {
    if (s.name != command)
      continue;
    // The subcommand sees "tessera NAME" as its program name, so that its
    // help and messages read as the user typed it.
    std::string program = std::string("tessera ") + s.name.str();
    std::vector<char *> args = {program.data()};
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    int code = s.run(static_cast<int>(args.size() - 1), args.data());
    return finishStandardOutput(code);
  }
  llvm::errs() << "tessera: error: unknown subcommand '" << command
               << "'; see 'tessera --help'\n";
  return 1;
}
