//===- Specialization.cpp - Signatures and specialization keys ------------===//
#include "tessera/Frontend/Codegen/Specialization.h"

#include "tessera/Frontend/Lexer.h"
#include "tessera/Frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tessera::frontend;

bool tessera::frontend::isConstexprParam(const Parameter &param) {
  if (!param.annotation)
    return false;
  llvm::StringRef text(param.annotation->getLoc().getPointer(),
                       param.annotation->getEndLoc().getPointer() -
                           param.annotation->getLoc().getPointer());
  return text.contains("constexpr");
}

bool tessera::frontend::isConstParam(const Parameter &param) {
  if (!param.annotation || isConstexprParam(param))
    return false;
  // As Triton's KernelParam.is_const: the annotation names `const`
  // (`tl.const`), or is a signature type of a const pointer (`"*kfp32"`).
  llvm::StringRef text(param.annotation->getLoc().getPointer(),
                       param.annotation->getEndLoc().getPointer() -
                           param.annotation->getLoc().getPointer());
  text = text.trim("'\" \t");
  return text.contains("const") || text.starts_with("*k");
}

/// Splits `sig` at top-level commas (not inside quotes or brackets).
static std::vector<std::string> splitSignature(llvm::StringRef sig) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (char c : sig) {
    if (quote) {
      cur += c;
      if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '[' || c == '(' || c == '<')
      ++depth;
    else if (c == ']' || c == ')' || c == '>')
      --depth;
    if (c == ',' && depth == 0) {
      out.push_back(llvm::StringRef(cur).trim().str());
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!llvm::StringRef(cur).trim().empty() || !out.empty())
    out.push_back(llvm::StringRef(cur).trim().str());
  return out;
}

/// Evaluates `text` as a Python expression with the kernel file's globals.
static llvm::Expected<HostValue> evaluateLiteral(llvm::StringRef text,
                                                 HostEvaluator &eval) {
  DiagnosticEngine &diags = eval.getDiagnostics();
  llvm::SourceMgr &sm = diags.getSourceMgr();
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(text, "<signature>");
  unsigned id = sm.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  ASTContext &ctx = const_cast<KernelModule *>(eval.getModule())->getContext();
  DiagnosticCapture capture(diags);
  Lexer lexer(sm.getMemoryBuffer(id)->getBuffer());
  Parser parser(lexer, ctx, diags);
  Expr *e = parser.parseExpressionInput();
  if (!e || capture.hadError())
    return llvm::createStringError("cannot parse '" + text.str() +
                                   "' as a value");
  // Signatures spell dtypes `triton.language.float16` (and `tl.float16`)
  // whether or not the kernel's module imports triton under those names
  // (an embedder's unit has only the globals its source reads).
  auto scope = std::make_shared<HostScope>();
  const KernelModule *module = eval.getModule();
  if (!module || !module->lookupGlobal("triton"))
    scope->vars["triton"] = HostValue::symbol("triton");
  if (!module || !module->lookupGlobal("tl"))
    scope->vars["tl"] = HostValue::symbol("triton.language");
  llvm::FailureOr<HostValue> v = eval.evaluate(e, scope);
  if (failed(v) || capture.hadError()) {
    std::string why;
    if (!capture.getDiagnostics().empty())
      why = ": " + capture.getDiagnostics().front().message;
    return llvm::createStringError("cannot evaluate '" + text.str() + "'" +
                                   why);
  }
  return *v;
}

llvm::Expected<std::vector<SignatureEntry>>
Specialization::parseSignature(llvm::StringRef signature, HostEvaluator &eval) {
  std::vector<SignatureEntry> entries;
  for (const std::string &item : splitSignature(signature)) {
    SignatureEntry e;
    e.text = item;
    llvm::StringRef s = item;
    if (s.empty())
      return llvm::createStringError("empty entry in signature '" +
                                     signature.str() + "'");
    // `type:16` / `type:1` (but not a quoted string containing ':').
    llvm::StringRef typePart = s, attr;
    if (!s.starts_with("'") && !s.starts_with("\"")) {
      size_t colon = s.rfind(':');
      if (colon != llvm::StringRef::npos) {
        typePart = s.substr(0, colon).trim();
        attr = s.substr(colon + 1).trim();
      }
    }
    std::optional<TType> type;
    if (typePart.starts_with("*")) {
      llvm::StringRef pointee = typePart.drop_front();
      bool isConst = pointee.consume_front("k"); // Triton's const pointers
      if (std::optional<ScalarKind> k = TType::parseScalarName(pointee))
        type = TType::pointer(TType::scalar(*k), /*addressSpace=*/1, isConst);
      else
        return llvm::createStringError("unknown pointee type '" +
                                       pointee.str() + "' in '" + item + "'");
    } else if (typePart.starts_with("tensordesc<") && typePart.ends_with(">")) {
      // A host-made tensor descriptor: tensordesc<fp16[64, 64]>, with
      // `,nan` after the block shape for NaN padding.
      llvm::StringRef inner = typePart.drop_front(11).drop_back();
      if (inner.consume_back(",nan"))
        e.nanPadding = true;
      else
        inner.consume_back(",zero");
      auto [dtype, dims] = inner.split('[');
      std::optional<ScalarKind> k = TType::parseScalarName(dtype.trim());
      if (!k || !dims.consume_back("]"))
        return llvm::createStringError("malformed descriptor type '" + item +
                                       "' (expected tensordesc<dtype[d0, "
                                       "d1, ...]>)");
      llvm::SmallVector<llvm::StringRef> parts;
      dims.split(parts, ',');
      std::vector<int64_t> shape;
      for (llvm::StringRef d : parts) {
        int64_t v;
        if (d.trim().getAsInteger(10, v) || v <= 0)
          return llvm::createStringError("bad block dimension '" + d.str() +
                                         "' in '" + item + "'");
        shape.push_back(v);
      }
      type = TType::tensorDesc(TType::block(TType::scalar(*k), shape));
      if (e.nanPadding && !type->getDescBlock().isFloating())
        return llvm::createStringError("NaN padding needs a floating-point "
                                       "element type, in '" +
                                       item + "'");
    } else if (std::optional<ScalarKind> k = TType::parseScalarName(typePart);
               k && typePart != "void" && !typePart.contains('.')) {
      type = TType::scalar(*k);
    }
    if (type) {
      e.type = *type;
      if (!attr.empty()) {
        if (attr == "16") {
          if (type->isFloating() || type->isTensorDesc())
            return llvm::createStringError("':16' does not apply to the "
                                           "floating-point or descriptor "
                                           "entry '" +
                                           item + "'");
          e.divisibility = 16;
        } else if (attr == "1") {
          if (!type->isInt())
            return llvm::createStringError("':1' applies to integer entries "
                                           "only, not '" +
                                           item + "'");
          e.isConstexpr = true;
          e.value = HostValue::integer(1);
        } else {
          return llvm::createStringError(
              "unknown specialization ':" + attr.str() + "' in '" + item +
              "' (expected :16 or :1)");
        }
      }
      entries.push_back(std::move(e));
      continue;
    }
    if (!attr.empty())
      return llvm::createStringError("unknown type '" + typePart.str() +
                                     "' in '" + item + "'");
    llvm::Expected<HostValue> v = evaluateLiteral(s, eval);
    if (!v)
      return v.takeError();
    e.isConstexpr = true;
    e.value = *v;
    entries.push_back(std::move(e));
  }
  return entries;
}

llvm::Expected<Specialization>
Specialization::build(const FunctionDefStmt &kernel,
                      llvm::ArrayRef<SignatureEntry> entries,
                      llvm::ArrayRef<std::pair<std::string, HostValue>> named,
                      HostEvaluator &eval) {
  Specialization spec;
  spec.kernelName = kernel.getName().str();
  llvm::ArrayRef<Parameter> params = kernel.getParams();
  if (entries.size() > params.size())
    return llvm::createStringError(
        "the signature has " + std::to_string(entries.size()) +
        " entries but kernel '" + spec.kernelName + "' has " +
        std::to_string(params.size()) + " parameters");
  for (const auto &[name, value] : named)
    if (llvm::none_of(params,
                      [&](const Parameter &p) { return p.name == name; }))
      return llvm::createStringError("kernel '" + spec.kernelName +
                                     "' has no parameter named '" + name + "'");
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter &p = params[i];
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword)
      return llvm::createStringError("kernels with *args or **kwargs are not "
                                     "supported");
    SpecializedParam sp;
    sp.name = p.name.str();
    bool isConstexpr = isConstexprParam(p);
    const HostValue *namedValue = nullptr;
    for (const auto &[name, value] : named)
      if (name == p.name)
        namedValue = &value;
    if (i < entries.size()) {
      const SignatureEntry &e = entries[i];
      if (namedValue && !(e.isConstexpr && e.value.equals(*namedValue)))
        return llvm::createStringError("parameter '" + sp.name +
                                       "' is given both in the signature ('" +
                                       e.text + "') and by name");
      if (isConstexpr && !e.isConstexpr)
        return llvm::createStringError(
            "parameter '" + sp.name +
            "' is a tl.constexpr: the signature must give its value, not "
            "the type '" +
            e.text + "'");
      sp.isConstexpr = e.isConstexpr;
      sp.type = e.type;
      // A `tl.const` parameter is a const pointer whatever the launch says.
      if (sp.type.isPointer() && !sp.type.isBlockPointer() && isConstParam(p) &&
          !sp.type.isConstPointer())
        sp.type = TType::pointer(sp.type.getPointee(),
                                 sp.type.getAddressSpace(), /*isConst=*/true);
      sp.divisibility = e.divisibility;
      sp.nanPadding = e.nanPadding;
      sp.value = e.value;
    } else if (namedValue) {
      sp.isConstexpr = true;
      sp.value = *namedValue;
    } else if (p.defaultValue && isConstexpr) {
      llvm::FailureOr<HostValue> v = eval.evaluate(p.defaultValue);
      if (failed(v))
        return llvm::createStringError("cannot evaluate the default value of "
                                       "parameter '" +
                                       sp.name + "'");
      sp.isConstexpr = true;
      sp.value = *v;
    } else {
      return llvm::createStringError(
          "no value or type for parameter '" + sp.name + "' of kernel '" +
          spec.kernelName + "'" +
          (isConstexpr ? " (a tl.constexpr: give it with --constexpr " +
                             sp.name + "=VALUE)"
                       : " (add it to the signature)"));
    }
    spec.params.push_back(std::move(sp));
  }
  return spec;
}

const SpecializedParam *Specialization::lookup(llvm::StringRef name) const {
  for (const SpecializedParam &p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

void Specialization::setOption(llvm::StringRef name, int64_t value) {
  for (auto &[k, v] : options)
    if (k == name) {
      v = value;
      return;
    }
  options.emplace_back(name.str(), value);
}

std::string Specialization::key() const {
  std::string s = kernelName + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    const SpecializedParam &p = params[i];
    if (i)
      s += ",";
    if (p.isConstexpr) {
      s += p.name + "=" + p.value.repr();
      continue;
    }
    if (p.type.isPointer()) {
      s += p.type.isConstPointer() ? "*k" : "*";
      s += p.type.getPointee().mangle();
    } else if (p.type.isTensorDesc()) {
      const TType &block = p.type.getDescBlock();
      s += "tensordesc<";
      s += block.getElement().mangle();
      s += "[";
      for (size_t d = 0; d < block.getShape().size(); ++d) {
        if (d)
          s += ",";
        s += std::to_string(block.getShape()[d]);
      }
      s += p.nanPadding ? "],nan>" : "]>";
    } else {
      s += p.type.mangle();
    }
    if (p.divisibility > 1) {
      s += ":";
      s += std::to_string(p.divisibility);
    }
  }
  s += ")";
  if (!options.empty()) {
    s += "{";
    for (size_t i = 0; i < options.size(); ++i)
      s += (i ? "," : "") + options[i].first + "=" +
           std::to_string(options[i].second);
    s += "}";
  }
  return s;
}
