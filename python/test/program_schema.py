"""A checker of program documents (docs/embedding.md), written from the
format's page, so that the program builder is tested against the format
independently of the C++ reader."""
from __future__ import annotations

import json
from typing import Any, Dict, List

_FUNCTION_FIELDS = {"kind", "name", "module", "file", "line", "source", "jit", "options", "globals"}
_MODULE_FIELDS = {"kind", "module", "file", "globals"}
_OPTION_FIELDS = {"do_not_specialize", "do_not_specialize_on_alignment", "noinline", "debug"}
_SCALAR_FORMS = {"none", "bool", "int", "float", "str"}
_FORMS = _SCALAR_FORMS | {"tuple", "list", "dict", "symbol", "unit", "opaque"}


class SchemaError(AssertionError):
    pass


def _check_value(value: Any, where: str, units: Dict[str, Any], errors: List[str]) -> None:
    if not isinstance(value, dict):
        errors.append(f"{where}: a value must be an object, got {value!r}")
        return
    keys = set(value) - {"constexpr"}
    if "constexpr" in value and value["constexpr"] is not True:
        errors.append(f"{where}: constexpr must be true when present")
    if "opaque" in keys:
        if keys != {"opaque", "repr"}:
            errors.append(f"{where}: opaque takes exactly opaque and repr, got {sorted(keys)}")
        elif not isinstance(value["opaque"], str) or not isinstance(value["repr"], str):
            errors.append(f"{where}: opaque and repr must be strings")
        return
    if len(keys) != 1 or not keys <= _FORMS:
        errors.append(f"{where}: expected one value form of {sorted(_FORMS)}, got {sorted(keys)}")
        return
    (form, ) = keys
    v = value[form]
    if form == "none" and v is not None:
        errors.append(f"{where}: none must be null")
    if form == "bool" and not isinstance(v, bool):
        errors.append(f"{where}: bool must be true/false")
    if form == "int" and (not isinstance(v, int) or isinstance(v, bool) or not -2**63 <= v < 2**63):
        errors.append(f"{where}: int must be a 64-bit integer, got {v!r}")
    if form == "float" and not (isinstance(v, float) or (isinstance(v, int) and not isinstance(v, bool))
                                or v in ("inf", "-inf", "nan")):
        errors.append(f"{where}: float must be a number or inf/-inf/nan, got {v!r}")
    if form in ("str", "symbol") and not isinstance(v, str):
        errors.append(f"{where}: {form} must be a string")
    if form in ("tuple", "list"):
        if not isinstance(v, list):
            errors.append(f"{where}: {form} must be an array")
        else:
            for i, item in enumerate(v):
                _check_value(item, f"{where}[{i}]", units, errors)
    if form == "dict":
        if not isinstance(v, list) or not all(isinstance(p, list) and len(p) == 2 for p in v):
            errors.append(f"{where}: dict must be an array of [key, value] pairs")
        else:
            for i, (k, item) in enumerate(v):
                _check_value(k, f"{where}.key{i}", units, errors)
                _check_value(item, f"{where}.value{i}", units, errors)
    if form == "unit" and v not in units:
        errors.append(f"{where}: unit {v!r} is not in the program")


def check_program(text: str) -> Dict[str, Any]:
    """Parses and checks a program; raises SchemaError listing every problem."""
    doc = json.loads(text)
    errors: List[str] = []
    if set(doc) != {"format", "version", "units"}:
        errors.append(f"top level: expected format, version, units; got {sorted(doc)}")
    if doc.get("format") != "tessera-program" or doc.get("version") != 1:
        errors.append("top level: format must be tessera-program, version 1")
    units = doc.get("units", {})
    if not isinstance(units, dict) or not units:
        errors.append("units must be a non-empty object")
        units = {}
    for unit_id, unit in units.items():
        where = f"unit {unit_id}"
        kind = unit.get("kind")
        if kind == "function":
            if set(unit) != _FUNCTION_FIELDS:
                errors.append(f"{where}: fields {sorted(unit)}, expected {sorted(_FUNCTION_FIELDS)}")
            if not isinstance(unit.get("line"), int) or unit.get("line", 0) < 1:
                errors.append(f"{where}: line must be a positive integer")
            if not isinstance(unit.get("jit"), bool):
                errors.append(f"{where}: jit must be a bool")
            for field in ("name", "module", "file", "source"):
                if not isinstance(unit.get(field), str):
                    errors.append(f"{where}: {field} must be a string")
            source = unit.get("source", "")
            if f"def {unit.get('name')}" not in source:
                errors.append(f"{where}: source does not define {unit.get('name')}")
            options = unit.get("options", {})
            if not isinstance(options, dict) or set(options) != _OPTION_FIELDS:
                errors.append(f"{where}: options {sorted(options)}, expected {sorted(_OPTION_FIELDS)}")
            else:
                for field in ("do_not_specialize", "do_not_specialize_on_alignment"):
                    if not all(isinstance(n, str) for n in options[field]):
                        errors.append(f"{where}: options.{field} must list parameter names")
                if not isinstance(options["noinline"], bool):
                    errors.append(f"{where}: options.noinline must be a bool")
                if options["debug"] not in (None, True, False):
                    errors.append(f"{where}: options.debug must be null or a bool")
        elif kind == "module":
            if set(unit) != _MODULE_FIELDS:
                errors.append(f"{where}: fields {sorted(unit)}, expected {sorted(_MODULE_FIELDS)}")
        else:
            errors.append(f"{where}: kind must be function or module, got {kind!r}")
            continue
        for name, value in unit.get("globals", {}).items():
            _check_value(value, f"{where} global {name}", units, errors)
    if errors:
        raise SchemaError("\n".join(errors))
    return doc
