//===- Names.cpp - Names and attributes in device code --------------------===//
//
// A name in a jit function is a local, a module global, or one of the few
// Python builtins Triton allows (len, range, min, max, print, ...). Like
// Triton, device code may read only the globals that are compile-time
// constants: modules, jit functions, dtypes, None, and values bound with
// `tl.constexpr(...)`.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"
#include "tessera/Frontend/Codegen/DtypeMethods.h"

#include "tessera/Frontend/ModuleSet.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;

std::string
tessera::frontend::codegen::canonicalBuiltinName(llvm::StringRef name) {
  std::string n = canonicalizeTritonName(name);
  llvm::StringRef s = n;
  for (llvm::StringRef sub :
       {"triton.language.core.", "triton.language.math.",
        "triton.language.standard.", "triton.language.random.",
        "triton.language.semantic."})
    if (s.consume_front(sub))
      return ("triton.language." + s).str();
  for (llvm::StringRef lib :
       {"triton.language.extra.libdevice.", "triton.language.libdevice."})
    if (s.consume_front(lib))
      return ("triton.language.extra.libdevice." + s).str();
  // Per-target copies of the math library (`triton.language.extra.<target>
  // .libdevice`) name the same functions; the plugin resolves the symbol, so
  // the target segment is dropped whatever it is.
  llvm::StringRef extra = s;
  if (extra.consume_front("triton.language.extra.")) {
    auto [target, rest] = extra.split('.');
    llvm::StringRef fn = rest;
    if (!target.empty() && fn.consume_front("libdevice."))
      return ("triton.language.extra.libdevice." + fn).str();
  }
  return n;
}

/// The Python builtins device code may name.
static bool isDeviceBuiltin(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"len", "list", "range", "float", "int", "isinstance", "getattr",
              "hasattr", "print", "min", "max", "bool", "abs", "str", "tuple"},
             true)
      .Default(false);
}

/// The name an expression starts from: `a` of `a.b.c(...)`.
static const NameExpr *getRootName(const Expr *expr) {
  while (expr) {
    if (auto *name = llvm::dyn_cast<NameExpr>(expr))
      return name;
    if (auto *attr = llvm::dyn_cast<AttributeExpr>(expr))
      expr = attr->getValue();
    else if (auto *call = llvm::dyn_cast<CallExpr>(expr))
      expr = call->getFunc();
    else
      return nullptr;
  }
  return nullptr;
}

llvm::LogicalResult FunctionCodegen::failUnknownSymbol(llvm::StringRef name,
                                                       llvm::SMLoc at,
                                                       const Expr *expr) {
  std::optional<MissingModule> missing;
  if (ModuleSet *set = km.getModuleSet())
    missing = set->findMissing(name);
  if (!missing)
    return fail(at, "'" + name + "' is not supported in device code");
  InFlightDiagnostic diag =
      m.diags.error(at, "'" + name + "' cannot be used: " + missing->reason);
  // Point at the import the name came through.
  if (const NameExpr *root = getRootName(expr))
    if (const GlobalSymbol *symbol = km.lookupGlobal(root->getId()))
      for (const GlobalBinding &binding : symbol->bindings)
        if (binding.kind == BindingKind::Import)
          diag.note(binding.loc.ptr,
                    "'" + root->getId() + "' is imported here");
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    diag.note(it->callLoc, "in the call to '" + it->function + "' here");
  return failure();
}

FailureOr<Value> FunctionCodegen::lookupName(const NameExpr *name) {
  auto it = vars.find(name->getId().str());
  if (it != vars.end())
    return it->second;
  if (km.lookupGlobal(name->getId()))
    return lookupGlobal(name->getId(), name->getLoc().ptr);
  {
    HostEvaluator::ModuleScope in(m.eval, &km);
    if (std::optional<HostValue> v =
            m.eval.lookupStarImports(name->getId(), name->getLoc().ptr)) {
      if (v->isFunction() && !v->getFunction().isJit)
        return fail(name, "cannot call host function '" + name->getId() +
                              "' from a @triton.jit function");
      return Value::fromHost(*v);
    }
  }
  if (isDeviceBuiltin(name->getId()))
    return Value::constant(
        HostValue::symbol(("builtins." + name->getId()).str()));
  return fail(name, "name '" + name->getId() + "' is not defined");
}

/// True for a host def device code calls at compile time: decorated with
/// @triton.constexpr_function, or with @tl.constexpr, which libraries use
/// for the same purpose (Triton calls such a function with the call's
/// compile-time arguments).
static bool isConstexprFunction(const KernelModule &km,
                                const FunctionDefStmt *def) {
  for (const Expr *d : def->getDecorators())
    if (std::optional<std::string> q = km.getQualifiedName(d)) {
      std::string name = canonicalizeTritonName(*q);
      if (llvm::StringRef(name).ends_with("constexpr_function") ||
          name == "triton.language.constexpr")
        return true;
    }
  return false;
}

FailureOr<Value> FunctionCodegen::lookupGlobal(llvm::StringRef name,
                                               llvm::SMLoc at) {
  const GlobalSymbol *symbol = km.lookupGlobal(name);
  FailureOr<HostValue> v = failure();
  {
    HostEvaluator::ContextNote note(m.eval,
                                    "'" + name.str() +
                                        "' is needed by device code "
                                        "here",
                                    at);
    v = m.eval.evaluateGlobal(km, name, at);
  }
  if (failed(v))
    return failure();
  if (v->isFunction()) {
    const HostFunction &fn = v->getFunction();
    if (fn.isJit ||
        (fn.def && isConstexprFunction(fn.module ? *fn.module : km, fn.def)))
      return Value::constant(*v);
    return fail(at,
                "cannot call host function '" + name +
                    "' from a @triton.jit function",
                "decorate it with @triton.jit, or with "
                "@triton.constexpr_function to run it at compile time");
  }
  if (v->isSymbol() || v->isNone() || v->isModule() || symbol->isConstexpr ||
      m.eval.isConstexprGlobal(km, name))
    return Value::fromHost(*v);
  if (v->isOpaque())
    return fail(at, "global '" + name + "' is a " + v->getString() +
                        " object, which device code cannot use");
  return fail(at,
              "cannot access global variable '" + name +
                  "' from a @triton.jit function: only compile-time constants "
                  "are visible in device code",
              "bind it as `" + name +
                  " = tl.constexpr(...)`, or pass it to "
                  "the kernel as a tl.constexpr parameter");
}

/// Attributes of a dtype: element_ty, primitive_bitwidth, ... and the
/// is_* predicates (returned as bound methods).
static FailureOr<Value> typeAttribute(FunctionCodegen &cg, const TType &t,
                                      llvm::StringRef attr, llvm::SMLoc at) {
  auto integer = [](int64_t x) {
    return Value::constant(HostValue::integer(x));
  };
  if (attr == "element_ty") {
    if (t.isPointer())
      return Value::type(t.getPointee());
    if (t.isBlock())
      return Value::type(t.getElement());
  }
  if (attr == "scalar")
    return Value::type(t.getElement());
  // A dtype passed as a constexpr: `.value` of Triton's constexpr wrapper.
  if (attr == "value")
    return Value::type(t);
  if (std::optional<HostValue> v = getDtypeAttribute(t, attr))
    return Value::constant(*v);
  if (t.isBlock()) {
    if (attr == "shape") {
      std::vector<Value> dims;
      for (int64_t d : t.getShape())
        dims.push_back(integer(d));
      return Value::tuple(std::move(dims));
    }
    if (attr == "numel")
      return integer(t.getNumElements());
  }
  if (llvm::StringRef(attr).starts_with("is_"))
    return Value::method(Value::type(t), attr.str());
  return cg.fail(at, "dtype " + t.str() + " has no attribute '" + attr + "'");
}

FailureOr<Value> FunctionCodegen::getAttribute(const Value &base,
                                               llvm::StringRef attr,
                                               llvm::SMLoc at) {
  auto integer = [](int64_t x) {
    return Value::constant(HostValue::integer(x));
  };
  switch (base.getKind()) {
  case Value::Kind::Constexpr: {
    const HostValue &h = base.getHost();
    if (h.isModule()) {
      // `ext.helper`, `utils.BLOCK`: a module's attributes are read as
      // compile-time values.
      FailureOr<HostValue> v = m.eval.getAttribute(h, attr, at);
      if (failed(v))
        return failure();
      if (v->isOpaque())
        return fail(at, "'" + h.getModule().getModuleName() + "." + attr +
                            "' is a " + v->getString() +
                            " object, which device code cannot use");
      if (v->isFunction() && !v->getFunction().isJit &&
          !(v->getFunction().def &&
            isConstexprFunction(*v->getFunction().module,
                                v->getFunction().def)))
        return fail(at,
                    "cannot call host function '" +
                        h.getModule().getModuleName() + "." + attr +
                        "' from a @triton.jit function",
                    "decorate it with @triton.jit, or with "
                    "@triton.constexpr_function to run it at compile time");
      return Value::fromHost(*v);
    }
    if (h.isSymbol()) {
      std::string q = canonicalizeTritonName(h.getString() + "." + attr.str());
      if (std::optional<TType> t = TType::fromQualifiedName(q))
        return Value::type(*t);
      return Value::constant(HostValue::symbol(q));
    }
    // Triton keeps `.value` of a constexpr for backward compatibility.
    if (attr == "value")
      return base;
    return fail(at, "a value of type " + base.typeStr() +
                        " has no attribute '" + attr + "'");
  }
  case Value::Kind::Type:
    return typeAttribute(*this, base.getType(), attr, at);
  case Value::Kind::Tensor: {
    const TType &t = base.getType();
    if (attr == "dtype")
      return Value::type(t.getElement());
    if (attr == "type")
      return Value::type(t);
    if (attr == "shape") {
      std::vector<Value> dims;
      for (int64_t d : t.getShape())
        dims.push_back(integer(d));
      return Value::tuple(std::move(dims));
    }
    if (attr == "numel")
      return integer(t.isBlock() ? t.getNumElements() : 1);
    if (attr == "T") {
      if (t.getShape().size() != 2)
        return fail(at,
                    "'.T' transposes 2-D tensors only; this one has "
                    "rank " +
                        std::to_string(t.getShape().size()),
                    "use tl.permute for other ranks");
      return permute(base, {1, 0});
    }
    if (!m.builtins.lookup(("tensor." + attr).str()))
      return fail(at, "tensor has no attribute '" + attr + "'");
    return Value::method(base, attr.str());
  }
  case Value::Kind::Descriptor: {
    const TType &block = base.getType().getDescBlock();
    if (attr == "dtype")
      return Value::type(block.getElement());
    if (attr == "block_type")
      return Value::type(block);
    if (attr == "block_shape") {
      std::vector<Value> dims;
      for (int64_t d : block.getShape())
        dims.push_back(integer(d));
      return Value::tuple(std::move(dims));
    }
    if (attr == "shape")
      return base.getDescShape();
    if (attr == "strides")
      return base.getDescStrides();
    if (!m.builtins.lookup(("tensor_descriptor." + attr).str()))
      return fail(at, "tensor descriptor has no attribute '" + attr + "'");
    return Value::method(base, attr.str());
  }
  case Value::Kind::Tuple:
    return fail(at, "a tuple has no attribute '" + attr + "'");
  case Value::Kind::Method:
    return fail(at, "a method has no attribute '" + attr + "'");
  }
  return failure();
}
