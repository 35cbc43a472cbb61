//===- ReplayMain.cpp - Run a fuzz target over files, without libFuzzer ---===//
//
// Outside the fuzzing configuration a target is this program: it calls the
// target once per file named on the command line (a directory names every
// file in it), so that the committed corpora and every input that once
// crashed run as regression tests in the ordinary build. A crash, a
// sanitizer report or an exception ends it as it would end libFuzzer.
//
//===----------------------------------------------------------------------===//
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!llvm::sys::fs::is_directory(argv[i])) {
      files.push_back(argv[i]);
      continue;
    }
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(argv[i], ec), end;
         !ec && it != end; it.increment(ec))
      if (!llvm::sys::fs::is_directory(it->path()))
        files.push_back(it->path());
  }
  // Directory order is arbitrary; runs are reproducible in name order.
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << file << ": cannot read: " << buffer.getError().message()
                   << "\n";
      return 1;
    }
    llvm::StringRef bytes = (*buffer)->getBuffer();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size());
  }
  llvm::outs() << "ran " << files.size() << " inputs\n";
  return 0;
}
