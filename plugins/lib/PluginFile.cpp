//===- PluginFile.cpp - Checks of a plugin file before dlopen -------------===//
#include "PluginFile.h"

#include "tessera/Plugin/PluginRegistry.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Config/llvm-config.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::tessera;
using namespace mlir::tessera::detail;

namespace {
llvm::Error refuse(const llvm::Twine &reason) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), reason);
}

/// A file shorter than its own headers say: the usual result of an install
/// or copy that was interrupted.
llvm::Error cutShort(const llvm::Twine &what, uint64_t end, uint64_t size) {
  return refuse("cut short (an interrupted install or copy?): " + what +
                " ends at byte " + llvm::Twine(end) + ", but the file has " +
                llvm::Twine(size) + " bytes");
}

constexpr unsigned char kHostClass =
    sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char kHostData = ELFDATA2LSB;
#else
constexpr unsigned char kHostData = ELFDATA2MSB;
#endif

/// The ELF machine of the code this host runs; 0 where it is not known
/// here, which skips the check (dlopen still refuses another machine, with
/// its own words).
constexpr uint16_t getHostMachine() {
#if defined(__x86_64__)
  return EM_X86_64;
#elif defined(__aarch64__)
  return EM_AARCH64;
#elif defined(__powerpc64__)
  return EM_PPC64;
#elif defined(__riscv)
  return EM_RISCV;
#else
  return 0;
#endif
}

/// `offset + count * entrySize`, or nullopt when it overflows.
std::optional<uint64_t> tableEnd(uint64_t offset, uint64_t count,
                                 uint64_t entrySize) {
  uint64_t bytes, end;
  if (__builtin_mul_overflow(count, entrySize, &bytes) ||
      __builtin_add_overflow(offset, bytes, &end))
    return std::nullopt;
  return end;
}

/// An open file descriptor, closed on every path.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
};
} // namespace

llvm::Error detail::checkSharedObject(FileReader read, uint64_t fileSize) {
  unsigned char ident[EI_NIDENT];
  if (fileSize < sizeof(ident) || !read(0, sizeof(ident), ident))
    return refuse("not a shared library: " + llvm::Twine(fileSize) +
                  " bytes are too few for an ELF header");
  if (std::memcmp(ident, ELFMAG, SELFMAG) != 0)
    return refuse("not a shared library: it does not start with the ELF "
                  "magic number");
  if (ident[EI_CLASS] != kHostClass)
    return refuse(llvm::Twine("built for ") +
                  (ident[EI_CLASS] == ELFCLASS32 ? "32-bit" : "another") +
                  " ELF class, but this host is " +
                  (kHostClass == ELFCLASS64 ? "64-bit" : "32-bit"));
  if (ident[EI_DATA] != kHostData)
    return refuse("built for another byte order than this host's");
  if (ident[EI_VERSION] != EV_CURRENT)
    return refuse("unknown ELF version " +
                  llvm::Twine(unsigned(ident[EI_VERSION])));

  ElfW(Ehdr) header;
  if (fileSize < sizeof(header) || !read(0, sizeof(header), &header))
    return cutShort("its ELF header", sizeof(header), fileSize);
  if (header.e_type != ET_DYN)
    return refuse("not a shared library: ELF type " +
                  llvm::Twine(header.e_type) + " (a shared library is " +
                  llvm::Twine(ET_DYN) + ")");
  if (constexpr uint16_t host = getHostMachine();
      host && header.e_machine != host)
    return refuse("built for another machine: ELF machine " +
                  llvm::Twine(header.e_machine) + ", this host's is " +
                  llvm::Twine(host));

  // The program headers: what the loader maps.
  if (header.e_phnum == 0)
    return refuse("not a shared library: it has no program headers");
  if (header.e_phentsize != sizeof(ElfW(Phdr)))
    return refuse("malformed: program header entries of " +
                  llvm::Twine(header.e_phentsize) + " bytes, expected " +
                  llvm::Twine(sizeof(ElfW(Phdr))));
  std::optional<uint64_t> phEnd =
      tableEnd(header.e_phoff, header.e_phnum, header.e_phentsize);
  if (!phEnd || *phEnd > fileSize)
    return cutShort("its program header table", phEnd.value_or(UINT64_MAX),
                    fileSize);
  bool hasLoad = false, hasDynamic = false;
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    ElfW(Phdr) ph;
    if (!read(header.e_phoff + uint64_t(i) * sizeof(ph), sizeof(ph), &ph))
      return cutShort("its program header table", *phEnd, fileSize);
    if (ph.p_type == PT_DYNAMIC)
      hasDynamic = true;
    if (ph.p_type != PT_LOAD)
      continue;
    hasLoad = true;
    if (ph.p_filesz > ph.p_memsz)
      return refuse("malformed: loadable segment " + llvm::Twine(i) +
                    " has more bytes in the file than in memory");
    uint64_t end;
    if (__builtin_add_overflow(uint64_t(ph.p_offset), uint64_t(ph.p_filesz),
                               &end) ||
        end > fileSize)
      return cutShort("its loadable segment " + llvm::Twine(i),
                      end > fileSize ? end : UINT64_MAX, fileSize);
  }
  if (!hasLoad)
    return refuse("not a shared library: it has no loadable segment");
  if (!hasDynamic)
    return refuse("not a shared library: it has no dynamic section");

  // The section headers are not mapped, but a linker writes them last: a
  // file that lacks them was cut after its segments.
  if (header.e_shoff != 0) {
    if (header.e_shentsize != sizeof(ElfW(Shdr)))
      return refuse("malformed: section header entries of " +
                    llvm::Twine(header.e_shentsize) + " bytes, expected " +
                    llvm::Twine(sizeof(ElfW(Shdr))));
    // With 0 sections listed, the count is in the first entry (extended
    // numbering); that entry at least must be there.
    std::optional<uint64_t> shEnd =
        tableEnd(header.e_shoff, header.e_shnum ? header.e_shnum : 1,
                 header.e_shentsize);
    if (!shEnd || *shEnd > fileSize)
      return cutShort("its section header table", shEnd.value_or(UINT64_MAX),
                      fileSize);
  }
  return llvm::Error::success();
}

llvm::Error detail::checkSharedObjectImage(llvm::StringRef image) {
  return checkSharedObject(
      [image](uint64_t offset, uint64_t size, void *out) {
        if (offset > image.size() || size > image.size() - offset)
          return false;
        std::memcpy(out, image.data() + offset, size);
        return true;
      },
      image.size());
}

llvm::Error detail::checkPluginFile(llvm::StringRef path) {
  std::string name = path.str();
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
  // writer. It changes nothing for the regular files that pass.
  FileDescriptor file{::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    int error = errno;
    struct stat link;
    if (error == ENOENT && ::lstat(name.c_str(), &link) == 0 &&
        S_ISLNK(link.st_mode)) {
      char target[4096];
      ssize_t n = ::readlink(name.c_str(), target, sizeof(target) - 1);
      target[n < 0 ? 0 : n] = '\0';
      return refuse("a symbolic link to '" + llvm::Twine(target) +
                    "', which does not exist");
    }
    return refuse("cannot open it: " + llvm::Twine(std::strerror(error)));
  }
  struct stat status;
  if (::fstat(file.fd, &status) != 0)
    return refuse("cannot read its status: " +
                  llvm::Twine(std::strerror(errno)));
  if (S_ISDIR(status.st_mode))
    return refuse("a directory, not a shared library");
  if (!S_ISREG(status.st_mode))
    return refuse(llvm::Twine("not a regular file but a ") +
                  (S_ISFIFO(status.st_mode)   ? "FIFO"
                   : S_ISCHR(status.st_mode)  ? "character device"
                   : S_ISBLK(status.st_mode)  ? "block device"
                   : S_ISSOCK(status.st_mode) ? "socket"
                                              : "special file"));
  uint64_t size = uint64_t(status.st_size);
  return checkSharedObject(
      [&](uint64_t offset, uint64_t count, void *out) {
        char *dst = static_cast<char *>(out);
        while (count) {
          ssize_t n = ::pread(file.fd, dst, count, off_t(offset));
          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            return false;
          dst += n;
          offset += uint64_t(n);
          count -= uint64_t(n);
        }
        return true;
      },
      size);
}

llvm::Error detail::checkDescriptor(const TesseraPluginDescriptor &d) {
  if (d.apiVersion > TESSERA_PLUGIN_API_VERSION)
    return refuse("built for plugin API version " + llvm::Twine(d.apiVersion) +
                  ", newer than this host's " +
                  llvm::Twine(TESSERA_PLUGIN_API_VERSION));
  if (d.apiVersion < kOldestSupportedPluginAPIVersion)
    return refuse("built for plugin API version " + llvm::Twine(d.apiVersion) +
                  ", older than the oldest this host supports (" +
                  llvm::Twine(kOldestSupportedPluginAPIVersion) + ")");
  if (d.llvmMajor != LLVM_VERSION_MAJOR)
    return refuse("built against LLVM " + llvm::Twine(d.llvmMajor) +
                  ", but this host uses LLVM " +
                  llvm::Twine(LLVM_VERSION_MAJOR));
  if (!d.name || !*d.name)
    return refuse("its descriptor has no name");
  if (!d.createBackend || !d.destroyBackend)
    return refuse("its descriptor lacks createBackend or destroyBackend");
  return llvm::Error::success();
}
