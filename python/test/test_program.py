"""The program builder (tessera._program): kernels' globals as the
interpreter sees them, in the format of docs/embedding.md.

These tests need no compiler: they check the documents against the format
(program_schema) and against what each kernel reads.
"""
from __future__ import annotations

import json
import math
import textwrap

import numpy as np
import pytest

import triton
import triton.language as tl
from triton.language.extra import libdevice

import pkg
import pkg.ext as ext
from pkg.utils import helper
from pkg.sub import deep
from program_schema import SchemaError, check_program
from tessera import _program

LIMIT = tl.constexpr(16)
PLAIN_INT = 7
ANNOTATED: tl.constexpr = 5
RATIO = 0.25
INF = tl.constexpr(float("inf"))
NAN = tl.constexpr(float("nan"))
NAMES = tl.constexpr(("a", 1, None, True))
TABLE = tl.constexpr({"k": 2})
DTYPE = tl.float16
ARRAY = np.zeros(3)


def build(kernel):
    text, unit = _program.build_program(kernel)
    doc = check_program(text)
    return doc, unit


@triton.jit
def uses_helpers(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = helper(x) + ext.helper(x) + pkg.helper(x) + deep.negate(x) + ext.twice_offset(x)
    y = y + pkg.sub.deep.negate(x) * deep.Consts.FACTOR
    tl.store(x_ptr + offs, y + LIMIT + ANNOTATED, mask=offs < n)


def test_kernel_unit_fields():
    doc, unit = build(uses_helpers)
    assert unit == f"{__name__}:uses_helpers"
    u = doc["units"][unit]
    assert u["kind"] == "function" and u["jit"] is True and u["name"] == "uses_helpers"
    assert u["file"] == __file__
    assert u["source"].startswith("@triton.jit\ndef uses_helpers(")
    with open(__file__) as f:
        lines = f.read().splitlines()
    assert lines[u["line"] - 1] == "@triton.jit"
    assert lines[u["line"]].startswith("def uses_helpers(")
    assert u["options"] == {"do_not_specialize": [], "do_not_specialize_on_alignment": [],
                            "noinline": False, "debug": None}


def test_globals_of_the_kernel():
    doc, unit = build(uses_helpers)
    g = doc["units"][unit]["globals"]
    assert g["tl"] == {"symbol": "triton.language"}
    assert "triton" not in g  # only the decorator names it; decorators are not compiled
    assert g["helper"] == {"unit": "pkg.utils:helper"}
    assert g["LIMIT"] == {"int": 16, "constexpr": True}
    assert g["ANNOTATED"] == {"int": 5, "constexpr": True}
    # Locals and parameters are not globals; builtins are the frontend's.
    assert not {"x", "y", "offs", "x_ptr", "n", "BLOCK"} & set(g)


def test_imported_module_units_hold_only_what_is_read():
    doc, unit = build(uses_helpers)
    units = doc["units"]
    g = units[unit]["globals"]
    assert g["ext"] == {"unit": "pkg.ext"}
    assert set(units["pkg.ext"]["globals"]) == {"helper", "twice_offset"}
    assert units["pkg.ext"]["kind"] == "module"
    assert units["pkg.ext"]["file"].endswith("pkg/ext.py")
    # A re-export: pkg.helper is pkg.utils.helper.
    assert units["pkg"]["globals"]["helper"] == {"unit": "pkg.utils:helper"}
    # A chain through a subpackage.
    assert units["pkg"]["globals"]["sub"] == {"unit": "pkg.sub"}
    assert units["pkg.sub"]["globals"] == {"deep": {"unit": "pkg.sub.deep"}}
    assert units["pkg.sub.deep"]["globals"]["negate"] == {"unit": "pkg.sub.deep:negate"}


def test_helpers_resolve_their_own_globals():
    doc, _ = build(uses_helpers)
    units = doc["units"]
    # pkg.ext.helper calls `_scaled`, a relative import of pkg.utils.helper.
    ext_helper = units["pkg.ext:helper"]
    assert ext_helper["globals"]["_scaled"] == {"unit": "pkg.utils:helper"}
    assert ext_helper["globals"]["SHIFT"] == {"int": 2, "constexpr": True}  # module-level if
    assert units["pkg.utils:helper"]["globals"]["SCALE"] == {"int": 3, "constexpr": True}
    twice = units["pkg.ext:twice_offset"]
    assert twice["globals"]["utils"] == {"unit": "pkg.utils"}
    assert units["pkg.utils"]["globals"]["add_offset"] == {"unit": "pkg.utils:add_offset"}
    assert units["pkg.utils:add_offset"]["globals"]["OFFSET"] == {"int": 1, "constexpr": True}


def test_class_namespace_read_through_attributes():
    doc, _ = build(uses_helpers)
    units = doc["units"]
    assert units["pkg.sub.deep"]["globals"]["Consts"] == {"unit": "pkg.sub.deep:Consts"}
    consts = units["pkg.sub.deep:Consts"]
    assert consts["kind"] == "module" and consts["globals"] == {"FACTOR": {"int": 5}}


@triton.jit
def uses_libdevice(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, libdevice.asin(x) + ext.sqrt_of(x))


def test_libdevice_after_try_except_import():
    doc, unit = build(uses_libdevice)
    units = doc["units"]
    assert units[unit]["globals"]["libdevice"] == {"symbol": "triton.language.extra.libdevice"}
    # pkg.ext imported libdevice under try/except ImportError: the path the
    # interpreter took is the one recorded.
    assert units["pkg.ext:sqrt_of"]["globals"]["libdevice"]["symbol"] in (
        "triton.language.extra.cuda.libdevice", "triton.language.extra.libdevice")


@triton.jit
def reads_values(x_ptr):
    a = PLAIN_INT + RATIO
    b = INF + NAN
    c = NAMES[0]
    d = TABLE
    e = DTYPE
    f = ARRAY
    g = triton.cdiv(4, 2) + triton.next_power_of_2(3)
    tl.store(x_ptr, a)


def test_value_forms():
    doc, unit = build(reads_values)
    g = doc["units"][unit]["globals"]
    assert g["PLAIN_INT"] == {"int": 7}
    assert g["RATIO"] == {"float": 0.25}
    assert g["INF"] == {"float": "inf", "constexpr": True}
    assert g["NAN"] == {"float": "nan", "constexpr": True}
    assert g["NAMES"] == {"tuple": [{"str": "a"}, {"int": 1}, {"none": None}, {"bool": True}],
                          "constexpr": True}
    assert g["TABLE"] == {"dict": [[{"str": "k"}, {"int": 2}]], "constexpr": True}
    assert g["DTYPE"] == {"symbol": "triton.language.float16"}
    assert g["ARRAY"] == {"opaque": "numpy.ndarray", "repr": "<numpy.ndarray object>"}


def test_host_functions_of_triton_are_symbols():
    from triton import cdiv, next_power_of_2
    assert _program.ProgramBuilder().convert(cdiv) == {"symbol": "triton.cdiv"}
    assert _program.ProgramBuilder().convert(next_power_of_2) == {"symbol": "triton.next_power_of_2"}
    assert _program.ProgramBuilder().convert(tl.load) == {"symbol": "triton.language.load"}
    assert _program.ProgramBuilder().convert(tl.constexpr) == {"symbol": "triton.language.constexpr"}
    assert _program.ProgramBuilder().convert(tl.pi32_t) == {"symbol": "triton.language.pi32_t"}


def test_closure_constants_of_a_kernel_defined_in_a_function():
    BLOCK = tl.constexpr(64)
    scale = 2.5

    @triton.jit(do_not_specialize=["n"], noinline=True, debug=True)
    def inner(x_ptr, n):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * scale, mask=offs < n)

    doc, unit = build(inner)
    u = doc["units"][unit]
    assert unit == f"{__name__}:test_closure_constants_of_a_kernel_defined_in_a_function.<locals>.inner"
    assert u["globals"]["BLOCK"] == {"int": 64, "constexpr": True}
    assert u["globals"]["scale"] == {"float": 2.5}
    assert u["options"] == {"do_not_specialize": ["n"], "do_not_specialize_on_alignment": [],
                            "noinline": True, "debug": True}
    # The source keeps its indentation and starts at its decorator's line.
    assert u["source"].startswith("    @triton.jit(")
    with open(__file__) as f:
        assert f.read().splitlines()[u["line"] - 1].strip().startswith("@triton.jit(")


def test_do_not_specialize_by_index_becomes_names():
    @triton.jit(do_not_specialize=[1], do_not_specialize_on_alignment=[0])
    def k(a, b):
        pass

    doc, unit = build(k)
    assert doc["units"][unit]["options"]["do_not_specialize"] == ["b"]
    assert doc["units"][unit]["options"]["do_not_specialize_on_alignment"] == ["a"]
    # Triton ignores entries that name no parameter; Tessera warns.
    with pytest.warns(UserWarning, match="index 5 is out of range"):
        assert triton.jit(do_not_specialize=[5])(lambda_free_kernel_source).do_not_specialize == []
    with pytest.warns(UserWarning, match="no parameter named 'zz'"):
        triton.jit(do_not_specialize=["zz"])(lambda_free_kernel_source)


def lambda_free_kernel_source(a, b):
    pass


@triton.jit
def ping(x, n: tl.constexpr):
    if n > 0:
        return pong(x, n - 1)
    return x


@triton.jit
def pong(x, n: tl.constexpr):
    return ping(x, n)


def test_mutual_recursion_terminates():
    doc, unit = build(ping)
    units = doc["units"]
    assert units[unit]["globals"]["pong"] == {"unit": f"{__name__}:pong"}
    assert units[f"{__name__}:pong"]["globals"]["ping"] == {"unit": unit}


@triton.constexpr_function
def host_log2(n):
    return int(math.log2(n))


@triton.jit
def uses_constexpr_function(x_ptr, N: tl.constexpr):
    tl.store(x_ptr, host_log2(N))


def test_constexpr_function_is_a_host_unit():
    doc, unit = build(uses_constexpr_function)
    units = doc["units"]
    hid = units[unit]["globals"]["host_log2"]["unit"]
    assert units[hid]["jit"] is False
    # A host function's decorator is read (the frontend recognises
    # @triton.constexpr_function by it); a kernel's is not.
    assert units[hid]["globals"]["triton"] == {"symbol": "triton"}
    assert "triton" not in units[unit]["globals"]
    assert units[hid]["globals"]["math"] == {"unit": "math"}
    # math's functions go by name: the host evaluator implements them.
    assert units["math"]["globals"] == {"log2": {"symbol": "math.log2"}}
    assert host_log2(tl.constexpr(8)) == 3  # callable on the host


def test_scoping_locals_shadow_globals():
    @triton.jit
    def k(x_ptr):
        LIMIT = 3  # a local: not the global LIMIT
        for helper in range(2):  # noqa: F402 - a loop variable shadows the import
            LIMIT += helper
        tl.store(x_ptr, LIMIT)

    doc, unit = build(k)
    assert set(doc["units"][unit]["globals"]) == {"tl"}


def test_deterministic_and_sorted():
    first, _ = _program.build_program(uses_helpers)
    second, _ = _program.build_program(uses_helpers)
    assert first == second
    doc = json.loads(first)
    assert json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False) == first
    assert "0x" not in first  # no addresses


def test_same_qualname_different_functions_get_distinct_ids():
    def make(value):
        @triton.jit
        def leaf(x):
            return x + value
        return leaf

    a, b = make(1), make(2)

    @triton.jit
    def root(x_ptr):
        tl.store(x_ptr, a(1) + b(2))

    doc, unit = build(root)
    ids = {doc["units"][unit]["globals"]["a"]["unit"], doc["units"][unit]["globals"]["b"]["unit"]}
    assert len(ids) == 2
    values = sorted(doc["units"][i]["globals"]["value"]["int"] for i in ids)
    assert values == [1, 2]


def test_source_must_come_from_a_file():
    namespace = {"triton": triton, "tl": tl}
    exec(textwrap.dedent("""
        @triton.jit
        def from_exec(x_ptr):
            pass
    """), namespace)
    with pytest.raises(_program.ProgramError, match="must be defined in a Python file"):
        _program.build_program(namespace["from_exec"])


def test_schema_checker_rejects_bad_documents():
    good, _ = _program.build_program(uses_libdevice)
    doc = json.loads(good)
    unit = next(iter(doc["units"].values()))
    unit["globals"]["bad"] = {"int": 1, "float": 2.0}
    with pytest.raises(SchemaError, match="one value form"):
        check_program(json.dumps(doc))
    del unit["globals"]["bad"]
    unit["globals"]["dangling"] = {"unit": "nowhere"}
    with pytest.raises(SchemaError, match="not in the program"):
        check_program(json.dumps(doc))


def test_target_info_predicates_are_host_units_with_the_target():
    from triton.language.target_info import is_cuda

    @triton.jit
    def branchy(x_ptr):
        if is_cuda():
            tl.store(x_ptr, 1)
        else:
            tl.store(x_ptr, 2)

    doc, unit = build(branchy)
    units = doc["units"]
    predicate = units[units[unit]["globals"]["is_cuda"]["unit"]]
    assert predicate["jit"] is False and "def is_cuda" in predicate["source"]
    assert predicate["globals"]["constexpr_function"] == {"symbol": "triton.constexpr_function"}
    backend = triton.runtime.driver.active.get_current_target().backend
    assert predicate["globals"]["TARGET_BACKEND"] == {"str": backend, "constexpr": True}
