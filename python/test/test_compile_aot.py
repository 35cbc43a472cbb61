"""triton.compile(ASTSource(...), target=GPUTarget(...)): ahead-of-time
compilation through the Python package, for the session's backend and for
other targets, with the kernel's globals read from the live modules."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tessera
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource, CompilationError

import pkg.utils as utils

pytestmark = pytest.mark.device


@triton.jit
def scaled_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    # A helper of another module of a package (pkg.utils.helper: x * 3).
    tl.store(out_ptr + offs, utils.helper(x) + tl.load(y_ptr + offs, mask=mask), mask=mask)


SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}


def _plugins() -> set:
    return {p.get("name") for p in tessera.plugins()}


def test_dict_signature_compiles_for_the_session_backend():
    src = ASTSource(scaled_add, SIGNATURE, constexprs={"BLOCK": 64},
                    attrs={(0, ): [["tt.divisibility", 16]], (3, ): [["tt.divisibility", 16]]})
    compiled = triton.compile(src, options={"num_warps": 2})
    assert compiled.name == "scaled_add"
    assert compiled.metadata["signature"] == "*fp32:16,*fp32,*fp32,i32:16,64"
    assert compiled.metadata.num_warps == 2
    binary = compiled.asm["bin"]
    assert isinstance(binary, bytes) and len(binary) == compiled.metadata["binary_size"] > 0
    # The other stages compile from the same request; the helper is inlined.
    assert "scaled_add" in compiled.asm["llvm"]
    assert "tessera.load" in compiled.asm["tessera"]


def test_string_signature_is_tesseras_aot_form():
    by_dict = triton.compile(ASTSource(scaled_add, SIGNATURE, constexprs={(4, ): 128}))
    by_string = triton.compile(ASTSource(scaled_add, "*fp32,*fp32,*fp32,i32,128"))
    assert by_dict.metadata["signature"] == by_string.metadata["signature"] == "*fp32,*fp32,*fp32,i32,128"
    assert by_dict.asm["bin"] == by_string.asm["bin"]
    with_constexpr = triton.compile(ASTSource(scaled_add, "*fp32,*fp32,*fp32,i32", constexprs={"BLOCK": 128}))
    assert with_constexpr.asm["bin"] == by_string.asm["bin"]


def test_launches_are_unaffected(lib):
    # A kernel compiled ahead of time still launches through its jit function.
    triton.compile(ASTSource(scaled_add, SIGNATURE, constexprs={"BLOCK": 32}))
    x = np.arange(40, dtype=np.float32)
    out = lib.empty((40, ), "fp32")
    scaled_add[(2, )](lib.asarray(x, "fp32"), lib.asarray(np.ones(40), "fp32"), out, 40, BLOCK=32)
    np.testing.assert_array_equal(lib.numpy(out), x * 3 + 1)


@pytest.mark.parametrize("target,backend,arch,marker", [
    (GPUTarget("cuda", 90, 32), "nvptx", "sm_90a", ".target sm_90a"),
    (GPUTarget("hip", "gfx942", 64), "amdgpu", "gfx942", "amdhsa"),
])
def test_other_targets_compile_without_their_device(target, backend, arch, marker):
    if backend not in _plugins():
        pytest.skip(f"the {backend} plugin is not built")
    compiled = triton.compile(ASTSource(scaled_add, SIGNATURE, constexprs={"BLOCK": 256}), target=target,
                              options={"num_warps": 4, "num_stages": 2})
    assert compiled.metadata["backend"] == backend
    assert compiled.metadata["arch"] == arch
    assert compiled.metadata["threads_per_warp"] == target.warp_size
    assert marker in compiled.asm["asm"]


def test_int_equal_to_one_and_none_specialize_as_triton_does():
    @triton.jit
    def strided(x_ptr, stride, other, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs * stride, offs)

    # Triton passes an int argument equal to 1 (and None) as a constexpr.
    src = ASTSource(strided, {"x_ptr": "*i32", "stride": "constexpr", "other": "constexpr",
                              "BLOCK": "constexpr"}, constexprs={"stride": 1, "other": None, "BLOCK": 16})
    assert src.aot_signature() == ("*i32,i32:1,None,16", [])
    assert triton.compile(src).metadata["signature"] == "*i32,i32:1,None,16"


def test_bad_sources_say_what_is_wrong():
    with pytest.raises(TypeError, match="must be a @triton.jit function"):
        ASTSource(lambda x: x, {"x": "i32"})
    with pytest.raises(ValueError, match="has no parameter 'nope'"):
        ASTSource(scaled_add, SIGNATURE, constexprs={"nope": 1})
    with pytest.raises(ValueError, match="lacks parameter 'y_ptr'"):
        triton.compile(ASTSource(scaled_add, {"x_ptr": "*fp32", "out_ptr": "*fp32"}))
    with pytest.raises(ValueError, match="constexprs gives no value for it"):
        triton.compile(ASTSource(scaled_add, SIGNATURE))
    with pytest.raises(TypeError, match="option 'enable_warp_magic' is not supported"):
        triton.compile(ASTSource(scaled_add, SIGNATURE, constexprs={"BLOCK": 64}),
                       options={"enable_warp_magic": True})
    with pytest.raises(TypeError, match="cannot be given in a signature"):
        triton.compile(ASTSource(scaled_add, SIGNATURE, constexprs={"BLOCK": object()}))
    with pytest.raises(TypeError, match="not IR files"):
        triton.compile("kernel.ttir")


def test_compile_errors_carry_the_kernel_location():
    @triton.jit
    def broken(x_ptr, BLOCK: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, BLOCK), undefined_name)  # noqa: F821

    with pytest.raises(CompilationError, match=r"test_compile_aot\.py:\d+:\d+: error: name 'undefined_name'"):
        triton.compile(ASTSource(broken, "*fp32,16"))
    # A constexpr the signature leaves out is named.
    with pytest.raises(CompilationError, match="parameter 'BLOCK'"):
        triton.compile(ASTSource(scaled_add, "*fp32,*fp32,*fp32,i32"))


def test_do_not_specialize_names_no_parameter_warns_as_triton_ignores():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        @triton.jit(do_not_specialize=["seqlen", 7])
        def stub():
            pass

    messages = [str(w.message) for w in caught]
    assert any("has no parameter named 'seqlen'; ignored" in m for m in messages)
    assert any("index 7 is out of range" in m for m in messages)
    assert stub.do_not_specialize == []
