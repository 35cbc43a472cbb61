//===- CommandSupport.cpp - Help and errors shared by the subcommands -----===//
#include "Commands.h"

#include "tessera/Runtime/Environment.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::tool;
namespace cl = llvm::cl;

std::string mlir::tessera::tool::getEnvironmentHelp() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "Environment (a flag given wins over its variable):\n";
  for (const EnvironmentSetting &s : getEnvironmentSettings())
    os << "  " << llvm::left_justify(s.variable, 22) << " "
       << llvm::left_justify(s.flag, 16) << " " << s.description << "\n";
  return text;
}

void mlir::tessera::tool::parseSubcommand(int argc, char **argv,
                                          cl::OptionCategory &category,
                                          llvm::StringRef overview) {
  // extrahelp keeps a reference to its text.
  static const std::string text = getEnvironmentHelp();
  static cl::extrahelp environment(text);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, overview);
}

void mlir::tessera::tool::printError(llvm::Error err) {
  std::string text = llvm::toString(std::move(err));
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  llvm::StringRef firstLine = llvm::StringRef(text).split('\n').first;
  // A diagnostic without a file already says "error: " (one about a flag's
  // value); the program's name goes before it, not a second "error:".
  if (firstLine.contains(": error: "))
    llvm::errs() << text << "\n";
  else if (firstLine.starts_with("error: "))
    llvm::errs() << "tessera: " << text << "\n";
  else
    llvm::errs() << "tessera: error: " << text << "\n";
}
