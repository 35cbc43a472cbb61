//===- HostValue.cpp - Values of host (compile-time) expressions ----------===//
#include "tessera/Frontend/HostValue.h"
#include "tessera/Frontend/AST.h"
#include "tessera/Frontend/KernelModule.h"
#include "tessera/Frontend/PyFormat.h"

using namespace tessera::frontend;

HostValue HostValue::config(TuneConfig config) {
  return HostValue(Kind::Config,
                   std::make_shared<const TuneConfig>(std::move(config)));
}

const HostValue *HostValue::lookup(const HostValue &key) const {
  if (!isDict())
    return nullptr;
  for (const auto &[k, v] : getItems())
    if (k.equals(key))
      return &v;
  return nullptr;
}

bool HostValue::isTruthy() const {
  switch (kind) {
  case Kind::None:
    return false;
  case Kind::Bool:
  case Kind::Int:
    return getInt() != 0;
  case Kind::Float:
    return getFloat() != 0.0;
  case Kind::String:
    return !getString().empty();
  case Kind::List:
  case Kind::Tuple:
    return !getElements().empty();
  case Kind::Dict:
    return !getItems().empty();
  case Kind::Function:
  case Kind::Symbol:
  case Kind::Module:
  case Kind::Opaque:
  case Kind::Config:
    return true;
  }
  return true;
}

bool HostValue::equals(const HostValue &other) const {
  if (isNumber() && other.isNumber()) {
    if (isFloat() || other.isFloat())
      return getNumber() == other.getNumber();
    return getInt() == other.getInt();
  }
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::None:
    return true;
  case Kind::String:
  case Kind::Symbol:
    return getString() == other.getString();
  case Kind::List:
  case Kind::Tuple: {
    const Elements &a = getElements(), &b = other.getElements();
    if (a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!a[i].equals(b[i]))
        return false;
    return true;
  }
  case Kind::Dict: {
    if (getItems().size() != other.getItems().size())
      return false;
    for (const auto &[k, v] : getItems()) {
      const HostValue *o = other.lookup(k);
      if (!o || !o->equals(v))
        return false;
    }
    return true;
  }
  case Kind::Function: {
    const HostFunction &a = getFunction(), &b = other.getFunction();
    return a.def == b.def && a.lambda == b.lambda;
  }
  case Kind::Module:
    return &getModule() == &other.getModule();
  case Kind::Config:
    return &getConfig() == &other.getConfig();
  default:
    return false;
  }
}

bool HostValue::isHashable() const {
  if (isList() || isDict())
    return false;
  if (isTuple())
    for (const HostValue &e : getElements())
      if (!e.isHashable())
        return false;
  return true;
}

std::string HostValue::getTypeName() const {
  switch (kind) {
  case Kind::None:
    return "NoneType";
  case Kind::Bool:
    return "bool";
  case Kind::Int:
    return "int";
  case Kind::Float:
    return "float";
  case Kind::String:
    return "str";
  case Kind::List:
    return "list";
  case Kind::Tuple:
    return "tuple";
  case Kind::Dict:
    return "dict";
  case Kind::Function:
    return "function";
  case Kind::Symbol:
  case Kind::Opaque:
    return getString();
  case Kind::Module:
    return "module";
  case Kind::Config:
    return "triton.Config";
  }
  return "object";
}

std::string HostValue::repr() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return getBool() ? "True" : "False";
  case Kind::Int:
    return std::to_string(getInt());
  case Kind::Float:
    return formatPythonFloat(getFloat());
  case Kind::String:
    return quotePythonString(getString());
  case Kind::List:
  case Kind::Tuple: {
    std::string out = isList() ? "[" : "(";
    const Elements &elts = getElements();
    for (size_t i = 0; i < elts.size(); ++i) {
      if (i)
        out += ", ";
      out += elts[i].repr();
    }
    if (isTuple() && elts.size() == 1)
      out += ",";
    out += isList() ? "]" : ")";
    return out;
  }
  case Kind::Dict: {
    std::string out = "{";
    bool first = true;
    for (const auto &[k, v] : getItems()) {
      if (!first)
        out += ", ";
      first = false;
      out += k.repr() + ": " + v.repr();
    }
    return out + "}";
  }
  case Kind::Function: {
    const HostFunction &fn = getFunction();
    const Node *node = fn.def ? static_cast<const Node *>(fn.def)
                              : static_cast<const Node *>(fn.lambda);
    std::string out = fn.isJit ? "<jit function " : "<function ";
    out += fn.name;
    if (node)
      out += " at " + std::to_string(node->getLoc().line) + ":" +
             std::to_string(node->getLoc().column);
    return out + ">";
  }
  case Kind::Symbol:
    return getString();
  case Kind::Module:
    return "<module '" + getModule().getModuleName().str() + "'>";
  case Kind::Opaque:
    return "<" + getString() + " object>";
  case Kind::Config:
    return getConfig().repr();
  }
  return "?";
}

std::string TuneConfig::repr() const {
  std::string out = "Config({";
  for (size_t i = 0; i < kwargs.size(); ++i) {
    if (i)
      out += ", ";
    out += quotePythonString(kwargs[i].first) + ": " + kwargs[i].second.repr();
  }
  out += "}, num_warps=" + std::to_string(numWarps) +
         ", num_stages=" + std::to_string(numStages) +
         ", num_ctas=" + std::to_string(numCtas);
  if (maxnreg)
    out += ", maxnreg=" + std::to_string(*maxnreg);
  if (!preHook.isNone())
    out += ", pre_hook=" + preHook.repr();
  return out + ")";
}
