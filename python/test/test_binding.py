"""Tests of tessera._C, the binding over the C++ runtime, on the cpu backend.

The kernels are small Triton files written to a temporary directory and read
with Kernel.from_file; NumPy arrays always, PyTorch CPU tensors where torch is
installed.
"""
import math
import textwrap

import numpy as np
import pytest

from tessera import _C

ADD = textwrap.dedent('''\
    import triton
    import triton.language as tl


    @triton.jit
    def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, SCALE: tl.constexpr = 1):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, (x + y) * SCALE, mask=mask)


    @triton.jit
    def fill(out_ptr, n, VALUE: tl.constexpr, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.full((BLOCK,), VALUE, DTYPE), mask=offs < n)


    @triton.jit
    def broken(x_ptr, BLOCK: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, BLOCK), undefined_name)
''')


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return _C.Session(backend="cpu", cache_dir=str(cache))


@pytest.fixture(scope="module")
def kernel_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("kernels") / "kernels.py"
    path.write_text(ADD)
    return str(path)


@pytest.fixture(scope="module")
def add(session, kernel_file):
    return _C.Kernel.from_file(session, kernel_file, "add")


class Float16:
    """A dtype object of the Python layer's kind."""
    __tessera_dtype__ = "fp16"


class Constexpr:
    """A tl.constexpr(...) wrapper of the Python layer's kind."""

    def __init__(self, value):
        self.__tessera_value__ = value


def test_version_and_plugins():
    assert _C.__version__
    assert _C.triton_version == "3.6.0"
    plugins = {p["name"]: p for p in _C.plugins() if "name" in p}
    assert "cpu" in plugins
    cpu = plugins["cpu"]
    assert cpu["devices"] and cpu["devices"][0]["arch"] == cpu["target_arch"]
    assert "warpSize" in cpu["devices"][0]


def test_session(session):
    assert session.backend == "cpu"
    assert session.torch_device == "cpu"
    assert not session.compile_only
    assert session.arch
    assert session.device_properties()["arch"] == session.arch
    session.synchronize()
    with pytest.raises(ValueError, match="unknown log level 'loud'"):
        _C.Session(backend="cpu", log_level="loud")
    with pytest.raises(_C.TesseraError, match="no-such-backend"):
        _C.Session(backend="no-such-backend")


def test_launch_numpy_and_reuse(add):
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, dtype=np.float32)
    out = np.full(n, np.nan, dtype=np.float32)
    grid = lambda meta: ((n + meta["BLOCK"] - 1) // meta["BLOCK"],)
    handle = add.launch(grid, (x, y, out, n), {"BLOCK": 128})
    np.testing.assert_array_equal(out, x + y)
    assert handle.name == "add"
    assert handle.signature == "*fp32:16,*fp32:16,*fp32:16,i32,128,1"
    assert handle.num_warps == 4
    before = add.statistics()
    # The same specialization (n = 999 specializes as 1000): the same handle,
    # no compilation.
    again = add.launch(grid, (x, y, out, 999), {"BLOCK": 128})
    assert again is handle
    after = add.statistics()
    assert after["loads"] == before["loads"]
    assert after["dispatch_hits"] == before["dispatch_hits"] + 1
    # A launch option is part of the specialization.
    other = add.launch((8,), (x, y, out, n), {"BLOCK": 128}, num_warps=2)
    assert other is not handle and other.num_warps == 2


def test_grid_sees_meta_with_defaults(add):
    n = 64
    x = np.ones(n, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (1,)

    add.launch(grid, (x, x), {"out_ptr": out, "n": n, "BLOCK": 64, "SCALE": 3})
    assert seen["BLOCK"] == 64 and seen["SCALE"] == 3 and seen["n"] == n
    assert seen["x_ptr"] is x and seen["out_ptr"] is out
    np.testing.assert_array_equal(out, np.full(n, 6, dtype=np.float32))
    add.launch(grid, (x, x, out, n), {"BLOCK": 64})
    assert seen["SCALE"] == 1
    # An int grid and a zero-sized grid (which launches nothing).
    add.launch(1, (x, x, out, n), {"BLOCK": 64})
    out[:] = -1
    add.launch((0,), (x, x, out, n), {"BLOCK": 64})
    assert (out == -1).all()


def test_dtype_and_constexpr_objects(session, kernel_file):
    fill = _C.Kernel.from_file(session, kernel_file, "fill")
    out = np.zeros(100, dtype=np.float16)
    handle = fill.launch((1,), (out, 100), {"VALUE": Constexpr(2.5),
                                            "DTYPE": Float16(), "BLOCK": 128})
    np.testing.assert_array_equal(out, np.full(100, 2.5, dtype=np.float16))
    assert "triton.language.float16" in handle.signature or "fp16" in handle.signature


def test_errors_name_the_parameter(add):
    x = np.zeros(16, dtype=np.float32)
    with pytest.raises(TypeError, match="missing argument 'BLOCK'"):
        add.launch((1,), (x, x, x, 16))
    with pytest.raises(TypeError, match="no parameter named 'BLOKC'"):
        add.launch((1,), (x, x, x, 16), {"BLOKC": 16})
    with pytest.raises(TypeError, match="argument 'y_ptr': cannot pass a dict"):
        add.launch((1,), (x, {}, x, 16), {"BLOCK": 16})
    with pytest.raises(TypeError, match="typestr '<c8'"):
        add.launch((1,), (x, np.zeros(4, np.complex64), x, 16), {"BLOCK": 16})
    with pytest.raises(ValueError, match="argument 'n': .* does not fit"):
        add.launch((1,), (x, x, x, 2 ** 70), {"BLOCK": 16})
    with pytest.raises(ValueError, match="grid has 4 dimensions"):
        add.launch((1, 1, 1, 1), (x, x, x, 16), {"BLOCK": 16})
    with pytest.raises(TypeError, match="grid must be a tuple"):
        add.launch("1", (x, x, x, 16), {"BLOCK": 16})
    with pytest.raises(ZeroDivisionError):
        add.launch(lambda meta: 1 // 0, (x, x, x, 16), {"BLOCK": 16})


def test_compile_errors_carry_the_location(session, kernel_file):
    broken = _C.Kernel.from_file(session, kernel_file, "broken")
    x = np.zeros(16, dtype=np.float32)
    with pytest.raises(_C.TesseraError) as info:
        broken.launch((1,), (x,), {"BLOCK": 16})
    text = str(info.value)
    assert f"{kernel_file}:22:" in text and "undefined_name" in text
    assert "^" in text
    with pytest.raises(_C.TesseraError, match="no @triton.jit function named"):
        _C.Kernel.from_file(session, kernel_file, "nope")


def test_params_and_asm(add):
    params = {p["name"]: p for p in add.params}
    assert params["BLOCK"]["is_constexpr"] and not params["n"]["is_constexpr"]
    assert params["SCALE"]["has_default"] and params["SCALE"]["default"] == 1
    assert len(add.source_hash) == 64
    x = np.zeros(16, dtype=np.float32)
    handle = add.warmup((x, x, x, 16), {"BLOCK": 16})
    assert set(handle.asm.keys()) == {"tessera", "tessera-gpu", "llvm", "asm", "bin"}
    assert "tessera." in handle.asm["tessera"]
    assert "define" in handle.asm["llvm"]
    assert isinstance(handle.asm["bin"], bytes) and handle.asm["bin"]
    assert handle.asm["llvm"] is handle.asm["llvm"]
    with pytest.raises(KeyError, match="no stage 'ptx'"):
        handle.asm["ptx"]
    metadata = handle.metadata
    assert metadata["backend"] == "cpu" and len(metadata["cache_key"]) == 64
    assert metadata.signature == handle.signature and "shared" in metadata
    assert metadata.to_dict()["num_warps"] == handle.num_warps
    with pytest.raises(AttributeError, match="no 'nope'"):
        metadata.nope
    handle._init_handles()


def test_tuning_records(session, add, tmp_path):
    configs = [f"BLOCK={b}, num_warps=4, num_stages=3, num_ctas=1"
               for b in (32, 64, 128)]
    records = _C.TuningRecords(session, add, configs)
    assert records.configs == configs
    assert records.recall("n=1000") is None
    timings = {0: 3.0, 1: 1.0, 2: 2.0}
    assert records.select("n=1000", [], lambda i: timings[i]) == 1
    assert records.last_timings == [3.0, 1.0, 2.0]
    assert records.recall("n=1000") == 1
    # A failing config loses; all failing is an error naming the first.
    def measure(i):
        if i == 0:
            raise RuntimeError("config 0 does not compile")
        return 1.0
    assert records.select("n=2000", [0, 2], measure) == 2
    assert math.isnan(records.last_timings[0])
    with pytest.raises(RuntimeError, match="config 0 does not compile"):
        records.select("n=3000", [0], measure)
    # Another process (another object over the same cache) remembers.
    again = _C.TuningRecords(session, add, configs)
    assert again.recall("n=1000") == 1
    with pytest.raises(KeyboardInterrupt):
        again.select("n=4000", [], lambda i: (_ for _ in ()).throw(KeyboardInterrupt))


def test_do_bench(session, add):
    x = np.zeros(1024, dtype=np.float32)
    launch = lambda: add.launch((8,), (x, x, x, 1024), {"BLOCK": 128})
    ms = _C.do_bench(launch, warmup=1, rep=5, session=session)
    assert ms > 0
    low, high = _C.do_bench(launch, warmup=1, rep=5, quantiles=[0.2, 0.8],
                            session=session)
    assert low <= high
    assert isinstance(_C.do_bench(launch, warmup=1, rep=5, return_mode="all",
                                  session=session), list)
    with pytest.raises(ValueError, match="return_mode"):
        _C.do_bench(launch, return_mode="best", session=session)


def test_torch_cpu_tensors(add):
    torch = pytest.importorskip("torch")
    n = 300
    x = torch.arange(n, dtype=torch.float32)
    y = torch.ones(n, dtype=torch.float32)
    out = torch.empty(n, dtype=torch.float32)
    add.launch((3,), (x, y, out, n), {"BLOCK": 128})
    assert torch.equal(out, x + y)
    # A slice starts at an offset: its data_ptr is what the kernel gets.
    out2 = torch.zeros(2 * n, dtype=torch.float32)
    add.launch((3,), (x, y, out2[n:], n), {"BLOCK": 128})
    assert torch.equal(out2[n:], x + y) and not out2[:n].any()
    with pytest.raises(TypeError, match="dtype torch.complex64"):
        add.launch((1,), (x, torch.zeros(4, dtype=torch.complex64), out, n),
                   {"BLOCK": 128})
