//===- AtomicFile.cpp - Files that appear whole or not at all -------------===//
#include "tessera/Runtime/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace mlir::tessera::runtime;

namespace {
llvm::Error fileError(llvm::StringRef path, const llvm::Twine &what,
                      std::error_code ec) {
  return llvm::createStringError(ec, "cannot " + what + " '" + path +
                                         "': " + ec.message());
}

/// Writes all of `contents` to `fd`, retrying short writes.
std::error_code writeAll(int fd, llvm::StringRef contents) {
  const char *data = contents.data();
  size_t left = contents.size();
  while (left) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return std::error_code(errno, std::generic_category());
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  return {};
}

/// Makes the rename itself durable; failure only costs durability across a
/// power loss, never atomicity, so it is not an error.
void syncDirectory(llvm::StringRef dir) {
  int fd = ::open(dir.str().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;
  (void)::fsync(fd);
  ::close(fd);
}
} // namespace

llvm::Error
mlir::tessera::runtime::writeFileAtomically(llvm::StringRef path,
                                            llvm::StringRef contents) {
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (dir.empty())
    dir = ".";
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return fileError(dir, "create directory", ec);

  // The temporary lives in the final directory: rename is atomic only
  // within one file system.
  llvm::SmallString<256> model(dir);
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(path) +
                                     ".tmp-%%%%%%%%");
  int fd = -1;
  llvm::SmallString<256> temp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
    return fileError(model, "create temporary file", ec);

  std::error_code ec = writeAll(fd, contents);
  if (!ec && ::fsync(fd) != 0)
    ec = std::error_code(errno, std::generic_category());
  if (::close(fd) != 0 && !ec)
    ec = std::error_code(errno, std::generic_category());
  if (!ec)
    ec = llvm::sys::fs::rename(temp, path);
  if (ec) {
    (void)llvm::sys::fs::remove(temp);
    return fileError(path, "write", ec);
  }
  syncDirectory(dir);
  return llvm::Error::success();
}

llvm::Expected<std::string>
mlir::tessera::runtime::readWholeFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fileError(path, "read", buffer.getError());
  return (*buffer)->getBuffer().str();
}
