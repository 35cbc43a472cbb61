//===- HostBuiltins.cpp - Operators and builtins of host expressions ------===//
//
// Python's arithmetic on 64-bit integers (overflow is an error rather than a
// silent wrap, since Python integers are unbounded) and the builtins that
// kernel files use in decorators and heuristics.
//
//===----------------------------------------------------------------------===//
#include "tessera/Frontend/HostEvaluator.h"

#include "tessera/Frontend/Codegen/DtypeMethods.h"
#include "tessera/Frontend/Language.h"
#include "tessera/Frontend/ModuleSet.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace tessera::frontend;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::success;

static const char *const kOverflow =
    "integer overflow in compile-time arithmetic (Tessera evaluates host "
    "integers in 64 bits)";

/// Python's floor division and modulo on integers.
static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
static int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

FailureOr<HostValue> HostEvaluator::evalBinary(BinaryOpKind op,
                                               const HostValue &lhs,
                                               const HostValue &rhs,
                                               llvm::SMLoc loc) {
  using B = BinaryOpKind;
  auto unsupported = [&]() -> FailureOr<HostValue> {
    return emitError(loc, "unsupported operand types for " + getSpelling(op) +
                              ": '" + lhs.getTypeName() + "' and '" +
                              rhs.getTypeName() + "'");
  };
  // Sequences and strings.
  if (op == B::Add && lhs.isString() && rhs.isString())
    return HostValue::string(lhs.getString() + rhs.getString());
  if (op == B::Add && lhs.isSequence() && rhs.getKind() == lhs.getKind()) {
    std::vector<HostValue> elts = lhs.getElements();
    elts.insert(elts.end(), rhs.getElements().begin(), rhs.getElements().end());
    return lhs.isList() ? HostValue::list(std::move(elts))
                        : HostValue::tuple(std::move(elts));
  }
  if (op == B::Mult && (lhs.isSequence() || lhs.isString() ||
                        rhs.isSequence() || rhs.isString())) {
    const HostValue &seq = lhs.isIntegral() ? rhs : lhs;
    const HostValue &count = lhs.isIntegral() ? lhs : rhs;
    if (!count.isIntegral() || !(seq.isSequence() || seq.isString()))
      return unsupported();
    int64_t n = std::max<int64_t>(count.getInt(), 0);
    size_t size =
        seq.isString() ? seq.getString().size() : seq.getElements().size();
    if (size && n > int64_t((1 << 20) / size))
      return emitError(loc, "sequence repetition is too large");
    // Nothing repeated is nothing, at once: `"" * 44044444444444` looped
    // 4e13 times (a hang found by fuzzing signatures).
    if (size == 0)
      n = 0;
    if (seq.isString()) {
      std::string out;
      for (int64_t i = 0; i < n; ++i)
        out += seq.getString();
      return HostValue::string(out);
    }
    std::vector<HostValue> elts;
    for (int64_t i = 0; i < n; ++i)
      elts.insert(elts.end(), seq.getElements().begin(),
                  seq.getElements().end());
    return seq.isList() ? HostValue::list(std::move(elts))
                        : HostValue::tuple(std::move(elts));
  }
  if (!lhs.isNumber() || !rhs.isNumber() || op == B::MatMult)
    return unsupported();

  bool isFloat = lhs.isFloat() || rhs.isFloat();
  bool isBitwise = op == B::LShift || op == B::RShift || op == B::BitAnd ||
                   op == B::BitOr || op == B::BitXor;
  // Python has no shifts or bitwise operators on floats (TypeError); this
  // read a float as an int and ended the process (found by fuzzing).
  if (isFloat && isBitwise)
    return unsupported();
  if (op == B::Div || isFloat) {
    double a = lhs.getNumber(), b = rhs.getNumber();
    switch (op) {
    case B::Add:
      return HostValue::floating(a + b);
    case B::Sub:
      return HostValue::floating(a - b);
    case B::Mult:
      return HostValue::floating(a * b);
    case B::Div:
      if (b == 0)
        return emitError(loc, "division by zero");
      return HostValue::floating(a / b);
    case B::FloorDiv:
      if (b == 0)
        return emitError(loc, "float floor division by zero");
      return HostValue::floating(std::floor(a / b));
    case B::Mod: {
      if (b == 0)
        return emitError(loc, "float modulo by zero");
      double r = std::fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
      return HostValue::floating(r);
    }
    case B::Pow:
      return HostValue::floating(std::pow(a, b));
    default:
      return unsupported();
    }
  }

  int64_t a = lhs.getInt(), b = rhs.getInt(), r = 0;
  bool bothBool = lhs.isBool() && rhs.isBool();
  switch (op) {
  case B::Add:
    if (llvm::AddOverflow(a, b, r))
      return emitError(loc, kOverflow);
    return HostValue::integer(r);
  case B::Sub:
    if (llvm::SubOverflow(a, b, r))
      return emitError(loc, kOverflow);
    return HostValue::integer(r);
  case B::Mult:
    if (llvm::MulOverflow(a, b, r))
      return emitError(loc, kOverflow);
    return HostValue::integer(r);
  case B::FloorDiv:
  case B::Mod:
    if (b == 0)
      return emitError(loc, "integer division or modulo by zero");
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return op == B::Mod ? HostValue::integer(0)
                          : FailureOr<HostValue>(emitError(loc, kOverflow));
    return HostValue::integer(op == B::FloorDiv ? floorDiv(a, b)
                                                : floorMod(a, b));
  case B::Pow: {
    if (b < 0)
      return HostValue::floating(std::pow(double(a), double(b)));
    int64_t result = 1, base = a;
    for (int64_t e = b; e > 0; e >>= 1) {
      if ((e & 1) && llvm::MulOverflow(result, base, result))
        return emitError(loc, kOverflow);
      if (e > 1 && llvm::MulOverflow(base, base, base))
        return emitError(loc, kOverflow);
    }
    return HostValue::integer(result);
  }
  case B::LShift:
    if (b < 0)
      return emitError(loc, "negative shift count");
    if (a != 0 &&
        (b >= 63 || (a > 0 ? a > (INT64_MAX >> b) : a < (INT64_MIN >> b))))
      return emitError(loc, kOverflow);
    return HostValue::integer(a == 0 ? 0 : int64_t(uint64_t(a) << b));
  case B::RShift:
    if (b < 0)
      return emitError(loc, "negative shift count");
    return HostValue::integer(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
  case B::BitAnd:
    return bothBool ? HostValue::boolean(a & b) : HostValue::integer(a & b);
  case B::BitOr:
    return bothBool ? HostValue::boolean(a | b) : HostValue::integer(a | b);
  case B::BitXor:
    return bothBool ? HostValue::boolean(a ^ b) : HostValue::integer(a ^ b);
  default:
    return unsupported();
  }
}

FailureOr<HostValue>
HostEvaluator::evalUnary(UnaryOpKind op, const HostValue &v, llvm::SMLoc loc) {
  switch (op) {
  case UnaryOpKind::Not:
    return HostValue::boolean(!v.isTruthy());
  case UnaryOpKind::UAdd:
    if (v.isFloat())
      return v;
    if (v.isIntegral())
      return HostValue::integer(v.getInt());
    break;
  case UnaryOpKind::USub:
    if (v.isFloat())
      return HostValue::floating(-v.getFloat());
    if (v.isIntegral()) {
      if (v.getInt() == std::numeric_limits<int64_t>::min())
        return emitError(loc, kOverflow);
      return HostValue::integer(-v.getInt());
    }
    break;
  case UnaryOpKind::Invert:
    if (v.isIntegral())
      return HostValue::integer(~v.getInt());
    break;
  }
  return emitError(loc, "bad operand type for unary " + getSpelling(op) +
                            ": '" + v.getTypeName() + "'");
}

/// -1, 0, 1 for an ordering comparison of comparable values; nullopt if the
/// values cannot be ordered.
static std::optional<int> order(const HostValue &a, const HostValue &b) {
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat()) {
      double x = a.getNumber(), y = b.getNumber();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    int64_t x = a.getInt(), y = b.getInt();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a.isString() && b.isString()) {
    int c = a.getString().compare(b.getString());
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  }
  if (a.isSequence() && a.getKind() == b.getKind()) {
    const auto &x = a.getElements(), &y = b.getElements();
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
      if (x[i].equals(y[i]))
        continue;
      return order(x[i], y[i]);
    }
    return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
  }
  return std::nullopt;
}

FailureOr<bool> HostEvaluator::evalCompare(CmpOpKind op, const HostValue &lhs,
                                           const HostValue &rhs,
                                           llvm::SMLoc loc) {
  switch (op) {
  case CmpOpKind::Eq:
    return lhs.equals(rhs);
  case CmpOpKind::NotEq:
    return !lhs.equals(rhs);
  case CmpOpKind::Is:
  case CmpOpKind::IsNot: {
    // Identity is only meaningful for singletons here.
    bool same = lhs.getKind() == rhs.getKind() && lhs.equals(rhs);
    return op == CmpOpKind::Is ? same : !same;
  }
  case CmpOpKind::In:
  case CmpOpKind::NotIn: {
    bool found;
    if (rhs.isString()) {
      if (!lhs.isString())
        return FailureOr<bool>(
            emitError(loc, "'in <string>' requires a string"));
      found = rhs.getString().find(lhs.getString()) != std::string::npos;
    } else if (rhs.isDict()) {
      found = rhs.lookup(lhs) != nullptr;
    } else if (rhs.isSequence()) {
      found = llvm::any_of(rhs.getElements(),
                           [&](const HostValue &e) { return e.equals(lhs); });
    } else {
      return FailureOr<bool>(emitError(
          loc, "argument of type '" + rhs.getTypeName() + "' is not iterable"));
    }
    return op == CmpOpKind::In ? found : !found;
  }
  default: {
    std::optional<int> c = order(lhs, rhs);
    if (!c)
      return FailureOr<bool>(emitError(
          loc, "'" + getSpelling(op) + "' not supported between '" +
                   lhs.getTypeName() + "' and '" + rhs.getTypeName() + "'"));
    switch (op) {
    case CmpOpKind::Lt:
      return *c < 0;
    case CmpOpKind::LtE:
      return *c <= 0;
    case CmpOpKind::Gt:
      return *c > 0;
    default:
      return *c >= 0;
    }
  }
  }
}

/// The release numbers of a PEP 440 version ("3.6.0+git1a2b" -> (3, 6, 0)),
/// which compare as Python compares packaging's Version objects for
/// releases.
static std::optional<HostValue> parseVersion(llvm::StringRef text) {
  text = text.trim();
  text.consume_front("v");
  std::vector<HostValue> parts;
  while (!text.empty() && llvm::isDigit(text.front())) {
    size_t n = 0;
    while (n < text.size() && llvm::isDigit(text[n]))
      ++n;
    int64_t value;
    if (text.take_front(n).getAsInteger(10, value))
      return std::nullopt;
    parts.push_back(HostValue::integer(value));
    text = text.drop_front(n);
    if (!text.consume_front("."))
      break;
  }
  if (parts.empty())
    return std::nullopt;
  return HostValue::tuple(std::move(parts));
}

FailureOr<HostValue>
HostEvaluator::callStringMethod(const std::string &text, llvm::StringRef method,
                                llvm::ArrayRef<HostValue> args,
                                llvm::SMLoc loc) {
  llvm::StringRef s = text;
  auto stringArg = [&](size_t i) -> const std::string * {
    return i < args.size() && args[i].isString() ? &args[i].getString()
                                                 : nullptr;
  };
  auto bad = [&]() -> FailureOr<HostValue> {
    return emitError(loc, "cannot evaluate str." + method +
                              "(...) with these "
                              "arguments at "
                              "compile time");
  };
  if (method == "split") {
    std::vector<HostValue> parts;
    if (args.empty() || args[0].isNone()) {
      llvm::SmallVector<llvm::StringRef> pieces;
      s.split(pieces, ' ', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef p : pieces)
        if (!p.trim().empty())
          parts.push_back(HostValue::string(p.trim().str()));
      return HostValue::list(std::move(parts));
    }
    const std::string *sep = stringArg(0);
    if (!sep || sep->empty() || args.size() > 2)
      return bad();
    int64_t maxSplit = -1;
    if (args.size() == 2) {
      if (!args[1].isIntegral())
        return bad();
      maxSplit = args[1].getInt();
    }
    llvm::SmallVector<llvm::StringRef> pieces;
    s.split(pieces, *sep, int(maxSplit), /*KeepEmpty=*/true);
    for (llvm::StringRef p : pieces)
      parts.push_back(HostValue::string(p.str()));
    return HostValue::list(std::move(parts));
  }
  if (method == "startswith" || method == "endswith") {
    const std::string *affix = stringArg(0);
    if (!affix || args.size() != 1)
      return bad();
    return HostValue::boolean(method == "startswith" ? s.starts_with(*affix)
                                                     : s.ends_with(*affix));
  }
  if (method == "strip" || method == "lstrip" || method == "rstrip") {
    std::string chars = " \t\n\r\f\v";
    if (!args.empty()) {
      if (!stringArg(0) || args.size() != 1)
        return bad();
      chars = *stringArg(0);
    }
    llvm::StringRef r = method == "strip"    ? s.trim(chars)
                        : method == "lstrip" ? s.ltrim(chars)
                                             : s.rtrim(chars);
    return HostValue::string(r.str());
  }
  if ((method == "lower" || method == "upper") && args.empty())
    return HostValue::string(method == "lower" ? s.lower() : s.upper());
  if (method == "replace") {
    const std::string *from = stringArg(0), *to = stringArg(1);
    if (!from || !to || args.size() != 2 || from->empty())
      return bad();
    std::string out;
    for (size_t pos = 0;;) {
      size_t hit = s.find(*from, pos);
      if (hit == llvm::StringRef::npos) {
        out += s.drop_front(pos).str();
        break;
      }
      out += s.slice(pos, hit).str() + *to;
      pos = hit + from->size();
    }
    return HostValue::string(out);
  }
  if (method == "join" && args.size() == 1) {
    FailureOr<std::vector<HostValue>> items = iterate(args[0], loc);
    if (failed(items))
      return failure();
    std::string out;
    for (size_t i = 0; i < items->size(); ++i) {
      if (!(*items)[i].isString())
        return emitError(loc, "str.join expects strings");
      out += (i ? text : "") + (*items)[i].getString();
    }
    return HostValue::string(out);
  }
  return emitError(loc, "cannot evaluate str." + method +
                            "(...) at compile "
                            "time");
}

FailureOr<HostValue> HostEvaluator::callBuiltin(
    const std::string &name, llvm::ArrayRef<HostValue> args,
    llvm::ArrayRef<HostKwarg> kwargs, llvm::SMLoc loc, bool &handled) {
  handled = true;
  auto kwarg = [&](llvm::StringRef key) -> const HostValue * {
    for (const auto &kw : kwargs)
      if (kw.first == key)
        return &kw.second;
    return nullptr;
  };
  auto arity = [&](size_t lo, size_t hi) -> LogicalResult {
    if (args.size() < lo || args.size() > hi)
      return emitError(loc, llvm::formatv("'{0}' expects {1} to {2} "
                                          "arguments, got {3}",
                                          name, lo, hi, args.size()));
    return success();
  };
  auto noKwargs = [&](llvm::ArrayRef<llvm::StringRef> allowed) {
    for (const auto &kw : kwargs)
      if (!llvm::is_contained(allowed, kw.first))
        return failed(emitError(loc, "'" + name +
                                         "' got an unexpected keyword "
                                         "argument '" +
                                         kw.first + "'"));
    return false;
  };
  auto needInt = [&](const HostValue &v) -> LogicalResult {
    if (!v.isIntegral())
      return emitError(loc, "'" + name + "' expects an integer, got '" +
                                v.getTypeName() + "'");
    return success();
  };

  if (name == "triton.next_power_of_2") {
    if (failed(arity(1, 1)) || failed(needInt(args[0])))
      return failure();
    int64_t n = args[0].getInt();
    if (n > (int64_t(1) << 62))
      return emitError(loc, kOverflow);
    return HostValue::integer(n <= 1 ? 1 : int64_t(llvm::PowerOf2Ceil(n)));
  }
  if (name == "triton.language._log2" ||
      name == "triton.language.standard._log2") {
    // Triton's standard._log2 (a constexpr function): floor(log2(i)), 0
    // for i <= 1.
    if (failed(arity(1, 1)) || failed(needInt(args[0])))
      return failure();
    int64_t n = args[0].getInt();
    return HostValue::integer(n <= 1 ? 0 : int64_t(llvm::Log2_64(uint64_t(n))));
  }
  if (name == "triton.cdiv") {
    if (failed(arity(2, 2)) || failed(needInt(args[0])) ||
        failed(needInt(args[1])))
      return failure();
    if (args[1].getInt() == 0)
      return emitError(loc, "integer division or modulo by zero");
    // (x + y - 1) // y, with Python's floor division.
    return HostValue::integer(-floorDiv(-args[0].getInt(), args[1].getInt()));
  }
  // Methods of a dtype (`inp_dtype.is_bf16()`) and get_int_dtype, for host
  // functions that choose types.
  if (size_t dot = name.rfind('.'); dot != std::string::npos)
    if (std::optional<TType> t = TType::fromQualifiedName(
            canonicalizeTritonName(name.substr(0, dot))))
      if (std::optional<bool> r = getDtypePredicate(*t, name.substr(dot + 1))) {
        if (!args.empty() || !kwargs.empty())
          return emitError(loc, "'" + name + "' takes no arguments");
        return HostValue::boolean(*r);
      }
  if (name == "triton.language.get_int_dtype" ||
      name == "triton.language.core.get_int_dtype") {
    if (noKwargs({"bitwidth", "signed"}) || failed(arity(0, 2)))
      return failure();
    const HostValue *bits = args.size() > 0 ? &args[0] : kwarg("bitwidth");
    const HostValue *isSigned = args.size() > 1 ? &args[1] : kwarg("signed");
    if (!bits || !isSigned || failed(needInt(*bits)))
      return emitError(loc, "get_int_dtype expects (bitwidth, signed)");
    std::optional<TType> t = getIntDtype(bits->getInt(), isSigned->isTruthy());
    if (!t)
      return emitError(loc, llvm::formatv("get_int_dtype: no integer dtype "
                                          "of {0} bits",
                                          bits->getInt()));
    return HostValue::symbol(t->repr());
  }
  if (name == "triton.language.constexpr") {
    if (failed(arity(1, 1)))
      return failure();
    return args[0];
  }
  if (name == "triton.Config") {
    if (noKwargs({"kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg",
                  "pre_hook", "ir_override"}) ||
        failed(arity(0, 1)))
      return failure();
    const HostValue *meta = args.empty() ? kwarg("kwargs") : &args[0];
    if (!meta || !meta->isDict())
      return emitError(loc, "triton.Config expects a dict of meta-parameters");
    TuneConfig config;
    config.loc = diags.getSourceLoc(loc);
    for (const auto &[k, v] : meta->getItems()) {
      if (!k.isString())
        return emitError(loc, "triton.Config meta-parameter names must be "
                              "strings");
      config.kwargs.emplace_back(k.getString(), v);
    }
    auto intField = [&](llvm::StringRef key, int64_t &field) -> LogicalResult {
      const HostValue *v = kwarg(key);
      if (!v || v->isNone())
        return success();
      if (!v->isIntegral())
        return emitError(loc, "triton.Config " + key +
                                  " must be an integer, got '" +
                                  v->getTypeName() + "'");
      field = v->getInt();
      return success();
    };
    if (failed(intField("num_warps", config.numWarps)) ||
        failed(intField("num_stages", config.numStages)) ||
        failed(intField("num_ctas", config.numCtas)))
      return failure();
    if (const HostValue *v = kwarg("maxnreg"); v && !v->isNone()) {
      int64_t maxnreg = 0;
      if (failed(intField("maxnreg", maxnreg)))
        return failure();
      config.maxnreg = maxnreg;
    }
    if (const HostValue *v = kwarg("pre_hook"))
      config.preHook = *v;
    return HostValue::config(std::move(config));
  }
  if (name == "min" || name == "max") {
    if (noKwargs({"default"}))
      return failure();
    if (args.empty())
      return emitError(loc, name + "() expects at least 1 argument");
    std::vector<HostValue> items;
    if (args.size() == 1) {
      FailureOr<std::vector<HostValue>> elts = iterate(args[0], loc);
      if (failed(elts))
        return failure();
      items = *elts;
    } else {
      items = args;
    }
    if (items.empty()) {
      if (const HostValue *d = kwarg("default"))
        return *d;
      return emitError(loc, name + "() arg is an empty sequence");
    }
    HostValue best = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
      std::optional<int> c = order(items[i], best);
      if (!c)
        return emitError(loc, "cannot compare '" + items[i].getTypeName() +
                                  "' and '" + best.getTypeName() + "'");
      if (name == "min" ? *c < 0 : *c > 0)
        best = items[i];
    }
    return best;
  }
  if (name == "abs") {
    if (failed(arity(1, 1)))
      return failure();
    if (args[0].isFloat())
      return HostValue::floating(std::fabs(args[0].getFloat()));
    return evalUnary(args[0].getInt() < 0 ? UnaryOpKind::USub
                                          : UnaryOpKind::UAdd,
                     args[0], loc);
  }
  if (name == "int") {
    if (failed(arity(0, 1)))
      return failure();
    if (args.empty())
      return HostValue::integer(0);
    const HostValue &v = args[0];
    if (v.isIntegral())
      return HostValue::integer(v.getInt());
    if (v.isFloat()) {
      double d = std::trunc(v.getFloat());
      if (!std::isfinite(d) || std::fabs(d) >= 9.2e18)
        return emitError(loc, "cannot convert float " + v.repr() +
                                  " to a 64-bit integer");
      return HostValue::integer(int64_t(d));
    }
    if (v.isString()) {
      int64_t out;
      if (llvm::StringRef(v.getString()).trim().getAsInteger(10, out))
        return emitError(loc, "invalid literal for int(): " + v.repr());
      return HostValue::integer(out);
    }
    return emitError(loc, "int() argument must be a number or string, not '" +
                              v.getTypeName() + "'");
  }
  if (name == "float") {
    if (failed(arity(0, 1)))
      return failure();
    if (args.empty())
      return HostValue::floating(0.0);
    if (args[0].isNumber())
      return HostValue::floating(args[0].getNumber());
    if (args[0].isString()) {
      double d;
      if (llvm::StringRef(args[0].getString()).trim().getAsDouble(d))
        return emitError(loc, "could not convert string to float: " +
                                  args[0].repr());
      return HostValue::floating(d);
    }
    return emitError(loc, "float() argument must be a number or string");
  }
  if (name == "bool") {
    if (failed(arity(0, 1)))
      return failure();
    return HostValue::boolean(!args.empty() && args[0].isTruthy());
  }
  if (name == "str") {
    if (failed(arity(0, 1)))
      return failure();
    if (args.empty())
      return HostValue::string("");
    return HostValue::string(args[0].isString() ? args[0].getString()
                                                : args[0].repr());
  }
  if (name == "len") {
    if (failed(arity(1, 1)))
      return failure();
    const HostValue &v = args[0];
    if (v.isString())
      return HostValue::integer(v.getString().size());
    if (v.isSequence())
      return HostValue::integer(v.getElements().size());
    if (v.isDict())
      return HostValue::integer(v.getItems().size());
    return emitError(loc,
                     "object of type '" + v.getTypeName() + "' has no len()");
  }
  if (name == "range") {
    if (failed(arity(1, 3)))
      return failure();
    for (const HostValue &a : args)
      if (failed(needInt(a)))
        return failure();
    int64_t start = args.size() > 1 ? args[0].getInt() : 0;
    int64_t stop = args.size() > 1 ? args[1].getInt() : args[0].getInt();
    int64_t step = args.size() > 2 ? args[2].getInt() : 1;
    if (step == 0)
      return emitError(loc, "range() arg 3 must not be zero");
    std::vector<HostValue> out;
    for (int64_t i = start; step > 0 ? i < stop : i > stop;) {
      if (out.size() >= (1u << 20))
        return emitError(loc, "range() is too large to evaluate at compile "
                              "time");
      out.push_back(HostValue::integer(i));
      // Past the end of int64 is past the end of the range.
      if (__builtin_add_overflow(i, step, &i))
        break;
    }
    return HostValue::list(std::move(out));
  }
  if (name == "list" || name == "tuple" || name == "reversed" ||
      name == "sorted") {
    if (noKwargs({"reverse"}) ||
        failed(arity(name == "list" || name == "tuple" ? 0 : 1, 1)))
      return failure();
    std::vector<HostValue> elts;
    if (!args.empty()) {
      FailureOr<std::vector<HostValue>> items = iterate(args[0], loc);
      if (failed(items))
        return failure();
      elts = *items;
    }
    if (name == "reversed")
      std::reverse(elts.begin(), elts.end());
    if (name == "sorted") {
      for (size_t i = 1; i < elts.size(); ++i)
        if (!order(elts[i], elts[0]))
          return emitError(loc, "cannot sort values of type '" +
                                    elts[i].getTypeName() + "'");
      std::stable_sort(elts.begin(), elts.end(),
                       [](const HostValue &a, const HostValue &b) {
                         return *order(a, b) < 0;
                       });
      if (const HostValue *r = kwarg("reverse"); r && r->isTruthy())
        std::reverse(elts.begin(), elts.end());
    }
    return name == "tuple" ? HostValue::tuple(std::move(elts))
                           : HostValue::list(std::move(elts));
  }
  if (name == "dict") {
    if (failed(arity(0, 1)))
      return failure();
    HostValue::Items items;
    if (!args.empty()) {
      if (args[0].isDict()) {
        items = args[0].getItems();
      } else {
        FailureOr<std::vector<HostValue>> pairs = iterate(args[0], loc);
        if (failed(pairs))
          return failure();
        for (const HostValue &p : *pairs) {
          if (!p.isSequence() || p.getElements().size() != 2)
            return emitError(loc, "dict() needs a sequence of pairs");
          items.emplace_back(p.getElements()[0], p.getElements()[1]);
        }
      }
    }
    for (const auto &[k, v] : kwargs) {
      HostValue key = HostValue::string(k);
      auto it = llvm::find_if(
          items, [&](const auto &item) { return item.first.equals(key); });
      if (it != items.end())
        it->second = v;
      else
        items.emplace_back(key, v);
    }
    return HostValue::dict(std::move(items));
  }
  if (name == "filter" || name == "map") {
    if (failed(arity(2, 2)))
      return failure();
    FailureOr<std::vector<HostValue>> items = iterate(args[1], loc);
    if (failed(items))
      return failure();
    std::vector<HostValue> out;
    for (const HostValue &item : *items) {
      if (name == "filter" && args[0].isNone()) {
        if (item.isTruthy())
          out.push_back(item);
        continue;
      }
      FailureOr<HostValue> r = call(args[0], {item}, {}, loc);
      if (failed(r))
        return failure();
      if (name == "map")
        out.push_back(*r);
      else if (r->isTruthy())
        out.push_back(item);
    }
    // Python returns iterators; a list is what every consumer here needs.
    return HostValue::list(std::move(out));
  }
  if (name == "sum" || name == "any" || name == "all") {
    if (failed(arity(1, name == "sum" ? 2 : 1)))
      return failure();
    FailureOr<std::vector<HostValue>> items = iterate(args[0], loc);
    if (failed(items))
      return failure();
    if (name == "any")
      return HostValue::boolean(llvm::any_of(
          *items, [](const HostValue &v) { return v.isTruthy(); }));
    if (name == "all")
      return HostValue::boolean(llvm::all_of(
          *items, [](const HostValue &v) { return v.isTruthy(); }));
    HostValue total = args.size() > 1 ? args[1] : HostValue::integer(0);
    for (const HostValue &v : *items) {
      FailureOr<HostValue> next = evalBinary(BinaryOpKind::Add, total, v, loc);
      if (failed(next))
        return failure();
      total = *next;
    }
    return total;
  }
  if (name == "zip" || name == "enumerate") {
    std::vector<std::vector<HostValue>> lists;
    for (const HostValue &a : args) {
      FailureOr<std::vector<HostValue>> items = iterate(a, loc);
      if (failed(items))
        return failure();
      lists.push_back(*items);
    }
    if (name == "enumerate") {
      if (failed(arity(1, 1)))
        return failure();
      std::vector<HostValue> idx;
      for (size_t i = 0; i < lists[0].size(); ++i)
        idx.push_back(HostValue::integer(i));
      lists.insert(lists.begin(), idx);
    }
    size_t n = lists.empty() ? 0 : lists[0].size();
    for (const auto &l : lists)
      n = std::min(n, l.size());
    std::vector<HostValue> out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<HostValue> tuple;
      for (const auto &l : lists)
        tuple.push_back(l[i]);
      out.push_back(HostValue::tuple(std::move(tuple)));
    }
    return HostValue::list(std::move(out));
  }
  if (name == "math.ceil" || name == "math.floor" || name == "math.log2" ||
      name == "math.sqrt") {
    if (failed(arity(1, 1)))
      return failure();
    if (!args[0].isNumber())
      return emitError(loc, "'" + name + "' expects a number");
    double x = args[0].getNumber();
    if (name == "math.log2")
      return HostValue::floating(std::log2(x));
    if (name == "math.sqrt")
      return HostValue::floating(std::sqrt(x));
    double r = name == "math.ceil" ? std::ceil(x) : std::floor(x);
    return HostValue::integer(int64_t(r));
  }
  if (name == "hasattr") {
    if (failed(arity(2, 2)))
      return failure();
    if (!args[1].isString())
      return emitError(loc, "hasattr(): attribute name must be a string");
    std::optional<bool> has = hasAttribute(args[0], args[1].getString(), loc);
    if (!has)
      return failure();
    return HostValue::boolean(*has);
  }
  if (name == "getattr") {
    if (failed(arity(2, 3)))
      return failure();
    if (!args[1].isString())
      return emitError(loc, "getattr(): attribute name must be a string");
    if (args.size() == 3) {
      std::optional<bool> has = hasAttribute(args[0], args[1].getString(), loc);
      if (!has)
        return failure();
      if (!*has)
        return args[2];
    }
    return getAttribute(args[0], args[1].getString(), loc);
  }
  if (name == "callable") {
    if (failed(arity(1, 1)))
      return failure();
    return HostValue::boolean(args[0].isFunction() || args[0].isSymbol());
  }
  if (name == "isinstance") {
    if (failed(arity(2, 2)))
      return failure();
    std::vector<HostValue> types = args[1].isTuple()
                                       ? args[1].getElements()
                                       : std::vector<HostValue>{args[1]};
    for (const HostValue &t : types) {
      if (!t.isSymbol())
        return emitError(loc, "isinstance() arg 2 must be a type");
      llvm::StringRef typeName = t.getString();
      llvm::StringRef valueType = args[0].getTypeName();
      // bool is a subclass of int, as in Python.
      if (typeName == valueType || (typeName == "int" && args[0].isBool()) ||
          (typeName == "object"))
        return HostValue::boolean(true);
      // Compile-time values reach host code unwrapped (`tl.constexpr(x)`
      // is x here), so none is a constexpr object, and the unwrapping
      // idiom `x.value if isinstance(x, tl.constexpr) else x` gives x.
      if (typeName == "triton.language.constexpr")
        continue;
      if (typeName == "triton.language.dtype") {
        if (args[0].isSymbol() &&
            TType::fromQualifiedName(
                canonicalizeTritonName(args[0].getString())))
          return HostValue::boolean(true);
        continue;
      }
      if (!llvm::is_contained({"int", "float", "bool", "str", "list", "tuple",
                               "dict", "object"},
                              typeName))
        return emitError(loc, "cannot evaluate isinstance(..., " + typeName +
                                  ") at compile time");
    }
    return HostValue::boolean(false);
  }
  // The version a program asks for is that of the language Tessera
  // implements: `importlib.metadata.version("triton")`, and versions parsed
  // by `packaging.version` compare as tuples of their release numbers.
  if (name == "importlib.import_module") {
    if (failed(arity(1, 2)))
      return failure();
    if (!args[0].isString())
      return emitError(loc, "importlib.import_module expects a module name");
    llvm::StringRef target = args[0].getString();
    if (ModuleSet::isLanguageModule(target)) {
      if (!isLanguageName(target))
        return emitError(loc, "no module named '" + target + "'");
      return HostValue::symbol(canonicalizeTritonName(target));
    }
    ModuleSet *set = module ? module->getModuleSet() : nullptr;
    std::string why = "no module search path";
    if (set)
      if (const KernelModule *m = set->importModule(target, &why))
        return HostValue::module(m);
    return emitError(loc,
                     "cannot import '" + target + "' at compile time: " + why);
  }
  if (name == "importlib.metadata.version") {
    if (failed(arity(1, 1)))
      return failure();
    if (args[0].isString() && args[0].getString() == "triton")
      return HostValue::string(kTritonLanguageVersion.str());
    return emitError(loc, "cannot know the version of package " +
                              args[0].repr() + " at compile time");
  }
  if (name == "packaging.version.parse" ||
      name == "packaging.version.Version") {
    if (failed(arity(1, 1)))
      return failure();
    if (!args[0].isString())
      return emitError(loc, "'" + name + "' expects a version string");
    std::optional<HostValue> v = parseVersion(args[0].getString());
    if (!v)
      return emitError(loc, "invalid version " + args[0].repr());
    return *v;
  }
  if (llvm::StringRef(name).starts_with("operator.")) {
    llvm::StringRef op = llvm::StringRef(name).drop_front(9);
    std::optional<CmpOpKind> cmp =
        llvm::StringSwitch<std::optional<CmpOpKind>>(op)
            .Case("lt", CmpOpKind::Lt)
            .Case("le", CmpOpKind::LtE)
            .Case("gt", CmpOpKind::Gt)
            .Case("ge", CmpOpKind::GtE)
            .Case("eq", CmpOpKind::Eq)
            .Case("ne", CmpOpKind::NotEq)
            .Default(std::nullopt);
    if (cmp) {
      if (failed(arity(2, 2)))
        return failure();
      FailureOr<bool> r = evalCompare(*cmp, args[0], args[1], loc);
      if (failed(r))
        return failure();
      return HostValue::boolean(*r);
    }
    std::optional<BinaryOpKind> bin =
        llvm::StringSwitch<std::optional<BinaryOpKind>>(op)
            .Case("add", BinaryOpKind::Add)
            .Case("sub", BinaryOpKind::Sub)
            .Case("mul", BinaryOpKind::Mult)
            .Case("floordiv", BinaryOpKind::FloorDiv)
            .Case("truediv", BinaryOpKind::Div)
            .Case("mod", BinaryOpKind::Mod)
            .Default(std::nullopt);
    if (bin) {
      if (failed(arity(2, 2)))
        return failure();
      return evalBinary(*bin, args[0], args[1], loc);
    }
  }
  if (name == "os.getenv") {
    if (failed(arity(1, 2)))
      return failure();
    if (!args[0].isString())
      return emitError(loc, "os.getenv expects a string");
    if (const HostValue *v = getEnvironment().lookup(args[0]))
      return *v;
    return args.size() > 1 ? args[1] : HostValue::none();
  }
  handled = false;
  return failure();
}
