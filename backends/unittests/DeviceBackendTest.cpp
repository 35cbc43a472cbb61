//===- DeviceBackendTest.cpp - The Backend made of a DeviceTarget ---------===//
#include "tessera/Backend/NoDeviceDriver.h"
#include "tessera/Backend/PluginSupport.h"

#include "gmock/gmock.h"

#include <optional>

using namespace mlir::tessera;

namespace {

/// What the fake target's functions saw (they are plain functions, so the
/// test talks to them through globals).
struct Calls {
  std::vector<std::string> describedArchs;
  std::vector<std::string> describedDevices;
  int driversCreated = 0;
  /// The properties the fake driver's device 0 reports; none: no device.
  std::optional<DeviceProperties> device;
  /// Set: getDeviceProperties fails with this text.
  std::string propertiesError;
};
Calls calls;

/// A driver with the device `calls.device` describes, or none. Memory,
/// modules and launches are a NoDeviceDriver's: describe() never uses them.
class FakeDriver final : public Driver {
public:
  unsigned getDeviceCount() override { return calls.device ? 1 : 0; }
  llvm::Expected<DeviceProperties>
  getDeviceProperties(unsigned device) override {
    if (!calls.propertiesError.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     calls.propertiesError);
    if (!calls.device || device != 0)
      return none.getDeviceProperties(device);
    return *calls.device;
  }
  llvm::Expected<uint64_t> allocate(unsigned device, size_t bytes) override {
    return none.allocate(device, bytes);
  }
  llvm::Error deallocate(unsigned device, uint64_t address) override {
    return none.deallocate(device, address);
  }
  llvm::Error copyToDevice(unsigned device, uint64_t dst, const void *src,
                           size_t bytes) override {
    return none.copyToDevice(device, dst, src, bytes);
  }
  llvm::Error copyToHost(unsigned device, void *dst, uint64_t src,
                         size_t bytes) override {
    return none.copyToHost(device, dst, src, bytes);
  }
  llvm::Error fill(unsigned device, uint64_t dst, uint8_t byte,
                   size_t bytes) override {
    return none.fill(device, dst, byte, bytes);
  }
  llvm::Expected<ModuleHandle>
  loadModule(unsigned device, const CompiledKernel &kernel) override {
    return none.loadModule(device, kernel);
  }
  llvm::Error unloadModule(ModuleHandle module) override {
    return none.unloadModule(module);
  }
  llvm::Error launch(ModuleHandle module, const LaunchConfig &config,
                     llvm::ArrayRef<void *> args) override {
    return none.launch(module, config, args);
  }
  llvm::Error synchronize(unsigned device) override {
    return none.synchronize(device);
  }

private:
  NoDeviceDriver none{"fake", "a fake driver"};
};

llvm::Expected<TargetDescription> describeArch(llvm::StringRef arch) {
  calls.describedArchs.push_back(arch.str());
  if (arch != "a1" && arch != "a2")
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no architecture '" + arch + "'");
  TargetDescription target;
  target.backend = "fake";
  target.arch = arch.str();
  return target;
}

llvm::Expected<TargetDescription>
describeDevice(const DeviceProperties &props) {
  calls.describedDevices.push_back(props.arch);
  llvm::Expected<TargetDescription> target = describeArch(props.arch);
  if (target)
    target->multiprocessorCount = props.multiprocessorCount;
  return target;
}

llvm::Error emitBinary(llvm::Module &, CompiledKernel &kernel,
                       const TargetDescription &target,
                       const CompileOptions &) {
  kernel.format = "fake";
  kernel.binary = "for " + target.arch;
  return llvm::Error::success();
}

constexpr llvm::StringLiteral kModules[] = {"fakelib", "other"};

constexpr DeviceTarget kFake = {
    .name = "fake",
    .description = "a fake target",
    .languageModules = kModules,
    .getArchitectures = []() -> std::vector<std::string> {
      return {"a1", "a2"};
    },
    .describeArch = describeArch,
    .describeDevice = describeDevice,
    .registerDialects = [](mlir::DialectRegistry &) {},
    .buildPipeline = [](Pipeline &, const TargetDescription &,
                        const CompileOptions &) -> llvm::Error {
      return llvm::Error::success();
    },
    .translateToLLVMIR = nullptr,
    .emitAssembly = nullptr,
    .emitBinary = emitBinary,
    .createDriver = []() -> std::unique_ptr<Driver> {
      ++calls.driversCreated;
      return std::make_unique<FakeDriver>();
    },
};

class DeviceBackendTest : public ::testing::Test {
protected:
  void SetUp() override { calls = Calls(); }
};

TEST_F(DeviceBackendTest, ForwardsItsIdentityAndOwnsOneDriver) {
  void *created = createDeviceBackend<kFake>(nullptr);
  ASSERT_NE(created, nullptr);
  auto *backend = static_cast<Backend *>(created);
  EXPECT_EQ(calls.driversCreated, 1);
  EXPECT_EQ(backend->getName(), "fake");
  EXPECT_EQ(backend->getDescription(), "a fake target");
  EXPECT_THAT(backend->getLanguageModules(),
              ::testing::ElementsAre("fakelib", "other"));
  EXPECT_THAT(backend->getArchitectures(), ::testing::ElementsAre("a1", "a2"));
  EXPECT_EQ(&backend->getDriver(), &backend->getDriver());
  EXPECT_EQ(backend->getDriver().getDeviceCount(), 0u);
  EXPECT_EQ(calls.driversCreated, 1);
  destroyBackendInstance(created);
}

TEST_F(DeviceBackendTest, ANamedArchitectureIsDescribedAsNamed) {
  DeviceBackend backend(kFake);
  calls.device = DeviceProperties();
  calls.device->arch = "a1";
  llvm::Expected<TargetDescription> target = backend.describe("a2");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->arch, "a2");
  EXPECT_TRUE(calls.describedDevices.empty());
  llvm::Expected<TargetDescription> unknown = backend.describe("a9");
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()), "no architecture 'a9'");
}

TEST_F(DeviceBackendTest, WithoutADeviceTheDefaultArchitecture) {
  DeviceBackend backend(kFake);
  llvm::Expected<TargetDescription> target = backend.describe("");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->arch, "a1");
  EXPECT_THAT(calls.describedArchs, ::testing::ElementsAre("a1"));
  EXPECT_TRUE(calls.describedDevices.empty());
}

TEST_F(DeviceBackendTest, WithADeviceTheDevicesRefinedDescription) {
  DeviceBackend backend(kFake);
  calls.device = DeviceProperties();
  calls.device->arch = "a2";
  calls.device->multiprocessorCount = 132;
  llvm::Expected<TargetDescription> target = backend.describe("");
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->arch, "a2");
  EXPECT_EQ(target->multiprocessorCount, 132u);
  EXPECT_THAT(calls.describedDevices, ::testing::ElementsAre("a2"));
}

TEST_F(DeviceBackendTest, ADeviceThatCannotSayWhatItIsIsAnError) {
  DeviceBackend backend(kFake);
  calls.device = DeviceProperties();
  calls.propertiesError = "the device is lost";
  llvm::Expected<TargetDescription> target = backend.describe("");
  ASSERT_FALSE(static_cast<bool>(target));
  EXPECT_EQ(llvm::toString(target.takeError()), "the device is lost");
  EXPECT_TRUE(calls.describedArchs.empty());
}

} // namespace
