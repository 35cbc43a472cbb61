//===- DriverSupportTest.cpp - The drivers' module table and errors -------===//
#include "tessera/Backend/DriverSupport.h"

#include "llvm/ADT/STLExtras.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace mlir::tessera;
using ::testing::HasSubstr;

namespace {

struct FakeModule {
  std::string name;
};

TEST(ModuleTable, HandlesFindTheirModulesUntilErased) {
  ModuleTable<FakeModule> table("vendor");
  ModuleHandle a = table.insert(std::make_unique<FakeModule>(FakeModule{"a"}));
  ModuleHandle b = table.insert(std::make_unique<FakeModule>(FakeModule{"b"}));
  EXPECT_NE(a, b);
  llvm::Expected<FakeModule *> found = table.lookup(b, "launch a kernel");
  ASSERT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
  EXPECT_EQ((*found)->name, "b");
  std::vector<std::string> names;
  table.forEach([&](FakeModule &m) { names.push_back(m.name); });
  llvm::sort(names);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));

  table.erase(b);
  llvm::Expected<FakeModule *> gone = table.lookup(b, "launch a kernel");
  ASSERT_FALSE(static_cast<bool>(gone));
  EXPECT_EQ(llvm::toString(gone.takeError()),
            "vendor: cannot launch a kernel: 0x" + llvm::utohexstr(b) +
                " is not a module this driver loaded");
  EXPECT_TRUE(static_cast<bool>(table.lookup(a, "unload a module")));
}

TEST(DeviceErrors, NameTheBackendDeviceStepAndWhy) {
  EXPECT_EQ(llvm::toString(getDeviceUnavailableError(
                "vendor", 0, "allocate 64 bytes", 0, "no device: no driver")),
            "vendor device 0: cannot allocate 64 bytes: no device: no driver");
  EXPECT_EQ(llvm::toString(
                getDeviceUnavailableError("vendor", 3, "launch", 2, "unused")),
            "vendor device 3: cannot launch: no such device (2 present)");
  llvm::Error sticky = markUnusable(
      llvm::createStringError(llvm::inconvertibleErrorCode(), "launch failed"),
      "the device");
  EXPECT_THAT(llvm::toString(std::move(sticky)),
              HasSubstr("launch failed; the device is now unusable in this "
                        "process"));
}

} // namespace
