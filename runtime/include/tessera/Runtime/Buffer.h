//===- Buffer.h - Device memory owned by a handle ---------------*- C++ -*-===//
//
// A Buffer is a block of one device's memory, freed when the handle goes
// away. It remembers its size and, optionally, its element type, so that
// passing it to a kernel gives the pointer's type (`*fp32`) and autotuning
// can save, restore and zero it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_BUFFER_H
#define TESSERA_RUNTIME_BUFFER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::tessera {
class Driver;
} // namespace mlir::tessera

namespace mlir::tessera::runtime {

/// Memory of one device; move-only, freed on destruction.
class Buffer {
public:
  Buffer() = default;
  Buffer(Buffer &&other) noexcept;
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  /// Frees the memory; a failure is logged (use release() to see it).
  ~Buffer();

  /// Allocates `bytes` on `device` of `driver`. `elementType` is a Triton
  /// scalar type name or empty for raw bytes.
  static llvm::Expected<Buffer> allocate(Driver &driver, unsigned device,
                                         size_t bytes,
                                         llvm::StringRef elementType = "");

  bool isValid() const { return driver != nullptr; }
  explicit operator bool() const { return isValid(); }

  /// The address kernels see.
  uint64_t getAddress() const { return address; }
  size_t getSize() const { return size; }
  unsigned getDevice() const { return device; }
  Driver *getDriver() const { return driver; }
  /// The element type given at allocation ("" for raw bytes).
  llvm::StringRef getElementType() const { return elementType; }

  /// Copies `bytes` from host memory into the buffer at `offset`.
  llvm::Error copyFromHost(const void *src, size_t bytes, size_t offset = 0);
  /// Copies `bytes` at `offset` of the buffer into host memory.
  llvm::Error copyToHost(void *dst, size_t bytes, size_t offset = 0) const;
  /// Sets every byte to `byte`.
  llvm::Error fill(uint8_t byte);

  /// Frees the memory now and reports a failure.
  llvm::Error release();

private:
  llvm::Error checkRange(size_t bytes, size_t offset,
                         llvm::StringRef what) const;

  Driver *driver = nullptr;
  unsigned device = 0;
  uint64_t address = 0;
  size_t size = 0;
  std::string elementType;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_BUFFER_H
