//===- KernelSourceProgram.cpp - Kernels an embedder resolved -------------===//
//
// Builds the modules of a program (docs/embedding.md): one module per unit,
// a function unit's text placed at its line in its file so that
// diagnostics point into the user's file, and every unit's globals
// injected once all units exist (units refer to each other, in cycles too).
//
//===----------------------------------------------------------------------===//
#include "tessera/Runtime/KernelSource.h"

#include "tessera/Runtime/CacheKey.h"

#include "tessera/Frontend/Decorators.h"
#include "tessera/Frontend/ModuleSet.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <map>

using namespace mlir::tessera::runtime;
using namespace ::tessera::frontend;
namespace json = llvm::json;

namespace {
llvm::Error programError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "program: " + message);
}

/// One unit while the program is built.
struct Unit {
  std::string id;
  const json::Object *object = nullptr;
  bool isFunction = false;
  bool isJit = false;
  std::string name;
  KernelModule *module = nullptr;
  const FunctionDefStmt *def = nullptr;
  unsigned buffer = 0;
};

/// Checks that `object` has only the fields in `allowed`.
llvm::Error checkFields(const json::Object &object,
                        llvm::ArrayRef<llvm::StringRef> allowed,
                        const llvm::Twine &where) {
  for (const auto &entry : object)
    if (!llvm::is_contained(allowed, llvm::StringRef(entry.first)))
      return programError(where + ": unknown field '" + entry.first.str() +
                          "'");
  return llvm::Error::success();
}

llvm::Expected<std::string> getString(const json::Object &object,
                                      llvm::StringRef field,
                                      const llvm::Twine &where) {
  std::optional<llvm::StringRef> value = object.getString(field);
  if (!value)
    return programError(where + ": field '" + field + "' must be a string");
  return value->str();
}

/// The text placed in the unit's buffer: the source at its line, and an
/// indented (nested) def under `if True:` on the line above so that its
/// columns stay those of the file.
llvm::Expected<std::string> placeSource(llvm::StringRef source, int64_t line,
                                        const llvm::Twine &where) {
  if (line < 1 || line > (1 << 24))
    return programError(where + ": field 'line' must be a line number");
  llvm::StringRef first = source.ltrim("\n");
  size_t indent = first.find_first_not_of(" \t");
  if (indent == llvm::StringRef::npos || indent == 0)
    return std::string(size_t(line - 1), '\n') + source.str();
  if (line < 2)
    return programError(where +
                        ": an indented function cannot start on line 1");
  return std::string(size_t(line - 2), '\n') + "if True:\n" + source.str();
}

/// The jit options of a function unit.
llvm::Expected<JitOptions> readOptions(const json::Object *options,
                                       const llvm::Twine &where) {
  JitOptions out;
  if (!options)
    return out;
  if (llvm::Error err = checkFields(
          *options,
          {"do_not_specialize", "do_not_specialize_on_alignment", "noinline",
           "debug"},
          where + ": options"))
    return std::move(err);
  for (llvm::StringRef field :
       {"do_not_specialize", "do_not_specialize_on_alignment"}) {
    const json::Value *list = options->get(field);
    if (!list || list->kind() == json::Value::Null)
      continue;
    const json::Array *array = list->getAsArray();
    if (!array)
      return programError(where + ": options." + field +
                          " must be a list of parameter names or indices");
    for (const json::Value &e : *array) {
      HostValue v;
      if (std::optional<llvm::StringRef> s = e.getAsString())
        v = HostValue::string(s->str());
      else if (std::optional<int64_t> i = e.getAsInteger())
        v = HostValue::integer(*i);
      else
        return programError(where + ": options." + field +
                            " must hold parameter names or indices");
      (field == "do_not_specialize" ? out.doNotSpecialize
                                    : out.doNotSpecializeOnAlignment)
          .push_back(v);
    }
  }
  for (llvm::StringRef field : {"noinline", "debug"}) {
    const json::Value *v = options->get(field);
    if (!v || v->kind() == json::Value::Null)
      continue;
    std::optional<bool> b = v->getAsBoolean();
    if (!b)
      return programError(where + ": options." + field + " must be a bool");
    (field == "noinline" ? out.noinline : out.debug) = *b;
  }
  return out;
}

/// Turns JSON values into host values, units into functions and modules.
class ValueReader {
public:
  explicit ValueReader(const std::map<std::string, Unit> &units)
      : units(units) {}

  llvm::Expected<HostValue> read(const json::Value &value,
                                 const llvm::Twine &where,
                                 bool allowConstexpr = false) const {
    const json::Object *object = value.getAsObject();
    if (!object)
      return programError(where + ": a value must be an object such as "
                                  "{\"int\": 3}");
    size_t forms = 0;
    for (const auto &entry : *object)
      if (!(allowConstexpr && entry.first == "constexpr") &&
          entry.first != "repr")
        ++forms;
    if (forms != 1)
      return programError(where + ": a value has exactly one form "
                                  "(none, bool, int, float, str, tuple, "
                                  "list, dict, symbol, unit, opaque)");
    for (const auto &entry : *object) {
      llvm::StringRef form = entry.first;
      const json::Value &v = entry.second;
      if (form == "constexpr" || form == "repr")
        continue;
      if (form == "none")
        return HostValue::none();
      if (form == "bool") {
        if (std::optional<bool> b = v.getAsBoolean())
          return HostValue::boolean(*b);
      } else if (form == "int") {
        if (std::optional<int64_t> i = v.getAsInteger())
          return HostValue::integer(*i);
        return programError(where + ": an int must fit in 64 bits");
      } else if (form == "float") {
        if (std::optional<double> d = v.getAsNumber())
          return HostValue::floating(*d);
        if (std::optional<llvm::StringRef> s = v.getAsString()) {
          if (*s == "inf")
            return HostValue::floating(INFINITY);
          if (*s == "-inf")
            return HostValue::floating(-INFINITY);
          if (*s == "nan")
            return HostValue::floating(NAN);
        }
      } else if (form == "str") {
        if (std::optional<llvm::StringRef> s = v.getAsString())
          return HostValue::string(s->str());
      } else if (form == "symbol") {
        if (std::optional<llvm::StringRef> s = v.getAsString())
          return HostValue::symbol(canonicalizeTritonName(*s));
      } else if (form == "opaque") {
        if (std::optional<llvm::StringRef> s = v.getAsString())
          return HostValue::opaque(s->str());
      } else if (form == "tuple" || form == "list") {
        if (const json::Array *array = v.getAsArray()) {
          std::vector<HostValue> elts;
          for (size_t i = 0; i < array->size(); ++i) {
            llvm::Expected<HostValue> e =
                read((*array)[i], where + "[" + llvm::Twine(i) + "]");
            if (!e)
              return e.takeError();
            elts.push_back(std::move(*e));
          }
          return form == "tuple" ? HostValue::tuple(std::move(elts))
                                 : HostValue::list(std::move(elts));
        }
      } else if (form == "dict") {
        if (const json::Array *array = v.getAsArray()) {
          HostValue::Items items;
          for (size_t i = 0; i < array->size(); ++i) {
            const json::Array *pair = (*array)[i].getAsArray();
            if (!pair || pair->size() != 2)
              return programError(where + ": a dict is a list of [key, "
                                          "value] pairs");
            llvm::Expected<HostValue> k = read((*pair)[0], where + " key");
            if (!k)
              return k.takeError();
            llvm::Expected<HostValue> val = read((*pair)[1], where + " value");
            if (!val)
              return val.takeError();
            items.emplace_back(std::move(*k), std::move(*val));
          }
          return HostValue::dict(std::move(items));
        }
      } else if (form == "unit") {
        std::optional<llvm::StringRef> id = v.getAsString();
        if (!id)
          return programError(where + ": a unit reference is a unit id");
        auto it = units.find(id->str());
        if (it == units.end())
          return programError(where + ": no unit '" + *id + "'");
        const Unit &unit = it->second;
        if (!unit.isFunction)
          return HostValue::module(unit.module);
        HostFunction fn;
        fn.def = unit.def;
        fn.module = unit.module;
        fn.name = unit.name;
        fn.isJit = unit.isJit;
        return HostValue::function(std::move(fn));
      } else {
        return programError(where + ": unknown value form '" + form + "'");
      }
      return programError(where + ": malformed '" + form + "' value");
    }
    return programError(where + ": empty value");
  }

private:
  const std::map<std::string, Unit> &units;
};
} // namespace

llvm::Error KernelSource::initializeProgram(llvm::StringRef text,
                                            llvm::StringRef entryUnit) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return programError("not valid JSON: " +
                        llvm::toString(parsed.takeError()));
  const json::Object *doc = parsed->getAsObject();
  if (!doc)
    return programError("the document must be an object");
  if (llvm::Error err =
          checkFields(*doc, {"format", "version", "units"}, "document"))
    return err;
  if (doc->getString("format") != llvm::StringRef("tessera-program"))
    return programError("'format' must be \"tessera-program\"");
  if (doc->getInteger("version") != 1)
    return programError("unsupported 'version' (this Tessera reads 1)");
  const json::Object *unitObjects = doc->getObject("units");
  if (!unitObjects)
    return programError("'units' must be an object of units by id");

  modules = std::make_unique<ModuleSet>(sourceMgr, std::vector<std::string>());
  scanStream = std::make_unique<llvm::raw_string_ostream>(scanText);
  scanDiags = std::make_unique<DiagnosticEngine>(sourceMgr, scanStream.get());

  // Every unit's module first (in id order, so that buffers and hence
  // everything after is deterministic), then the globals that refer to
  // them.
  std::map<std::string, Unit> units;
  for (const auto &entry : *unitObjects) {
    Unit unit;
    unit.id = entry.first.str();
    unit.object = entry.second.getAsObject();
    if (!unit.object)
      return programError("unit '" + unit.id + "' must be an object");
    units.emplace(unit.id, std::move(unit));
  }
  for (auto &[id, unit] : units) {
    const json::Object &o = *unit.object;
    std::string where = "unit '" + id + "'";
    llvm::Expected<std::string> kind = getString(o, "kind", where);
    if (!kind)
      return kind.takeError();
    llvm::Expected<std::string> moduleName = getString(o, "module", where);
    if (!moduleName)
      return moduleName.takeError();
    llvm::Expected<std::string> file = getString(o, "file", where);
    if (!file)
      return file.takeError();
    if (*kind == "module") {
      if (llvm::Error err = checkFields(
              o, {"kind", "module", "file", "globals"}, where))
        return err;
      unit.module = &modules->addEmptyModule(*moduleName, *file);
      continue;
    }
    if (*kind != "function")
      return programError(where + ": unknown kind '" + *kind + "'");
    if (llvm::Error err = checkFields(o,
                                      {"kind", "name", "module", "file",
                                       "line", "source", "jit", "options",
                                       "globals"},
                                      where))
      return err;
    unit.isFunction = true;
    llvm::Expected<std::string> name = getString(o, "name", where);
    if (!name)
      return name.takeError();
    unit.name = *name;
    llvm::Expected<std::string> source = getString(o, "source", where);
    if (!source)
      return source.takeError();
    std::optional<int64_t> line = o.getInteger("line");
    if (!line)
      return programError(where + ": field 'line' must be an integer");
    std::optional<bool> jit = o.getBoolean("jit");
    if (!jit)
      return programError(where + ": field 'jit' must be a bool");
    unit.isJit = *jit;
    llvm::Expected<std::string> placed = placeSource(*source, *line, where);
    if (!placed)
      return placed.takeError();
    unit.buffer = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(*placed, *file), llvm::SMLoc());
    llvm::StringRef package =
        llvm::StringRef(*moduleName).contains('.')
            ? llvm::StringRef(*moduleName).rsplit('.').first
            : llvm::StringRef();
    unit.module = &modules->addModule(unit.buffer, *scanDiags, *moduleName,
                                      package, {}, /*importable=*/false);
    if (scanDiags->hadError())
      continue; // Reported below with the others.
    unit.def = unit.module->lookupFunction(unit.name);
    if (!unit.def)
      return programError(where + ": its source defines no function '" +
                          unit.name + "'");
    if (unit.isJit) {
      llvm::Expected<JitOptions> options =
          readOptions(o.getObject("options"), where);
      if (!options)
        return options.takeError();
      unit.module->markJit(unit.name, std::move(*options));
    }
  }
  if (scanDiags->hadError()) {
    while (!scanText.empty() && scanText.back() == '\n')
      scanText.pop_back();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), scanText);
  }

  ValueReader reader(units);
  for (auto &[id, unit] : units) {
    const json::Value *globals = unit.object->get("globals");
    if (!globals)
      continue;
    const json::Object *object = globals->getAsObject();
    if (!object)
      return programError("unit '" + id + "': 'globals' must be an object");
    // Sorted, so that the order of bindings does not depend on the JSON's.
    std::vector<std::string> names;
    for (const auto &entry : *object)
      names.push_back(entry.first.str());
    llvm::sort(names);
    for (const std::string &name : names) {
      const json::Value &value = *object->get(name);
      llvm::Expected<HostValue> v = reader.read(
          value, "unit '" + id + "', global '" + name + "'", true);
      if (!v)
        return v.takeError();
      bool isConstexpr = false;
      if (const json::Object *o = value.getAsObject())
        isConstexpr = o->getBoolean("constexpr").value_or(false);
      unit.module->inject(name, std::move(*v), isConstexpr);
    }
  }

  auto entry = units.find(entryUnit.str());
  if (entry == units.end())
    return programError("no unit '" + entryUnit + "'");
  if (!entry->second.isFunction || !entry->second.isJit)
    return programError("unit '" + entryUnit + "' is not a jit function");
  module = entry->second.module;
  mainBuffer = entry->second.buffer;
  path = (*entry->second.object->getString("file")).str();
  entryName = entry->second.name;
  sourceHash = sha256Hex(text);
  return llvm::Error::success();
}
