//===- EmitterTest.cpp - LLVM-dialect kernels to HSA code objects ---------===//
//
// Needs LLVM's AMDGPU target (linked into the plugin) and the build's code
// object linker, tessera-amdgpu-link (named through TESSERA_AMDGPU_LINKER,
// since this test is not the plugin it would be found beside); the
// device-library test skips where rocm-device-libs is not installed.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "CodeObject.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "gmock/gmock.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;
using ::testing::HasSubstr;

namespace {

/// Every test of this program links with the build's linker.
class LinkerEnvironment : public ::testing::Environment {
public:
  void SetUp() override {
    ::setenv(kCodeObjectLinkerEnvVar, TESSERA_AMDGPU_LINK_PATH, 1);
  }
};
const ::testing::Environment *const kLinkerEnvironment =
    ::testing::AddGlobalTestEnvironment(new LinkerEnvironment);

constexpr char kSineKernel[] = R"mlir(
module {
  llvm.func @__ocml_sin_f32(f32) -> f32
  llvm.func @k(%p: !llvm.ptr<1>) attributes {rocdl.kernel} {
    %x = llvm.load %p : !llvm.ptr<1> -> f32
    %y = llvm.call @__ocml_sin_f32(%x) : (f32) -> f32
    llvm.store %y, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
)mlir";

constexpr char kUndefinedCall[] = R"mlir(
module {
  llvm.func @tessera_no_such_function(f32) -> f32
  llvm.func @k(%p: !llvm.ptr<1>) attributes {rocdl.kernel} {
    %x = llvm.load %p : !llvm.ptr<1> -> f32
    %y = llvm.call @tessera_no_such_function(%x) : (f32) -> f32
    llvm.store %y, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
)mlir";

class AMDGPUEmitter : public ::testing::Test {
protected:
  AMDGPUEmitter() {
    context.loadDialect<LLVM::LLVMDialect, ROCDL::ROCDLDialect>();
  }

  llvm::Expected<std::unique_ptr<llvm::Module>>
  translate(const char *text, llvm::StringRef arch) {
    module = parseSourceString<ModuleOp>(text, &context);
    if (!module)
      return llvm::createStringError("the test module does not parse");
    llvm::Expected<TargetDescription> target = describeTarget(arch);
    if (!target)
      return target.takeError();
    return translateToAMDGPUIR(*module, llvmContext, *target, options);
  }

  MLIRContext context;
  llvm::LLVMContext llvmContext;
  OwningOpRef<ModuleOp> module;
  CompileOptions options;
};

TEST_F(AMDGPUEmitter, LinksOcmlAndEmitsACodeObjectPerArchitecture) {
  if (llvm::Expected<std::string> libs = findDeviceLibraries(); !libs)
    GTEST_SKIP() << llvm::toString(libs.takeError());
  for (const char *arch : {"gfx90a", "gfx942", "gfx950"}) {
    llvm::Expected<std::unique_ptr<llvm::Module>> ir =
        translate(kSineKernel, arch);
    ASSERT_TRUE(static_cast<bool>(ir)) << llvm::toString(ir.takeError());
    // ocml's sine was linked, internalized and inlined.
    llvm::Function *sine = (*ir)->getFunction("__ocml_sin_f32");
    EXPECT_TRUE(!sine || !sine->isDeclaration()) << arch;
    EXPECT_EQ((*ir)->getTargetTriple().str(), "amdgcn-amd-amdhsa");

    llvm::Expected<std::string> assembly = emitAssembly(**ir, arch, options);
    ASSERT_TRUE(static_cast<bool>(assembly))
        << llvm::toString(assembly.takeError());
    EXPECT_THAT(*assembly, HasSubstr(".amdgcn_target \"amdgcn-amd-amdhsa--" +
                                     std::string(arch)));

    llvm::Expected<std::string> hsaco = emitHsaco(**ir, arch, options);
    ASSERT_TRUE(static_cast<bool>(hsaco)) << llvm::toString(hsaco.takeError());
    EXPECT_EQ(hsaco->substr(0, 4), "\x7f"
                                   "ELF");
    llvm::Expected<CodeObjectResources> resources =
        readKernelResources(*hsaco, "k");
    ASSERT_TRUE(static_cast<bool>(resources))
        << llvm::toString(resources.takeError());
    EXPECT_EQ(resources->wavefrontSize, 64);
    EXPECT_GT(resources->vgprs, 0);
    EXPECT_GT(resources->sgprs, 0);
    EXPECT_EQ(resources->vgprSpills, 0);
    EXPECT_EQ(resources->scratchBytes, 0);

    llvm::Expected<CodeObjectResources> missing =
        readKernelResources(*hsaco, "other");
    ASSERT_FALSE(static_cast<bool>(missing));
    EXPECT_THAT(llvm::toString(missing.takeError()),
                HasSubstr("no kernel 'other'"));
  }
}

TEST_F(AMDGPUEmitter, AFunctionNobodyDefinesIsAnError) {
  llvm::Expected<std::unique_ptr<llvm::Module>> ir =
      translate(kUndefinedCall, "gfx942");
  ASSERT_FALSE(static_cast<bool>(ir));
  EXPECT_THAT(llvm::toString(ir.takeError()),
              HasSubstr("'tessera_no_such_function' is called but neither"));
}

TEST(AMDGPULinker, RefusesWhatIsNoObject) {
  llvm::Expected<std::string> hsaco = linkHsaco("not an ELF object");
  ASSERT_FALSE(static_cast<bool>(hsaco));
  // lld's own message comes back from the linker's process.
  std::string message = llvm::toString(hsaco.takeError());
  EXPECT_THAT(message, HasSubstr("lld could not link the code object"));
  EXPECT_THAT(message, HasSubstr("ld.lld: error:"));
}

TEST(AMDGPULinker, AMissingLinkerIsNamed) {
  const char *saved = std::getenv(kCodeObjectLinkerEnvVar);
  std::string restore = saved ? saved : "";
  ::setenv(kCodeObjectLinkerEnvVar, "/nonexistent/tessera-amdgpu-link", 1);
  llvm::Expected<std::string> hsaco = linkHsaco("not an ELF object");
  ::setenv(kCodeObjectLinkerEnvVar, restore.c_str(), 1);
  ASSERT_FALSE(static_cast<bool>(hsaco));
  EXPECT_THAT(llvm::toString(hsaco.takeError()),
              HasSubstr("/nonexistent/tessera-amdgpu-link"));
}

TEST(AMDGPUCodeObject, RefusesWhatIsNoCodeObject) {
  llvm::Expected<CodeObjectResources> resources =
      readKernelResources("not an ELF file", "k");
  ASSERT_FALSE(static_cast<bool>(resources));
  EXPECT_THAT(llvm::toString(resources.takeError()),
              HasSubstr("not an ELF file"));
}

} // namespace
