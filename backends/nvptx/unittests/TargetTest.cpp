//===- TargetTest.cpp - NVPTX architectures and target descriptions -------===//
#include "Target.h"

#include "gmock/gmock.h"

using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;
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

std::string refusal(llvm::StringRef arch) {
  llvm::Expected<Arch> parsed = parseArch(arch);
  if (parsed) {
    ADD_FAILURE() << arch.str() << " was accepted as " << parsed->str();
    return "";
  }
  return llvm::toString(parsed.takeError());
}

bool hasMma(const TargetDescription &target, llvm::StringRef prefix,
            llvm::StringRef type, llvm::StringRef acc) {
  return llvm::any_of(
      target.matrixInstructions, [&](const MatrixInstruction &mi) {
        return llvm::StringRef(mi.name).starts_with(prefix) &&
               mi.aType == type && mi.bType == type && mi.accType == acc;
      });
}

TEST(NVPTXArch, AcceptsTheSupportedNames) {
  struct Case {
    const char *text, *canonical;
  } cases[] = {{"sm_80", "sm_80"}, {"sm_86", "sm_86"},  {"sm_87", "sm_87"},
               {"sm_89", "sm_89"}, {"sm_90", "sm_90"},  {"sm_90a", "sm_90a"},
               {"80", "sm_80"},    {"90a", "sm_90a"},   {"SM_90A", "sm_90a"},
               {"Sm_86", "sm_86"}, {" sm_89 ", "sm_89"}};
  for (const Case &c : cases) {
    llvm::Expected<Arch> arch = parseArch(c.text);
    ASSERT_TRUE(static_cast<bool>(arch))
        << c.text << ": " << llvm::toString(arch.takeError());
    EXPECT_EQ(arch->str(), c.canonical) << c.text;
  }
  llvm::Expected<Arch> hopper = parseArch("sm_90a");
  ASSERT_TRUE(static_cast<bool>(hopper));
  EXPECT_EQ(hopper->capability(), 90u);
  EXPECT_TRUE(hopper->archSpecific);
}

TEST(NVPTXArch, RefusesOlderAndUnknownWithTheAcceptedNames) {
  for (const char *name : {"sm_75", "70", "sm_52", "sm_100", "sm_120", "sm_80a",
                           "sm_89a", "gfx942", "", "sm_", "sm_9x", "sm_8000"}) {
    std::string message = refusal(name);
    EXPECT_THAT(message, HasSubstr("unsupported architecture"));
    EXPECT_THAT(message, HasSubstr("needs sm_80 or newer"));
    EXPECT_THAT(message,
                HasSubstr("sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a"));
  }
  EXPECT_THAT(refusal("sm_75"), HasSubstr("'sm_75': older than sm_80"));
  EXPECT_THAT(refusal("sm_100"), HasSubstr("unknown to this version"));
  EXPECT_THAT(refusal("sm_80a"), HasSubstr("no architecture-specific"));
  EXPECT_THAT(refusal("gfx942"), HasSubstr("not an architecture name"));
}

TEST(NVPTXArch, ListsArchitecturesOldestFirst) {
  EXPECT_EQ(getArchitectures(),
            (std::vector<std::string>{"sm_80", "sm_86", "sm_87", "sm_89",
                                      "sm_90", "sm_90a"}));
  for (const std::string &name : getArchitectures())
    EXPECT_TRUE(static_cast<bool>(describeTarget(name))) << name;
}

TEST(NVPTXTarget, CommonLimits) {
  for (const std::string &name : getArchitectures()) {
    TargetDescription t = describe(name);
    EXPECT_EQ(t.backend, "nvptx");
    EXPECT_EQ(t.arch, name);
    EXPECT_EQ(t.warpSize, 32u);
    EXPECT_EQ(t.maxThreadsPerBlock, 1024u);
    EXPECT_EQ(t.sharedMemoryPerBlock, 48u * 1024);
    EXPECT_EQ(t.registersPerBlock, 65536u);
    EXPECT_EQ(t.maxRegistersPerThread, 255u);
    EXPECT_EQ(t.maxVectorBits, 128u);
    EXPECT_EQ(t.multiprocessorCount, 0u);
    EXPECT_TRUE(t.asyncCopy);
    EXPECT_TRUE(t.inlineAsm);
    EXPECT_EQ(t.extra.lookup("llvm-cpu"), name);
    EXPECT_EQ(t.extra.lookup("llvm-triple"), "nvptx64-nvidia-cuda");
    EXPECT_EQ(t.extra.lookup("ptx-features"), "+ptx86");
  }
}

TEST(NVPTXTarget, OptInSharedMemoryPerArch) {
  EXPECT_EQ(describe("sm_80").maxSharedMemoryPerBlock, 166912u);
  EXPECT_EQ(describe("sm_87").maxSharedMemoryPerBlock, 166912u);
  EXPECT_EQ(describe("sm_86").maxSharedMemoryPerBlock, 101376u);
  EXPECT_EQ(describe("sm_89").maxSharedMemoryPerBlock, 101376u);
  EXPECT_EQ(describe("sm_90").maxSharedMemoryPerBlock, 232448u);
  EXPECT_EQ(describe("sm_90a").maxSharedMemoryPerBlock, 232448u);
}

TEST(NVPTXTarget, HopperFeatures) {
  TargetDescription ampere = describe("sm_80"), ada = describe("sm_89");
  TargetDescription hopper = describe("sm_90"), hopperA = describe("sm_90a");
  for (const TargetDescription *t : {&ampere, &ada}) {
    EXPECT_FALSE(t->tensorMemoryCopy) << t->arch;
    EXPECT_FALSE(t->clusters) << t->arch;
    EXPECT_EQ(t->maxClusterSize, 1u) << t->arch;
    EXPECT_FALSE(t->warpSpecialization) << t->arch;
  }
  for (const TargetDescription *t : {&hopper, &hopperA}) {
    EXPECT_TRUE(t->tensorMemoryCopy) << t->arch;
    EXPECT_TRUE(t->clusters) << t->arch;
    EXPECT_EQ(t->maxClusterSize, 8u) << t->arch;
  }
  EXPECT_FALSE(hopper.warpSpecialization);
  EXPECT_TRUE(hopperA.warpSpecialization);
}

TEST(NVPTXTarget, MatrixInstructionsPerArch) {
  for (const std::string &name : getArchitectures()) {
    TargetDescription t = describe(name);
    EXPECT_TRUE(hasMma(t, "mma.sync.m16n8k16", "fp16", "fp32")) << name;
    EXPECT_TRUE(hasMma(t, "mma.sync.m16n8k16", "bf16", "fp32")) << name;
    EXPECT_TRUE(hasMma(t, "mma.sync.m16n8k16", "fp16", "fp16")) << name;
    EXPECT_TRUE(hasMma(t, "mma.sync.m16n8k8", "tf32", "fp32")) << name;
    EXPECT_TRUE(hasMma(t, "mma.sync.m16n8k32", "int8", "int32")) << name;
    bool fp8 = name != "sm_80" && name != "sm_86" && name != "sm_87";
    EXPECT_EQ(hasMma(t, "mma.sync.m16n8k32", "fp8e4nv", "fp32"), fp8) << name;
    EXPECT_EQ(hasMma(t, "mma.sync.m16n8k32", "fp8e5", "fp32"), fp8) << name;
    bool wgmma = name == "sm_90a";
    EXPECT_EQ(hasMma(t, "wgmma", "fp16", "fp32"), wgmma) << name;
    EXPECT_EQ(t.extra.count("wgmma-n"), wgmma ? 1u : 0u) << name;
  }
  TargetDescription t = describe("sm_90a");
  for (auto [type, acc] : {std::pair{"fp16", "fp32"},
                           {"bf16", "fp32"},
                           {"tf32", "fp32"},
                           {"fp8e4nv", "fp32"},
                           {"fp8e5", "fp32"},
                           {"int8", "int32"}})
    EXPECT_TRUE(hasMma(t, "wgmma", type, acc)) << type;
  // wgmma first: the core tries the list in order.
  ASSERT_FALSE(t.matrixInstructions.empty());
  const MatrixInstruction &first = t.matrixInstructions.front();
  EXPECT_EQ(first.name, "wgmma.m64nNk16");
  EXPECT_EQ(first.m, 64u);
  EXPECT_EQ(first.k, 16u);
  EXPECT_EQ(first.warps, 4u);
  EXPECT_TRUE(first.operandsFromShared);
  // Every wgmma shape reads 256 bits of K per row: k16 for 16-bit types,
  // k8 for tf32, k32 for 8-bit ones.
  for (const MatrixInstruction &mi : t.matrixInstructions) {
    if (!llvm::StringRef(mi.name).starts_with("wgmma"))
      continue;
    unsigned bits = mi.aType == "tf32"                         ? 32
                    : mi.aType == "fp16" || mi.aType == "bf16" ? 16
                                                               : 8;
    EXPECT_EQ(mi.k * bits, 256u) << mi.name << " " << mi.aType;
  }
}

TEST(NVPTXTarget, Fp8Dtypes) {
  TargetDescription ampere = describe("sm_80"), ada = describe("sm_89");
  TargetDescription hopper = describe("sm_90a");
  EXPECT_TRUE(ampere.supportsDtype("fp8e5"));
  EXPECT_FALSE(ampere.supportsDtype("fp8e4nv"));
  EXPECT_TRUE(ampere.supportsDtype("fp8e4b15"));
  EXPECT_TRUE(ada.supportsDtype("fp8e4nv"));
  EXPECT_TRUE(ada.supportsDtype("fp8e4b15"));
  EXPECT_TRUE(hopper.supportsDtype("fp8e4nv"));
  EXPECT_TRUE(hopper.supportsDtype("fp8e5"));
  EXPECT_FALSE(hopper.supportsDtype("fp8e4b15"));
  for (const TargetDescription *t : {&ampere, &ada, &hopper}) {
    EXPECT_TRUE(t->supportsDtype("bf16"));
    EXPECT_TRUE(t->supportsDtype("fp64"));
    EXPECT_FALSE(t->supportsDtype("fp8e4b8")) << "an AMD type";
    EXPECT_FALSE(t->supportsDtype("fp8e5b16")) << "an AMD type";
  }
}

TEST(NVPTXTarget, CacheKeysDifferPerArch) {
  std::vector<std::string> keys;
  for (const std::string &name : getArchitectures())
    keys.push_back(describe(name).str());
  for (size_t i = 0; i < keys.size(); ++i)
    for (size_t j = i + 1; j < keys.size(); ++j)
      EXPECT_NE(keys[i], keys[j]) << i << " vs " << j;
  EXPECT_EQ(describe("90a").str(), describe("sm_90a").str());
}

TEST(NVPTXTarget, RefinedByADevice) {
  DeviceProperties props;
  props.name = "NVIDIA H100 80GB HBM3";
  props.arch = "sm_90a";
  props.multiprocessorCount = 132;
  props.maxSharedMem = 232448;
  props.maxNumRegs = 65536;
  llvm::Expected<TargetDescription> t = describeDevice(props);
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->arch, "sm_90a");
  EXPECT_EQ(t->multiprocessorCount, 132u);
  EXPECT_EQ(t->maxSharedMemoryPerBlock, 232448u);
  EXPECT_NE(t->str(), describe("sm_90a").str());

  // A smaller opt-in (a MIG slice, say) wins over the table.
  TargetDescription ampere = describe("sm_80");
  DeviceProperties slice;
  slice.multiprocessorCount = 14;
  slice.maxSharedMem = 100000;
  refineForDevice(ampere, slice);
  EXPECT_EQ(ampere.multiprocessorCount, 14u);
  EXPECT_EQ(ampere.maxSharedMemoryPerBlock, 100000u);
  EXPECT_EQ(ampere.registersPerBlock, 65536u);

  DeviceProperties turing;
  turing.name = "Tesla T4";
  turing.arch = "sm_75";
  llvm::Expected<TargetDescription> old = describeDevice(turing);
  ASSERT_FALSE(static_cast<bool>(old));
  EXPECT_THAT(llvm::toString(old.takeError()), HasSubstr("device 'Tesla T4'"));
}

} // namespace
