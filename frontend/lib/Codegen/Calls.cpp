//===- Calls.cpp - Calls, function specialization and argument binding ----===//
//
// A call to a jit function specializes it, as Triton does, on every
// argument that is a compile-time value (constexprs, dtypes, jit functions,
// None) whatever the callee's annotations say; tensors, descriptors and
// tuples of them are passed at run time. Each specialization is one private
// func.func, named after the function, the types of its runtime arguments
// and the values of its constexprs, and lowered once.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"
#include "tessera/Frontend/Codegen/DtypeMethods.h"

#include "tessera/Dialect/Tessera/IR/SignatureType.h"
#include "tessera/Frontend/Decorators.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::dyn_cast;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::success;

FunctionCodegen::FunctionCodegen(ModuleCodegen &m, const KernelModule &km,
                                 const FunctionDefStmt *def,
                                 std::vector<CallFrame> frames)
    : m(m), km(km), def(def), frames(std::move(frames)), b(&m.ctx),
      loc(mlir::UnknownLoc::get(&m.ctx)) {
  curLoc = def->getLoc().ptr;
  loc = getLoc(def->getLoc());
}

//===----------------------------------------------------------------------===//
// Argument helpers
//===----------------------------------------------------------------------===//

FailureOr<BoundArgs>
FunctionCodegen::bindArgs(const CallArgs &args, llvm::StringRef fnName,
                          llvm::ArrayRef<llvm::StringRef> params,
                          unsigned numRequired) {
  BoundArgs out;
  size_t n = params.size();
  out.values.assign(n, Value::none());
  out.exprs.assign(n, nullptr);
  out.given.assign(n, false);
  size_t star = n;
  for (size_t i = 0; i < n; ++i)
    if (params[i].starts_with("*"))
      star = i;
  std::vector<Value> rest;
  for (size_t i = 0; i < args.args.size(); ++i) {
    if (i < star && i < n) {
      out.values[i] = args.args[i];
      out.exprs[i] = args.argExprs[i];
      out.given[i] = true;
    } else if (star < n) {
      rest.push_back(args.args[i]);
      if (!out.exprs[star])
        out.exprs[star] = args.argExprs[i];
    } else {
      return fail(args.argExprs[i] ? args.argExprs[i]->getLoc().ptr : args.loc,
                  llvm::formatv("{0}() takes at most {1} positional "
                                "arguments but {2} were given",
                                fnName, n, args.args.size()));
    }
  }
  if (star < n) {
    out.values[star] = Value::tuple(std::move(rest));
    out.given[star] = true;
  }
  for (size_t k = 0; k < args.kwargs.size(); ++k) {
    const std::string &key = args.kwargs[k].first;
    llvm::SMLoc kwLoc =
        args.kwargExprs[k] ? args.kwargExprs[k]->getLoc().ptr : args.loc;
    auto it = llvm::find(params, key);
    if (it == params.end())
      return fail(kwLoc, fnName + "() got an unexpected keyword argument '" +
                             key + "'");
    size_t i = it - params.begin();
    if (out.given[i])
      return fail(kwLoc,
                  fnName + "() got multiple values for argument '" + key + "'");
    out.values[i] = args.kwargs[k].second;
    out.exprs[i] = args.kwargExprs[k];
    out.given[i] = true;
  }
  for (unsigned i = 0; i < numRequired && i < n; ++i)
    if (!out.given[i])
      return fail(args.loc, fnName + "() missing required argument '" +
                                params[i].ltrim('*') + "'");
  return out;
}

static llvm::SMLoc locOf(FunctionCodegen &cg, const Expr *at) {
  return at ? at->getLoc().ptr : cg.curLoc;
}

FailureOr<HostValue> FunctionCodegen::requireConstexpr(const Value &v,
                                                       llvm::StringRef what,
                                                       const Expr *at) {
  if (std::optional<HostValue> h = v.toHost())
    return *h;
  return fail(locOf(*this, at), what +
                                    " must be a compile-time constant "
                                    "(tl.constexpr), got " +
                                    v.typeStr());
}

FailureOr<int64_t> FunctionCodegen::requireInt(const Value &v,
                                               llvm::StringRef what,
                                               const Expr *at) {
  if (v.isConstexpr() && v.getHost().isIntegral())
    return v.getHost().getInt();
  return fail(locOf(*this, at),
              what + " must be a constexpr integer, got " + v.typeStr());
}

FailureOr<bool> FunctionCodegen::requireBool(const Value &v,
                                             llvm::StringRef what,
                                             const Expr *at) {
  if (v.isConstexpr() && (v.getHost().isIntegral() || v.getHost().isNone()))
    return v.getHost().isTruthy();
  return fail(locOf(*this, at),
              what + " must be a constexpr bool, got " + v.typeStr());
}

FailureOr<std::string> FunctionCodegen::requireString(const Value &v,
                                                      llvm::StringRef what,
                                                      const Expr *at) {
  if (v.isNone())
    return std::string();
  if (v.isConstexpr() && v.getHost().isString())
    return v.getHost().getString();
  return fail(locOf(*this, at),
              what + " must be a constexpr string, got " + v.typeStr());
}

FailureOr<TType> FunctionCodegen::requireDType(const Value &v,
                                               llvm::StringRef what,
                                               const Expr *at) {
  if (v.isType())
    return v.getType();
  return fail(locOf(*this, at), what +
                                    " must be a dtype (such as "
                                    "tl.float32), got " +
                                    v.typeStr());
}

FailureOr<std::vector<int64_t>>
FunctionCodegen::requireShape(const Value &v, llvm::StringRef what,
                              const Expr *at) {
  std::vector<int64_t> shape;
  llvm::SmallVector<Value> dims;
  if (v.isTuple())
    dims.append(v.getElements().begin(), v.getElements().end());
  else
    dims.push_back(v);
  for (const Value &d : dims) {
    if (!d.isConstexpr() || !d.getHost().isInt() || d.getHost().getInt() < 0)
      return fail(locOf(*this, at),
                  what +
                      " must be a tuple of constexpr non-negative "
                      "integers, got " +
                      v.typeStr());
    shape.push_back(d.getHost().getInt());
  }
  return shape;
}

FailureOr<Value> FunctionCodegen::requireTensor(const Value &v,
                                                llvm::StringRef what,
                                                const Expr *at) {
  if (v.isTensor())
    return v;
  if (v.isNumber()) {
    llvm::SMLoc saved = curLoc;
    curLoc = locOf(*this, at);
    FailureOr<Value> t = toTensor(v);
    curLoc = saved;
    return t;
  }
  return fail(locOf(*this, at), what + " must be a tensor, got " + v.typeStr());
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

FailureOr<Value> FunctionCodegen::lowerCall(const CallExpr *call) {
  FailureOr<Value> callee = lowerExpr(call->getFunc());
  if (failed(callee))
    return failure();
  CallArgs args;
  args.callee = call->getFunc();
  args.loc = call->getLoc().ptr;
  for (const Expr *a : call->getArgs()) {
    if (auto *star = dyn_cast<StarredExpr>(a)) {
      FailureOr<Value> v = lowerExpr(star->getValue());
      if (failed(v))
        return failure();
      if (!v->isTuple())
        return fail(a, "only tuples can be unpacked with '*' in a call, got " +
                           v->typeStr());
      for (const Value &e : v->getElements())
        args.add(e, a);
      continue;
    }
    FailureOr<Value> v = lowerExpr(a);
    if (failed(v))
      return failure();
    args.add(*v, a);
  }
  for (const Keyword &kw : call->getKeywords()) {
    if (kw.name.empty())
      return fail(kw.range.begin.ptr,
                  "'**' arguments are not supported in device code");
    FailureOr<Value> v = lowerExpr(kw.value);
    if (failed(v))
      return failure();
    args.addKeyword(kw.name.str(), *v, kw.value);
  }
  LocationScope scope(*this, call);
  return callValue(*callee, args);
}

FailureOr<Value> FunctionCodegen::callValue(const Value &callee,
                                            CallArgs &args) {
  if (callee.isMethod()) {
    const Value &self = callee.getSelf();
    if (self.isType()) {
      std::optional<bool> r =
          getDtypePredicate(self.getType(), callee.getMethodName());
      if (!r || !args.args.empty() || !args.kwargs.empty())
        return fail(args.loc, "dtype method '" + callee.getMethodName() +
                                  "' is not supported in device code");
      return Value::constant(HostValue::boolean(*r));
    }
    std::string name =
        (self.isDescriptor() ? "tensor_descriptor." : "tensor.") +
        callee.getMethodName().str();
    BuiltinFn fn = m.builtins.lookup(name);
    if (!fn)
      return fail(args.loc, "unknown method '" + callee.getMethodName() + "'");
    args.args.insert(args.args.begin(), self);
    args.argExprs.insert(args.argExprs.begin(), nullptr);
    return fn(*this, args);
  }
  if (callee.isConstexpr()) {
    const HostValue &h = callee.getHost();
    if (h.isFunction()) {
      const HostFunction &fn = h.getFunction();
      if (fn.isJit)
        return callJitFunction(fn, args);
      // A @triton.constexpr_function runs on the host.
      std::vector<HostValue> hostArgs;
      std::vector<HostKwarg> hostKwargs;
      for (size_t i = 0; i < args.args.size(); ++i) {
        FailureOr<HostValue> v = requireConstexpr(
            args.args[i], "an argument of a constexpr function",
            args.argExprs[i]);
        if (failed(v))
          return failure();
        hostArgs.push_back(*v);
      }
      for (size_t i = 0; i < args.kwargs.size(); ++i) {
        FailureOr<HostValue> v = requireConstexpr(
            args.kwargs[i].second, "an argument of a constexpr function",
            args.kwargExprs[i]);
        if (failed(v))
          return failure();
        hostKwargs.emplace_back(args.kwargs[i].first, *v);
      }
      FailureOr<HostValue> r = m.eval.call(h, hostArgs, hostKwargs, args.loc);
      if (failed(r))
        return failure();
      return Value::fromHost(*r);
    }
    if (h.isSymbol()) {
      if (std::optional<FailureOr<Value>> r = callBuiltin(h.getString(), args))
        return *r;
      return failUnknownSymbol(h.getString(), args.loc, args.callee);
    }
  }
  return fail(args.loc,
              "a value of type " + callee.typeStr() + " is not callable");
}

std::optional<FailureOr<Value>>
FunctionCodegen::callBuiltin(llvm::StringRef name, CallArgs &args) {
  std::string canonical = canonicalBuiltinName(name);
  if (BuiltinFn fn = m.builtins.lookup(canonical))
    return fn(*this, args);
  llvm::StringRef rest = canonical;
  if (rest.consume_front("triton.language.extra.libdevice."))
    return callLibdevice(*this, rest, args);
  // Older Triton versions exposed the libdevice functions as tl.math.NAME.
  std::string qualified = canonicalizeTritonName(name);
  rest = qualified;
  if (rest.consume_front("triton.language.math."))
    return callLibdevice(*this, rest, args);
  return std::nullopt;
}

/// Identifier-safe, injective spelling of `text` for symbol names.
static std::string escapeSymbol(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    if (llvm::isAlnum(c)) {
      out += c;
      continue;
    }
    out += llvm::formatv("_{0:x-2}", unsigned((unsigned char)c)).str();
  }
  return out;
}

static std::string mangleArg(const Value &v) {
  switch (v.getKind()) {
  case Value::Kind::Tensor:
  case Value::Kind::Descriptor:
    return v.getType().mangle();
  case Value::Kind::Tuple: {
    std::string s = "T";
    for (const Value &e : v.getElements())
      s += mangleArg(e) + "_";
    return s + "T";
  }
  default: {
    std::string s = "c";
    s += escapeSymbol(v.reprConstexpr());
    return s;
  }
  }
}

/// True for a block tensor of more than one element inside `v`.
static bool hasNonScalarTensor(const Value &v) {
  if (v.isTensor())
    return v.getType().isBlock() && v.getType().getNumElements() != 1;
  if (v.isTuple())
    return llvm::any_of(v.getElements(), hasNonScalarTensor);
  return false;
}

FailureOr<Value> FunctionCodegen::callJitFunction(const HostFunction &fn,
                                                  CallArgs &args) {
  const FunctionDefStmt *callee = fn.def;
  // The callee reads the globals of its own module (helpers imported from
  // another module or package).
  const KernelModule &calleeModule = fn.module ? *fn.module : km;
  llvm::ArrayRef<Parameter> params = callee->getParams();
  std::vector<std::optional<Value>> bound(params.size());
  size_t nextArg = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter &p = params[i];
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword)
      return fail(p.range.begin.ptr,
                  "jit functions with *args or **kwargs parameters are not "
                  "supported");
    if ((p.kind == ParamKind::Positional ||
         p.kind == ParamKind::PositionalOnly) &&
        nextArg < args.args.size())
      bound[i] = args.args[nextArg++];
  }
  if (nextArg < args.args.size())
    return fail(args.loc, llvm::formatv("'{0}' takes {1} positional arguments "
                                        "but {2} were given",
                                        fn.name, nextArg, args.args.size()));
  for (size_t k = 0; k < args.kwargs.size(); ++k) {
    const std::string &key = args.kwargs[k].first;
    auto it = llvm::find_if(params, [&](const Parameter &p) {
      return p.name == key && p.kind != ParamKind::PositionalOnly;
    });
    if (it == params.end())
      return fail(args.loc, "'" + fn.name +
                                "' got an unexpected keyword argument '" + key +
                                "'");
    size_t i = it - params.begin();
    if (bound[i])
      return fail(args.loc, "'" + fn.name +
                                "' got multiple values for argument '" + key +
                                "'");
    bound[i] = args.kwargs[k].second;
  }
  std::vector<Value> values;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!bound[i]) {
      if (!params[i].defaultValue)
        return fail(args.loc, "'" + fn.name + "' is missing argument '" +
                                  params[i].name + "'");
      HostEvaluator::ModuleScope in(m.eval, &calleeModule);
      FailureOr<HostValue> d = m.eval.evaluate(params[i].defaultValue);
      if (failed(d))
        return failure();
      bound[i] = Value::fromHost(*d);
    }
    if (bound[i]->isMethod())
      return fail(args.loc, "cannot pass a bound method as an argument");
    values.push_back(*bound[i]);
  }

  // Triton's rule for noinline functions: no block arguments.
  bool noinline = false;
  if (const JitFunction *jf = calleeModule.lookupJitFunction(callee->getName());
      jf && jf->def == callee) {
    HostEvaluator::ModuleScope in(m.eval, &calleeModule);
    FailureOr<JitOptions> opts = getJitOptions(m.eval, *jf);
    if (failed(opts))
      return failure();
    noinline = opts->noinline.value_or(false);
  }
  if (noinline)
    for (size_t i = 0; i < values.size(); ++i)
      if (hasNonScalarTensor(values[i]))
        return fail(args.loc, "function '" + fn.name +
                                  "' is marked noinline, but was called with "
                                  "the non-scalar argument '" +
                                  params[i].name + "' (" + values[i].typeStr() +
                                  ")");

  auto [named, isNew] = m.functionNames.try_emplace(callee);
  if (isNew) {
    std::string base = callee->getName().str();
    if (&calleeModule != &m.km)
      base = escapeSymbol(calleeModule.getModuleName()) + "_" + base;
    // Another def of the same name already took the base (a helper
    // redefined in another unit of the same module).
    std::string unique = base;
    for (unsigned n = 1; llvm::any_of(m.functionNames,
                                      [&](const auto &e) {
                                        return e.first != callee &&
                                               e.second == unique;
                                      });
         ++n)
      unique = base + "_" + std::to_string(n);
    named->second = unique;
  }
  std::string mangled = named->second + "__";
  for (size_t i = 0; i < values.size(); ++i)
    mangled += (i ? "__" : "") + mangleArg(values[i]);

  auto it = m.functions.find(mangled);
  if (it == m.functions.end()) {
    if (m.inProgress.contains(mangled))
      return fail(args.loc, "recursive call to '" + fn.name +
                                "': jit functions cannot recurse");
    std::vector<CallFrame> calleeFrames = frames;
    calleeFrames.push_back({fn.name, args.loc});
    FunctionCodegen calleeGen(m, calleeModule, callee, std::move(calleeFrames));
    m.inProgress.insert(mangled);
    FailureOr<DeviceFunction> df =
        calleeGen.lowerDeviceFunction(mangled, values, noinline);
    m.inProgress.erase(mangled);
    if (failed(df))
      return failure();
    it = m.functions.insert({mangled, *df}).first;
  }
  const DeviceFunction &df = it->second;
  llvm::SmallVector<mlir::Value> operands;
  for (const Value &v : values)
    v.flatten(operands);
  auto call = mlir::func::CallOp::create(b, loc, df.op, operands);
  if (df.result.isNone())
    return Value::none();
  size_t cursor = 0;
  llvm::SmallVector<mlir::Value> results(call.getResults());
  return df.result.unflatten(results, cursor);
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

/// A value shaped like `v` whose tensors are zeros.
static Value zerosLike(FunctionCodegen &cg, const Value &v) {
  if (v.isTensor())
    return cg.zeroValue(v.getType());
  if (v.isTuple()) {
    std::vector<Value> elts;
    for (const Value &e : v.getElements())
      elts.push_back(zerosLike(cg, e));
    return Value::tuple(std::move(elts));
  }
  return v;
}

FailureOr<DeviceFunction> FunctionCodegen::lowerDeviceFunction(
    llvm::StringRef mangledName, llvm::ArrayRef<Value> params, bool noinline) {
  llvm::SmallVector<mlir::Type> argTypes;
  for (const Value &v : params)
    v.flattenTypes(getContext(), argTypes);
  mlir::OpBuilder mb(getContext());
  mb.setInsertionPointToEnd(m.module->getBody());
  fn = mlir::func::FuncOp::create(mb, loc, mangledName,
                                  mb.getFunctionType(argTypes, {}));
  fn.setPrivate();
  if (noinline)
    fn.setNoInline(true);
  mlir::Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  llvm::SmallVector<mlir::Value> blockArgs(entry->getArguments());
  size_t cursor = 0;
  for (size_t i = 0; i < params.size(); ++i)
    setValue(def->getParams()[i].name, params[i].unflatten(blockArgs, cursor));
  if (failed(lowerBlock(def->getBody())))
    return failure();
  if (!terminated) {
    llvm::SmallVector<mlir::Value> results;
    if (returnValue && !returnValue->isNone()) {
      // Falling off the end of a function that returns values elsewhere:
      // what is returned is undefined (Triton returns poison); zeros it is.
      llvm::SmallVector<mlir::Type> types;
      returnValue->flattenTypes(getContext(), types);
      for (mlir::Type t : types) {
        if (llvm::isa<mlir::tessera::TensorDescType>(t))
          return fail(def->getLoc().ptr,
                      "function '" + def->getName() +
                          "' does not return a descriptor on every path");
      }
      Value zero = zerosLike(*this, *returnValue);
      zero.flatten(results);
    }
    mlir::func::ReturnOp::create(b, loc, results);
  }
  llvm::SmallVector<mlir::Type> resultTypes;
  if (returnValue)
    returnValue->flattenTypes(getContext(), resultTypes);
  fn.setFunctionType(mb.getFunctionType(argTypes, resultTypes));
  DeviceFunction out;
  out.op = fn;
  out.result = returnValue ? *returnValue : Value::none();
  return out;
}

LogicalResult FunctionCodegen::lowerKernel(const Specialization &spec) {
  isKernel = true;
  llvm::ArrayRef<Parameter> params = def->getParams();
  llvm::ArrayRef<SpecializedParam> sp = spec.getParams();
  if (params.size() != sp.size())
    return fail(def->getLoc().ptr,
                "the specialization does not match the kernel's parameters");
  // A host-built descriptor is passed as its fields (HostDescriptors.cpp).
  llvm::SmallVector<mlir::Type> argTypes;
  for (const SpecializedParam &p : sp) {
    if (p.isConstexpr)
      continue;
    if (p.type.isTensorDesc())
      appendHostDescriptorParamTypes(*this, p, argTypes);
    else
      argTypes.push_back(p.type.toMLIR(getContext()));
  }
  mlir::OpBuilder mb(getContext());
  mb.setInsertionPointToEnd(m.module->getBody());
  fn = mlir::func::FuncOp::create(mb, loc, def->getName(),
                                  mb.getFunctionType(argTypes, {}));
  fn->setAttr(mlir::tessera::kKernelAttrName, mb.getUnitAttr());
  for (const auto &[name, value] : spec.getOptions())
    fn->setAttr("tessera." + name, mb.getI32IntegerAttr(int32_t(value)));
  mlir::Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  unsigned argIdx = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const SpecializedParam &p = sp[i];
    if (p.isConstexpr) {
      vars[params[i].name.str()] = Value::fromHost(p.value);
      continue;
    }
    if (p.type.isTensorDesc()) {
      setValue(params[i].name, bindHostDescriptor(*this, p, argIdx));
      continue;
    }
    if (p.divisibility > 1)
      fn.setArgAttr(argIdx, mlir::tessera::kDivisibilityAttrName,
                    mb.getI32IntegerAttr(int32_t(p.divisibility)));
    // MLIR integers are signless: without this a kernel specialized for
    // `*u32` would record `*i32`, and the launch that specialized it would
    // no longer match its parameter.
    const TType &scalar = p.type.isPointer() ? p.type.getPointee() : p.type;
    if (scalar.isScalarType() && scalar.isUnsignedInt() && !scalar.isBool())
      fn.setArgAttr(
          argIdx, mlir::tessera::kSignatureTypeAttrName,
          mb.getStringAttr((p.type.isPointer() ? "*" : "") + scalar.mangle()));
    setValue(params[i].name, Value::tensor(entry->getArgument(argIdx), p.type));
    ++argIdx;
  }
  if (failed(lowerBlock(def->getBody())))
    return failure();
  if (!terminated)
    mlir::func::ReturnOp::create(b, loc);
  return success();
}
