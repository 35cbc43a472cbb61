//===- FuzzScan.h - A fuzz input scanned as a kernel file -------*- C++ -*-===//
#ifndef TESSERA_FUZZ_FUZZSCAN_H
#define TESSERA_FUZZ_FUZZSCAN_H

#include "tessera/Frontend/Diagnostics.h"
#include "tessera/Frontend/KernelModule.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace tessera::fuzz {

/// `text` scanned as the kernel file `name`, its diagnostics written to
/// `os`: what the parser, host-evaluator, frontend and signature targets
/// start from. The module is scanned even when the text does not parse.
struct ScannedFile {
  ScannedFile(llvm::StringRef text, llvm::StringRef name, llvm::raw_ostream &os)
      : diags(sourceMgr, &os) {
    id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
    module = frontend::KernelModule::scan(sourceMgr, id, diags);
  }

  llvm::SourceMgr sourceMgr;
  frontend::DiagnosticEngine diags;
  unsigned id = 0;
  std::unique_ptr<frontend::KernelModule> module;
};

} // namespace tessera::fuzz

#endif // TESSERA_FUZZ_FUZZSCAN_H
