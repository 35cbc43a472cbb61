//===- TesseraAttrs.td - Enum attributes of the tessera dialect -*- tablegen -*-===//
#ifndef TESSERA_ATTRS_TD
#define TESSERA_ATTRS_TD

include "tessera/Dialect/Tessera/IR/TesseraDialect.td"
include "mlir/IR/EnumAttr.td"

class Tessera_EnumAttr<EnumAttrInfo info, string attrMnemonic>
    : EnumAttr<Tessera_Dialect, info, attrMnemonic>;

def Tessera_CacheModifier : I32EnumAttr<"CacheModifier",
    "cache modifier of a load or store", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"ca", 1>,
      I32EnumAttrCase<"cg", 2>, I32EnumAttrCase<"wb", 3>,
      I32EnumAttrCase<"cs", 4>, I32EnumAttrCase<"wt", 5>,
      I32EnumAttrCase<"cv", 6>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_CacheModifierAttr : Tessera_EnumAttr<Tessera_CacheModifier, "cache">;

def Tessera_EvictionPolicy : I32EnumAttr<"EvictionPolicy",
    "cache eviction priority of a load or store", [
      I32EnumAttrCase<"normal", 0>, I32EnumAttrCase<"evict_first", 1>,
      I32EnumAttrCase<"evict_last", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_EvictionPolicyAttr : Tessera_EnumAttr<Tessera_EvictionPolicy, "evict">;

def Tessera_PaddingOption : I32EnumAttr<"PaddingOption",
    "value read outside the boundary of a block pointer or descriptor", [
      I32EnumAttrCase<"zero", 0>, I32EnumAttrCase<"nan", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_PaddingOptionAttr : Tessera_EnumAttr<Tessera_PaddingOption, "padding">;

def Tessera_RMWOp : I32EnumAttr<"RMWOp", "atomic read-modify-write operation", [
      I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"fadd", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
      I32EnumAttrCase<"umax", 4>, I32EnumAttrCase<"umin", 5>,
      I32EnumAttrCase<"And", 6, "and">, I32EnumAttrCase<"Or", 7, "or">,
      I32EnumAttrCase<"Xor", 8, "xor">, I32EnumAttrCase<"xchg", 9>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_RMWOpAttr : Tessera_EnumAttr<Tessera_RMWOp, "rmw">;

def Tessera_MemSemantic : I32EnumAttr<"MemSemantic",
    "memory ordering of an atomic", [
      I32EnumAttrCase<"relaxed", 0>, I32EnumAttrCase<"acquire", 1>,
      I32EnumAttrCase<"release", 2>, I32EnumAttrCase<"acq_rel", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_MemSemanticAttr : Tessera_EnumAttr<Tessera_MemSemantic, "sem">;

def Tessera_MemScope : I32EnumAttr<"MemScope",
    "set of threads an atomic is ordered with", [
      I32EnumAttrCase<"gpu", 0>, I32EnumAttrCase<"cta", 1>,
      I32EnumAttrCase<"sys", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_MemScopeAttr : Tessera_EnumAttr<Tessera_MemScope, "scope">;

def Tessera_InputPrecision : I32EnumAttr<"InputPrecision",
    "how a dot multiplies fp32 inputs", [
      I32EnumAttrCase<"tf32", 0>, I32EnumAttrCase<"tf32x3", 1>,
      I32EnumAttrCase<"ieee", 2>, I32EnumAttrCase<"bf16x3", 3>,
      I32EnumAttrCase<"bf16x6", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_InputPrecisionAttr : Tessera_EnumAttr<Tessera_InputPrecision, "precision">;

def Tessera_RoundingMode : I32EnumAttr<"RoundingMode",
    "rounding of a floating-point conversion", [
      I32EnumAttrCase<"rtne", 0>, I32EnumAttrCase<"rtz", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_RoundingModeAttr : Tessera_EnumAttr<Tessera_RoundingMode, "rounding">;

def Tessera_PropagateNan : I32EnumAttr<"PropagateNan",
    "whether min/max/clamp return NaN when an input is NaN", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"all", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_PropagateNanAttr : Tessera_EnumAttr<Tessera_PropagateNan, "nan">;

def Tessera_ProgramAxis : I32EnumAttr<"ProgramAxis", "axis of the launch grid", [
      I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>,
      I32EnumAttrCase<"z", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tessera";
}
def Tessera_ProgramAxisAttr : Tessera_EnumAttr<Tessera_ProgramAxis, "axis">;

#endif // TESSERA_ATTRS_TD
