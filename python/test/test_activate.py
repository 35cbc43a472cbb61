"""`python -m tessera` and tessera.activate(): `import triton` resolves to
Tessera, scripts run as they would under `python`."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import tessera

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(tessera.__file__)))


def run_python(args, cwd, env_extra=None, **kwargs):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PYTHON_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    for key in ("TESSERA_BACKEND", "TRITON_INTERPRET"):
        env.pop(key, None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable] + args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120, **kwargs)


def test_triton_is_tessera_under_both_names():
    import triton
    import triton.language as tl
    import tessera.triton
    assert triton is tessera.triton
    assert tl is tessera.triton.language
    assert sys.modules["triton.runtime.jit"] is sys.modules["tessera.triton.runtime.jit"]
    assert tessera.is_active()


def test_driver_is_one_object_however_imported():
    import triton
    import triton.runtime.driver as by_module
    from triton.runtime import driver as by_name
    assert by_module is by_name is triton.runtime.driver
    assert callable(by_name.active.get_current_target)


def test_script_runs_as_main_with_argv(tmp_path):
    helper = tmp_path / "sibling.py"
    helper.write_text("VALUE = 41\n")
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent("""
        import os, sys
        import triton
        import triton.language as tl
        import sibling  # the script's folder is on sys.path, as under `python prog.py`
        assert __name__ == "__main__"
        print("argv", sys.argv[1:])
        print("triton", triton.__name__, triton.__version__)
        print("backend", os.environ.get("TESSERA_BACKEND"))
        print("value", sibling.VALUE + 1)
        raise SystemExit(3)
    """))
    other = tmp_path / "elsewhere"
    other.mkdir()
    result = run_python(["-m", "tessera", "--backend", "cpu", str(script), "a", "--flag"], cwd=other)
    assert result.returncode == 3, result.stderr
    assert "argv ['a', '--flag']" in result.stdout
    assert "triton tessera.triton 3.6.0" in result.stdout
    assert "backend cpu" in result.stdout
    assert "value 42" in result.stdout


def test_module_mode_and_environment(tmp_path):
    (tmp_path / "mymod.py").write_text(textwrap.dedent("""
        import os, sys, triton
        print("main", __name__, sys.argv[1:], os.environ["TESSERA_CACHE_DIR"], triton.__name__)
    """))
    result = run_python(["-m", "tessera", "--cache-dir=/tmp/somewhere", "-m", "mymod", "x"],
                        cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "main __main__ ['x'] /tmp/somewhere tessera.triton" in result.stdout


def test_exceptions_and_bad_usage(tmp_path):
    script = tmp_path / "boom.py"
    script.write_text("raise ValueError('boom')\n")
    result = run_python(["-m", "tessera", str(script)], cwd=tmp_path)
    assert result.returncode == 1 and "ValueError: boom" in result.stderr
    result = run_python(["-m", "tessera", "--bogus", str(script)], cwd=tmp_path)
    assert result.returncode == 2 and "unknown option --bogus" in result.stderr
    result = run_python(["-m", "tessera", str(tmp_path / "missing.py")], cwd=tmp_path)
    assert result.returncode == 2 and "no such file" in result.stderr
    result = run_python(["-m", "tessera"], cwd=tmp_path)
    assert result.returncode == 2 and "no script given" in result.stderr


def test_triton_interpret_is_refused(tmp_path):
    script = tmp_path / "p.py"
    script.write_text("import triton\n")
    result = run_python(["-m", "tessera", str(script)], cwd=tmp_path, env_extra={"TRITON_INTERPRET": "1"})
    assert result.returncode == 2
    assert "TRITON_INTERPRET is set" in result.stderr and "TESSERA_BACKEND=cpu" in result.stderr


def test_activate_replaces_an_already_imported_triton(tmp_path):
    fake = tmp_path / "fake" / "triton"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("REAL = True\n")
    code = textwrap.dedent(f"""
        import sys, warnings
        sys.path.insert(0, {str(tmp_path / 'fake')!r})
        import triton
        assert triton.REAL
        import tessera
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tessera.activate()
        assert any("already imported" in str(w.message) for w in caught)
        import triton
        print(triton.__name__, hasattr(triton, "REAL"))
        tessera.deactivate()
        assert "triton" not in sys.modules
    """)
    result = run_python(["-c", code], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "tessera.triton False"


def test_unsupported_submodule_is_an_import_error_naming_it():
    import importlib
    with pytest.raises(ModuleNotFoundError) as info:
        importlib.import_module("triton.experimental.gluon")
    assert "triton.experimental" in str(info.value) and "Tessera does not support" in str(info.value)
    # Programs that fall back on ImportError keep working.
    try:
        import triton.profiler  # noqa: F401
        fell_back = False
    except ImportError:
        fell_back = True
    assert fell_back
