//===- MathLibrary.cpp - Kernel math calls to libdevice -------------------===//
//
// tl.math functions and libdevice.* calls reach the backend as calls to
// neutrally named functions (the frontend's `__tessera_<name>_<types>`);
// NVIDIA's libdevice spells the float variant `__nv_<name>f` and the double
// one `__nv_<name>`, with families of its own: rounded arithmetic puts the
// type first (`div_rn` is `__nv_fdiv_rn` / `__nv_ddiv_rn`), predicates end
// in `f` / `d` (`__nv_isnanf`, `__nv_isinfd`), and names that spell their
// types already (`float2int_rn`, `finitef`, `fast_expf`) are used as they
// are. The emitter links libdevice for the `__nv_*` functions the module
// declares and reports any libdevice lacks.
//
//===----------------------------------------------------------------------===//
#include "MathLibrary.h"

#include "tessera/Backend/MathSymbols.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tessera;

std::string nvptx::getLibdeviceName(llvm::StringRef symbol, Type type) {
  if (symbol.starts_with("__nv_"))
    return symbol.str();
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType || !(floatType.isF32() || floatType.isF64()))
    return "";
  bool neutral = false;
  llvm::StringRef name = getMathBaseName(symbol, &neutral);
  // C's float spelling (`asinf`) names the same function as `asin`.
  if (!neutral && floatType.isF32() && name.size() > 1 && name.ends_with("f"))
    name = name.drop_back();
  if (name.empty() ||
      !llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return "";
  bool f32 = floatType.isF32();
  // Rounded arithmetic: `<op>_<mode>` is `__nv_{f,d}<op>_<mode>`, but fma
  // is `__nv_fmaf_<mode>` / `__nv_fma_<mode>`.
  auto [op, mode] = name.split('_');
  if (llvm::is_contained({"rn", "rz", "rd", "ru"}, mode)) {
    if (op == "fma")
      return ("__nv_fma" + llvm::Twine(f32 ? "f_" : "_") + mode).str();
    if (llvm::is_contained({"add", "sub", "mul", "div", "rcp", "sqrt"}, op))
      return ("__nv_" + llvm::Twine(f32 ? "f" : "d") + op + "_" + mode).str();
  }
  // pow with an int exponent (`__tessera_pow_fp32_i32`) is libdevice's
  // powi: `__nv_powf` takes a float exponent, and called with an int it
  // computes garbage.
  if (name == "pow" && neutral && symbol.ends_with("_i32"))
    return f32 ? "__nv_powif" : "__nv_powi";
  if (llvm::is_contained({"isnan", "isinf", "signbit"}, name))
    return ("__nv_" + name + (f32 ? "f" : "d")).str();
  if (name == "fast_dividef")
    return "__nv_fast_fdividef";
  // Names that spell their types: conversions (`float2int_rn`,
  // `double2ll_rz`), `finitef`, `isfinited`, `saturatef`, `fast_expf`.
  bool conversion = llvm::any_of(
      llvm::ArrayRef<llvm::StringRef>{"float2", "double2", "int2", "uint2",
                                      "ll2", "ull2", "hiloint2"},
      [&](llvm::StringRef from) { return name.starts_with(from); });
  if (conversion || name.starts_with("fast_") ||
      llvm::is_contained({"finitef", "isfinited", "saturatef"}, name))
    return ("__nv_" + name).str();
  return ("__nv_" + name + (f32 ? "f" : "")).str();
}
