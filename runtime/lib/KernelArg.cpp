//===- KernelArg.cpp - A value passed to a kernel at launch ---------------===//
#include "tessera/Runtime/KernelArg.h"

#include "tessera/Runtime/Buffer.h"
#include "tessera/Runtime/ScalarTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir::tessera::runtime;

KernelArg KernelArg::boolean(bool value) {
  KernelArg arg;
  arg.kind = Kind::Bool;
  arg.intValue = value;
  return arg;
}

KernelArg KernelArg::integer(int64_t value) {
  KernelArg arg;
  arg.kind = Kind::Int;
  arg.intValue = value;
  return arg;
}

KernelArg KernelArg::unsignedInteger(uint64_t value) {
  if (value <= uint64_t(std::numeric_limits<int64_t>::max()))
    return integer(static_cast<int64_t>(value));
  KernelArg arg;
  arg.kind = Kind::UInt;
  arg.intValue = static_cast<int64_t>(value);
  return arg;
}

KernelArg KernelArg::floating(double value) {
  KernelArg arg;
  arg.kind = Kind::Float;
  arg.floatValue = value;
  return arg;
}

KernelArg KernelArg::pointer(uint64_t address, llvm::StringRef elementType,
                             uint64_t sizeBytes) {
  KernelArg arg;
  arg.kind = Kind::Pointer;
  arg.intValue = static_cast<int64_t>(address);
  arg.text = elementType.str();
  arg.sizeBytes = sizeBytes;
  return arg;
}

KernelArg KernelArg::buffer(const Buffer &buffer, uint64_t offsetBytes,
                            llvm::StringRef elementType) {
  uint64_t size =
      offsetBytes < buffer.getSize() ? buffer.getSize() - offsetBytes : 0;
  return pointer(buffer.getAddress() + offsetBytes,
                 elementType.empty() ? buffer.getElementType() : elementType,
                 size);
}

KernelArg KernelArg::string(llvm::StringRef value) {
  KernelArg arg;
  arg.kind = Kind::String;
  arg.text = value.str();
  return arg;
}

KernelArg KernelArg::dtype(llvm::StringRef typeName) {
  KernelArg arg;
  arg.kind = Kind::DType;
  arg.text = typeName.str();
  return arg;
}

KernelArg KernelArg::tensorDescriptor(TensorDescriptorArg descriptor) {
  KernelArg arg;
  arg.kind = Kind::TensorDesc;
  arg.intValue = static_cast<int64_t>(descriptor.base);
  arg.text = descriptor.elementType;
  arg.descriptor = std::move(descriptor);
  return arg;
}

KernelArg KernelArg::tuple(std::vector<KernelArg> elements) {
  KernelArg arg;
  arg.kind = Kind::Tuple;
  arg.elements = std::move(elements);
  return arg;
}

unsigned KernelArg::getNumLaunchValues() const {
  return isTensorDesc() ? 1 + 2 * unsigned(descriptor.shape.size()) : 1;
}

KernelArg KernelArg::getLaunchValue(unsigned i) const {
  if (!isTensorDesc())
    return *this;
  size_t rank = descriptor.shape.size();
  assert(i < 1 + 2 * rank && "no such launch value");
  if (i == 0)
    return pointer(descriptor.base, descriptor.elementType);
  if (i <= rank)
    return integer(descriptor.shape[i - 1]);
  return integer(descriptor.strides[i - 1 - rank]);
}

/// "[64, 64]".
static std::string listRepr(llvm::ArrayRef<int64_t> values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

/// Python's repr of a float: the shortest text that reads back the same
/// value, with a '.0' on integral values.
static std::string reprFloat(double value) {
  if (std::isnan(value))
    return "float('nan')";
  if (std::isinf(value))
    return value > 0 ? "float('inf')" : "float('-inf')";
  for (int precision = 1; precision <= 17; ++precision) {
    std::string text;
    llvm::raw_string_ostream(text) << llvm::format("%.*g", precision, value);
    if (std::strtod(text.c_str(), nullptr) == value) {
      if (text.find_first_of(".en") == std::string::npos)
        text += ".0";
      return text;
    }
  }
  return std::to_string(value);
}

/// Python's repr of a string, single-quoted.
static std::string reprString(llvm::StringRef value) {
  std::string out = "'";
  for (char c : value) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\'':
      out += "\\'";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        out += "\\x";
        out += llvm::hexdigit((c >> 4) & 0xf, /*LowerCase=*/true);
        out += llvm::hexdigit(c & 0xf, /*LowerCase=*/true);
      } else {
        out += c;
      }
    }
  }
  return out + "'";
}

std::string KernelArg::repr() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return getBool() ? "True" : "False";
  case Kind::Int:
    return std::to_string(intValue);
  case Kind::UInt:
    return std::to_string(getUInt());
  case Kind::Float:
    return reprFloat(floatValue);
  case Kind::String:
    return reprString(text);
  case Kind::DType: {
    const ScalarTypeInfo *info = lookupScalarType(text);
    return "triton.language." +
           (info ? info->languageName.str() : std::string(text));
  }
  case Kind::Pointer:
    return "<pointer *" + text + " 0x" + llvm::utohexstr(getAddress(), true) +
           ">";
  case Kind::TensorDesc:
    return "<tensordesc " + text + listRepr(descriptor.blockShape) + " 0x" +
           llvm::utohexstr(descriptor.base, true) + " shape " +
           listRepr(descriptor.shape) + " strides " +
           listRepr(descriptor.strides) +
           (descriptor.nanPadding ? " padding nan>" : ">");
  case Kind::Tuple: {
    // Python's spelling, so that a signature reads it back: `(8,)`.
    std::string out = "(";
    for (size_t i = 0; i < elements.size(); ++i)
      out += (i ? ", " : "") + elements[i].repr();
    return out + (elements.size() == 1 ? ",)" : ")");
  }
  }
  return "";
}

std::string KernelArg::describe() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return "a bool (" + repr() + ")";
  case Kind::Int:
  case Kind::UInt:
    return "an int (" + repr() + ")";
  case Kind::Float:
    return "a float (" + repr() + ")";
  case Kind::String:
    return "a string (" + repr() + ")";
  case Kind::DType:
    return "a dtype (" + repr() + ")";
  case Kind::Pointer:
    return text.empty() ? "a pointer of unknown element type"
                        : "a pointer to " + text;
  case Kind::TensorDesc:
    return "a tensor descriptor of " + text + " blocks " +
           listRepr(descriptor.blockShape);
  case Kind::Tuple:
    return "a tuple (" + repr() + ")";
  }
  return "";
}

bool KernelArg::operator==(const KernelArg &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::None:
    return true;
  case Kind::Bool:
  case Kind::Int:
  case Kind::UInt:
    return intValue == other.intValue;
  case Kind::Float:
    return floatValue == other.floatValue ||
           (std::isnan(floatValue) && std::isnan(other.floatValue));
  case Kind::Pointer:
    return intValue == other.intValue && text == other.text;
  case Kind::String:
  case Kind::DType:
    return text == other.text;
  case Kind::TensorDesc:
    return descriptor == other.descriptor;
  case Kind::Tuple:
    return elements == other.elements;
  }
  return false;
}
