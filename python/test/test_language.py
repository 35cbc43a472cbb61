"""The language namespace as host values: dtypes, constexpr, device
functions, and the errors for what Tessera does not provide."""
from __future__ import annotations

import pickle

import pytest

import triton
import triton.language as tl
from tessera.triton.language import _symbols


def test_dtypes_carry_their_names():
    assert tl.float16.name == "fp16" and tl.int32.name == "int32" and tl.bfloat16.name == "bf16"
    assert tl.float16.__tessera_dtype__ == "fp16"
    assert tl.int32.__tessera_dtype__ == "i32"
    assert tl.uint8.__tessera_dtype__ == "u8"
    assert tl.int1.__tessera_dtype__ == "i1"
    assert tl.float8e4nv.__tessera_dtype__ == "fp8e4nv"
    assert tl.float16.__tessera_symbol__ == "triton.language.float16"
    assert repr(tl.bfloat16) == "triton.language.bfloat16"
    assert str(tl.float32) == "fp32"


@pytest.mark.parametrize("name,bits,floating,signed", [
    ("int1", 1, False, False), ("int8", 8, False, True), ("uint16", 16, False, False),
    ("int64", 64, False, True), ("float8e5", 8, True, None), ("float16", 16, True, None),
    ("bfloat16", 16, True, None), ("float32", 32, True, None), ("float64", 64, True, None)])
def test_dtype_api(name, bits, floating, signed):
    t = getattr(tl, name)
    assert t.primitive_bitwidth == bits
    assert t.is_floating() is floating
    assert t.is_int() is (not floating)
    if signed is not None:
        assert t.is_int_signed() is signed and t.is_int_unsigned() is (not signed)
        assert t.int_bitwidth == bits
    assert t.scalar is t
    assert not t.is_ptr() and not t.is_block()


def test_dtype_predicates_and_limits():
    assert tl.float16.is_fp16() and not tl.float16.is_bf16()
    assert tl.float8e4nv.is_fp8() and tl.float8e4nv.is_fp8e4nv()
    assert tl.int1.is_bool()
    assert tl.int8.get_int_max_value() == 127 and tl.int8.get_int_min_value() == -128
    assert tl.uint8.get_int_max_value() == 255
    assert tl.float16.fp_mantissa_width == 10 and tl.float32.exponent_bias == 127
    assert tl.int32.kind() == tl.dtype.KIND.INTEGRAL
    with pytest.raises(ValueError, match="not an integer"):
        tl.float32.get_int_max_value()


def test_dtype_equality_hash_and_construction():
    assert tl.dtype("fp16") == tl.float16
    assert tl.float16 != tl.bfloat16
    assert tl.float16 == tl.constexpr(tl.float16)
    assert len({tl.float16, tl.dtype("fp16"), tl.float32}) == 2
    assert tl.float16 != "fp16"
    assert tl.dtype.is_dtype("fp32") and not tl.dtype.is_dtype("float32")
    with pytest.raises(ValueError, match="unknown type name 'half'"):
        tl.dtype("half")
    assert pickle.loads(pickle.dumps(tl.bfloat16)) == tl.bfloat16


def test_pointer_and_block_types():
    p = tl.pointer_type(tl.float16)
    assert p.is_ptr() and p.element_ty == tl.float16 and p.__tessera_dtype__ == "*fp16"
    assert p == tl.pointer_type(tl.float16) and p != tl.pointer_type(tl.float32)
    assert tl.pi32_t == tl.pointer_type(tl.int32)
    b = tl.block_type(tl.float32, [16, 8])
    assert b.is_block() and b.shape == (16, 8) and b.numel == 128 and b.scalar == tl.float32
    assert b.nbytes == 512
    with pytest.raises(TypeError, match="expected a dtype"):
        tl.pointer_type("fp16")


def test_constexpr_behaves_like_its_value():
    c = tl.constexpr(3)
    assert c.value == 3 and repr(c) == "constexpr[3]"
    assert (c + 1).value == 4 and (1 + c).value == 4 and (c * c).value == 9
    assert isinstance(c + 1, tl.constexpr)
    assert c == 3 and bool(c) and not tl.constexpr(0)
    assert int(c) == 3 and float(c) == 3.0
    assert list(range(c)) == [0, 1, 2]
    assert [10, 20, 30, 40][c] == 40
    assert (c // 2).value == 1 and (c % 2).value == 1 and (-c).value == -3 and (c << 2).value == 12
    assert tl.constexpr(tl.constexpr(5)).value == 5
    assert tl.constexpr((1, 2))[1] == 2
    assert tl.constexpr(lambda x: x + 1)(1) == 2
    assert hash(tl.constexpr(3)) == hash(tl.constexpr(3))
    assert f"{tl.constexpr(0.5):.2f}" == "0.50"


def test_device_functions_are_named_and_refuse_host_calls():
    assert tl.load.__tessera_symbol__ == "triton.language.load"
    assert tl.math.exp.__tessera_symbol__ == "triton.language.math.exp"
    assert tl.extra.libdevice.asin.__tessera_symbol__ == "triton.language.extra.libdevice.asin"
    with pytest.raises(RuntimeError, match=r"triton\.language\.load\(\) was called from host code"):
        tl.load(0)
    with pytest.raises(RuntimeError, match="only inside a @triton.jit function"):
        tl.extra.libdevice.asin(0.5)


def test_target_specific_libdevice_paths():
    from triton.language.extra.cuda import libdevice as cuda_libdevice
    from triton.language.extra.hip import libdevice as hip_libdevice
    from triton.language.extra import libdevice
    for module in (cuda_libdevice, hip_libdevice, libdevice):
        assert module.asin.__name__ == "asin"
    assert "asin" in dir(libdevice)


def test_every_frontend_name_resolves():
    """Every name the frontend knows is an attribute of its module."""
    import importlib
    for qualified in sorted(_symbols.names()):
        module_name, _, attr = qualified.rpartition(".")
        if not module_name.startswith("triton.language"):
            continue
        module = importlib.import_module(module_name)
        value = getattr(module, attr)
        assert value is not None, qualified


def test_triton_names_tessera_lacks_say_so():
    with pytest.raises(AttributeError, match="triton.AsyncCompileMode is part of Triton 3.6.0's API "
                                             "but Tessera does not support it"):
        triton.AsyncCompileMode
    with pytest.raises(AttributeError, match="module 'triton.language' has no attribute 'lod'"):
        tl.lod
    assert not hasattr(tl, "no_such_name")
    assert getattr(triton, "no_such_name", None) is None
    with pytest.raises(ImportError, match="Tessera does not support it"):
        from triton.testing import get_dram_gbps  # noqa: F401
    import importlib
    # triton.backends holds GPUTarget (triton.compile's target) and no
    # Triton backend plugin: PyTorch finds no Triton CPU backend there.
    assert importlib.import_module("triton.backends.compiler").GPUTarget is triton.compiler.GPUTarget
    assert triton.backends.backends == {}
    with pytest.raises(ImportError, match="triton.backends.driver"):
        importlib.import_module("triton.backends.driver")


def test_host_utilities():
    assert triton.cdiv(10, 3) == 4 and triton.cdiv(9, 3) == 3
    assert [triton.next_power_of_2(n) for n in (0, 1, 2, 3, 1000, 1024)] == [1, 1, 2, 4, 1024, 1024]
    assert triton.__version__ == "3.6.0"
    assert tl.TRITON_MAX_TENSOR_NUMEL == 1048576


def test_jit_function_host_surface():
    @triton.jit
    def k(x_ptr, n, BLOCK: tl.constexpr, DT: "tl.constexpr" = tl.float16):
        pass

    assert k.arg_names == ["x_ptr", "n", "BLOCK", "DT"]
    assert k.constexprs == [2, 3]
    assert k.fn.__name__ == "k" and k.__name__ == "k"
    assert [p.is_constexpr for p in k.params] == [False, False, True, True]
    assert k.params[3].has_default and k.params[3].default is tl.float16
    assert "def k(" in k.src
    with pytest.raises(RuntimeError, match="launch it with k\\[grid\\]"):
        k(1, 2)
    assert isinstance(k, triton.JITFunction) and isinstance(k, triton.KernelInterface)

    @triton.jit()
    def called_with_parens(x):
        pass

    assert isinstance(called_with_parens, triton.JITFunction)
    with pytest.raises(TypeError, match="decorates a Python function"):
        triton.jit(42)


def test_config():
    c = triton.Config({"BLOCK": 64}, num_warps=8, num_stages=2, maxnreg=128)
    assert c.all_kwargs() == {"BLOCK": 64, "num_warps": 8, "num_ctas": 1, "num_stages": 2,
                              "maxnreg": 128}
    assert str(c) == "BLOCK: 64, num_warps: 8, num_ctas: 1, num_stages: 2, maxnreg: 128"
    assert c == triton.Config({"BLOCK": 64}, num_warps=8, num_stages=2, maxnreg=128)
    assert c != triton.Config({"BLOCK": 32}, num_warps=8, num_stages=2, maxnreg=128)
    assert len({c, triton.Config({"BLOCK": 64}, num_warps=8, num_stages=2, maxnreg=128)}) == 1
    assert triton.Config({}).all_kwargs() == {"num_warps": 4, "num_ctas": 1, "num_stages": 3}
    with pytest.raises(TypeError, match="kwargs must be a dict"):
        triton.Config([("BLOCK", 64)])
    with pytest.raises(NotImplementedError, match="ir_override"):
        triton.Config({}, ir_override="x.ttgir")


def test_config_texts_match_the_runtime():
    from tessera.triton.runtime.autotuner import config_text, value_text
    c = triton.Config({"BLOCK_M": 128, "ACT": "leaky_relu", "F": 0.5, "B": True, "T": tl.float16},
                      num_warps=8, num_stages=3)
    assert config_text(c) == ("BLOCK_M=128, ACT='leaky_relu', F=0.5, B=True, "
                              "T=triton.language.float16, num_warps=8, num_stages=3, num_ctas=1")
    assert config_text(triton.Config({}, maxnreg=64)) == \
        "num_warps=4, num_stages=3, num_ctas=1, maxnreg=64"
    assert [value_text(v) for v in (1e-5, 100000.0, 1.0, float("inf"), None, "it's")] == \
        ["1e-05", "1e+05", "1.0", "float('inf')", "None", "'it\\'s'"]


def test_autotune_and_heuristics_check_names():
    @triton.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        pass

    with pytest.raises(ValueError, match="'m' is not a parameter of 'k'"):
        triton.autotune(configs=[triton.Config({"BLOCK": 16})], key=["m"])(k)
    with pytest.raises(ValueError, match="reset_to_zero.*'y'"):
        triton.autotune(configs=[], key=["n"], reset_to_zero=["y"])(k)
    tuned = triton.autotune(configs=[], key=["n"])(k)
    assert tuned.configs[0].all_kwargs() == {"num_warps": 4, "num_ctas": 1, "num_stages": 3}
    assert tuned.fn is k and tuned.base_fn is k
    h = triton.heuristics({"BLOCK": lambda args: 64})(k)
    assert triton.autotune(configs=[], key=["n"])(h).base_fn is k
    with pytest.raises(TypeError, match="dict"):
        triton.heuristics([("BLOCK", None)])


def test_prune_configs_by():
    @triton.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        pass

    configs = [triton.Config({"BLOCK": b}) for b in (16, 32, 64, 128)]
    seen = {}

    def early(configs, named_args, **kwargs):
        seen["named"] = dict(named_args)
        return [c for c in configs if c.kwargs["BLOCK"] <= named_args["n"]]

    def model(**kwargs):
        return -kwargs["BLOCK"]  # bigger is "faster"

    tuned = triton.autotune(configs=configs, key=["n"],
                            prune_configs_by={"early_config_prune": early, "perf_model": model,
                                              "top_k": 2})(k)
    tuned.nargs = {"x_ptr": None, "n": 64}
    kept = tuned.prune_configs({})
    assert [c.kwargs["BLOCK"] for c in kept] == [64, 32]
    assert seen["named"]["n"] == 64
    tuned.nargs = {"x_ptr": None, "n": 1}
    with pytest.raises(triton.runtime.errors.AutotunerError, match="No valid autotuner configs"):
        tuned.prune_configs({})
    with pytest.raises(ValueError, match="unknown entries"):
        triton.autotune(configs=configs, key=["n"], prune_configs_by={"topk": 1})(k)


def test_knobs_map_to_the_environment(monkeypatch):
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    assert triton.knobs.autotuning.print is True
    monkeypatch.delenv("TESSERA_CACHE_DIR", raising=False)
    triton.knobs.cache.dir = "/tmp/x"
    import os
    assert os.environ["TESSERA_CACHE_DIR"] == "/tmp/x"
    monkeypatch.delenv("TESSERA_CACHE_DIR")
    with pytest.raises(AttributeError, match="Tessera does not support it"):
        triton.knobs.nvidia.ptxas_path
    with pytest.raises(AttributeError, match="triton.knobs.cache.home_dir is not supported"):
        triton.knobs.cache.home_dir
    with pytest.raises(AttributeError, match="interpreter"):
        triton.knobs.runtime.interpret = True


def test_host_helpers_of_the_language_modules():
    # Private or half-public helpers libraries call on the host (Inductor,
    # FlagGems); in device code the frontend computes them.
    from triton.language.standard import _log2
    assert [_log2(n) for n in (0, 1, 2, 3, 64, 100)] == [0, 0, 1, 1, 6, 6]
    assert _log2(tl.constexpr(32)) == 5
    assert tl.core.get_int_dtype(16, True) is tl.int16
    assert tl.core.get_int_dtype(bitwidth=32, signed=False) is tl.uint32
    assert tl.core.get_int_dtype(1, True) is tl.int1
    with pytest.raises(ValueError, match="no integer dtype of 12 bits"):
        tl.core.get_int_dtype(12, True)
    assert tl.core._unwrap_if_constexpr(tl.constexpr(7)) == 7
    assert tl.core._unwrap_if_constexpr("x") == "x"
