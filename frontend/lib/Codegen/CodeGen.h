//===- CodeGen.h - Lowering of jit functions to the tessera dialect -*- C++
//-*-===//
//
// Internal interface of the lowering. A ModuleCodegen holds what every
// function lowered for one kernel shares (the MLIR module, the device
// function specializations made so far, the host evaluator); a
// FunctionCodegen lowers one jit function body, keeping Triton's scoping:
// a map from names to Values, rebuilt around every region so that a region
// yields exactly the variables it reassigns.
//
// The methods are spread over files by concern: Semantic.cpp (casts,
// broadcasting, constants), Arithmetic.cpp (operators), ExprCodegen.cpp,
// Names.cpp, StmtCodegen.cpp, ControlFlow.cpp, Calls.cpp, and the builtins.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_LIB_CODEGEN_CODEGEN_H
#define TESSERA_FRONTEND_LIB_CODEGEN_CODEGEN_H

#include "tessera/Frontend/Codegen/Value.h"
#include "tessera/Frontend/Compile.h"
#include "tessera/Frontend/HostEvaluator.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

#include <map>

namespace tessera::frontend::codegen {

class FunctionCodegen;
class BuiltinRegistry;

/// A lowered device-function specialization.
struct DeviceFunction {
  mlir::func::FuncOp op;
  /// The structure of what it returns (handles are placeholders); None for
  /// a function that returns nothing.
  Value result;
};

/// State shared by the functions lowered for one kernel.
class ModuleCodegen {
public:
  ModuleCodegen(KernelModule &km, mlir::MLIRContext &ctx,
                DiagnosticEngine &diags, const CompileOptions &options);

  KernelModule &km;
  mlir::MLIRContext &ctx;
  DiagnosticEngine &diags;
  HostEvaluator eval;
  CompileOptions options;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Device functions by mangled name.
  llvm::StringMap<DeviceFunction> functions;
  /// Mangled names being lowered (to reject recursion).
  llvm::StringSet<> inProgress;
  /// The base of the symbol names of each jit function called so far: its
  /// name, prefixed with its module's when that is not the kernel's (two
  /// modules may define helpers of the same name).
  llvm::DenseMap<const FunctionDefStmt *, std::string> functionNames;
  /// Above zero while a loop body is lowered a first time to find what it
  /// reassigns; static_print stays quiet then.
  unsigned dryRunDepth = 0;
  /// Bodies of tl.static_range unrolled so far, for the limit
  /// (ControlFlow.cpp).
  int64_t staticRangeIterations = 0;
  const BuiltinRegistry &builtins;
};

/// Where a device function was called from, for the notes of errors.
struct CallFrame {
  std::string function;
  llvm::SMLoc callLoc;
};

/// Names in scope, in the order they were first bound.
using Scope =
    llvm::MapVector<std::string, Value, std::map<std::string, unsigned>>;

/// The arguments of a call: positional then keyword, with the expressions
/// they came from (null for arguments made by the compiler).
struct CallArgs {
  const Expr *callee = nullptr;
  llvm::SMLoc loc;
  std::vector<Value> args;
  std::vector<const Expr *> argExprs;
  std::vector<std::pair<std::string, Value>> kwargs;
  std::vector<const Expr *> kwargExprs;

  void add(Value v, const Expr *e = nullptr) {
    args.push_back(std::move(v));
    argExprs.push_back(e);
  }
  void addKeyword(std::string name, Value v, const Expr *e = nullptr) {
    kwargs.emplace_back(std::move(name), std::move(v));
    kwargExprs.push_back(e);
  }
};

/// The result of binding a call's arguments to named parameters.
struct BoundArgs {
  std::vector<Value> values;
  std::vector<const Expr *> exprs;
  std::vector<bool> given;
  const Value &operator[](size_t i) const { return values[i]; }
  bool has(size_t i) const { return given[i] && !values[i].isNone(); }
};

/// Lowers one jit function (a kernel or a device-function specialization).
class FunctionCodegen {
public:
  /// Lowers `def`, a function of `km` (whose globals its names read).
  FunctionCodegen(ModuleCodegen &m, const KernelModule &km,
                  const FunctionDefStmt *def, std::vector<CallFrame> frames);

  //===--------------------------------------------------------------------===//
  // Entry points (Calls.cpp)
  //===--------------------------------------------------------------------===//

  /// Lowers the kernel `def` under `spec` into a public func.func.
  llvm::LogicalResult lowerKernel(const Specialization &spec);
  /// Lowers a device function specialized for `params` (one Value per
  /// parameter: constexprs are baked in, IR values become arguments).
  llvm::FailureOr<DeviceFunction>
  lowerDeviceFunction(llvm::StringRef mangledName, llvm::ArrayRef<Value> params,
                      bool noinline);

  //===--------------------------------------------------------------------===//
  // Diagnostics
  //===--------------------------------------------------------------------===//

  /// Reports an error at `loc` (with a hint when not empty and a note per
  /// enclosing call); always returns failure.
  llvm::LogicalResult fail(llvm::SMLoc loc, const llvm::Twine &message,
                           const llvm::Twine &hint = "");
  llvm::LogicalResult fail(const Node *at, const llvm::Twine &message,
                           const llvm::Twine &hint = "") {
    return fail(at->getLoc().ptr, message, hint);
  }
  /// Reports that device code used `name`, a host object known only by
  /// name: unsupported by Tessera, or from a module that could not be
  /// imported (the reason, and a note at the import `expr` goes through).
  llvm::LogicalResult failUnknownSymbol(llvm::StringRef name, llvm::SMLoc at,
                                        const Expr *expr);
  /// Reports at the node being lowered.
  llvm::LogicalResult fail(const llvm::Twine &message,
                           const llvm::Twine &hint = "") {
    return fail(curLoc, message, hint);
  }
  /// Where errors about the construct being lowered point.
  llvm::SMLoc curLoc;

  //===--------------------------------------------------------------------===//
  // Expressions, names and calls
  //===--------------------------------------------------------------------===//

  /// Lowers `e`; fails when its value is a block past kMaxBlockElements.
  llvm::FailureOr<Value> lowerExpr(const Expr *e);
  /// lowerExpr without the block limit check.
  llvm::FailureOr<Value> lowerExprUnchecked(const Expr *e);
  llvm::FailureOr<Value> lookupName(const NameExpr *name);
  llvm::FailureOr<Value> lookupGlobal(llvm::StringRef name, llvm::SMLoc loc);
  llvm::FailureOr<Value> getAttribute(const Value &base, llvm::StringRef attr,
                                      llvm::SMLoc loc);
  llvm::FailureOr<Value> lowerCall(const CallExpr *call);
  /// Calls `callee` (a builtin, a jit function or a bound method).
  llvm::FailureOr<Value> callValue(const Value &callee, CallArgs &args);
  llvm::FailureOr<Value> callJitFunction(const HostFunction &fn,
                                         CallArgs &args);
  /// Calls the builtin with qualified name `name` (nullopt if there is none).
  std::optional<llvm::FailureOr<Value>> callBuiltin(llvm::StringRef name,
                                                    CallArgs &args);
  /// Binds `args` as Python binds a call to `def f(params)`: the first
  /// `numRequired` parameters are required; a name starting with '*'
  /// collects the remaining positional arguments into a tuple; missing
  /// optional parameters are None.
  llvm::FailureOr<BoundArgs> bindArgs(const CallArgs &args,
                                      llvm::StringRef fnName,
                                      llvm::ArrayRef<llvm::StringRef> params,
                                      unsigned numRequired);
  /// A constexpr argument as a host value, or an error naming `what`.
  llvm::FailureOr<HostValue> requireConstexpr(const Value &v,
                                              llvm::StringRef what,
                                              const Expr *at = nullptr);
  llvm::FailureOr<int64_t> requireInt(const Value &v, llvm::StringRef what,
                                      const Expr *at = nullptr);
  llvm::FailureOr<bool> requireBool(const Value &v, llvm::StringRef what,
                                    const Expr *at = nullptr);
  /// A constexpr string, or "" for None.
  llvm::FailureOr<std::string>
  requireString(const Value &v, llvm::StringRef what, const Expr *at = nullptr);
  /// A dtype argument.
  llvm::FailureOr<TType> requireDType(const Value &v, llvm::StringRef what,
                                      const Expr *at = nullptr);
  /// A shape: a tuple (or a single value) of constexpr non-negative ints.
  llvm::FailureOr<std::vector<int64_t>>
  requireShape(const Value &v, llvm::StringRef what, const Expr *at = nullptr);
  /// A tensor (constexpr numbers are converted by to_tensor).
  llvm::FailureOr<Value> requireTensor(const Value &v, llvm::StringRef what,
                                       const Expr *at = nullptr);

  //===--------------------------------------------------------------------===//
  // Statements and control flow
  //===--------------------------------------------------------------------===//

  llvm::LogicalResult lowerBlock(StmtList stmts);
  llvm::LogicalResult lowerStmt(const Stmt *s);
  llvm::LogicalResult assignTarget(const Expr *target, const Value &value);
  llvm::LogicalResult lowerIf(const IfStmt *s);
  llvm::LogicalResult lowerFor(const ForStmt *s);
  llvm::LogicalResult lowerWhile(const WhileStmt *s);
  llvm::LogicalResult lowerReturn(const ReturnStmt *s);
  llvm::FailureOr<Value> lowerIfExp(const IfExpExpr *e);
  /// Truth of a value used as an `if` or `while` condition: a constexpr
  /// (nullopt handle), or an i1 scalar tensor.
  llvm::FailureOr<Value> conditionValue(const Value &cond, const Node *at);

  //===--------------------------------------------------------------------===//
  // Semantics of values (Semantic.cpp, Arithmetic.cpp)
  //===--------------------------------------------------------------------===//

  /// Triton's to_tensor: numbers become scalar constants.
  llvm::FailureOr<Value> toTensor(const Value &v);
  /// A scalar constant `v` of type `dtype`.
  Value scalarConstant(const HostValue &v, const TType &dtype);
  /// A zero of `type` (a block of zeros for a block type).
  Value zeroValue(const TType &type);
  /// A constexpr converted to, or a tensor cast to, scalar type `dtype`.
  llvm::FailureOr<Value> makeScalar(const Value &v, const TType &dtype);
  Value splat(const Value &scalar, llvm::ArrayRef<int64_t> shape);
  llvm::FailureOr<Value> broadcastTo(const Value &v,
                                     llvm::ArrayRef<int64_t> shape);
  llvm::FailureOr<std::pair<Value, Value>> broadcastPair(const Value &a,
                                                         const Value &b);
  /// Broadcasts every value (scalars and blocks) to their common shape,
  /// with numpy's rules (Triton's broadcast_tensors).
  llvm::FailureOr<std::vector<Value>>
  broadcastAll(llvm::ArrayRef<Value> values);
  Value expandDims(const Value &v, int axis);
  llvm::FailureOr<Value> reshape(const Value &v, llvm::ArrayRef<int64_t> shape,
                                 bool canReorder);
  llvm::FailureOr<Value> permute(const Value &v, llvm::ArrayRef<int64_t> dims);
  llvm::FailureOr<Value>
  castTo(const Value &v, const TType &dst,
         std::optional<mlir::tessera::RoundingMode> rounding = std::nullopt);
  llvm::FailureOr<Value> bitcast(const Value &v, const TType &dst);
  /// Triton's binary_op_type_checking_impl: converts Python numbers, applies
  /// the promotion rules (when `arithmeticCheck`), casts and broadcasts.
  llvm::FailureOr<std::pair<Value, Value>>
  binaryTypeCheck(const Value &lhs, const Value &rhs, bool allowLhsPtr = false,
                  bool allowRhsPtr = false, bool arithmeticCheck = true,
                  bool divOrMod = false);

  /// `lhs op rhs` where at least one side is a tensor.
  llvm::FailureOr<Value> binaryOp(BinaryOpKind op, const Value &lhs,
                                  const Value &rhs);
  llvm::FailureOr<Value> add(const Value &a, const Value &b);
  llvm::FailureOr<Value> sub(const Value &a, const Value &b);
  llvm::FailureOr<Value> mul(const Value &a, const Value &b);
  llvm::FailureOr<Value> trueDiv(const Value &a, const Value &b);
  llvm::FailureOr<Value> floorDiv(const Value &a, const Value &b);
  llvm::FailureOr<Value> mod(const Value &a, const Value &b);
  llvm::FailureOr<Value> bitwise(BinaryOpKind op, const Value &a,
                                 const Value &b);
  llvm::FailureOr<Value> shift(BinaryOpKind op, const Value &a, const Value &b);
  /// A comparison of two values at least one of which is a tensor; Python
  /// numbers are converted with to_tensor first, as Triton's operators do.
  llvm::FailureOr<Value> compare(CmpOpKind op, const Value &a, const Value &b);
  llvm::FailureOr<Value> minus(const Value &v);
  llvm::FailureOr<Value> invert(const Value &v);
  llvm::FailureOr<Value> logicalNot(const Value &v);
  llvm::FailureOr<Value> logicalAndOr(bool isAnd, const Value &a,
                                      const Value &b);
  llvm::FailureOr<Value> where(const Value &cond, const Value &x,
                               const Value &y);
  llvm::FailureOr<Value> minMax(bool isMax, const Value &x, const Value &y,
                                bool propagateNan);

  //===--------------------------------------------------------------------===//
  // Scope
  //===--------------------------------------------------------------------===//

  /// Binds `name` in the current scope.
  void setValue(llvm::StringRef name, const Value &v) {
    vars[name.str()] = v;
    localDefs[name.str()] = v;
  }

  ModuleCodegen &m;
  /// The module the function is defined in.
  const KernelModule &km;
  const FunctionDefStmt *def;
  std::vector<CallFrame> frames;
  mlir::OpBuilder b;
  mlir::Location loc;
  mlir::func::FuncOp fn;
  /// lscope and local_defs of Triton's code generator.
  Scope vars;
  Scope localDefs;
  /// What the function returns, once a return was lowered.
  std::optional<Value> returnValue;
  /// The current block ends in a return: later statements are dead.
  bool terminated = false;
  /// Loops (for, while) being lowered around the current statement.
  unsigned loopDepth = 0;
  bool isKernel = false;

  /// The MLIR location of a source location.
  mlir::Location getLoc(const SourceLoc &sl);
  mlir::MLIRContext *getContext() { return &m.ctx; }
};

/// Sets the builder location and the error location for the lifetime of the
/// object, restoring them afterwards.
class LocationScope {
public:
  LocationScope(FunctionCodegen &cg, const Node *node);
  ~LocationScope();

private:
  FunctionCodegen &cg;
  mlir::Location savedLoc;
  llvm::SMLoc savedCurLoc;
};

/// Whether `stmts` contains a `return` (Triton's ContainsReturnChecker).
bool containsReturn(StmtList stmts);

} // namespace tessera::frontend::codegen

#endif // TESSERA_FRONTEND_LIB_CODEGEN_CODEGEN_H
