//===- PluginFile.h - Checks of a plugin file before dlopen -----*- C++ -*-===//
//
// The dynamic loader maps a shared library's segments straight from the
// file: a file cut short (an interrupted install or copy) maps pages past
// its end, and touching them kills the process with SIGBUS inside dlopen,
// before the host can refuse anything. A FIFO or a device named like a
// plugin blocks or reads forever. These checks read only the ELF header and
// the program and section header tables, so that such a file is refused
// with one line instead.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLUGIN_LIB_PLUGINFILE_H
#define TESSERA_PLUGIN_LIB_PLUGINFILE_H

#include "tessera/Plugin/PluginABI.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::tessera::detail {

/// Reads `size` bytes at `offset` of the file into `out`; false when the
/// file does not hold them all.
using FileReader =
    llvm::function_ref<bool(uint64_t offset, uint64_t size, void *out)>;

/// Checks that a file of `fileSize` bytes, read through `read`, is a shared
/// library the host's dynamic loader can map whole: an ELF file of the
/// host's class, byte order and machine, of type ET_DYN, whose header
/// tables and loadable segments all lie inside the file. The error says
/// why not, in one line that does not name the file.
llvm::Error checkSharedObject(FileReader read, uint64_t fileSize);

/// checkSharedObject over the bytes of `image`, a whole file in memory.
llvm::Error checkSharedObjectImage(llvm::StringRef image);

/// Checks the file at `path` before it is handed to dlopen: that it exists
/// (a dangling symbolic link does not), is a regular file (not a
/// directory, FIFO or device), and passes checkSharedObject. Opening never
/// blocks, so a FIFO is refused rather than waited on.
llvm::Error checkPluginFile(llvm::StringRef path);

/// Checks a plugin's descriptor as the host reads it: the API version
/// first (a descriptor of another version may have another layout past
/// it), the LLVM major version, the name and the two functions. The error
/// says why it is refused, in one line.
llvm::Error checkDescriptor(const TesseraPluginDescriptor &descriptor);

} // namespace mlir::tessera::detail

#endif // TESSERA_PLUGIN_LIB_PLUGINFILE_H
