//===- PluginFileTest.cpp - Broken plugin files of every kind -------------===//
//
// Each file here is damaged in one way that happens in practice: an install
// or copy cut short, a header patched or from another machine, something
// that is not a file at all. The host must refuse each with one line naming
// the file and keep working; before these checks a file cut short killed
// every command with SIGBUS inside dlopen, and one cut to 90% loaded and
// replaced the real plugin.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "PluginFile.h"

#include "tessera/Plugin/PluginRegistry.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <cstring>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::tessera;
using namespace mlir::tessera::test;
using testing::HasSubstr;

namespace {

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  EXPECT_TRUE(bool(buffer)) << path;
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

void writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << path << ": " << ec.message();
  os << bytes;
}

/// A fresh directory, removed with everything in it at the end of a test.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> dir;
    EXPECT_FALSE(
        llvm::sys::fs::createUniqueDirectory("tessera-plugin-file", dir));
    path = std::string(dir);
  }
  ~TempDir() { (void)llvm::sys::fs::remove_directories(path); }
  /// `<dir>/tessera-plugin-<name>.so`.
  std::string plugin(const std::string &name) const {
    return path + "/tessera-plugin-" + name + ".so";
  }
  std::string path;
};

/// The reason the host gives for the only file of `path`, checked to be
/// that file's one line.
std::string refusalOf(const std::string &path) {
  PluginRegistry registry(only({path}));
  EXPECT_TRUE(registry.enumerate().empty());
  llvm::ArrayRef<PluginLoadFailure> failures = registry.getLoadFailures();
  if (failures.size() != 1) {
    ADD_FAILURE() << "expected one failure for " << path << ", got "
                  << failures.size();
    return "";
  }
  EXPECT_EQ(failures[0].path, path);
  llvm::StringRef message = failures[0].message;
  EXPECT_TRUE(message.consume_front(path + ": ")) << message.str();
  EXPECT_EQ(message.find('\n'), llvm::StringRef::npos);
  return message.str();
}

/// The good fixture's bytes with the header field at `offset` (of `size`
/// bytes) set to `value`.
std::string patched(size_t offset, size_t size, uint64_t value) {
  std::string bytes = readFile(fixture("good"));
  EXPECT_LE(offset + size, bytes.size());
  std::memcpy(bytes.data() + offset, &value, size); // little-endian host
  return bytes;
}

#define FIELD(member) offsetof(ElfW(Ehdr), member), sizeof(ElfW(Ehdr)::member)

TEST(PluginFileTest, GoodFilePasses) {
  llvm::Error err = detail::checkPluginFile(fixture("good"));
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  err = detail::checkSharedObjectImage(readFile(fixture("good")));
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
}

TEST(PluginFileTest, EveryCutIsRefusedBeforeDlopen) {
  TempDir dir;
  std::string whole = readFile(fixture("good"));
  ASSERT_GT(whole.size(), 4096u);
  // The loader maps segments from the file: without the check, the cuts
  // that keep the program headers would die with SIGBUS in dlopen.
  for (size_t size :
       {size_t(0), size_t(3), size_t(16), size_t(63), size_t(64), size_t(200),
        whole.size() / 10, whole.size() / 4, whole.size() / 2,
        whole.size() * 9 / 10, whole.size() * 99 / 100, whole.size() - 1}) {
    SCOPED_TRACE("cut to " + std::to_string(size) + " bytes");
    std::string path = dir.plugin("cut-" + std::to_string(size));
    writeFile(path, llvm::StringRef(whole).take_front(size));
    std::string reason = refusalOf(path);
    if (size < 16) {
      EXPECT_THAT(reason, HasSubstr(std::to_string(size) +
                                    " bytes are too few for an ELF header"));
    } else {
      EXPECT_THAT(reason,
                  HasSubstr("cut short (an interrupted install or copy?)"));
      EXPECT_THAT(reason, HasSubstr("but the file has " + std::to_string(size) +
                                    " bytes"));
    }
  }
}

TEST(PluginFileTest, HeadersOfAnotherKind) {
  TempDir dir;
  struct Case {
    const char *name;
    std::string bytes;
    const char *reason;
  };
  std::vector<Case> cases = {
      {"magic", patched(0, 1, 0x7e), "does not start with the ELF magic"},
      {"class32", patched(EI_CLASS, 1, ELFCLASS32),
       "built for 32-bit ELF class, but this host is 64-bit"},
      {"big-endian", patched(EI_DATA, 1, ELFDATA2MSB),
       "built for another byte order"},
      {"version", patched(EI_VERSION, 1, 7), "unknown ELF version 7"},
      {"executable", patched(FIELD(e_type), ET_EXEC),
       "not a shared library: ELF type 2"},
      {"relocatable", patched(FIELD(e_type), ET_REL),
       "not a shared library: ELF type 1"},
      {"machine", patched(FIELD(e_machine), EM_ARM),
       "built for another machine: ELF machine 40"},
      {"no-phdrs", patched(FIELD(e_phnum), 0), "no program headers"},
      {"phentsize", patched(FIELD(e_phentsize), 32),
       "program header entries of 32 bytes"},
      {"phoff", patched(FIELD(e_phoff), uint64_t(1) << 40),
       "its program header table ends at byte"},
      {"phoff-overflow", patched(FIELD(e_phoff), ~uint64_t(0)),
       "its program header table ends at byte"},
      {"shentsize", patched(FIELD(e_shentsize), 12),
       "section header entries of 12 bytes"},
      {"shoff", patched(FIELD(e_shoff), uint64_t(1) << 50),
       "its section header table ends at byte"},
  };
  // The first loadable segment, moved past the end of the file.
  {
    std::string bytes = readFile(fixture("good"));
    ElfW(Ehdr) eh;
    std::memcpy(&eh, bytes.data(), sizeof(eh));
    for (unsigned i = 0; i < eh.e_phnum; ++i) {
      size_t at = eh.e_phoff + i * sizeof(ElfW(Phdr));
      ElfW(Phdr) ph;
      std::memcpy(&ph, bytes.data() + at, sizeof(ph));
      if (ph.p_type != PT_LOAD)
        continue;
      ph.p_offset = bytes.size();
      ph.p_filesz = std::min<uint64_t>(ph.p_memsz, 4096);
      std::memcpy(bytes.data() + at, &ph, sizeof(ph));
      break;
    }
    cases.push_back({"segment", bytes, "its loadable segment"});
  }
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    std::string path = dir.plugin(c.name);
    writeFile(path, c.bytes);
    EXPECT_THAT(refusalOf(path), HasSubstr(c.reason));
  }
}

TEST(PluginFileTest, ThingsThatAreNotFiles) {
  TempDir dir;
  std::string directory = dir.plugin("directory");
  ASSERT_FALSE(llvm::sys::fs::create_directory(directory));
  std::string dangling = dir.plugin("dangling");
  ASSERT_EQ(::symlink((dir.path + "/nowhere.so").c_str(), dangling.c_str()), 0);
  std::string fifo = dir.plugin("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string device = dir.plugin("zero");
  ASSERT_EQ(::symlink("/dev/zero", device.c_str()), 0);
  std::string empty = dir.plugin("empty");
  writeFile(empty, "");
  std::string text = dir.plugin("text");
  writeFile(text, "#!/bin/sh\necho not a plugin\n");

  // Named one by one, each is refused with its own words (and the FIFO and
  // the device neither block nor read forever). A directory named on the
  // path is searched, not loaded.
  EXPECT_EQ(refusalOf(fifo), "not a regular file but a FIFO");
  EXPECT_EQ(refusalOf(device), "not a regular file but a character device");
  EXPECT_THAT(refusalOf(empty), HasSubstr("0 bytes are too few"));
  EXPECT_THAT(refusalOf(text), HasSubstr("does not start with the ELF magic"));
  // A dangling link given by name is "no such file" to discovery; found in
  // a directory, the loader says where it points.
  EXPECT_EQ(refusalOf(dangling), "no such file or directory");

  // Found in a directory, none is skipped without a word.
  PluginRegistry registry(only({dir.path}));
  EXPECT_TRUE(registry.enumerate().empty());
  std::vector<std::string> lines;
  for (const PluginLoadFailure &failure : registry.getLoadFailures())
    lines.push_back(failure.message);
  EXPECT_THAT(lines, testing::UnorderedElementsAre(
                         directory + ": a directory, not a shared library",
                         dangling + ": a symbolic link to '" + dir.path +
                             "/nowhere.so', which does not exist",
                         fifo + ": not a regular file but a FIFO",
                         device + ": not a regular file but a character device",
                         HasSubstr(empty + ": not a shared library"),
                         HasSubstr(text + ": not a shared library")));
}

TEST(PluginFileTest, GoodPluginStillLoadsBesideBrokenCopies) {
  TempDir dir;
  std::string whole = readFile(fixture("good"));
  // The broken copy sorts first and carries the same name: before the
  // checks, the cut one was dlopened first.
  writeFile(dir.plugin("a-cut"),
            llvm::StringRef(whole).take_front(whole.size() * 9 / 10));
  PluginRegistry registry(only({dir.path, fixture("good")}));
  ASSERT_EQ(registry.enumerate().size(), 1u);
  EXPECT_EQ(registry.enumerate()[0].path, fixture("good"));
  ASSERT_EQ(registry.getLoadFailures().size(), 1u);
  EXPECT_THAT(registry.getLoadFailures()[0].message, HasSubstr("cut short"));
}

TEST(PluginFileTest, ReplacingABuiltInPluginWarns) {
  TempDir dir;
  std::string builtIn =
      std::string(TESSERA_TEST_PLUGIN_DIR) + "/tessera-plugin-null.so";
  std::string whole = readFile(builtIn);
  std::string copy = dir.plugin("null");
  writeFile(copy, whole);
  {
    ScopedPluginPath env(copy);
    PluginRegistry registry;
    const PluginInfo *null = registry.lookup("null");
    ASSERT_NE(null, nullptr);
    EXPECT_EQ(null->path, copy);
    EXPECT_EQ(null->origin, PluginOrigin::Environment);
    std::vector<std::string> lines;
    for (const PluginLoadFailure &failure : registry.getLoadFailures())
      lines.push_back(failure.message);
    EXPECT_THAT(lines, testing::Contains(HasSubstr(
                           ": the built-in plugin 'null' is replaced by " +
                           copy + " (TESSERA_PLUGIN_PATH)")));
  }
  // Cut to 90%, a copy is refused and the built-in one is used. (A new
  // file: the whole copy stays mapped, and rewriting a mapped library
  // crashes whoever runs its code next.)
  std::string cut = dir.plugin("null-cut");
  writeFile(cut, llvm::StringRef(whole).take_front(whole.size() * 9 / 10));
  {
    ScopedPluginPath env(cut);
    PluginRegistry registry;
    const PluginInfo *null = registry.lookup("null");
    ASSERT_NE(null, nullptr);
    EXPECT_EQ(null->origin, PluginOrigin::ProgramPrefix);
    ASSERT_FALSE(registry.getLoadFailures().empty());
    EXPECT_THAT(registry.getLoadFailures()[0].message,
                HasSubstr(cut + ": cut short"));
  }
}

TEST(PluginFileTest, DescriptorChecks) {
  auto create = [](char **) -> void * { return nullptr; };
  auto destroy = [](void *) {};
  TesseraPluginDescriptor good{TESSERA_PLUGIN_API_VERSION,
                               "x",
                               "1",
                               LLVM_VERSION_MAJOR,
                               "d",
                               +create,
                               +destroy};
  EXPECT_FALSE(bool(detail::checkDescriptor(good)));
  auto reason = [](TesseraPluginDescriptor d) {
    return llvm::toString(detail::checkDescriptor(d));
  };
  TesseraPluginDescriptor d = good;
  d.apiVersion = 0;
  EXPECT_THAT(reason(d), HasSubstr("older than the oldest"));
  d = good;
  d.name = "";
  EXPECT_EQ(reason(d), "its descriptor has no name");
  d = good;
  d.destroyBackend = nullptr;
  EXPECT_EQ(reason(d), "its descriptor lacks createBackend or destroyBackend");
}

} // namespace
