//===- TestSupport.h - Small helpers of the runtime's tests -----*- C++ -*-===//
#ifndef TESSERA_RUNTIME_UNITTESTS_TESTSUPPORT_H
#define TESSERA_RUNTIME_UNITTESTS_TESTSUPPORT_H

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <cstdlib>
#include <optional>
#include <string>

/// Asserts that an llvm::Expected holds a value, printing its error if not.
#define ASSERT_EXPECTED(value)                                                 \
  ASSERT_TRUE(bool(value)) << llvm::toString((value).takeError())

/// Asserts that an llvm::Error is success, printing it if not.
#define ASSERT_NO_ERROR(expr)                                                  \
  do {                                                                         \
    llvm::Error assertErr = (expr);                                            \
    ASSERT_FALSE(bool(assertErr)) << llvm::toString(std::move(assertErr));     \
  } while (false)

namespace mlir::tessera::runtime::testing {

/// The message of `err`, or "success".
inline std::string errorOf(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : "success";
}

/// The message of a failed Expected, or "success".
template <typename T> std::string errorOf(llvm::Expected<T> &&value) {
  return value ? "success" : llvm::toString(value.takeError());
}

/// Sets (or, with null, unsets) an environment variable for one scope and
/// restores its previous value.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (previous)
      ::setenv(name, previous->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  const char *name;
  std::optional<std::string> previous;
};

} // namespace mlir::tessera::runtime::testing

#endif // TESSERA_RUNTIME_UNITTESTS_TESTSUPPORT_H
