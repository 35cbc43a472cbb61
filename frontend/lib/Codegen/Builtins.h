//===- Builtins.h - The registry of `tl` builtins ---------------*- C++ -*-===//
//
// Every function of the Triton language that device code may call (tl.load,
// tl.sum, tensor.to, desc.load, Python's min and print, libdevice.asin...)
// is a builtin: a C++ function registered under its canonical qualified
// name. Tensor and descriptor methods are registered under the names
// "tensor.NAME" and "tensor_descriptor.NAME" and receive `self` as their
// first argument. Families register themselves from their own files.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_LIB_CODEGEN_BUILTINS_H
#define TESSERA_FRONTEND_LIB_CODEGEN_BUILTINS_H

#include "CodeGen.h"

#include "llvm/ADT/StringMap.h"

#include <functional>

namespace tessera::frontend::codegen {

using BuiltinFn = llvm::FailureOr<Value> (*)(FunctionCodegen &cg,
                                             CallArgs &args);

class BuiltinRegistry {
public:
  /// The registry with every family registered.
  static const BuiltinRegistry &get();

  void add(llvm::StringRef name, BuiltinFn fn) { map[name] = fn; }
  /// Registers `fn` as tl.NAME and as the tensor method NAME.
  void addWithMethod(llvm::StringRef name, BuiltinFn fn) {
    add(("triton.language." + name).str(), fn);
    add(("tensor." + name).str(), fn);
  }
  BuiltinFn lookup(llvm::StringRef name) const {
    auto it = map.find(name);
    return it == map.end() ? nullptr : it->second;
  }
  /// Every registered name, in no particular order.
  std::vector<std::string> getNames() const {
    std::vector<std::string> names;
    for (const auto &entry : map)
      names.push_back(entry.getKey().str());
    return names;
  }

private:
  llvm::StringMap<BuiltinFn> map;
};

/// The canonical spelling of a builtin's qualified name: the submodules that
/// re-export `tl` functions (triton.language.core, .math, .standard,
/// .random) fold into triton.language; the vendor libdevice modules fold
/// into triton.language.extra.libdevice.
std::string canonicalBuiltinName(llvm::StringRef qualifiedName);

// Registration of each family (one file each).
void registerCoreBuiltins(BuiltinRegistry &r);
void registerShapeBuiltins(BuiltinRegistry &r);
void registerMemoryBuiltins(BuiltinRegistry &r);
void registerAtomicBuiltins(BuiltinRegistry &r);
void registerMathBuiltins(BuiltinRegistry &r);
void registerReduceBuiltins(BuiltinRegistry &r);
void registerRandomBuiltins(BuiltinRegistry &r);
void registerDebugBuiltins(BuiltinRegistry &r);

/// Calls libdevice function `name` (BuiltinsExtern.cpp); nullopt if there
/// is no such function.
std::optional<llvm::FailureOr<Value>>
callLibdevice(FunctionCodegen &cg, llvm::StringRef name, CallArgs &args);

//===----------------------------------------------------------------------===//
// Helpers shared by the builtin families
//===----------------------------------------------------------------------===//

/// Emits `OpTy(x)` elementwise with the type of `x`.
template <typename OpTy> Value emitUnary(FunctionCodegen &cg, const Value &x) {
  auto op = OpTy::create(cg.b, cg.loc, x.getHandle());
  return Value::tensor(op, x.getType());
}

/// Builds a reduce (or scan) combine region over `elemTypes` whose body is
/// produced by `body` from the accumulated and new scalars.
using CombineBody = std::function<llvm::FailureOr<std::vector<Value>>(
    FunctionCodegen &cg, llvm::ArrayRef<Value> lhs, llvm::ArrayRef<Value> rhs)>;

/// Reduces `inputs` (same shapes) along `axis` (nullopt: all axes, after
/// flattening) with `body`; `keepDims` keeps the reduced axis with size 1.
llvm::FailureOr<std::vector<Value>> emitReduce(FunctionCodegen &cg,
                                               llvm::ArrayRef<Value> inputs,
                                               std::optional<int64_t> axis,
                                               bool keepDims, CombineBody body);

/// Converts a one-element block into a scalar.
llvm::FailureOr<Value> unsplat(FunctionCodegen &cg, const Value &v);

/// Reads a PropagateNan argument (None, tl.PropagateNan.NONE or .ALL).
llvm::FailureOr<bool> readPropagateNan(FunctionCodegen &cg, const Value &v);

} // namespace tessera::frontend::codegen

#endif // TESSERA_FRONTEND_LIB_CODEGEN_BUILTINS_H
