//===- MathSymbols.h - The frontend's neutral math function names -*- C++
//-*-===//
//
// tl.math and libdevice calls reach a plugin as calls to neutrally named
// functions (`__tessera_asin_fp32`), which each plugin maps to its math
// library (libm, libdevice, ocml). The parsing of the neutral name is shared.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_MATHSYMBOLS_H
#define TESSERA_BACKEND_MATHSYMBOLS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tessera {

/// The function `symbol` names without Tessera's prefix and operand-type
/// suffixes (float and integer): `__tessera_asin_fp32` and `asin_f32` give
/// `asin`, `__tessera_int2float_rn_i32` gives `int2float_rn`; other
/// spellings (`asinf`) come back unchanged. `isNeutral` says whether the
/// symbol had the `__tessera_` prefix.
llvm::StringRef getMathBaseName(llvm::StringRef symbol,
                                bool *isNeutral = nullptr);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_MATHSYMBOLS_H
