//===- DtypeMethods.h - Triton dtype attributes and predicates --*- C++ -*-===//
//
// What Triton's `tl.dtype` offers to code that inspects it: the is_*
// predicates (`dtype.is_fp16()`) and attributes (`primitive_bitwidth`,
// `name`, ...), and `tl.core.get_int_dtype(bits, signed)`. Device code
// and host code (a @triton.constexpr_function choosing an accumulator type)
// both answer them from here.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_CODEGEN_DTYPEMETHODS_H
#define TESSERA_FRONTEND_CODEGEN_DTYPEMETHODS_H

#include "tessera/Frontend/Codegen/Types.h"
#include "tessera/Frontend/HostValue.h"

#include <optional>

namespace tessera::frontend {

/// The value of predicate `name` (`is_fp16`, `is_int_signed`, ...) on `t`,
/// or nullopt when dtypes have no such predicate.
std::optional<bool> getDtypePredicate(const TType &t, llvm::StringRef name);

/// The value of the scalar or pointer attribute `name` of `t`
/// (`primitive_bitwidth`, `itemsize`, `int_bitwidth`, `fp_mantissa_width`,
/// `name`, `address_space`), or nullopt when it has none.
std::optional<HostValue> getDtypeAttribute(const TType &t,
                                           llvm::StringRef name);

/// Triton's `get_int_dtype(bitwidth, signed)`: `triton.language.int32` for
/// (32, True), nullopt for a width no integer dtype has.
std::optional<TType> getIntDtype(int64_t bitwidth, bool isSigned);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_CODEGEN_DTYPEMETHODS_H
