//===- ArgPacking.cpp - Launch arguments as the driver takes them ---------===//
#include "tessera/Runtime/ArgPacking.h"

#include "tessera/Runtime/ScalarTypes.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>
#include <limits>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

void PackedArgs::resize(unsigned n) {
  storage.assign(n, 0);
  pointers.resize(n);
  // Taken after the storage has its final size: it never moves again
  // during this launch.
  for (unsigned i = 0; i < n; ++i)
    pointers[i] = &storage[i];
}

static llvm::Error packError(const ArgPacker::Param &param,
                             const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "argument '" + param.name + "' (" +
                                     param.type + "): " + message);
}

llvm::Expected<ArgPacker>
ArgPacker::create(llvm::ArrayRef<KernelParam> kernelParams,
                  llvm::ArrayRef<std::string> names) {
  assert((names.empty() || names.size() == kernelParams.size()) &&
         "one name per parameter");
  ArgPacker packer;
  for (auto [index, kernelParam] : llvm::enumerate(kernelParams)) {
    Param param;
    param.name = names.empty() ? kernelParam.name : names[index];
    param.type = kernelParam.type;
    llvm::StringRef type = kernelParam.type;
    llvm::StringRef fullType = kernelParam.type;
    auto unsupported = [&](const llvm::Twine &why) {
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "parameter '" + param.name + "' has type '" + fullType +
              "', which a launch cannot pass: " + why);
    };
    if (type.consume_front("*")) {
      type.consume_front("k"); // Triton's const pointers.
      if (!lookupScalarType(type))
        return unsupported("unknown element type");
      param.kind = Kind::Pointer;
      param.pointee = type.str();
      packer.params.push_back(std::move(param));
      continue;
    }
    const ScalarTypeInfo *info = lookupScalarType(type);
    if (!info)
      return unsupported("unknown type");
    param.bits = info->bits;
    switch (info->cls) {
    case ScalarClass::Bool:
      param.kind = Kind::Bool;
      break;
    case ScalarClass::SignedInt:
      param.kind = Kind::SignedInt;
      break;
    case ScalarClass::UnsignedInt:
      param.kind = Kind::UnsignedInt;
      break;
    case ScalarClass::Float:
      if (info->name == "fp16")
        param.kind = Kind::Float16;
      else if (info->name == "bf16")
        param.kind = Kind::BFloat16;
      else if (info->name == "fp32")
        param.kind = Kind::Float32;
      else if (info->name == "fp64")
        param.kind = Kind::Float64;
      else
        return unsupported("fp8 scalars are not kernel parameters");
      break;
    }
    packer.params.push_back(std::move(param));
  }
  return packer;
}

/// Whether a pointer to `given` may be passed where the compiled kernel
/// records a pointer to `expected`: the same type, or integers of one width
/// (compiled types are signless, so a kernel specialized for `*u32` records
/// `*i32`).
static bool pointeeMatches(llvm::StringRef given, llvm::StringRef expected) {
  if (given == expected)
    return true;
  const ScalarTypeInfo *a = lookupScalarType(given);
  const ScalarTypeInfo *b = lookupScalarType(expected);
  auto isInt = [](const ScalarTypeInfo *t) {
    return t && (t->cls == ScalarClass::SignedInt ||
                 t->cls == ScalarClass::UnsignedInt);
  };
  return isInt(a) && isInt(b) && a->bits == b->bits;
}

/// The bits of `value` rounded to nearest even in `semantics`.
static uint64_t roundFloat(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat f(value);
  bool losesInfo = false;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return f.bitcastToAPInt().getZExtValue();
}

template <typename T> static void store(void *slot, T value) {
  std::memcpy(slot, &value, sizeof(T));
}

llvm::Error ArgPacker::pack(llvm::ArrayRef<KernelArg> args,
                            PackedArgs &out) const {
  return packSelected(args, out, std::nullopt);
}

llvm::Error ArgPacker::pack(llvm::ArrayRef<KernelArg> args, PackedArgs &out,
                            llvm::ArrayRef<unsigned> select) const {
  return packSelected(args, out, select);
}

llvm::Error
ArgPacker::packSelected(llvm::ArrayRef<KernelArg> args, PackedArgs &out,
                        std::optional<llvm::ArrayRef<unsigned>> select) const {
  size_t count = select ? select->size() : args.size();
  if (count != params.size())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the kernel takes " + llvm::Twine(params.size()) +
            " runtime arguments, the launch passes " + llvm::Twine(count));
  out.resize(params.size());
  // A descriptor's consecutive parameters take its launch values in turn.
  const KernelArg *previous = nullptr;
  unsigned field = 0;
  for (unsigned i = 0, e = params.size(); i < e; ++i) {
    const Param &param = params[i];
    const KernelArg &given = args[select ? (*select)[i] : i];
    field = &given == previous ? field + 1 : 0;
    previous = &given;
    if (field >= given.getNumLaunchValues())
      return packError(param, "expected another argument, got the extra "
                              "value " +
                                  llvm::Twine(field) + " of " +
                                  given.describe());
    KernelArg arg = given.getLaunchValue(field);
    void *slot = out.pointers[i];
    switch (param.kind) {
    case Kind::Pointer:
      if (!arg.isPointer())
        return packError(param, "expected a pointer, got " + arg.describe());
      if (!arg.getText().empty() &&
          !pointeeMatches(arg.getText(), param.pointee))
        return packError(param, "expected a pointer to " + param.pointee +
                                    ", got " + arg.describe());
      store<uint64_t>(slot, arg.getAddress());
      break;
    case Kind::Bool:
      if (!arg.isBool() && !(arg.isInt() && (arg.getInt() & ~int64_t(1)) == 0))
        return packError(param, "expected a bool, got " + arg.describe());
      store<uint8_t>(slot, arg.getInt() != 0);
      break;
    case Kind::SignedInt:
    case Kind::UnsignedInt: {
      bool isSigned = param.kind == Kind::SignedInt;
      if (arg.isUInt()) {
        // Above INT64_MAX: only a u64 parameter holds it.
        if (isSigned || param.bits != 64)
          return packError(param, arg.repr() + " does not fit in " +
                                      llvm::Twine(param.bits) +
                                      (isSigned ? " signed" : "") + " bits");
        store<uint64_t>(slot, arg.getUInt());
        break;
      }
      if (!arg.isInt() && !arg.isBool())
        return packError(param, "expected an integer, got " + arg.describe());
      int64_t v = arg.getInt();
      if (param.bits < 64) {
        int64_t lo = isSigned ? -(int64_t(1) << (param.bits - 1)) : 0;
        int64_t hi = isSigned ? (int64_t(1) << (param.bits - 1)) - 1
                              : (int64_t(1) << param.bits) - 1;
        if (v < lo || v > hi)
          return packError(param, llvm::Twine(v) + " does not fit in " +
                                      llvm::Twine(param.bits) + " bits");
      } else if (!isSigned && v < 0) {
        return packError(param, llvm::Twine(v) + " is negative");
      }
      switch (param.bits) {
      case 8:
        store<uint8_t>(slot, static_cast<uint8_t>(v));
        break;
      case 16:
        store<uint16_t>(slot, static_cast<uint16_t>(v));
        break;
      case 32:
        store<uint32_t>(slot, static_cast<uint32_t>(v));
        break;
      default:
        store<uint64_t>(slot, static_cast<uint64_t>(v));
        break;
      }
      break;
    }
    case Kind::Float16:
    case Kind::BFloat16:
    case Kind::Float32:
    case Kind::Float64: {
      // An integer reads as the float it denotes (as Python's float(n));
      // anything else is a mismatch.
      double v;
      if (arg.isFloat())
        v = arg.getFloat();
      else if (arg.isInt())
        v = static_cast<double>(arg.getInt());
      else if (arg.isUInt())
        v = static_cast<double>(arg.getUInt());
      else
        return packError(param, "expected a float, got " + arg.describe());
      if (param.kind == Kind::Float16)
        store<uint16_t>(slot, roundFloat(v, llvm::APFloat::IEEEhalf()));
      else if (param.kind == Kind::BFloat16)
        store<uint16_t>(slot, roundFloat(v, llvm::APFloat::BFloat()));
      else if (param.kind == Kind::Float32)
        store<float>(slot, static_cast<float>(v));
      else
        store<double>(slot, v);
      break;
    }
    }
  }
  return llvm::Error::success();
}
