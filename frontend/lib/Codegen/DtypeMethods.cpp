//===- DtypeMethods.cpp - Triton dtype attributes and predicates ----------===//
#include "tessera/Frontend/Codegen/DtypeMethods.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tessera::frontend;

std::optional<bool> tessera::frontend::getDtypePredicate(const TType &t,
                                                         llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<bool>>(name)
      .Case("is_int", t.isInt())
      .Case("is_int_signed", t.isSignedInt())
      .Case("is_int_unsigned", t.isUnsignedInt())
      .Case("is_bool", t.isBool())
      .Case("is_floating", t.isFloating())
      .Case("is_standard_floating", t.isStandardFloating())
      .Case("is_fp8", t.isFP8())
      .Case("is_fp16", t.is(ScalarKind::FP16))
      .Case("is_bf16", t.is(ScalarKind::BF16))
      .Case("is_fp32", t.is(ScalarKind::FP32))
      .Case("is_fp64", t.is(ScalarKind::FP64))
      .Case("is_fp8e4nv", t.is(ScalarKind::FP8E4NV))
      .Case("is_fp8e5", t.is(ScalarKind::FP8E5))
      .Case("is_fp8e4b15", t.is(ScalarKind::FP8E4B15))
      .Case("is_fp8e4b8", t.is(ScalarKind::FP8E4B8))
      .Case("is_fp8e5b16", t.is(ScalarKind::FP8E5B16))
      .Case("is_int1", t.is(ScalarKind::Int1))
      .Case("is_int8", t.is(ScalarKind::Int8))
      .Case("is_int16", t.is(ScalarKind::Int16))
      .Case("is_int32", t.is(ScalarKind::Int32))
      .Case("is_int64", t.is(ScalarKind::Int64))
      .Case("is_uint8", t.is(ScalarKind::UInt8))
      .Case("is_uint16", t.is(ScalarKind::UInt16))
      .Case("is_uint32", t.is(ScalarKind::UInt32))
      .Case("is_uint64", t.is(ScalarKind::UInt64))
      .Case("is_ptr", t.isPointer())
      .Case("is_block", t.isBlock())
      .Default(std::nullopt);
}

std::optional<HostValue>
tessera::frontend::getDtypeAttribute(const TType &t, llvm::StringRef name) {
  if (!t.isScalarType() && !t.isPointer())
    return std::nullopt;
  if (name == "primitive_bitwidth")
    return HostValue::integer(t.getPrimitiveBitwidth());
  if (name == "itemsize")
    return HostValue::integer(t.getPrimitiveBitwidth() / 8);
  if (name == "int_bitwidth" && t.isInt())
    return HostValue::integer(t.getPrimitiveBitwidth());
  if (name == "fp_mantissa_width" && t.isFloating())
    return HostValue::integer(t.getFPMantissaWidth());
  if (name == "name")
    return HostValue::string(t.str());
  if (name == "address_space" && t.isPointer())
    return HostValue::integer(t.getAddressSpace());
  return std::nullopt;
}

std::optional<TType> tessera::frontend::getIntDtype(int64_t bitwidth,
                                                    bool isSigned) {
  std::optional<ScalarKind> kind;
  switch (bitwidth) {
  case 1:
    kind = ScalarKind::Int1;
    break;
  case 8:
    kind = isSigned ? ScalarKind::Int8 : ScalarKind::UInt8;
    break;
  case 16:
    kind = isSigned ? ScalarKind::Int16 : ScalarKind::UInt16;
    break;
  case 32:
    kind = isSigned ? ScalarKind::Int32 : ScalarKind::UInt32;
    break;
  case 64:
    kind = isSigned ? ScalarKind::Int64 : ScalarKind::UInt64;
    break;
  default:
    return std::nullopt;
  }
  return TType::scalar(*kind);
}
