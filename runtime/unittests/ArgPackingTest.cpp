//===- ArgPackingTest.cpp - Typed slots and clear mismatches --------------===//
#include "FakeBackend.h"

#include "tessera/Runtime/ArgPacking.h"
#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/LoadedModule.h"

#include "TestSupport.h"
#include "gtest/gtest.h"

#include <cstring>
#include <limits>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using mlir::tessera::runtime::testing::errorOf;

namespace {
template <typename T> T slotAs(const PackedArgs &packed, unsigned i) {
  T value;
  std::memcpy(&value, packed.getSlot(i), sizeof(T));
  return value;
}
} // namespace

TEST(ArgPackingTest, PacksEveryKind) {
  std::vector<KernelParam> params = {
      {"x_ptr", "*fp32"}, {"n", "i32"},     {"big", "i64"}, {"flag", "i1"},
      {"scale", "fp32"},  {"half", "fp16"}, {"bh", "bf16"}, {"d", "fp64"},
      {"small", "u8"},    {"s16", "i16"}};
  llvm::Expected<ArgPacker> packer = ArgPacker::create(params);
  ASSERT_EXPECTED(packer);
  std::vector<KernelArg> args = {KernelArg::pointer(0x1000, "fp32"),
                                 KernelArg::integer(-7),
                                 KernelArg::integer(int64_t(1) << 40),
                                 KernelArg::boolean(true),
                                 KernelArg::floating(0.5),
                                 KernelArg::floating(1.0),
                                 KernelArg::floating(-2.0),
                                 KernelArg::floating(0.1),
                                 KernelArg::integer(255),
                                 KernelArg::integer(-300)};
  PackedArgs packed;
  ASSERT_EQ(errorOf(packer->pack(args, packed)), "success");
  ASSERT_EQ(packed.getPointers().size(), params.size());
  EXPECT_EQ(slotAs<uint64_t>(packed, 0), 0x1000u);
  EXPECT_EQ(slotAs<int32_t>(packed, 1), -7);
  EXPECT_EQ(slotAs<int64_t>(packed, 2), int64_t(1) << 40);
  EXPECT_EQ(slotAs<uint8_t>(packed, 3), 1);
  EXPECT_EQ(slotAs<float>(packed, 4), 0.5f);
  EXPECT_EQ(slotAs<uint16_t>(packed, 5), 0x3c00); // 1.0 in IEEE half
  EXPECT_EQ(slotAs<uint16_t>(packed, 6), 0xc000); // -2.0 in bfloat16
  EXPECT_EQ(slotAs<double>(packed, 7), 0.1);
  EXPECT_EQ(slotAs<uint8_t>(packed, 8), 255);
  EXPECT_EQ(slotAs<int16_t>(packed, 9), -300);
  // The pointers the driver gets are the slots.
  for (unsigned i = 0; i < params.size(); ++i)
    EXPECT_EQ(packed.getPointers()[i], packed.getSlot(i));
}

TEST(ArgPackingTest, Fp16RoundsToNearestEven) {
  llvm::Expected<ArgPacker> packer = ArgPacker::create({{"h", "fp16"}});
  ASSERT_EXPECTED(packer);
  PackedArgs packed;
  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties go
  // to the even mantissa, 1.0.
  ASSERT_FALSE(packer->pack({KernelArg::floating(1.0 + 1.0 / 2048)}, packed));
  EXPECT_EQ(slotAs<uint16_t>(packed, 0), 0x3c00);
  // An int reads as the float it denotes.
  ASSERT_FALSE(packer->pack({KernelArg::integer(2)}, packed));
  EXPECT_EQ(slotAs<uint16_t>(packed, 0), 0x4000);
}

TEST(ArgPackingTest, MismatchesNameTheParameter) {
  std::vector<KernelParam> params = {
      {"x_ptr", "*fp32"}, {"n", "i32"}, {"flag", "i1"}, {"eps", "fp32"}};
  llvm::Expected<ArgPacker> packer = ArgPacker::create(params);
  ASSERT_EXPECTED(packer);
  PackedArgs packed;
  auto with = [&](unsigned i, KernelArg arg) {
    std::vector<KernelArg> args = {
        KernelArg::pointer(64, "fp32"), KernelArg::integer(3),
        KernelArg::boolean(false), KernelArg::floating(1e-5)};
    args[i] = std::move(arg);
    return errorOf(packer->pack(args, packed));
  };
  EXPECT_EQ(with(0, KernelArg::floating(2.5)),
            "argument 'x_ptr' (*fp32): expected a pointer, got a float (2.5)");
  EXPECT_EQ(with(0, KernelArg::pointer(64, "fp16")),
            "argument 'x_ptr' (*fp32): expected a pointer to fp32, got a "
            "pointer to fp16");
  EXPECT_EQ(with(1, KernelArg::floating(3.0)),
            "argument 'n' (i32): expected an integer, got a float (3.0)");
  EXPECT_EQ(with(1, KernelArg::integer(int64_t(1) << 31)),
            "argument 'n' (i32): 2147483648 does not fit in 32 bits");
  EXPECT_EQ(with(2, KernelArg::integer(2)),
            "argument 'flag' (i1): expected a bool, got an int (2)");
  EXPECT_EQ(with(3, KernelArg::pointer(64, "fp32")),
            "argument 'eps' (fp32): expected a float, got a pointer to fp32");
  EXPECT_EQ(with(3, KernelArg::string("x")),
            "argument 'eps' (fp32): expected a float, got a string ('x')");
  // A pointer of unknown element type (raw bytes) is accepted.
  EXPECT_EQ(with(0, KernelArg::pointer(64, "")), "success");
  EXPECT_EQ(errorOf(packer->pack({KernelArg::integer(1)}, packed)),
            "the kernel takes 4 runtime arguments, the launch passes 1");
}

TEST(ArgPackingTest, IntegerPointeesDifferingInSignOnly) {
  // A backend records a *u32 parameter as the signless *i32 of its width.
  llvm::Expected<ArgPacker> packer = ArgPacker::create({{"x", "*i32"}});
  ASSERT_EXPECTED(packer);
  PackedArgs packed;
  EXPECT_EQ(errorOf(packer->pack({KernelArg::pointer(64, "u32")}, packed)),
            "success");
  EXPECT_EQ(errorOf(packer->pack({KernelArg::pointer(64, "u16")}, packed)),
            "argument 'x' (*i32): expected a pointer to i32, got a pointer to "
            "u16");
  EXPECT_EQ(errorOf(packer->pack({KernelArg::pointer(64, "fp32")}, packed)),
            "argument 'x' (*i32): expected a pointer to i32, got a pointer to "
            "fp32");
}

TEST(ArgPackingTest, NamesAndSelection) {
  // Emitters may name parameters by position; the runtime's names win, and
  // a launch can pick the runtime arguments out of all bound values.
  llvm::Expected<ArgPacker> packer = ArgPacker::create(
      {{"arg0", "*fp16"}, {"arg1", "i32"}}, {"out_ptr", "n_elements"});
  ASSERT_EXPECTED(packer);
  std::vector<KernelArg> bound = {KernelArg::pointer(32, "fp16"),
                                  KernelArg::integer(1024),
                                  KernelArg::floating(1.0)};
  PackedArgs packed;
  EXPECT_EQ(errorOf(packer->pack(bound, packed, {1, 2})),
            "argument 'out_ptr' (*fp16): expected a pointer, got an int "
            "(1024)");
  EXPECT_EQ(errorOf(packer->pack(bound, packed, {0, 1})), "success");
  EXPECT_EQ(slotAs<int32_t>(packed, 1), 1024);
}

TEST(ArgPackingTest, IntegerPointeesAreSignless) {
  // A kernel specialized for *u32 records *i32 (compiled types are
  // signless): either signedness of the same width is accepted, not another
  // width or a float.
  llvm::Expected<ArgPacker> packer = ArgPacker::create({{"x_ptr", "*i32"}});
  ASSERT_EXPECTED(packer);
  PackedArgs packed;
  EXPECT_EQ(errorOf(packer->pack({KernelArg::pointer(64, "u32")}, packed)),
            "success");
  EXPECT_EQ(errorOf(packer->pack({KernelArg::pointer(64, "u16")}, packed)),
            "argument 'x_ptr' (*i32): expected a pointer to i32, got a "
            "pointer to u16");
  EXPECT_EQ(errorOf(packer->pack({KernelArg::pointer(64, "fp32")}, packed)),
            "argument 'x_ptr' (*i32): expected a pointer to i32, got a "
            "pointer to fp32");
}

TEST(ArgPackingTest, DescriptorsPassTheirFields) {
  // A rank-2 descriptor is five parameters: base, shape, strides; the
  // selection repeats its index once per field.
  llvm::Expected<ArgPacker> packer =
      ArgPacker::create({{"d", "*fp16"},
                         {"d", "i32"},
                         {"d", "i32"},
                         {"d", "i64"},
                         {"d", "i64"},
                         {"n", "i32"}});
  ASSERT_EXPECTED(packer);
  TensorDescriptorArg desc;
  desc.base = 0x2000;
  desc.elementType = "fp16";
  desc.shape = {100, 72};
  desc.strides = {80, 1};
  desc.blockShape = {64, 64};
  std::vector<KernelArg> bound = {KernelArg::tensorDescriptor(desc),
                                  KernelArg::integer(5)};
  PackedArgs packed;
  ASSERT_NO_ERROR(packer->pack(bound, packed, {0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(slotAs<uint64_t>(packed, 0), 0x2000u);
  EXPECT_EQ(slotAs<int32_t>(packed, 1), 100);
  EXPECT_EQ(slotAs<int32_t>(packed, 2), 72);
  EXPECT_EQ(slotAs<int64_t>(packed, 3), 80);
  EXPECT_EQ(slotAs<int64_t>(packed, 4), 1);
  EXPECT_EQ(slotAs<int32_t>(packed, 5), 5);
  // One index too many for the descriptor's five values.
  EXPECT_EQ(errorOf(packer->pack(bound, packed, {0, 0, 0, 0, 0, 0})),
            "argument 'n' (i32): expected another argument, got the extra "
            "value 5 of a tensor descriptor of fp16 blocks [64, 64]");
}

TEST(ArgPackingTest, EmptySelectionPassesNoArgument) {
  // A kernel whose parameters are all constexprs, launched with one given by
  // name: nothing of the bound values is a runtime argument.
  llvm::Expected<ArgPacker> packer = ArgPacker::create({});
  ASSERT_EXPECTED(packer);
  std::vector<KernelArg> bound = {KernelArg::integer(32)};
  PackedArgs packed;
  EXPECT_EQ(errorOf(packer->pack(bound, packed, {})), "success");
  EXPECT_TRUE(packed.getPointers().empty());
  // Without a selection every value is an argument.
  EXPECT_EQ(errorOf(packer->pack(bound, packed)),
            "the kernel takes 0 runtime arguments, the launch passes 1");
}

TEST(ArgPackingTest, UnsignedPointersAndU64Scalars) {
  llvm::Expected<ArgPacker> packer =
      ArgPacker::create({{"dst", "*u32"}, {"v", "u64"}, {"w", "i64"}});
  ASSERT_EXPECTED(packer);
  PackedArgs packed;
  uint64_t max = std::numeric_limits<uint64_t>::max();
  auto pack = [&](KernelArg dst, KernelArg v, KernelArg w) {
    return errorOf(packer->pack({dst, v, w}, packed));
  };
  EXPECT_EQ(pack(KernelArg::pointer(64, "u32"), KernelArg::unsignedInteger(max),
                 KernelArg::integer(-1)),
            "success");
  EXPECT_EQ(slotAs<uint64_t>(packed, 1), max);
  EXPECT_EQ(pack(KernelArg::pointer(64, "fp32"), KernelArg::integer(1),
                 KernelArg::integer(1)),
            "argument 'dst' (*u32): expected a pointer to u32, got a pointer "
            "to fp32");
  EXPECT_EQ(pack(KernelArg::pointer(64, "u32"), KernelArg::integer(-1),
                 KernelArg::integer(1)),
            "argument 'v' (u64): -1 is negative");
  // Above INT64_MAX only a u64 parameter holds the value.
  EXPECT_EQ(pack(KernelArg::pointer(64, "u32"), KernelArg::integer(1),
                 KernelArg::unsignedInteger(max)),
            "argument 'w' (i64): 18446744073709551615 does not fit in 64 "
            "signed bits");
}

TEST(ArgPackingTest, UnpassableTypes) {
  auto why = [](KernelParam param) {
    llvm::Expected<ArgPacker> packer = ArgPacker::create({param});
    return packer ? std::string("ok") : llvm::toString(packer.takeError());
  };
  EXPECT_EQ(why({"p", "*fp32"}), "ok");
  EXPECT_EQ(why({"p", "*kfp16"}), "ok");
  EXPECT_EQ(why({"q", "*quux"}), "parameter 'q' has type '*quux', which a "
                                 "launch cannot pass: unknown element type");
  EXPECT_EQ(why({"f", "fp8e4nv"}),
            "parameter 'f' has type 'fp8e4nv', which a launch cannot pass: "
            "fp8 scalars are not kernel parameters");
}

TEST(LoadedModuleTest, SerializedKernelsLaunchWithCheckedArguments) {
  using namespace mlir::tessera::runtime::testing;
  auto backend = std::make_shared<FakeBackend>();
  std::unique_ptr<Device> device = llvm::cantFail(Device::open(backend, 0));
  CompiledKernel kernel;
  kernel.backend = "fake";
  kernel.name = "add_kernel";
  kernel.format = "none";
  kernel.binary = "bytes";
  kernel.numWarps = 8;
  kernel.params = {{"x_ptr", "*fp32"}, {"n_elements", "i32"}};
  ScratchDirectory dir;
  std::string path = dir.path() + "/add.tkb";
  ASSERT_NO_ERROR(writeFileAtomically(path, kernel.serialize()));

  llvm::Expected<std::unique_ptr<LoadedModule>> module =
      LoadedModule::loadFile(*device, path);
  ASSERT_EXPECTED(module);
  EXPECT_EQ(backend->driver.loaded.back().binary, "bytes");
  ASSERT_NO_ERROR((*module)->launch(
      {4, 1, 1}, {KernelArg::pointer(0x100, "fp32"), KernelArg::integer(7)}));
  ASSERT_EQ(backend->driver.launches.size(), 1u);
  EXPECT_EQ(backend->driver.launches[0].config.numWarps, 8u);
  EXPECT_EQ(backend->driver.launches[0].args,
            (std::vector<uint64_t>{0x100, 7}));
  EXPECT_EQ(errorOf((*module)->launch(
                {1, 1, 1}, {KernelArg::floating(1.5), KernelArg::integer(7)})),
            "kernel 'add_kernel': argument 'x_ptr' (*fp32): expected a "
            "pointer, got a float (1.5)");

  kernel.backend = "cpu";
  EXPECT_EQ(errorOf(LoadedModule::load(*device, kernel)),
            "kernel 'add_kernel' was compiled for backend 'cpu', not 'fake'");
  ASSERT_NO_ERROR(writeFileAtomically(path, "not a kernel"));
  EXPECT_EQ(errorOf(LoadedModule::loadFile(*device, path)),
            path + ": malformed compiled kernel: no header line");
}
