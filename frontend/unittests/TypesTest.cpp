//===- TypesTest.cpp - Tests of Triton-language types
//----------------------===//
#include "tessera/Frontend/Codegen/Types.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace tessera::frontend;

TEST(TypesTest, NamesAndMangling) {
  TType f16 = TType::scalar(ScalarKind::FP16);
  TType block = TType::block(f16, {16, 32});
  TType ptr = TType::pointer(f16);
  EXPECT_EQ(block.str(), "<[16, 32], fp16>");
  EXPECT_EQ(ptr.str(), "pointer<fp16>");
  EXPECT_EQ(f16.repr(), "triton.language.float16");
  EXPECT_EQ(block.mangle(), "fp16S16_32S");
  EXPECT_EQ(TType::pointer(block).mangle(), "Pfp16S16_32S");
  EXPECT_EQ(TType::tensorDesc(block).str(), "tensor_descriptor<fp16[16, 32]>");
  EXPECT_EQ(TType::scalar(ScalarKind::UInt32).mangle(), "u32");
  EXPECT_EQ(block.getNumElements(), 512);
  EXPECT_TRUE(TType::pointer(block).isBlockPointer());
  EXPECT_FALSE(ptr.isBlockPointer());
}

TEST(TypesTest, Parsing) {
  EXPECT_EQ(TType::parseScalarName("fp32"), ScalarKind::FP32);
  EXPECT_EQ(TType::parseScalarName("float8e4nv"), ScalarKind::FP8E4NV);
  EXPECT_EQ(TType::parseScalarName("u8"), ScalarKind::UInt8);
  EXPECT_EQ(TType::parseScalarName("i1"), ScalarKind::Int1);
  EXPECT_FALSE(TType::parseScalarName("fp12"));
  EXPECT_EQ(TType::fromQualifiedName("triton.language.bfloat16")->str(),
            "bf16");
  EXPECT_EQ(TType::fromQualifiedName("triton.language.core.int64")->str(),
            "int64");
  EXPECT_FALSE(TType::fromQualifiedName("triton.language.load"));
}

TEST(TypesTest, Predicates) {
  TType u1 = TType::scalar(ScalarKind::Int1);
  EXPECT_TRUE(u1.isBool());
  EXPECT_TRUE(u1.isUnsignedInt());
  EXPECT_FALSE(u1.isSignedInt());
  EXPECT_EQ(u1.getKindOrder(), TypeKindOrder::Boolean);
  TType e5 = TType::scalar(ScalarKind::FP8E5);
  EXPECT_TRUE(e5.isFP8());
  EXPECT_FALSE(e5.isStandardFloating());
  EXPECT_EQ(e5.getFPMantissaWidth(), 2u);
  EXPECT_EQ(TType::pointer(e5).getPrimitiveBitwidth(), 64u);
}

TEST(TypesTest, MLIRTypes) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<mlir::tessera::TesseraDialect>();
  auto str = [&](const TType &t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    t.toMLIR(&ctx).print(os);
    return s;
  };
  EXPECT_EQ(str(TType::scalar(ScalarKind::UInt32)), "i32");
  EXPECT_EQ(str(TType::scalar(ScalarKind::FP8E4NV)), "f8E4M3FN");
  EXPECT_EQ(str(TType::scalar(ScalarKind::FP8E4B15)), "f8E4M3B11FNUZ");
  EXPECT_EQ(str(TType::scalar(ScalarKind::FP8E4B8)), "f8E4M3FNUZ");
  EXPECT_EQ(str(TType::scalar(ScalarKind::FP8E5B16)), "f8E5M2FNUZ");
  EXPECT_EQ(
      str(TType::block(TType::pointer(TType::scalar(ScalarKind::FP32)), {8})),
      "tensor<8x!tessera.ptr<f32>>");
  EXPECT_EQ(str(TType::tensorDesc(
                TType::block(TType::scalar(ScalarKind::FP16), {64, 64}))),
            "!tessera.tensordesc<tensor<64x64xf16>>");
}
