//===- Specialization.h - How a kernel is specialized for a launch -*- C++
//-*-===//
//
// Triton compiles a kernel once per specialization of its arguments:
// constexpr parameters are baked in, integers equal to 1 become the
// constant 1, and integers and pointers that are multiples of 16 are marked
// divisible by 16. A Specialization records that decision for every
// parameter; its key() is the canonical string a compiled kernel is cached
// under.
//
// It can be written as Triton's ahead-of-time signature, one entry per
// parameter in order:
//   "*fp32:16, *fp32:16, i32, 1024"
//   - `*dtype` a pointer, `dtype` a scalar (i1 i8 i16 i32 i64 u8 u16 u32 u64
//     fp16 bf16 fp32 fp64 fp8e4nv fp8e5 ...);
//   - `:16` the value is a multiple of 16, `:1` it equals 1 (a constexpr);
//   - anything else is a constexpr literal: an integer, a float, True,
//     False, None, a quoted string, or a dtype such as tl.float16.
// Trailing constexpr parameters may be left out of the signature when they
// are given by name (--constexpr), by an autotune config, by a heuristic or
// by a default value.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_CODEGEN_SPECIALIZATION_H
#define TESSERA_FRONTEND_CODEGEN_SPECIALIZATION_H

#include "tessera/Frontend/Codegen/Types.h"
#include "tessera/Frontend/HostEvaluator.h"

#include "llvm/Support/Error.h"

namespace tessera::frontend {

/// One parameter of a specialized kernel.
struct SpecializedParam {
  std::string name;
  /// A constexpr parameter is baked into the code; a runtime one is an
  /// argument of the kernel function.
  bool isConstexpr = false;
  /// Runtime: the argument's type (a scalar or a pointer).
  TType type;
  /// Runtime: a power of two the value (or address) is a multiple of; 1 when
  /// nothing is known.
  unsigned divisibility = 1;
  /// Runtime tensor descriptor: out-of-bounds elements read NaN.
  bool nanPadding = false;
  /// Constexpr: the value.
  HostValue value;
};

/// One entry of an ahead-of-time signature.
struct SignatureEntry {
  /// A runtime parameter of `type`, with `divisibility`; or a constexpr
  /// `value` (also for `:1`).
  bool isConstexpr = false;
  TType type;
  unsigned divisibility = 1;
  /// `tensordesc<...,nan>`: a descriptor padded with NaN.
  bool nanPadding = false;
  HostValue value;
  /// The entry as written.
  std::string text;
};

class Specialization {
public:
  /// Splits and parses an ahead-of-time signature. Literals are evaluated
  /// with `eval` (so `tl.float16` resolves through the file's imports).
  static llvm::Expected<std::vector<SignatureEntry>>
  parseSignature(llvm::StringRef signature, HostEvaluator &eval);

  /// Maps `entries` onto the parameters of `kernel` in order; `named` gives
  /// constexpr values by parameter name (command-line constexprs, the
  /// selected autotune config, then heuristics). Parameters still unbound
  /// take their default values.
  static llvm::Expected<Specialization>
  build(const FunctionDefStmt &kernel, llvm::ArrayRef<SignatureEntry> entries,
        llvm::ArrayRef<std::pair<std::string, HostValue>> named,
        HostEvaluator &eval);

  llvm::ArrayRef<SpecializedParam> getParams() const { return params; }
  const SpecializedParam *lookup(llvm::StringRef name) const;

  /// Compile options that are part of the key (num_warps, num_stages, ...),
  /// in the order set.
  void setOption(llvm::StringRef name, int64_t value);
  llvm::ArrayRef<std::pair<std::string, int64_t>> getOptions() const {
    return options;
  }

  /// The canonical cache key:
  ///   kernel(*fp32:16,*fp32:16,i32,BLOCK_SIZE=1024){num_warps=4}
  /// Runtime parameters read as their type and `:16` when divisible by 16,
  /// constexprs as `NAME=repr`, options in braces when any is set.
  std::string key() const;

  std::string kernelName;

private:
  std::vector<SpecializedParam> params;
  std::vector<std::pair<std::string, int64_t>> options;
};

/// True when the parameter's annotation names tl.constexpr (Triton checks
/// the annotation's text for "constexpr").
bool isConstexprParam(const Parameter &param);

/// True when the parameter's annotation makes it a const pointer (`tl.const`,
/// or a `*k` type), which stores and atomics refuse.
bool isConstParam(const Parameter &param);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_CODEGEN_SPECIALIZATION_H
