//===- tessera-amdgpu-link.cpp - lld's ELF linker for code objects --------===//
//
// The amdgpu plugin links each HSA code object in this process rather than
// in its host's: lld's driver keeps global state and resets every llvm::cl
// option of its process (the host's command line included), so an
// in-process link forced every host tool to copy its flags before each
// compile, and allowed one link at a time. The arguments are ld.lld's; with
// --tessera-serve it links one request after another (LinkServer.h), so a
// host pays for starting it once.
//
//===----------------------------------------------------------------------===//
#include "LinkServer.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>
#include <string>
#include <vector>

LLD_HAS_DRIVER(elf)

using mlir::tessera::amdgpu::kServeFlag;

namespace {
/// One link: ld.lld with `args` (no program name), its messages in
/// `messages`; false when lld cannot run again in this process.
bool link(llvm::ArrayRef<const char *> args, int &exitCode,
          std::string &messages) {
  std::vector<const char *> argv = {"ld.lld"};
  argv.insert(argv.end(), args.begin(), args.end());
  llvm::raw_string_ostream os(messages);
  lld::Result result =
      lld::lldMain(argv, os, os, {{lld::Gnu, &lld::elf::link}});
  exitCode = result.retCode;
  return result.canRunAgain;
}

/// Links requests from standard input until it closes: each a line of
/// tab-separated arguments, each answered on standard output with
/// "<exit code> <bytes>\n" and lld's messages.
int serve() {
  std::string line;
  while (std::getline(std::cin, line)) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(line).split(parts, '\t');
    std::vector<std::string> args(parts.begin(), parts.end());
    std::vector<const char *> pointers;
    for (const std::string &arg : args)
      pointers.push_back(arg.c_str());
    int exitCode = 0;
    std::string messages;
    bool again = link(pointers, exitCode, messages);
    std::cout << exitCode << ' ' << messages.size() << '\n'
              << messages << std::flush;
    if (!again)
      return 1;
  }
  return 0;
}
} // namespace

int main(int argc, const char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc == 2 && llvm::StringRef(argv[1]) == kServeFlag)
    return serve();
  // lld picks its flavor by the program's name, which link() gives.
  int exitCode = 0;
  std::string messages;
  link(llvm::ArrayRef(argv + 1, argc - 1), exitCode, messages);
  llvm::errs() << messages;
  return exitCode;
}
