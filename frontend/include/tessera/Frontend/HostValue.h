//===- HostValue.h - Values of host (compile-time) expressions --*- C++ -*-===//
//
// HostValue is what decorator arguments, module constants and heuristics
// evaluate to: None, bool, int (64-bit, overflow is an error), float, str,
// list, tuple, dict (insertion-ordered), a function (a module-level def or a
// lambda with its closure), a symbol (a host object known only by its
// qualified name: a module of the language, a dtype such as
// triton.language.float16, a builtin), a module Tessera loaded (a file of
// the kernel's package or library, or an embedder's namespace), an opaque
// host object an embedder knows only by its type, or a triton.Config.
// Values are immutable and cheap to copy (containers are shared).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_HOSTVALUE_H
#define TESSERA_FRONTEND_HOSTVALUE_H

#include "tessera/Frontend/SourceLoc.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tessera::frontend {

class FunctionDefStmt;
class KernelModule;
class LambdaExpr;
class HostValue;
struct HostScope;
struct TuneConfig;

/// A callable defined in the kernel file: a module-level def or a lambda.
struct HostFunction {
  const FunctionDefStmt *def = nullptr;
  const LambdaExpr *lambda = nullptr;
  /// Variables visible to a lambda created inside a comprehension or call.
  std::shared_ptr<HostScope> closure;
  /// The module whose globals the body reads (null: the evaluator's).
  const KernelModule *module = nullptr;
  /// The def's name, or "<lambda>".
  std::string name;
  /// A @triton.jit function: a value on the host, but not callable there.
  bool isJit = false;
};

class HostValue {
public:
  enum class Kind : uint8_t {
    None,
    Bool,
    Int,
    Float,
    String,
    List,
    Tuple,
    Dict,
    Function,
    Symbol,
    Module,
    Opaque,
    Config
  };
  using Elements = std::vector<HostValue>;
  using Items = std::vector<std::pair<HostValue, HostValue>>;

  HostValue() = default;
  static HostValue none() { return HostValue(); }
  static HostValue boolean(bool b) { return HostValue(Kind::Bool, b); }
  static HostValue integer(int64_t i) { return HostValue(Kind::Int, i); }
  static HostValue floating(double d) { return HostValue(Kind::Float, d); }
  static HostValue string(std::string s) {
    return HostValue(Kind::String, std::move(s));
  }
  static HostValue list(Elements elts) {
    return HostValue(Kind::List,
                     std::make_shared<const Elements>(std::move(elts)));
  }
  static HostValue tuple(Elements elts) {
    return HostValue(Kind::Tuple,
                     std::make_shared<const Elements>(std::move(elts)));
  }
  /// A dict with `items` in insertion order (keys must be distinct).
  static HostValue dict(Items items) {
    return HostValue(Kind::Dict,
                     std::make_shared<const Items>(std::move(items)));
  }
  static HostValue function(HostFunction fn) {
    return HostValue(Kind::Function,
                     std::make_shared<const HostFunction>(std::move(fn)));
  }
  /// A host object known by its qualified name ("triton.language.float16").
  static HostValue symbol(std::string qualifiedName) {
    return HostValue(Kind::Symbol, std::move(qualifiedName));
  }
  /// A module Tessera loaded: attribute reads evaluate its globals.
  static HostValue module(const KernelModule *module) {
    return HostValue(Kind::Module, module);
  }
  /// A host object known only by its type (an embedder's tensor, say):
  /// device code cannot use it, and saying so names `typeName`.
  static HostValue opaque(std::string typeName) {
    return HostValue(Kind::Opaque, std::move(typeName));
  }
  static HostValue config(TuneConfig config);

  Kind getKind() const { return kind; }
  bool isNone() const { return kind == Kind::None; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isInt() const { return kind == Kind::Int; }
  bool isFloat() const { return kind == Kind::Float; }
  bool isString() const { return kind == Kind::String; }
  bool isList() const { return kind == Kind::List; }
  bool isTuple() const { return kind == Kind::Tuple; }
  bool isDict() const { return kind == Kind::Dict; }
  bool isFunction() const { return kind == Kind::Function; }
  bool isSymbol() const { return kind == Kind::Symbol; }
  bool isModule() const { return kind == Kind::Module; }
  bool isOpaque() const { return kind == Kind::Opaque; }
  bool isConfig() const { return kind == Kind::Config; }
  /// int or bool (bool is a subtype of int in Python).
  bool isIntegral() const { return isInt() || isBool(); }
  bool isNumber() const { return isIntegral() || isFloat(); }
  /// list or tuple.
  bool isSequence() const { return isList() || isTuple(); }

  bool getBool() const { return std::get<bool>(payload); }
  /// The value of an int or bool.
  int64_t getInt() const {
    return isBool() ? int64_t(getBool()) : std::get<int64_t>(payload);
  }
  /// The value of any number as a double.
  double getNumber() const {
    return isFloat() ? std::get<double>(payload) : double(getInt());
  }
  double getFloat() const { return std::get<double>(payload); }
  /// The text of a string, the qualified name of a symbol, the type name
  /// of an opaque object.
  const std::string &getString() const {
    return std::get<std::string>(payload);
  }
  const Elements &getElements() const {
    return *std::get<std::shared_ptr<const Elements>>(payload);
  }
  const Items &getItems() const {
    return *std::get<std::shared_ptr<const Items>>(payload);
  }
  const HostFunction &getFunction() const {
    return *std::get<std::shared_ptr<const HostFunction>>(payload);
  }
  const KernelModule &getModule() const {
    return *std::get<const KernelModule *>(payload);
  }
  const TuneConfig &getConfig() const {
    return *std::get<std::shared_ptr<const TuneConfig>>(payload);
  }

  /// The value stored under `key` in a dict, or null.
  const HostValue *lookup(const HostValue &key) const;
  const HostValue *lookup(llvm::StringRef key) const {
    return lookup(HostValue::string(key.str()));
  }

  /// Python's bool(value).
  bool isTruthy() const;
  /// Python's ==, with 1 == 1.0 == True.
  bool equals(const HostValue &other) const;
  /// Whether the value may be a dict key (no lists or dicts inside).
  bool isHashable() const;

  /// Python's type name: "int", "list", "function", "triton.Config", ...
  std::string getTypeName() const;
  /// Python's repr().
  std::string repr() const;
  void print(llvm::raw_ostream &os) const { os << repr(); }

private:
  using Payload = std::variant<
      std::monostate, bool, int64_t, double, std::string,
      std::shared_ptr<const Elements>, std::shared_ptr<const Items>,
      std::shared_ptr<const HostFunction>, std::shared_ptr<const TuneConfig>,
      const KernelModule *>;
  template <typename T>
  HostValue(Kind kind, T &&value)
      : kind(kind), payload(std::forward<T>(value)) {}

  Kind kind = Kind::None;
  Payload payload;
};

/// One `triton.Config(...)`: the meta-parameters in the order written, and
/// the launch options with Triton's defaults.
struct TuneConfig {
  std::vector<std::pair<std::string, HostValue>> kwargs;
  int64_t numWarps = 4;
  int64_t numStages = 3;
  int64_t numCtas = 1;
  std::optional<int64_t> maxnreg;
  /// None or a function value.
  HostValue preHook;
  /// Where the Config call is, for diagnostics about this config.
  SourceLoc loc;

  /// The meta-parameter `name`, or null.
  const HostValue *lookup(llvm::StringRef name) const {
    for (const auto &[key, value] : kwargs)
      if (key == name)
        return &value;
    return nullptr;
  }
  std::string repr() const;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const HostValue &value) {
  value.print(os);
  return os;
}

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_HOSTVALUE_H
