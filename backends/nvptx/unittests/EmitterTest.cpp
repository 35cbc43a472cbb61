//===- EmitterTest.cpp - LLVM-dialect kernels to NVVM IR and PTX ----------===//
//
// Needs LLVM's NVPTX target only; the libdevice tests skip where the CUDA
// toolkit's libdevice.10.bc is not found.
//
//===----------------------------------------------------------------------===//
#include "MathLibrary.h"
#include "TestKernels.h"
#include "Toolkit.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/IR/Constants.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <fstream>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;
using namespace mlir::tessera::nvptx::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

std::string printed(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

/// Skips the test when libdevice is not installed.
#define REQUIRE_LIBDEVICE()                                                    \
  do {                                                                         \
    if (llvm::Expected<std::string> libdevice_ = findLibdevice(); !libdevice_) \
      GTEST_SKIP() << llvm::toString(libdevice_.takeError());                  \
  } while (false)

TEST(Emitter, VectorAddForSm90a) {
  ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, "sm_90a"));
  EXPECT_THAT(*ptx, HasSubstr(".version 8.6"));
  EXPECT_THAT(*ptx, HasSubstr(".target sm_90a"));
  EXPECT_THAT(*ptx, HasSubstr(".address_size 64"));
  EXPECT_THAT(*ptx, HasSubstr(".visible .entry add("));
  EXPECT_THAT(*ptx, HasSubstr("%tid.x"));
  EXPECT_THAT(*ptx, HasSubstr("%ctaid.x"));
  EXPECT_THAT(*ptx, HasSubstr("ld.global"));
  EXPECT_THAT(*ptx, HasSubstr("st.global"));
  // Fusion is allowed by default: no `.rn` that would forbid contraction.
  EXPECT_THAT(*ptx, HasSubstr("add.f32"));
}

TEST(Emitter, VectorAddForSm80) {
  ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, "sm_80"));
  EXPECT_THAT(*ptx, HasSubstr(".target sm_80"));
  EXPECT_THAT(*ptx, Not(HasSubstr("sm_90")));
  EXPECT_THAT(*ptx, HasSubstr(".entry add("));
  EXPECT_THAT(*ptx, HasSubstr("ld.global"));
}

TEST(Emitter, ExplicitPtxVersion) {
  CompileOptions options;
  options.extra["ptx-features"] = "+ptx87";
  ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, "sm_90a", options));
  EXPECT_THAT(*ptx, HasSubstr(".version 8.7"));
}

TEST(Emitter, IRHasTheNVPTXTripleAndLayout) {
  std::unique_ptr<MLIRContext> context = makeContext();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kVectorAdd, context.get());
  ASSERT_TRUE(module);
  llvm::LLVMContext llvmContext;
  ASSERT_VALUE(ir, translateToNVVMIR(*module, llvmContext, targetFor("sm_90a"),
                                     CompileOptions()));
  EXPECT_EQ((*ir)->getTargetTriple().str(), "nvptx64-nvidia-cuda");
  ASSERT_VALUE(machine, createTargetMachine(*parseArch("sm_90a"), kPtxFeatures,
                                            CompileOptions()));
  EXPECT_EQ((*ir)->getDataLayout(), (*machine)->createDataLayout());
  llvm::Function *add = (*ir)->getFunction("add");
  ASSERT_TRUE(add);
  EXPECT_EQ(add->getCallingConv(), llvm::CallingConv::PTX_Kernel);
  auto *ftz = llvm::mdconst::extract_or_null<llvm::ConstantInt>(
      (*ir)->getModuleFlag("nvvm-reflect-ftz"));
  ASSERT_TRUE(ftz);
  EXPECT_EQ(ftz->getZExtValue(), 0u);

  // emitPTX leaves the module as it found it.
  std::string before = printed(**ir);
  ASSERT_VALUE(ptx, emitPTX(**ir, "sm_90a", CompileOptions()));
  EXPECT_EQ(printed(**ir), before);
}

TEST(Emitter, UnusedLibdeviceIsNeverRead) {
  ScopedEnv env(kLibdeviceEnv, "/nonexistent/libdevice.10.bc");
  ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, "sm_80"));
  EXPECT_THAT(*ptx, HasSubstr(".entry add("));
}

TEST(Emitter, LinksOnlyTheLibdeviceFunctionsUsed) {
  REQUIRE_LIBDEVICE();
  std::unique_ptr<MLIRContext> context = makeContext();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kExp, context.get());
  ASSERT_TRUE(module);
  llvm::LLVMContext llvmContext;
  ASSERT_VALUE(ir, translateToNVVMIR(*module, llvmContext, targetFor("sm_90a"),
                                     CompileOptions()));
  // Inlined and internalized: no libdevice function is left, defined or
  // declared, and the kernel is the only external definition.
  for (const llvm::Function &fn : **ir) {
    EXPECT_FALSE(fn.getName().starts_with("__nv_")) << fn.getName().str();
    EXPECT_FALSE(fn.getName().starts_with("__nvvm_reflect"));
    if (!fn.isDeclaration() && fn.getName() != "exp_kernel") {
      EXPECT_TRUE(fn.hasLocalLinkage()) << fn.getName().str();
    }
  }
  ASSERT_VALUE(ptx, emitPTX(**ir, "sm_90a", CompileOptions()));
  EXPECT_THAT(*ptx, HasSubstr(".entry exp_kernel("));
  EXPECT_THAT(*ptx, HasSubstr("ex2.approx"));
  EXPECT_THAT(*ptx, Not(HasSubstr("__nv_")));
  EXPECT_THAT(*ptx, Not(HasSubstr("call")));
  // nvvm-reflect-ftz is 0: libdevice's arithmetic does not flush
  // denormals (with 1 it uses fma.rn.ftz; its ex2.approx.ftz is
  // unconditional).
  EXPECT_THAT(*ptx, Not(HasSubstr("fma.rn.ftz")));
}

TEST(Emitter, LibdeviceSqrtIsCorrectlyRounded) {
  REQUIRE_LIBDEVICE();
  ASSERT_VALUE(ptx, compileToPTX(kSqrt, "sm_80"));
  EXPECT_THAT(*ptx, HasSubstr("sqrt.rn.f32"));
  EXPECT_THAT(*ptx, Not(HasSubstr("sqrt.approx")));
}

TEST(Emitter, MissingLibdeviceNamesWhereItLooked) {
  ScopedEnv env(kLibdeviceEnv, "/nonexistent/libdevice.10.bc");
  llvm::Expected<std::string> ptx = compileToPTX(kExp, "sm_90a");
  ASSERT_FALSE(static_cast<bool>(ptx));
  EXPECT_THAT(llvm::toString(ptx.takeError()),
              AllOf(HasSubstr("the module calls libdevice"),
                    HasSubstr("libdevice not found"),
                    HasSubstr("$TESSERA_LIBDEVICE=/nonexistent/"
                              "libdevice.10.bc")));
}

TEST(Emitter, LibdeviceNames) {
  MLIRContext context;
  Type f32 = Float32Type::get(&context), f64 = Float64Type::get(&context);
  EXPECT_EQ(getLibdeviceName("__tessera_asin_fp32", f32), "__nv_asinf");
  EXPECT_EQ(getLibdeviceName("asinf", f32), "__nv_asinf");
  EXPECT_EQ(getLibdeviceName("__tessera_asin_fp64", f64), "__nv_asin");
  EXPECT_EQ(getLibdeviceName("__tessera_exp2_fp32", f32), "__nv_exp2f");
  EXPECT_EQ(getLibdeviceName("__tessera_atan2_fp64", f64), "__nv_atan2");
  // Rounded arithmetic puts the type first; fma the other way round.
  EXPECT_EQ(getLibdeviceName("__tessera_div_rn_fp32", f32), "__nv_fdiv_rn");
  EXPECT_EQ(getLibdeviceName("__tessera_add_rz_fp64", f64), "__nv_dadd_rz");
  EXPECT_EQ(getLibdeviceName("__tessera_sqrt_rn_fp32", f32), "__nv_fsqrt_rn");
  EXPECT_EQ(getLibdeviceName("__tessera_fma_rn_fp32", f32), "__nv_fmaf_rn");
  EXPECT_EQ(getLibdeviceName("__tessera_fma_rn_fp64", f64), "__nv_fma_rn");
  // An int exponent is powi's (powf with an int argument was garbage).
  EXPECT_EQ(getLibdeviceName("__tessera_pow_fp32_i32", f32), "__nv_powif");
  EXPECT_EQ(getLibdeviceName("__tessera_pow_fp64_i32", f64), "__nv_powi");
  EXPECT_EQ(getLibdeviceName("__tessera_pow_fp32_fp32", f32), "__nv_powf");
  // Predicates end in f or d; names that spell their types stay.
  EXPECT_EQ(getLibdeviceName("__tessera_isnan_fp32", f32), "__nv_isnanf");
  EXPECT_EQ(getLibdeviceName("__tessera_isinf_fp64", f64), "__nv_isinfd");
  EXPECT_EQ(getLibdeviceName("__tessera_finitef_fp32", f32), "__nv_finitef");
  EXPECT_EQ(getLibdeviceName("__tessera_float2int_rn_fp32", f32),
            "__nv_float2int_rn");
  EXPECT_EQ(getLibdeviceName("__tessera_int2float_rn_i32", f32),
            "__nv_int2float_rn");
  EXPECT_EQ(getLibdeviceName("__tessera_fast_expf_fp32", f32),
            "__nv_fast_expf");
  EXPECT_EQ(getLibdeviceName("__tessera_fast_dividef_fp32", f32),
            "__nv_fast_fdividef");
  EXPECT_EQ(getLibdeviceName("__tessera_rsqrt_fp32", f32), "__nv_rsqrtf");
  EXPECT_EQ(getLibdeviceName("__nv_expf", f32), "__nv_expf");
  EXPECT_EQ(
      getLibdeviceName("__tessera_asin_i32", IntegerType::get(&context, 32)),
      "");
}

TEST(Emitter, AFunctionLibdeviceLacksIsNamed) {
  REQUIRE_LIBDEVICE();
  std::string source = kExp;
  size_t at;
  while ((at = source.find("__nv_expf")) != std::string::npos)
    source.replace(at, 9, "__nv_nosuchf");
  llvm::Expected<std::string> ptx = compileToPTX(source, "sm_90a");
  ASSERT_FALSE(static_cast<bool>(ptx));
  EXPECT_THAT(llvm::toString(ptx.takeError()),
              HasSubstr("has no function '__nv_nosuchf'"));
}

TEST(Emitter, LibdeviceSearchOrder) {
  llvm::SmallString<128> root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tessera-cuda", root));
  llvm::SmallString<128> dir(root);
  llvm::sys::path::append(dir, "nvvm", "libdevice");
  ASSERT_FALSE(llvm::sys::fs::create_directories(dir));
  llvm::SmallString<128> file(dir);
  llvm::sys::path::append(file, "libdevice.10.bc");
  { std::ofstream(std::string(file)) << "BC"; }

  {
    ScopedEnv noEnv(kLibdeviceEnv, std::nullopt);
    ScopedEnv home("CUDA_HOME", std::string(root));
    ASSERT_VALUE(found, findLibdevice());
    EXPECT_EQ(*found, std::string(file));
  }
  {
    // $TESSERA_LIBDEVICE comes first.
    ScopedEnv env(kLibdeviceEnv, std::string(file));
    ScopedEnv home("CUDA_HOME", "/nonexistent");
    ASSERT_VALUE(found, findLibdevice());
    EXPECT_EQ(*found, std::string(file));
  }
  {
    ScopedEnv noEnv(kLibdeviceEnv, std::nullopt);
    ScopedEnv home("CUDA_HOME", "/nonexistent-home");
    ScopedEnv path("CUDA_PATH", "/nonexistent-path");
    std::vector<std::string> roots = getCudaRoots();
    ASSERT_EQ(roots.size(), 3u);
    EXPECT_EQ(roots[0], "/nonexistent-home");
    EXPECT_EQ(roots[1], "/nonexistent-path");
    EXPECT_EQ(roots[2], "/usr/local/cuda");
  }
  llvm::sys::fs::remove_directories(root);
}

TEST(Emitter, FPFusionFollowsTheOption) {
  ASSERT_VALUE(fused, compileToPTX(kMulAdd, "sm_80"));
  EXPECT_THAT(*fused, HasSubstr("fma.rn.f32"));
  CompileOptions strict;
  strict.enableFPFusion = false;
  ASSERT_VALUE(separate, compileToPTX(kMulAdd, "sm_80", strict));
  EXPECT_THAT(*separate, Not(HasSubstr("fma")));
  // `.rn` keeps ptxas from contracting them itself.
  EXPECT_THAT(*separate,
              AllOf(HasSubstr("mul.rn.f32"), HasSubstr("add.rn.f32")));
}

TEST(Emitter, RefusesUnsupportedArchitectures) {
  TargetDescription target = targetFor("sm_80");
  target.arch = "sm_70";
  std::unique_ptr<MLIRContext> context = makeContext();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kVectorAdd, context.get());
  ASSERT_TRUE(module);
  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> ir =
      translateToNVVMIR(*module, llvmContext, target, CompileOptions());
  ASSERT_FALSE(static_cast<bool>(ir));
  EXPECT_THAT(llvm::toString(ir.takeError()), HasSubstr("older than sm_80"));

  llvm::LLVMContext other;
  llvm::Module empty("empty", other);
  llvm::Expected<std::string> ptx = emitPTX(empty, "gfx90a", CompileOptions());
  ASSERT_FALSE(static_cast<bool>(ptx));
  EXPECT_THAT(llvm::toString(ptx.takeError()),
              HasSubstr("unsupported architecture 'gfx90a'"));
}

TEST(Emitter, UntranslatableOpsAreAnError) {
  // nvvm.barrier.arrive has no LLVM intrinsic; convert-nvvm-to-llvm must
  // turn it into inline assembly before translation.
  constexpr char kSource[] = R"mlir(
llvm.func @k(%n: i32) attributes {nvvm.kernel} {
  nvvm.barrier.arrive number_of_threads = %n
  llvm.return
}
)mlir";
  std::unique_ptr<MLIRContext> context = makeContext();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kSource, context.get());
  ASSERT_TRUE(module);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(context.get(), [&](Diagnostic &diag) {
    diagnostics += diag.str() + "\n";
    return success();
  });
  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> ir = translateToNVVMIR(
      *module, llvmContext, targetFor("sm_90a"), CompileOptions());
  ASSERT_FALSE(static_cast<bool>(ir));
  EXPECT_THAT(llvm::toString(ir.takeError()),
              HasSubstr("translation to LLVM IR failed"));
  EXPECT_THAT(diagnostics, HasSubstr("nvvm.barrier.arrive"));
}

} // namespace
