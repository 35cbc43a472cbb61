//===- tessera-amdgpu-link.cpp - lld's ELF linker for code objects --------===//
//
// The amdgpu plugin links each HSA code object in this process rather than
// in its host's: lld's driver keeps global state and resets every llvm::cl
// option of its process (the host's command line included), so an
// in-process link forced every host tool to copy its flags before each
// compile, and allowed one link at a time. The arguments are ld.lld's.
//
//===----------------------------------------------------------------------===//
#include "lld/Common/Driver.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

LLD_HAS_DRIVER(elf)

int main(int argc, const char **argv) {
  llvm::InitLLVM init(argc, argv);
  // lld picks its flavor by the program's name.
  std::vector<const char *> args(argv, argv + argc);
  args[0] = "ld.lld";
  lld::Result result = lld::lldMain(args, llvm::outs(), llvm::errs(),
                                    {{lld::Gnu, &lld::elf::link}});
  return result.retCode;
}
