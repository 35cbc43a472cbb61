//===- KernelSpecializerTest.cpp - Specialization from actual values ------===//
#include "tessera/Runtime/KernelSpecializer.h"

#include "TestSupport.h"
#include "gtest/gtest.h"

using namespace mlir::tessera::runtime;

namespace {
/// A parameter; built whole because GCC 12 misreads assignments of string
/// literals into vector elements (-Wrestrict).
KernelParamInfo makeParam(std::string name, bool isConstexpr = false) {
  KernelParamInfo param;
  param.name = std::move(name);
  param.isConstexpr = isConstexpr;
  return param;
}

std::vector<KernelParamInfo> addKernelParams() {
  return {makeParam("x_ptr"), makeParam("y_ptr"), makeParam("out_ptr"),
          makeParam("n_elements"), makeParam("BLOCK_SIZE", true)};
}

std::string signatureOf(llvm::ArrayRef<KernelParamInfo> params,
                        llvm::ArrayRef<KernelArg> args) {
  llvm::Expected<ArgumentSpecialization> spec =
      specializeArguments(params, args);
  return spec ? spec->signature : llvm::toString(spec.takeError());
}
} // namespace

TEST(KernelSpecializerTest, PointersAndIntegersLikeTriton) {
  std::vector<KernelParamInfo> params = addKernelParams();
  llvm::Expected<ArgumentSpecialization> spec = specializeArguments(
      params,
      {KernelArg::pointer(0x1000, "fp32"), KernelArg::pointer(0x1004, "fp32"),
       KernelArg::pointer(0x2000, "fp32"), KernelArg::integer(4096),
       KernelArg::integer(1024)});
  ASSERT_EXPECTED(spec);
  EXPECT_EQ(spec->signature, "*fp32:16,*fp32,*fp32:16,i32:16,1024");
  EXPECT_EQ(spec->runtimeParams, (llvm::SmallVector<unsigned, 16>{0, 1, 2, 3}));

  // An integer equal to 1 becomes a constant and is not passed.
  spec = specializeArguments(
      params, {KernelArg::pointer(0, "fp16"), KernelArg::pointer(16, "fp16"),
               KernelArg::pointer(32, "fp16"), KernelArg::integer(1),
               KernelArg::integer(128)});
  ASSERT_EXPECTED(spec);
  EXPECT_EQ(spec->signature, "*fp16:16,*fp16:16,*fp16:16,i32:1,128");
  EXPECT_EQ(spec->runtimeParams, (llvm::SmallVector<unsigned, 16>{0, 1, 2}));
}

TEST(KernelSpecializerTest, ScalarTypes) {
  std::vector<KernelParamInfo> params = {makeParam("v")};
  EXPECT_EQ(signatureOf(params, {KernelArg::integer(17)}), "i32");
  EXPECT_EQ(signatureOf(params, {KernelArg::integer(-32)}), "i32:16");
  EXPECT_EQ(signatureOf(params, {KernelArg::integer(int64_t(1) << 32)}),
            "i64:16");
  EXPECT_EQ(signatureOf(params, {KernelArg::integer((int64_t(1) << 31) + 1)}),
            "i64");
  // Triton passes integers in [2^63, 2^64) as u64; smaller ones stay ints.
  EXPECT_EQ(signatureOf(params, {KernelArg::unsignedInteger(~uint64_t(0))}),
            "u64");
  EXPECT_EQ(
      signatureOf(params, {KernelArg::unsignedInteger(uint64_t(1) << 63)}),
      "u64:16");
  EXPECT_EQ(signatureOf(params, {KernelArg::unsignedInteger(5)}), "i32");
  EXPECT_EQ(KernelArg(~uint64_t(0)).repr(), "18446744073709551615");
  EXPECT_TRUE(KernelArg(~uint64_t(0)).isUInt());
  EXPECT_TRUE(KernelArg(uint64_t(7)).isInt());
  EXPECT_EQ(signatureOf(params, {KernelArg::floating(1.0)}), "fp32");
  EXPECT_EQ(signatureOf(params, {KernelArg::boolean(true)}), "i1");
  EXPECT_EQ(signatureOf(params, {KernelArg::none()}), "None");
  EXPECT_EQ(signatureOf(params, {KernelArg::string("leaky_relu")}),
            "'leaky_relu'");
  EXPECT_EQ(signatureOf(params, {KernelArg::dtype("fp16")}),
            "triton.language.float16");
}

TEST(KernelSpecializerTest, DoNotSpecialize) {
  std::vector<KernelParamInfo> params = {makeParam("n"), makeParam("p")};
  params[0].doNotSpecialize = true;
  params[1].doNotSpecializeOnAlignment = true;
  EXPECT_EQ(signatureOf(params,
                        {KernelArg::integer(1), KernelArg::pointer(64, "i8")}),
            "i32,*i8");
  EXPECT_EQ(signatureOf(params,
                        {KernelArg::integer(32), KernelArg::pointer(64, "i8")}),
            "i32,*i8");
}

TEST(KernelSpecializerTest, ConstexprValues) {
  std::vector<KernelParamInfo> params = {makeParam("C", true)};
  EXPECT_EQ(signatureOf(params, {KernelArg::integer(1)}), "1");
  EXPECT_EQ(signatureOf(params, {KernelArg::boolean(false)}), "False");
  EXPECT_EQ(signatureOf(params, {KernelArg::floating(0.01)}), "0.01");
  EXPECT_EQ(signatureOf(params, {KernelArg::floating(2)}), "2.0");
  EXPECT_EQ(signatureOf(params, {KernelArg::floating(1e-30)}), "1e-30");
  EXPECT_EQ(signatureOf(params, {KernelArg::string("it's")}), "'it\\'s'");
  EXPECT_EQ(signatureOf(params, {KernelArg::pointer(16, "fp32")}),
            "argument 'C': a tl.constexpr parameter cannot take a pointer to "
            "fp32");
}

TEST(KernelSpecializerTest, PointerWithoutType) {
  std::vector<KernelParamInfo> params = {makeParam("x")};
  EXPECT_EQ(signatureOf(params, {KernelArg::pointer(16, "")}),
            "argument 'x': the pointer has no element type; allocate the "
            "buffer with one or pass KernelArg::pointer(address, type)");
}

TEST(KernelSpecializerTest, TupleConstexprs) {
  std::vector<KernelParamInfo> constant = {makeParam("SHAPE", true)};
  KernelArg shape = KernelArg::tuple({KernelArg(8), KernelArg(8)});
  EXPECT_EQ(signatureOf(constant, {shape}), "(8, 8)");
  // One element keeps Python's comma; nesting and other constants read back.
  EXPECT_EQ(signatureOf(constant, {KernelArg::tuple({KernelArg(4)})}), "(4,)");
  EXPECT_EQ(signatureOf(constant,
                        {KernelArg::tuple({KernelArg::tuple({}),
                                           KernelArg::dtype("fp16"),
                                           KernelArg::string("a")})}),
            "((), triton.language.float16, 'a')");
  EXPECT_EQ(shape, KernelArg::tuple({KernelArg(8), KernelArg(8)}));
  EXPECT_FALSE(shape == KernelArg::tuple({KernelArg(8), KernelArg(4)}));
  // An address inside a constant is refused, as on its own.
  EXPECT_EQ(signatureOf(constant, {KernelArg::tuple({KernelArg::pointer(
                                      16, "fp32")})}),
            "argument 'SHAPE': a tl.constexpr parameter cannot take a tuple "
            "((<pointer *fp32 0x10>,))");
  // Tuples of run-time values are not passed.
  std::vector<KernelParamInfo> plain = {makeParam("x")};
  EXPECT_EQ(signatureOf(plain, {shape}),
            "argument 'x': a tuple can only be passed to a tl.constexpr "
            "parameter, got a tuple ((8, 8))");
}
