//===- FuzzPluginFile.cpp - Fuzz target: the checks before dlopen ---------===//
//
// The bytes of a file named like a plugin, through the ELF checks the host
// runs before handing a file to dlopen (a file they pass must be one the
// loader can map whole), and the first bytes as the fields of a plugin
// descriptor through the descriptor checks.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "PluginFile.h"

#include <cstring>
#include <string>

using namespace mlir::tessera;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tessera::fuzz::silenceLogging();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes = tessera::fuzz::asText(data, size);
  llvm::consumeError(detail::checkSharedObjectImage(bytes));

  // A descriptor: two versions, a byte of flags saying which pointers are
  // set, and the rest as the name.
  struct {
    uint32_t api, llvm;
    uint8_t flags;
  } fields = {};
  std::memcpy(&fields, data, std::min(size, size_t(9)));
  std::string name = bytes.size() > 9 ? bytes.drop_front(9).str() : "";
  auto create = [](char **) -> void * { return nullptr; };
  auto destroy = [](void *) {};
  TesseraPluginDescriptor descriptor{fields.api,
                                     (fields.flags & 1) ? name.c_str()
                                                        : nullptr,
                                     (fields.flags & 2) ? "1.0" : nullptr,
                                     fields.llvm,
                                     (fields.flags & 4) ? "fuzz" : nullptr,
                                     (fields.flags & 8) ? +create : nullptr,
                                     (fields.flags & 16) ? +destroy : nullptr};
  llvm::consumeError(detail::checkDescriptor(descriptor));
  return 0;
}
