//===- Buffer.cpp - Device memory owned by a handle -----------------------===//
#include "tessera/Runtime/Buffer.h"

#include "tessera/Backend/Driver.h"
#include "tessera/Support/Logging.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

Buffer::Buffer(Buffer &&other) noexcept
    : driver(other.driver), device(other.device), address(other.address),
      size(other.size), elementType(std::move(other.elementType)) {
  other.driver = nullptr;
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    if (llvm::Error err = release())
      getLogger().error("{}", llvm::toString(std::move(err)));
    driver = other.driver;
    device = other.device;
    address = other.address;
    size = other.size;
    elementType = std::move(other.elementType);
    other.driver = nullptr;
  }
  return *this;
}

Buffer::~Buffer() {
  if (llvm::Error err = release())
    getLogger().error("{}", llvm::toString(std::move(err)));
}

llvm::Expected<Buffer> Buffer::allocate(Driver &driver, unsigned device,
                                        size_t bytes,
                                        llvm::StringRef elementType) {
  llvm::Expected<uint64_t> address = driver.allocate(device, bytes);
  if (!address)
    return address.takeError();
  Buffer buffer;
  buffer.driver = &driver;
  buffer.device = device;
  buffer.address = *address;
  buffer.size = bytes;
  buffer.elementType = elementType.str();
  return buffer;
}

llvm::Error Buffer::checkRange(size_t bytes, size_t offset,
                               llvm::StringRef what) const {
  if (!driver)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot " + what + ": the buffer is empty");
  if (offset > size || bytes > size - offset)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "cannot " + what + ": " + llvm::Twine(bytes) + " bytes at offset " +
            llvm::Twine(offset) + " exceed the buffer's " + llvm::Twine(size) +
            " bytes");
  return llvm::Error::success();
}

llvm::Error Buffer::copyFromHost(const void *src, size_t bytes, size_t offset) {
  if (llvm::Error err = checkRange(bytes, offset, "copy to the device"))
    return err;
  return driver->copyToDevice(device, address + offset, src, bytes);
}

llvm::Error Buffer::copyToHost(void *dst, size_t bytes, size_t offset) const {
  if (llvm::Error err = checkRange(bytes, offset, "copy to the host"))
    return err;
  return driver->copyToHost(device, dst, address + offset, bytes);
}

llvm::Error Buffer::fill(uint8_t byte) {
  if (llvm::Error err = checkRange(size, 0, "fill"))
    return err;
  return driver->fill(device, address, byte, size);
}

llvm::Error Buffer::release() {
  if (!driver)
    return llvm::Error::success();
  Driver *d = driver;
  driver = nullptr;
  return d->deallocate(device, address);
}
