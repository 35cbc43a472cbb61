//===- TargetTest.cpp - AMD architectures and target descriptions ---------===//
#include "Target.h"

#include "gmock/gmock.h"

using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;
using ::testing::HasSubstr;

namespace {

TargetDescription describe(llvm::StringRef arch) {
  llvm::Expected<TargetDescription> target = describeTarget(arch);
  if (!target) {
    ADD_FAILURE() << llvm::toString(target.takeError());
    return {};
  }
  return *target;
}

const MatrixInstruction *findMfma(const TargetDescription &target,
                                  llvm::StringRef type, unsigned size) {
  for (const MatrixInstruction &mi : target.matrixInstructions)
    if (mi.aType == type && mi.m == size)
      return &mi;
  return nullptr;
}

TEST(AMDGPUArch, AcceptsTheCdnaNamesAndTargetIds) {
  for (auto [text, name] : {std::pair{"gfx90a", "gfx90a"},
                            {"GFX942", "gfx942"},
                            {"gfx942:sramecc+:xnack-", "gfx942"},
                            {" gfx950 ", "gfx950"}}) {
    llvm::Expected<Arch> arch = parseArch(text);
    ASSERT_TRUE(static_cast<bool>(arch))
        << text << ": " << llvm::toString(arch.takeError());
    EXPECT_EQ(arch->name, name);
  }
  EXPECT_EQ(getArchitectures(),
            (std::vector<std::string>{"gfx90a", "gfx942", "gfx950"}));
}

TEST(AMDGPUArch, RefusesOthersWithTheAcceptedNames) {
  for (const char *name : {"gfx908", "gfx1100", "sm_90a", "", "gfx9"}) {
    llvm::Expected<Arch> arch = parseArch(name);
    ASSERT_FALSE(static_cast<bool>(arch)) << name;
    std::string message = llvm::toString(arch.takeError());
    EXPECT_THAT(message, HasSubstr("unsupported architecture"));
    EXPECT_THAT(message, HasSubstr("gfx90a, gfx942, gfx950"));
  }
}

TEST(AMDGPUTarget, DescribesWave64AndTheLdsOfEachGeneration) {
  for (const char *name : {"gfx90a", "gfx942", "gfx950"}) {
    TargetDescription target = describe(name);
    EXPECT_EQ(target.backend, "amdgpu");
    EXPECT_EQ(target.warpSize, 64u);
    EXPECT_EQ(target.maxThreadsPerBlock, 1024u);
    EXPECT_EQ(target.maxRegistersPerThread, 512u);
    EXPECT_EQ(target.extra.lookup("llvm-triple"), "amdgcn-amd-amdhsa");
    EXPECT_EQ(target.extra.lookup("llvm-cpu"), name);
    EXPECT_FALSE(target.tensorMemoryCopy);
  }
  EXPECT_EQ(describe("gfx90a").maxSharedMemoryPerBlock, 65536u);
  EXPECT_EQ(describe("gfx942").maxSharedMemoryPerBlock, 65536u);
  EXPECT_EQ(describe("gfx950").maxSharedMemoryPerBlock, 160u * 1024);
  EXPECT_EQ(describe("gfx942").extra.lookup("isa-version"), "9402");
}

TEST(AMDGPUTarget, ListsTheMfmaOfEachGeneration) {
  TargetDescription cdna2 = describe("gfx90a"), cdna3 = describe("gfx942"),
                    cdna4 = describe("gfx950");
  // 32x32 blocks are preferred: they come first.
  ASSERT_FALSE(cdna2.matrixInstructions.empty());
  EXPECT_EQ(cdna2.matrixInstructions.front().name, "mfma.f32.32x32x8f16");
  const MatrixInstruction *f16 = findMfma(cdna3, "fp16", 16);
  ASSERT_NE(f16, nullptr);
  EXPECT_EQ(f16->name, "mfma.f32.16x16x16f16");
  EXPECT_EQ(f16->k, 16u);
  // int8: K 8 on CDNA2, K 16 from CDNA3.
  ASSERT_NE(findMfma(cdna2, "int8", 32), nullptr);
  EXPECT_EQ(findMfma(cdna2, "int8", 32)->k, 8u);
  EXPECT_EQ(findMfma(cdna3, "int8", 32)->k, 16u);
  // fp8: fnuz formats native on CDNA3, OCP formats native on CDNA4; the
  // others (all of them on CDNA2) go through fp16 MFMA.
  for (const char *fp8 : {"fp8e4b8", "fp8e4nv", "fp8e5", "fp8e5b16"}) {
    ASSERT_NE(findMfma(cdna2, fp8, 32), nullptr) << fp8;
    EXPECT_EQ(findMfma(cdna2, fp8, 32)->name, "mfma.f32.32x32x8f16") << fp8;
  }
  ASSERT_NE(findMfma(cdna3, "fp8e4b8", 32), nullptr);
  EXPECT_EQ(findMfma(cdna3, "fp8e4b8", 32)->name, "mfma.f32.32x32x16.fp8.fp8");
  EXPECT_EQ(findMfma(cdna3, "fp8e5b16", 16)->name, "mfma.f32.16x16x32.bf8.bf8");
  EXPECT_EQ(findMfma(cdna3, "fp8e4nv", 32)->name, "mfma.f32.32x32x8f16");
  EXPECT_EQ(findMfma(cdna4, "fp8e4nv", 32)->name, "mfma.f32.32x32x16.fp8.fp8");
  EXPECT_EQ(findMfma(cdna4, "fp8e5", 16)->name, "mfma.f32.16x16x32.bf8.bf8");
  EXPECT_EQ(findMfma(cdna4, "fp8e4b8", 32)->name, "mfma.f32.32x32x8f16");
}

TEST(AMDGPUTarget, DescriptionsDifferBetweenArchitectures) {
  // The description's text is part of every cache key.
  EXPECT_NE(describe("gfx90a").str(), describe("gfx942").str());
  EXPECT_NE(describe("gfx942").str(), describe("gfx950").str());
}

TEST(AMDGPUTarget, DeviceRefinesComputeUnits) {
  DeviceProperties props;
  props.name = "AMD Instinct MI300X";
  props.arch = "gfx942:sramecc+:xnack-";
  props.multiprocessorCount = 304;
  llvm::Expected<TargetDescription> target = describeDevice(props);
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->arch, "gfx942");
  EXPECT_EQ(target->multiprocessorCount, 304u);
  props.arch = "gfx1100";
  llvm::Expected<TargetDescription> refused = describeDevice(props);
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_THAT(llvm::toString(refused.takeError()),
              HasSubstr("device 'AMD Instinct MI300X'"));
}

} // namespace
