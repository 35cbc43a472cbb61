//===- AtomicFile.cpp - Files that appear whole or not at all -------------===//
#include "tessera/Runtime/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
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
  removeStaleTemporaries(dir);
  return llvm::Error::success();
}

unsigned
mlir::tessera::runtime::removeStaleTemporaries(llvm::StringRef dir,
                                               std::chrono::seconds age) {
  unsigned removed = 0;
  auto now = std::chrono::system_clock::now();
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.starts_with(".") || !name.contains(".tmp-"))
      continue;
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(it->path(), status, /*Follow=*/false) ||
        status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    if (now - status.getLastModificationTime() < age)
      continue;
    // Another writer may remove it first; either way it is gone.
    if (!llvm::sys::fs::remove(it->path()))
      ++removed;
  }
  return removed;
}

llvm::Expected<std::string>
mlir::tessera::runtime::readWholeFile(llvm::StringRef path, uint64_t maxSize) {
  auto failed = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read '" + path + "': " + why);
  };
  std::string name = path.str();
  // O_NONBLOCK: a FIFO would otherwise block the open until a writer came.
  int fd = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    std::error_code ec(errno, std::generic_category());
    return fileError(path, "read", ec);
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status;
  if (::fstat(fd, &status) != 0)
    return fileError(path, "read",
                     std::error_code(errno, std::generic_category()));
  if (!S_ISREG(status.st_mode))
    return failed(llvm::Twine("it is not a regular file but a ") +
                  (S_ISDIR(status.st_mode)    ? "directory"
                   : S_ISFIFO(status.st_mode) ? "FIFO"
                   : S_ISCHR(status.st_mode)  ? "character device"
                   : S_ISBLK(status.st_mode)  ? "block device"
                   : S_ISSOCK(status.st_mode) ? "socket"
                                              : "special file"));
  if (uint64_t(status.st_size) > maxSize)
    return failed("it has " + llvm::Twine(uint64_t(status.st_size)) +
                  " bytes, more than the limit of " + llvm::Twine(maxSize));
  // Read to the end, not just the size at open time (another process may
  // be appending), but never past the limit.
  std::string bytes(size_t(status.st_size), '\0');
  size_t done = 0;
  for (;;) {
    if (done == bytes.size()) {
      if (done > maxSize)
        return failed("it grew past the limit of " + llvm::Twine(maxSize) +
                      " bytes while it was read");
      bytes.resize(std::min<uint64_t>(done + 65536, maxSize + 1));
    }
    ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return fileError(path, "read",
                       std::error_code(errno, std::generic_category()));
    if (n == 0)
      break;
    done += size_t(n);
  }
  bytes.resize(done);
  return bytes;
}
