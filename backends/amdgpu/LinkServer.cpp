//===- LinkServer.cpp - lld's ELF driver in a process of its own ----------===//
//
// The server's standard input and output are one end of a socket pair (a
// socket rather than pipes: a write to a server that died fails with EPIPE
// instead of killing the host with SIGPIPE, MSG_NOSIGNAL). A request is
// the link's arguments joined by tabs, ending in a newline; an answer is
// "<exit code> <bytes>\n" followed by that many bytes of lld's messages.
//
//===----------------------------------------------------------------------===//
#include "LinkServer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace mlir::tessera::amdgpu;

namespace {

llvm::Error linkError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "amdgpu: the code object linker: " + message);
}

llvm::Error systemError(const llvm::Twine &what) {
  return linkError(what + ": " + std::strerror(errno));
}

class LinkServer {
public:
  llvm::Expected<LinkResult> link(llvm::StringRef linker,
                                  llvm::ArrayRef<std::string> args) {
    std::lock_guard<std::mutex> lock(mutex);
    if (fd >= 0 && program != linker)
      stop();
    std::string request = llvm::join(args, "\t") + "\n";
    // A server that ended (lld may not run again after a crash) is
    // restarted once.
    for (int attempt = 0;; ++attempt) {
      if (fd < 0)
        if (llvm::Error err = start(linker))
          return std::move(err);
      llvm::Expected<LinkResult> result = exchange(request);
      if (result || attempt == 1)
        return result;
      llvm::consumeError(result.takeError());
      stop();
    }
  }

private:
  llvm::Error start(llvm::StringRef linker) {
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
      return systemError("socketpair");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, ends[1], 0);
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
    program = linker.str();
    char *argv[] = {program.data(), const_cast<char *>(kServeFlag), nullptr};
    int spawned =
        ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(ends[1]);
    if (spawned != 0) {
      ::close(ends[0]);
      errno = spawned;
      return systemError("cannot start '" + program + "'");
    }
    fd = ends[0];
    return llvm::Error::success();
  }

  void stop() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
    if (pid > 0)
      ::waitpid(pid, nullptr, 0);
    pid = -1;
  }

  llvm::Expected<LinkResult> exchange(const std::string &request) {
    for (size_t sent = 0; sent < request.size();) {
      ssize_t n = ::send(fd, request.data() + sent, request.size() - sent,
                         MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return systemError("cannot send a link");
      sent += size_t(n);
    }
    std::string header;
    for (char c = 0; c != '\n';) {
      if (llvm::Error err = readExactly(&c, 1))
        return std::move(err);
      if (c != '\n')
        header.push_back(c);
    }
    auto [code, size] = llvm::StringRef(header).split(' ');
    LinkResult result;
    size_t bytes = 0;
    if (code.getAsInteger(10, result.exitCode) || size.getAsInteger(10, bytes))
      return linkError("a malformed answer '" + header + "'");
    result.messages.resize(bytes);
    if (llvm::Error err = readExactly(result.messages.data(), bytes))
      return std::move(err);
    return result;
  }

  llvm::Error readExactly(char *data, size_t bytes) {
    for (size_t got = 0; got < bytes;) {
      ssize_t n = ::read(fd, data + got, bytes - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return systemError("cannot read an answer");
      if (n == 0)
        return linkError("the linker ended without answering");
      got += size_t(n);
    }
    return llvm::Error::success();
  }

  std::mutex mutex;
  std::string program;
  pid_t pid = -1;
  int fd = -1;
};

} // namespace

llvm::Expected<LinkResult>
mlir::tessera::amdgpu::runLinkServer(llvm::StringRef linker,
                                     llvm::ArrayRef<std::string> args) {
  // Never destroyed: the server ends when its socket closes with the
  // process, and a link may run while static objects are destroyed.
  static LinkServer *server = new LinkServer();
  return server->link(linker, args);
}
