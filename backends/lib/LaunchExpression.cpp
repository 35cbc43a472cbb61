//===- LaunchExpression.cpp - Evaluating launch expressions ---------------===//
#include "tessera/Backend/LaunchExpression.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace mlir::tessera;

namespace {

llvm::Error malformed(llvm::StringRef program, const llvm::Twine &why) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("launch expression '{0}': {1}", program, why.str()));
}

/// Parameter `index`'s value as a 64-bit integer.
llvm::Expected<int64_t> readParam(llvm::StringRef program, unsigned index,
                                  llvm::ArrayRef<KernelParam> params,
                                  llvm::ArrayRef<void *> args) {
  if (index >= params.size() || index >= args.size() || !args[index])
    return malformed(program, llvm::formatv("no parameter {0} (the launch "
                                            "passes {1})",
                                            index, args.size()));
  llvm::StringRef type = params[index].type;
  const void *at = args[index];
  if (type.starts_with("*")) {
    uint64_t address;
    std::memcpy(&address, at, sizeof(address));
    return int64_t(address);
  }
  bool isSigned = type.starts_with("i");
  unsigned bits = 0;
  if ((!isSigned && !type.starts_with("u")) ||
      type.drop_front().getAsInteger(10, bits))
    return malformed(program, llvm::formatv("parameter {0} has type {1}, not "
                                            "an integer or pointer",
                                            index, type));
  switch (bits) {
  case 1:
  case 8: {
    uint8_t v;
    std::memcpy(&v, at, 1);
    return bits == 1 ? int64_t(v & 1) : isSigned ? int64_t(int8_t(v)) : v;
  }
  case 16: {
    uint16_t v;
    std::memcpy(&v, at, 2);
    return isSigned ? int64_t(int16_t(v)) : int64_t(v);
  }
  case 32: {
    uint32_t v;
    std::memcpy(&v, at, 4);
    return isSigned ? int64_t(int32_t(v)) : int64_t(v);
  }
  case 64: {
    int64_t v;
    std::memcpy(&v, at, 8);
    return v;
  }
  default:
    return malformed(program,
                     llvm::formatv("parameter {0} has type {1}", index, type));
  }
}

} // namespace

llvm::Expected<int64_t>
mlir::tessera::evaluateLaunchExpression(llvm::StringRef program,
                                        llvm::ArrayRef<KernelParam> params,
                                        llvm::ArrayRef<void *> args) {
  llvm::SmallVector<int64_t, 8> stack;
  llvm::SmallVector<llvm::StringRef, 16> tokens;
  program.split(tokens, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef token : tokens) {
    if (token == "+" || token == "-" || token == "*") {
      if (stack.size() < 2)
        return malformed(program, "'" + token + "' needs two operands");
      // Wrapping, as the kernel's 64-bit arithmetic would.
      uint64_t rhs = uint64_t(stack.pop_back_val());
      uint64_t lhs = uint64_t(stack.back());
      uint64_t result = token == "+"   ? lhs + rhs
                        : token == "-" ? lhs - rhs
                                       : lhs * rhs;
      stack.back() = int64_t(result);
      continue;
    }
    if (token.consume_front("p")) {
      unsigned index;
      if (token.getAsInteger(10, index))
        return malformed(program, "bad parameter token 'p" + token + "'");
      llvm::Expected<int64_t> value = readParam(program, index, params, args);
      if (!value)
        return value.takeError();
      stack.push_back(*value);
      continue;
    }
    int64_t constant;
    if (token.getAsInteger(10, constant))
      return malformed(program, "unknown token '" + token + "'");
    stack.push_back(constant);
  }
  if (stack.size() != 1)
    return malformed(program,
                     llvm::formatv("leaves {0} values, not one", stack.size()));
  return stack.front();
}
