//===- BackendSelectionTest.cpp - By name, and auto -----------------------===//
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/BackendSelection.h"
#include "tessera/Runtime/Device.h"
#include "tessera/Runtime/KernelArg.h"

#include <map>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {
/// Backends by name with a device count each; "broken" fails to create.
class FakeProvider : public BackendProvider {
public:
  std::vector<std::pair<std::string, unsigned>> backends;
  std::vector<std::string> created;

  std::vector<PluginIdentity> listBackends() override {
    std::vector<PluginIdentity> ids;
    for (auto &[name, devices] : backends)
      ids.push_back({name, "1.0", "fake " + name});
    return ids;
  }
  llvm::Expected<std::shared_ptr<Backend>>
  createBackend(llvm::StringRef name) override {
    created.push_back(name.str());
    if (name == "broken")
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "broken.so: cannot initialize");
    auto backend = std::make_shared<FakeBackend>();
    backend->name = name.str();
    for (auto &[n, devices] : backends)
      if (n == name)
        backend->driver.deviceCount = devices;
    backend->driver.unavailableReason = "no " + name.str() + " hardware";
    return std::shared_ptr<Backend>(std::move(backend));
  }
};

std::string chosen(FakeProvider &provider, llvm::StringRef request) {
  llvm::Expected<SelectedBackend> selected = selectBackend(provider, request);
  if (!selected)
    return "error: " + llvm::toString(selected.takeError());
  EXPECT_EQ(selected->identity.name, selected->backend->getName());
  return selected->backend->getName().str();
}
} // namespace

TEST(BackendSelectionTest, ByName) {
  FakeProvider provider;
  provider.backends = {{"gpu", 0}, {"cpu", 1}};
  EXPECT_EQ(chosen(provider, "gpu"), "gpu");
  EXPECT_EQ(chosen(provider, "tpu"),
            "error: no backend named 'tpu'; available: gpu, cpu");
}

TEST(BackendSelectionTest, AutoPrefersAGPUWithADevice) {
  FakeProvider provider;
  provider.backends = {{"cpu", 1}, {"gpu-a", 0}, {"broken", 0}, {"gpu-b", 2}};
  EXPECT_EQ(chosen(provider, "auto"), "gpu-b");
  // The CPU is not even created when a GPU wins.
  EXPECT_EQ(provider.created,
            (std::vector<std::string>{"gpu-a", "broken", "gpu-b"}));
}

TEST(BackendSelectionTest, AutoFallsBackToTheCPU) {
  FakeProvider provider;
  provider.backends = {{"gpu", 0}, {"cpu", 1}};
  EXPECT_EQ(chosen(provider, "auto"), "cpu");

  FakeProvider none;
  none.backends = {{"gpu", 0}, {"broken", 0}};
  EXPECT_EQ(chosen(none, "auto"),
            "error: backend auto: no GPU backend has a device and there is "
            "no 'cpu' backend (gpu: no gpu hardware; broken: broken.so: "
            "cannot initialize)");
}

TEST(BackendSelectionTest, RequestResolution) {
  ::setenv("TESSERA_BACKEND", "nvptx", 1);
  EXPECT_EQ(resolveBackendRequest(""), "nvptx");
  EXPECT_EQ(resolveBackendRequest("cpu"), "cpu");
  ::unsetenv("TESSERA_BACKEND");
  EXPECT_EQ(resolveBackendRequest(""), "auto");
}

TEST(DeviceTest, PropertiesUnderTritonNames) {
  auto backend = std::make_shared<FakeBackend>();
  backend->driver.properties.smClockRate = 1755000;
  llvm::Expected<std::unique_ptr<Device>> device = Device::open(backend, 0);
  ASSERT_EXPECTED(device);
  EXPECT_EQ((*device)->getProperty("multiprocessor_count"), 4);
  EXPECT_EQ((*device)->getProperty("max_shared_mem"), 65536);
  EXPECT_EQ((*device)->getProperty("max_num_regs"), 65536);
  EXPECT_EQ((*device)->getProperty("warpSize"), 32);
  EXPECT_EQ((*device)->getProperty("sm_clock_rate"), 1755000);
  EXPECT_EQ((*device)->getProperty("mem_clock_rate"), 0);
  EXPECT_EQ((*device)->getProperty("nonsense"), std::nullopt);
  EXPECT_EQ((*device)->describe(), "Fake Device (fake-arch)");

  backend->driver.deviceCount = 0;
  backend->driver.unavailableReason = "no hardware";
  EXPECT_EQ(errorOf(Device::open(backend, 0)),
            "backend 'fake' has no device 0 (no hardware)");
}

TEST(BufferTest, RAIIAndBounds) {
  FakeDriver driver;
  {
    llvm::Expected<Buffer> buffer = Buffer::allocate(driver, 0, 64, "fp32");
    ASSERT_EXPECTED(buffer);
    EXPECT_EQ(driver.liveBytes, 64u);
    EXPECT_EQ(buffer->getElementType(), "fp32");
    float in[16], out[16];
    for (int i = 0; i < 16; ++i)
      in[i] = i * 0.5f;
    ASSERT_NO_ERROR(buffer->copyFromHost(in, sizeof(in)));
    ASSERT_NO_ERROR(buffer->copyToHost(out, sizeof(out)));
    EXPECT_EQ(out[15], 7.5f);
    EXPECT_EQ(errorOf(buffer->copyFromHost(in, 8, 60)),
              "cannot copy to the device: 8 bytes at offset 60 exceed the "
              "buffer's 64 bytes");
    ASSERT_NO_ERROR(buffer->fill(0));
    ASSERT_NO_ERROR(buffer->copyToHost(out, 4, 60));
    EXPECT_EQ(out[0], 0.0f);

    Buffer moved = std::move(*buffer);
    EXPECT_FALSE(buffer->isValid());
    EXPECT_TRUE(moved.isValid());
    KernelArg arg = moved;
    EXPECT_EQ(arg.getText(), "fp32");
    EXPECT_EQ(arg.getSizeBytes(), 64u);
    EXPECT_EQ(arg.getAddress(), moved.getAddress());
  }
  EXPECT_EQ(driver.liveBytes, 0u);
}
