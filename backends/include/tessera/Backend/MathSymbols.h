//===- MathSymbols.h - The frontend's neutral math function names -*- C++
//-*-===//
//
// tl.math and libdevice calls reach a plugin as calls to neutrally named
// functions (`__tessera_asin_fp32`), which each plugin maps to its math
// library (libm, libdevice, ocml). The parsing of the neutral name and the
// stage that renames the calls are shared; the library's spelling is the
// plugin's.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_MATHSYMBOLS_H
#define TESSERA_BACKEND_MATHSYMBOLS_H

#include "mlir/IR/Types.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>

namespace mlir::tessera {

/// The function `symbol` names without Tessera's prefix and operand-type
/// suffixes (float and integer): `__tessera_asin_fp32` and `asin_f32` give
/// `asin`, `__tessera_int2float_rn_i32` gives `int2float_rn`; other
/// spellings (`asinf`) come back unchanged. `isNeutral` says whether the
/// symbol had the `__tessera_` prefix.
llvm::StringRef getMathBaseName(llvm::StringRef symbol,
                                bool *isNeutral = nullptr);

/// The stage a GPU plugin runs after "lower-to-llvm" to resolve math calls,
/// so that `--dump-ir-after resolve-math` shows the library's names.
inline constexpr llvm::StringLiteral kResolveMathStage = "resolve-math";

/// A math library's name for the function `symbol` names (neutrally, or
/// already in the library's spelling) on operands of float type `type`;
/// empty when the library has none.
using MathLibraryNamer =
    std::function<std::string(llvm::StringRef symbol, Type type)>;

/// The pass over a lowered module (LLVM dialect) that renames every
/// declared function spelled neutrally (`__tessera_*`) to its name in
/// `library` ("libdevice"), as `namer` gives it for the float type of the
/// first parameter (of the result, for conversions from integers). A
/// function the library lacks is an error at its declaration naming both.
std::unique_ptr<Pass> createResolveMathSymbolsPass(llvm::StringRef library,
                                                   MathLibraryNamer namer);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_MATHSYMBOLS_H
