//===- Promotion.h - Triton's implicit type promotion rules -----*- C++ -*-===//
//
// The rules by which Triton picks the type an operation computes in, kept
// free of IR so that they can be unit-tested: C's usual arithmetic
// conversions for integers, then Triton's float rules (fp64 > fp32 > fp16,
// bf16 only with bf16, fp16 and bf16 computing `/` and `%` in fp32, two
// different fp8 types meeting in fp16), and PyTorch's rule for Python
// scalars: a scalar of a lower or equal kind (bool < int < float) does not
// take part.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_CODEGEN_PROMOTION_H
#define TESSERA_FRONTEND_CODEGEN_PROMOTION_H

#include "tessera/Frontend/Codegen/Types.h"
#include "tessera/Frontend/HostValue.h"

#include <string>

namespace tessera::frontend {

/// Triton's integer_promote_impl on two integer scalar types: the wider one;
/// at equal width the unsigned one.
TType promoteIntegers(const TType &a, const TType &b);

/// The outcome of a promotion: a type, or why there is none.
struct Promotion {
  TType type;
  std::string error;
  bool ok() const { return error.empty(); }
};

/// Triton's computation_type_impl on the scalar types of two operands.
/// `aIsPyScalar` says that operand a is a Python number (a constexpr), which
/// then takes part only if it is of a higher kind than b. `divOrMod` selects
/// the rules of `/`, `//` and `%`.
Promotion computeType(const TType &a, bool aIsPyScalar, const TType &b,
                      bool bIsPyScalar, bool divOrMod);

/// The type Triton's to_tensor gives a Python number: bool -> int1; an int
/// -> int32, uint32, int64 or uint64 by range; a float -> fp32 when its
/// magnitude is 0, inf, NaN or within fp32's normal range, else fp64.
TType pythonScalarType(const HostValue &number);

/// Whether a Python integer fits in `type` (an integer type).
bool fitsIn(int64_t value, const TType &type);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_CODEGEN_PROMOTION_H
