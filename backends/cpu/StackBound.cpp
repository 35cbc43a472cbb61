//===- StackBound.cpp - Static frames, and the stack a kernel can need ----===//
//
// A launch may run program instances on the calling thread, whose stack is
// whatever its creator gave it (8 MB for a process's main thread, less for
// some), not the pool's 64 MB: it does so only when the kernel's frames are
// known to fit. The code generator writes each function's static frame size
// into a `.stack_sizes` section (LLVM's -stack-size-section); kernels do not
// recurse (the frontend rejects recursive calls), so the frames of all the
// object's functions added up bound any chain of calls among them.
//
// A frame is static when every alloca sits in its function's entry block:
// the lowering creates buffers where they are first needed, and an alloca
// elsewhere, even one that runs once, gives the function a frame of
// variable size (a stack adjustment at run time, a base register held for
// the frame, and no size in `.stack_sizes`). Allocas in no cycle run at
// most once per call, so moving them to the entry block changes nothing
// but that; those in cycles stay where they are.
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DataExtractor.h"

using namespace mlir::tessera;

std::optional<uint64_t> cpu::getStackBound(llvm::StringRef object) {
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> file =
      llvm::object::ObjectFile::createObjectFile(
          llvm::MemoryBufferRef(object, "kernel"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return std::nullopt;
  }
  size_t functions = 0;
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    llvm::Expected<llvm::object::SymbolRef::Type> type = symbol.getType();
    llvm::Expected<llvm::object::section_iterator> section =
        symbol.getSection();
    if (!type || !section) {
      llvm::consumeError(type.takeError());
      llvm::consumeError(section.takeError());
      return std::nullopt;
    }
    if (*type == llvm::object::SymbolRef::ST_Function &&
        *section != (*file)->section_end())
      ++functions;
  }
  uint64_t total = 0;
  size_t sized = 0;
  for (const llvm::object::SectionRef &section : (*file)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      return std::nullopt;
    }
    if (*name != ".stack_sizes")
      continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      return std::nullopt;
    }
    // Entries: the function's address (relocated), its frame in ULEB128.
    llvm::DataExtractor data(*contents, (*file)->isLittleEndian(),
                             (*file)->getBytesInAddress());
    llvm::DataExtractor::Cursor cursor(0);
    while (cursor && cursor.tell() < contents->size()) {
      data.getAddress(cursor);
      total += data.getULEB128(cursor);
      ++sized;
    }
    if (!cursor) {
      llvm::consumeError(cursor.takeError());
      return std::nullopt;
    }
  }
  // A function that allocates a variable amount of stack has no entry.
  if (sized != functions)
    return std::nullopt;
  return total;
}

void cpu::hoistStaticAllocas(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    // Cycles, not loops: an irreducible cycle is no loop to LoopInfo.
    llvm::CycleInfo cycles;
    cycles.compute(function);
    llvm::BasicBlock &entry = function.getEntryBlock();
    llvm::SmallVector<llvm::AllocaInst *> moving;
    for (llvm::BasicBlock &block : function) {
      if (&block == &entry || cycles.getCycle(&block))
        continue;
      for (llvm::Instruction &inst : block)
        if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
          if (llvm::isa<llvm::ConstantInt>(alloca->getArraySize()))
            moving.push_back(alloca);
    }
    llvm::BasicBlock::iterator front = entry.getFirstInsertionPt();
    for (llvm::AllocaInst *alloca : moving)
      alloca->moveBefore(entry, front);
  }
}
