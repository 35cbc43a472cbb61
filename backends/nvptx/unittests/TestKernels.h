//===- TestKernels.h - Small LLVM-dialect kernels for the emitter tests ---===//
//
// Kernels written the way the lowering will hand them to the emitter: MLIR's
// LLVM dialect with NVVM ops, `nvvm.kernel` on the entry, global memory
// through `!llvm.ptr<1>`.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_UNITTESTS_TESTKERNELS_H
#define TESSERA_BACKENDS_NVPTX_UNITTESTS_TESTKERNELS_H

#include "Emitter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "gmock/gmock.h"

#include <cstdlib>
#include <optional>
#include <string>

namespace mlir::tessera::nvptx::testing {

/// c[i] = a[i] + b[i] for i < n, i = ctaid.x * ntid.x + tid.x.
inline constexpr char kVectorAdd[] = R"mlir(
llvm.func @add(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %n: i32)
    attributes {nvvm.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %ctaid = nvvm.read.ptx.sreg.ctaid.x : i32
  %ntid = nvvm.read.ptx.sreg.ntid.x : i32
  %base = llvm.mul %ctaid, %ntid : i32
  %i = llvm.add %base, %tid : i32
  %inside = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %inside, ^body, ^done
^body:
  %i64 = llvm.sext %i : i32 to i64
  %pa = llvm.getelementptr %a[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %pb = llvm.getelementptr %b[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %pc = llvm.getelementptr %c[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %x = llvm.load %pa : !llvm.ptr<1> -> f32
  %y = llvm.load %pb : !llvm.ptr<1> -> f32
  %z = llvm.fadd %x, %y : f32
  llvm.store %z, %pc : f32, !llvm.ptr<1>
  llvm.br ^done
^done:
  llvm.return
}
)mlir";

/// y[tid] = expf(x[tid]) through libdevice.
inline constexpr char kExp[] = R"mlir(
llvm.func @__nv_expf(f32) -> f32
llvm.func @exp_kernel(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>)
    attributes {nvvm.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = llvm.sext %tid : i32 to i64
  %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %py = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %px : !llvm.ptr<1> -> f32
  %e = llvm.call @__nv_expf(%v) : (f32) -> f32
  llvm.store %e, %py : f32, !llvm.ptr<1>
  llvm.return
}
)mlir";

/// y[tid] = sqrtf(x[tid]) through libdevice.
inline constexpr char kSqrt[] = R"mlir(
llvm.func @__nv_sqrtf(f32) -> f32
llvm.func @sqrt_kernel(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>)
    attributes {nvvm.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = llvm.sext %tid : i32 to i64
  %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %py = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %px : !llvm.ptr<1> -> f32
  %s = llvm.call @__nv_sqrtf(%v) : (f32) -> f32
  llvm.store %s, %py : f32, !llvm.ptr<1>
  llvm.return
}
)mlir";

/// y[tid] = x[tid] * x[tid] + x[tid]: a multiply-add to fuse or not.
inline constexpr char kMulAdd[] = R"mlir(
llvm.func @muladd(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %i = llvm.sext %tid : i32 to i64
  %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %py = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %px : !llvm.ptr<1> -> f32
  %m = llvm.fmul %v, %v : f32
  %r = llvm.fadd %m, %v : f32
  llvm.store %r, %py : f32, !llvm.ptr<1>
  llvm.return
}
)mlir";

/// An MLIR context with the dialects the kernels use.
inline std::unique_ptr<MLIRContext> makeContext() {
  auto context = std::make_unique<MLIRContext>();
  context->loadDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
  return context;
}

/// The target description and default options for `arch`.
inline TargetDescription targetFor(llvm::StringRef arch) {
  llvm::Expected<TargetDescription> target = describeTarget(arch);
  EXPECT_TRUE(static_cast<bool>(target));
  if (!target) {
    llvm::consumeError(target.takeError());
    return {};
  }
  return *target;
}

/// `source` through translateToNVVMIR and emitPTX.
inline llvm::Expected<std::string>
compileToPTX(llvm::StringRef source, llvm::StringRef arch,
             const CompileOptions &options = CompileOptions()) {
  std::unique_ptr<MLIRContext> context = makeContext();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, context.get());
  if (!module)
    return llvm::createStringError("the test kernel does not parse");
  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> ir =
      translateToNVVMIR(*module, llvmContext, targetFor(arch), options);
  if (!ir)
    return ir.takeError();
  return emitPTX(**ir, arch, options);
}

/// Sets (or, with std::nullopt, unsets) an environment variable for the
/// life of the object.
class ScopedEnv {
public:
  ScopedEnv(const char *name, std::optional<std::string> value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (previous)
      ::setenv(name, previous->c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> previous;
};

} // namespace mlir::tessera::nvptx::testing

#define ASSERT_NO_ERROR(expr)                                                  \
  do {                                                                         \
    llvm::Error err_ = (expr);                                                 \
    ASSERT_FALSE(static_cast<bool>(err_)) << llvm::toString(std::move(err_));  \
  } while (false)

#define ASSERT_VALUE(var, expr)                                                \
  auto var = (expr);                                                           \
  ASSERT_TRUE(static_cast<bool>(var)) << llvm::toString(var.takeError())

#endif // TESSERA_BACKENDS_NVPTX_UNITTESTS_TESTKERNELS_H
