//===- ArgPacking.h - Launch arguments as the driver takes them -*- C++ -*-===//
//
// A compiled kernel lists its parameters with Triton types (`*fp32`, `i32`,
// `fp16`, `i1`, ...). An ArgPacker, made once per compiled kernel, checks
// each launch's values against them and writes them into typed storage with
// the `void **` array the driver's launch takes: a pointer parameter gets a
// 64-bit device address, an integer its width, a float its IEEE format
// (fp16 and bf16 rounded to nearest even). No host compiler is involved,
// and a mismatch is an error naming the parameter.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_ARGPACKING_H
#define TESSERA_RUNTIME_ARGPACKING_H

#include "tessera/Backend/CompiledKernel.h"
#include "tessera/Runtime/KernelArg.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::runtime {

/// The packed arguments of one launch. Each value has its own 8-byte
/// aligned slot; getPointers() points at them in parameter order.
class PackedArgs {
public:
  llvm::ArrayRef<void *> getPointers() const { return pointers; }
  /// The slot of parameter `i`, for tests.
  const void *getSlot(unsigned i) const { return &storage[i]; }

private:
  friend class ArgPacker;
  void resize(unsigned n);

  llvm::SmallVector<uint64_t, 16> storage;
  llvm::SmallVector<void *, 16> pointers;
};

/// How to pack the arguments of one compiled kernel.
class ArgPacker {
public:
  /// How a parameter is passed.
  enum class Kind : uint8_t {
    Pointer,
    Bool,
    SignedInt,
    UnsignedInt,
    Float16,
    BFloat16,
    Float32,
    Float64
  };
  struct Param {
    /// The name errors use.
    std::string name;
    /// The Triton type ("*fp32", "i32").
    std::string type;
    Kind kind = Kind::Pointer;
    /// Bits of an integer.
    unsigned bits = 64;
    /// The element type of a pointer ("fp32").
    std::string pointee;
  };

  /// The packer of `params`. `names` (when not empty, one per parameter)
  /// replaces the names the emitter gave, which may be positional. Fails,
  /// naming the parameter, on a type no launch can pass.
  static llvm::Expected<ArgPacker>
  create(llvm::ArrayRef<KernelParam> params,
         llvm::ArrayRef<std::string> names = {});

  llvm::ArrayRef<Param> getParams() const { return params; }

  /// Packs `args[i]` for parameter i into `out`. Fails naming the first
  /// parameter whose value does not fit its type, or when the count is
  /// wrong.
  llvm::Error pack(llvm::ArrayRef<KernelArg> args, PackedArgs &out) const;
  /// Packs `args[select[i]]` for parameter i. An empty selection selects no
  /// argument (a kernel whose parameters are all constexprs).
  llvm::Error pack(llvm::ArrayRef<KernelArg> args, PackedArgs &out,
                   llvm::ArrayRef<unsigned> select) const;

private:
  llvm::Error
  packSelected(llvm::ArrayRef<KernelArg> args, PackedArgs &out,
               std::optional<llvm::ArrayRef<unsigned>> select) const;

  std::vector<Param> params;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_ARGPACKING_H
