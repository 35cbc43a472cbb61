//===- PtxAssemblerTest.cpp - PTX to cubin through each route -------------===//
//
// The nvJitLink and ptxas tests skip, naming what is missing, where the
// CUDA toolkit does not provide them; the driver route needs nothing.
//
//===----------------------------------------------------------------------===//
#include "PtxAssembler.h"
#include "NvJitLink.h"
#include "TestKernels.h"
#include "Toolkit.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;
using namespace mlir::tessera::nvptx::testing;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

/// Syntactically broken PTX: every assembler refuses it.
constexpr char kInvalidPtx[] =
    ".version 8.6\n.target sm_90a\n"
    ".address_size 64\n"
    ".visible .entry add() { bogus.instr %r1; ret; }\n";

#define REQUIRE_NVJITLINK()                                                    \
  do {                                                                         \
    if (llvm::Expected<const NvJitLink &> lib_ = NvJitLink::get(); !lib_)      \
      GTEST_SKIP() << llvm::toString(lib_.takeError());                        \
  } while (false)

#define REQUIRE_PTXAS()                                                        \
  do {                                                                         \
    if (llvm::Expected<std::string> ptxas_ = findPtxas(); !ptxas_)             \
      GTEST_SKIP() << llvm::toString(ptxas_.takeError());                      \
  } while (false)

CompileOptions through(llvm::StringRef route) {
  CompileOptions options;
  options.extra[kAssemblerOption] = route.str();
  return options;
}

/// Compiles the vector add for `arch`, assembles it through `route` and
/// checks the cubin.
void expectCubin(llvm::StringRef route, llvm::StringRef arch) {
  CompileOptions options = through(route);
  ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, arch, options));
  CompiledKernel kernel;
  ASSERT_NO_ERROR(assemblePTX(*ptx, "add", arch, options, kernel));
  EXPECT_EQ(kernel.format, "cubin");
  ASSERT_GT(kernel.binary.size(), 4u);
  EXPECT_EQ(kernel.binary.substr(0, 4), "\x7f"
                                        "ELF");
  EXPECT_GT(kernel.registers, 0);
  EXPECT_LE(kernel.registers, 255);
  EXPECT_EQ(kernel.spillBytes, 0);
  EXPECT_EQ(kernel.metadata[kAssemblerMetadata], route.str());
  EXPECT_THAT(
      kernel.metadata[kAssemblerLogMetadata],
      HasSubstr("Compiling entry function 'add' for '" + arch.str() + "'"));
  std::printf("%s for %s: %zu bytes, %d registers\n", route.str().c_str(),
              arch.str().c_str(), kernel.binary.size(), kernel.registers);
}

TEST(PtxAssembler, ParsesPtxasResourceLines) {
  constexpr char kLog[] =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'other' for 'sm_90a'\n"
      "ptxas info    : Function properties for other\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
      "ptxas info    : Function properties for k\n"
      "    64 bytes stack frame, 120 bytes spill stores, 120 bytes spill "
      "loads\n"
      "ptxas info    : Used 24 registers, used 0 barriers, 64 bytes "
      "cumulative stack size, 4096 bytes smem\n";
  ResourceUsage k = parseResourceUsage(kLog, "k");
  EXPECT_EQ(k.registers, 24);
  EXPECT_EQ(k.spillBytes, 120);
  ResourceUsage other = parseResourceUsage(kLog, "other");
  EXPECT_EQ(other.registers, 40);
  EXPECT_EQ(other.spillBytes, 0);
  ResourceUsage missing = parseResourceUsage(kLog, "missing");
  EXPECT_EQ(missing.registers, -1);
  EXPECT_EQ(missing.spillBytes, -1);
}

TEST(PtxAssembler, ParsesNvJitLinkInfoLog) {
  constexpr char kLog[] =
      "ptxas info    : Compiling entry function 'add' for 'sm_90a'\n"
      "ptxas info    : Function properties for add\n"
      "ptxas         .     0 bytes stack frame, 8 bytes spill stores, 8 "
      "bytes spill loads\n"
      "ptxas info    : Used 12 registers, used 0 barriers\n"
      "info    : 0 bytes gmem\n"
      "info    : Function properties for 'add':\n"
      "info    : used 12 registers, used 0 barriers, 0 stack, 0 bytes smem, "
      "552 bytes cmem[0], 0 bytes lmem\n";
  ResourceUsage usage = parseResourceUsage(kLog, "add");
  EXPECT_EQ(usage.registers, 12);
  EXPECT_EQ(usage.spillBytes, 8);
  // A log naming no function: its numbers are the kernel's.
  ResourceUsage anonymous =
      parseResourceUsage("Used 7 registers\n16 bytes spill stores\n", "k");
  EXPECT_EQ(anonymous.registers, 7);
  EXPECT_EQ(anonymous.spillBytes, 16);
}

TEST(PtxAssembler, Options) {
  CompileOptions options;
  options.lineInfo = false;
  EXPECT_THAT(getAssemblerOptions(PtxRoute::NvJitLink, "sm_90a", options),
              ElementsAre("-arch=sm_90a", "-O3", "-verbose"));
  EXPECT_THAT(getAssemblerOptions(PtxRoute::Ptxas, "sm_80", options),
              ElementsAre("-arch=sm_80", "-O3", "-v"));
  options.lineInfo = true;
  options.maxNumRegs = 64;
  EXPECT_THAT(getAssemblerOptions(PtxRoute::NvJitLink, "sm_90a", options),
              ElementsAre("-arch=sm_90a", "-O3", "-maxrregcount=64",
                          "-lineinfo", "-verbose"));
  EXPECT_THAT(getAssemblerOptions(PtxRoute::Ptxas, "sm_90a", options),
              ElementsAre("-arch=sm_90a", "-O3", "--maxrregcount=64",
                          "-lineinfo", "-v"));
}

TEST(PtxAssembler, ForcedRoutes) {
  ASSERT_VALUE(none, getForcedPtxRoute(CompileOptions()));
  EXPECT_FALSE(none->has_value());
  ASSERT_VALUE(automatic, getForcedPtxRoute(through("auto")));
  EXPECT_FALSE(automatic->has_value());
  for (PtxRoute route :
       {PtxRoute::NvJitLink, PtxRoute::Ptxas, PtxRoute::Driver}) {
    ASSERT_VALUE(forced, getForcedPtxRoute(through(getPtxRouteName(route))));
    EXPECT_EQ(*forced, route);
  }
  llvm::Expected<std::optional<PtxRoute>> unknown =
      getForcedPtxRoute(through("nvcc"));
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_THAT(llvm::toString(unknown.takeError()),
              HasSubstr("unknown ptx-assembler 'nvcc'"));
  CompiledKernel kernel;
  llvm::Error err =
      assemblePTX(kInvalidPtx, "add", "sm_90a", through("nvcc"), kernel);
  EXPECT_THAT(llvm::toString(std::move(err)), HasSubstr("nvcc"));
}

TEST(PtxAssembler, AutomaticChoice) {
  bool haveNvJitLink = static_cast<bool>(NvJitLink::get());
  llvm::Expected<std::string> ptxas = findPtxas();
  bool havePtxas = static_cast<bool>(ptxas);
  if (!ptxas)
    llvm::consumeError(ptxas.takeError());
  PtxRoute plain = choosePtxRoute(".entry k() { ret; }");
  PtxRoute warpSpecialized =
      choosePtxRoute(".entry k() { setmaxnreg.inc.sync.aligned.u32 240; }");
  // ptxas first: whole-program compiles are faster than nvJitLink's.
  EXPECT_EQ(plain, havePtxas       ? PtxRoute::Ptxas
                   : haveNvJitLink ? PtxRoute::NvJitLink
                                   : PtxRoute::Driver);
  // nvJitLink would drop setmaxnreg.
  EXPECT_EQ(warpSpecialized, havePtxas ? PtxRoute::Ptxas : PtxRoute::Driver);
  llvm::consumeError(NvJitLink::get().takeError());
}

TEST(PtxAssembler, NvJitLinkCandidates) {
  {
    ScopedEnv env(kNvJitLinkEnv, "/opt/libnvJitLink.so.12");
    EXPECT_THAT(getNvJitLinkCandidates(),
                ElementsAre("/opt/libnvJitLink.so.12"));
  }
  ScopedEnv env(kNvJitLinkEnv, std::nullopt);
  ScopedEnv home("CUDA_HOME", std::nullopt);
  ScopedEnv path("CUDA_PATH", std::nullopt);
  std::vector<std::string> candidates = getNvJitLinkCandidates();
  ASSERT_GE(candidates.size(), 4u);
  EXPECT_EQ(candidates[0], "libnvJitLink.so.13");
  EXPECT_EQ(candidates[1], "libnvJitLink.so.12");
  EXPECT_EQ(candidates[2], "libnvJitLink.so");
  EXPECT_THAT(candidates, Contains("/usr/local/cuda/lib64/libnvJitLink.so.13"));
}

TEST(PtxAssembler, PtxasThroughTheEnvironment) {
  {
    ScopedEnv env(kPtxasEnv, "/nonexistent/ptxas");
    llvm::Expected<std::string> missing = findPtxas();
    ASSERT_FALSE(static_cast<bool>(missing));
    EXPECT_THAT(llvm::toString(missing.takeError()),
                HasSubstr("$TESSERA_PTXAS=/nonexistent/ptxas"));
    CompiledKernel kernel;
    llvm::Error err =
        assemblePTX(kInvalidPtx, "add", "sm_90a", through("ptxas"), kernel);
    EXPECT_THAT(llvm::toString(std::move(err)), HasSubstr("ptxas not found"));
  }
  REQUIRE_PTXAS();
  ASSERT_VALUE(found, findPtxas());
  ScopedEnv env(kPtxasEnv, *found);
  ASSERT_VALUE(again, findPtxas());
  EXPECT_EQ(*again, *found);
}

TEST(PtxAssembler, PtxasSm90a) {
  REQUIRE_PTXAS();
  expectCubin("ptxas", "sm_90a");
}

TEST(PtxAssembler, PtxasSm80) {
  REQUIRE_PTXAS();
  expectCubin("ptxas", "sm_80");
}

TEST(PtxAssembler, NvJitLinkSm90a) {
  REQUIRE_NVJITLINK();
  expectCubin("nvjitlink", "sm_90a");
}

TEST(PtxAssembler, NvJitLinkSm80) {
  REQUIRE_NVJITLINK();
  expectCubin("nvjitlink", "sm_80");
}

TEST(PtxAssembler, RegisterLimitReachesTheAssembler) {
  for (llvm::StringRef route : {"ptxas", "nvjitlink"}) {
    if (route == "ptxas") {
      llvm::Expected<std::string> ptxas = findPtxas();
      if (!ptxas) {
        llvm::consumeError(ptxas.takeError());
        continue;
      }
    } else if (llvm::Expected<const NvJitLink &> lib = NvJitLink::get(); !lib) {
      llvm::consumeError(lib.takeError());
      continue;
    }
    CompileOptions options = through(route);
    options.maxNumRegs = 32;
    ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, "sm_90a", options));
    // The limit is the assembler's, not written into the PTX.
    EXPECT_THAT(*ptx, Not(HasSubstr(".maxnreg")));
    CompiledKernel kernel;
    ASSERT_NO_ERROR(assemblePTX(*ptx, "add", "sm_90a", options, kernel));
    EXPECT_THAT(kernel.metadata[kAssemblerLogMetadata],
                HasSubstr("with  32 of maxrregcount option"))
        << route.str();
    EXPECT_LE(kernel.registers, 32);
  }
}

TEST(PtxAssembler, DriverRouteKeepsThePtx) {
  CompileOptions options = through("driver");
  options.maxNumRegs = 40;
  ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, "sm_80", options));
  CompiledKernel kernel;
  kernel.registers = 3;
  ASSERT_NO_ERROR(assemblePTX(*ptx, "add", "sm_80", options, kernel));
  EXPECT_EQ(kernel.format, "ptx");
  EXPECT_EQ(kernel.binary, *ptx);
  EXPECT_EQ(kernel.registers, -1);
  EXPECT_EQ(kernel.spillBytes, -1);
  EXPECT_EQ(kernel.metadata[kAssemblerMetadata], "driver");
  EXPECT_EQ(kernel.metadata[kMaxRegistersMetadata], "40");
}

TEST(PtxAssembler, AutomaticRouteAssembles) {
  ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, "sm_90a"));
  CompiledKernel kernel;
  ASSERT_NO_ERROR(assemblePTX(*ptx, "add", "sm_90a", CompileOptions(), kernel));
  EXPECT_EQ(kernel.metadata[kAssemblerMetadata],
            getPtxRouteName(choosePtxRoute(*ptx)).str());
  EXPECT_EQ(kernel.format,
            kernel.metadata[kAssemblerMetadata] == "driver" ? "ptx" : "cubin");
}

TEST(PtxAssembler, InvalidPtxThroughNvJitLink) {
  REQUIRE_NVJITLINK();
  CompiledKernel kernel;
  llvm::Error err =
      assemblePTX(kInvalidPtx, "add", "sm_90a", through("nvjitlink"), kernel);
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = llvm::toString(std::move(err));
  std::printf("%s\n", message.c_str());
  EXPECT_THAT(message, AllOf(HasSubstr("cannot assemble 'add' for sm_90a with "
                                       "nvJitLink"),
                             HasSubstr("NVJITLINK_ERROR_PTX_COMPILE"),
                             HasSubstr("Not a name of any known instruction: "
                                       "'bogus'")));
  EXPECT_TRUE(kernel.binary.empty());
}

TEST(PtxAssembler, InvalidPtxThroughPtxas) {
  REQUIRE_PTXAS();
  CompiledKernel kernel;
  llvm::Error err =
      assemblePTX(kInvalidPtx, "add", "sm_90a", through("ptxas"), kernel);
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = llvm::toString(std::move(err));
  std::printf("%s\n", message.c_str());
  EXPECT_THAT(message, AllOf(HasSubstr("failed assembling 'add' for sm_90a"),
                             HasSubstr("exit code"),
                             HasSubstr("Not a name of any known instruction: "
                                       "'bogus'")));
  EXPECT_TRUE(kernel.binary.empty());
}

TEST(PtxAssembler, InvalidPtxThroughTheDriver) {
  // Nothing assembles it before the driver loads it: the driver's JIT
  // reports the error then (DeviceTest's LoadErrorsCarryTheJitLog).
  CompiledKernel kernel;
  ASSERT_NO_ERROR(
      assemblePTX(kInvalidPtx, "add", "sm_90a", through("driver"), kernel));
  EXPECT_EQ(kernel.format, "ptx");
  EXPECT_EQ(kernel.binary, kInvalidPtx);
}

TEST(PtxAssembler, ArchitectureMismatchIsAnError) {
  ASSERT_VALUE(ptx, compileToPTX(kVectorAdd, "sm_90a"));
  for (llvm::StringRef route : {"ptxas", "nvjitlink"}) {
    CompiledKernel kernel;
    llvm::Error err = assemblePTX(*ptx, "add", "sm_80", through(route), kernel);
    std::string message = llvm::toString(std::move(err));
    if (message.find("not found") != std::string::npos)
      continue;
    EXPECT_THAT(message, HasSubstr("SM version specified by .target is "
                                   "higher than default SM version"))
        << route.str();
  }
}

} // namespace
