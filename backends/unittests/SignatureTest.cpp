//===- SignatureTest.cpp - Triton spellings of kernel parameter types -----===//
#include "tessera/Backend/Signature.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

TEST(Signature, ScalarsAndPointersUseTritonNames) {
  MLIRContext ctx;
  ctx.loadDialect<TesseraDialect>();
  Builder b(&ctx);
  EXPECT_EQ(getSignatureTypeName(b.getI1Type()), "i1");
  EXPECT_EQ(getSignatureTypeName(b.getI32Type()), "i32");
  EXPECT_EQ(getSignatureTypeName(b.getIndexType()), "i64");
  EXPECT_EQ(getSignatureTypeName(b.getF16Type()), "fp16");
  EXPECT_EQ(getSignatureTypeName(b.getBF16Type()), "bf16");
  EXPECT_EQ(getSignatureTypeName(b.getF64Type()), "fp64");
  EXPECT_EQ(getSignatureTypeName(Float8E4M3FNType::get(&ctx)), "fp8e4nv");
  EXPECT_EQ(getSignatureTypeName(Float8E5M2Type::get(&ctx)), "fp8e5");
  EXPECT_EQ(getSignatureTypeName(Float8E4M3B11FNUZType::get(&ctx)), "fp8e4b15");
  EXPECT_EQ(getSignatureTypeName(PointerType::get(b.getF32Type(), 1)), "*fp32");
  EXPECT_EQ(getSignatureTypeName(
                PointerType::get(PointerType::get(b.getI8Type(), 1), 1)),
            "**i8");
}

TEST(Signature, WhatALaunchCannotPassHasNoName) {
  MLIRContext ctx;
  ctx.loadDialect<TesseraDialect>();
  Builder b(&ctx);
  auto tensor = RankedTensorType::get({16}, b.getF32Type());
  EXPECT_EQ(getSignatureTypeName(tensor), "");
  EXPECT_EQ(getSignatureTypeName(PointerType::get(tensor, 1)), "");
  EXPECT_EQ(getSignatureTypeName(b.getF80Type()), "");
}

} // namespace
