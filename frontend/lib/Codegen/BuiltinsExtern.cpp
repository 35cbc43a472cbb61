//===- BuiltinsExtern.cpp - libdevice functions as extern_elementwise -----===//
//
// `libdevice.NAME(args)` (from triton.language.extra.libdevice or a
// target's own libdevice module) lowers to tessera.extern_elementwise with
// an empty library name and path and the vendor-neutral symbol
//
//     __tessera_NAME_T1[_T2...]
//
// where T1, T2, ... are the argument element types in Triton's spellings
// (i32, u32, i64, u64, fp32, fp64): libdevice.asin on fp32 is
// "__tessera_asin_fp32", libdevice.pow(fp32, i32) "__tessera_pow_fp32_i32".
// Each target plugin resolves these symbols in its own math library. As in
// Triton, the argument types must match one overload exactly (there is no
// implicit conversion); the arguments are broadcast to a common shape.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

#include "llvm/ADT/StringExtras.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
namespace tt = mlir::tessera;

namespace {
struct LibdeviceFunction {
  const char *name;
  const char *signatures;
  bool pure;
};
} // namespace

static const LibdeviceFunction kFunctions[] = {
#define LIBDEVICE(NAME, SIGNATURES, PURE) {#NAME, SIGNATURES, PURE},
#include "LibdeviceFunctions.def"
};

static const LibdeviceFunction *findFunction(llvm::StringRef name) {
  for (const LibdeviceFunction &f : kFunctions)
    if (name == f.name)
      return &f;
  return nullptr;
}

static FailureOr<Value> callExtern(FunctionCodegen &cg, CallArgs &args,
                                   const LibdeviceFunction &fn) {
  if (!args.kwargs.empty())
    return cg.fail(std::string("libdevice.") + fn.name +
                   "() takes positional arguments only");
  std::vector<Value> operands;
  std::string argKey;
  for (size_t i = 0; i < args.args.size(); ++i) {
    FailureOr<Value> t =
        cg.requireTensor(args.args[i], "an argument", args.argExprs[i]);
    if (failed(t))
      return failure();
    operands.push_back(*t);
    if (i)
      argKey += ",";
    argKey += t->getType().getElement().mangle();
  }
  // Find the overload whose argument types match exactly.
  llvm::SmallVector<llvm::StringRef> overloads;
  llvm::StringRef(fn.signatures).split(overloads, ';');
  std::optional<TType> resultElem;
  std::string accepted;
  for (llvm::StringRef o : overloads) {
    auto [params, result] = o.split("->");
    accepted += accepted.empty() ? "(" : ", (";
    accepted += params;
    accepted += ")";
    if (params == argKey)
      resultElem = TType::scalar(*TType::parseScalarName(result));
  }
  if (!resultElem)
    return cg.fail(std::string("libdevice.") + fn.name +
                       " has no overload for (" + argKey + "); it accepts " +
                       accepted,
                   "convert the arguments with .to(...) first");
  // Broadcast the arguments to a common shape (without promotion).
  FailureOr<std::vector<Value>> broadcast = cg.broadcastAll(operands);
  if (failed(broadcast))
    return failure();
  operands = *broadcast;
  std::vector<int64_t> shape;
  if (!operands.empty())
    shape.assign(operands[0].getType().getShape().begin(),
                 operands[0].getType().getShape().end());
  TType resultType =
      shape.empty() ? *resultElem : TType::block(*resultElem, shape);
  std::string symbol = std::string("__tessera_") + fn.name;
  llvm::SmallVector<mlir::Value> handles;
  for (const Value &v : operands) {
    symbol += "_";
    symbol += v.getType().getElement().mangle();
    handles.push_back(v.getHandle());
  }
  auto op = tt::ExternElementwiseOp::create(cg.b, cg.loc,
                                            resultType.toMLIR(cg.getContext()),
                                            handles, "", "", symbol, fn.pure);
  return Value::tensor(op, resultType);
}

std::optional<FailureOr<Value>> tessera::frontend::codegen::callLibdevice(
    FunctionCodegen &cg, llvm::StringRef name, CallArgs &args) {
  const LibdeviceFunction *fn = findFunction(name);
  if (!fn)
    return std::nullopt;
  return callExtern(cg, args, *fn);
}
