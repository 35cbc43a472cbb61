"""``python -m tessera [options] SCRIPT.py [args]``: run a Triton program on Tessera.

The script runs as ``__main__`` with ``sys.argv = [SCRIPT.py, args...]`` and
its folder first on ``sys.path``, exactly as ``python SCRIPT.py`` would run
it, except that ``import triton`` resolves to Tessera. ``-m MODULE`` runs a
module instead (``python -m tessera -m pytest tests/``). The options are the
CLI's, and each sets the environment variable the CLI reads, so the
program's subprocesses inherit them.
"""
from __future__ import annotations

import os
import runpy
import sys
from typing import List, NoReturn, Optional

USAGE = """usage: python -m tessera [options] SCRIPT.py [args...]
       python -m tessera [options] -m MODULE [args...]
       python -m tessera --version | --plugins

Runs a Triton program with `import triton` resolved to Tessera.

options (each also an environment variable):
  --backend NAME      cpu, nvptx, amdgpu, ... or auto          TESSERA_BACKEND
  --device N          device index                             TESSERA_DEVICE
  --arch ARCH         target architecture (sm_90a, gfx942, ...) TESSERA_ARCH
  --plugin PATH       plugin file or folder (repeatable)       TESSERA_PLUGIN_PATH
  --cache-dir DIR     compiled-kernel and tuning cache         TESSERA_CACHE_DIR
  --no-cache          do not read or write the disk cache      TESSERA_DISABLE_CACHE
  --dump-ir-after S   dump the IR after stage S                TESSERA_DUMP_IR_AFTER
  --dump-dir DIR      where dumps go                           TESSERA_DUMP_DIR
  --log-level LEVEL   trace, debug, info, warn, error          TESSERA_LOG_LEVEL
  -h, --help          this text
"""

_VALUED = {
    "--backend": "TESSERA_BACKEND", "--device": "TESSERA_DEVICE", "--arch": "TESSERA_ARCH",
    "--cache-dir": "TESSERA_CACHE_DIR", "--dump-ir-after": "TESSERA_DUMP_IR_AFTER",
    "--dump-dir": "TESSERA_DUMP_DIR", "--log-level": "TESSERA_LOG_LEVEL",
}


def _fail(message: str) -> NoReturn:
    sys.stderr.write(f"python -m tessera: {message}\n{USAGE}")
    raise SystemExit(2)


def _print_plugins() -> None:
    from tessera import _binding
    from tessera import _session
    for plugin in _binding.load().plugins(_session.Settings.from_environment().plugin_paths):
        if "name" not in plugin:
            print(f"{plugin.get('path', '?')}: not loaded: {plugin.get('error', '')}")
            continue
        print(f"{plugin['name']} {plugin.get('version', '')}  {plugin.get('path', '')}")
        if plugin.get("error"):
            print(f"  error: {plugin['error']}")
        if plugin.get("architectures"):
            print(f"  architectures: {', '.join(plugin['architectures'])}")
        for device in plugin.get("devices") or []:
            label = device.get("name") or device.get("error", "")
            print(f"  device {device.get('index', '?')}: {label} {device.get('arch', '')}")
        if plugin.get("unavailable_reason"):
            print(f"  no device: {plugin['unavailable_reason']}")


def main(argv: Optional[List[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    plugins: List[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-h", "--help"):
            sys.stdout.write(USAGE)
            return 0
        if arg == "--version":
            from tessera import _binding
            c = _binding.load()
            print(f"tessera {c.__version__} (Triton {c.triton_version})")
            return 0
        if arg == "--plugins":
            _print_plugins()
            return 0
        if arg == "--no-cache":
            os.environ["TESSERA_DISABLE_CACHE"] = "1"
            i += 1
            continue
        name, eq, value = arg.partition("=")
        if name in _VALUED or name == "--plugin":
            if not eq:
                if i + 1 >= len(args):
                    _fail(f"{name} needs a value")
                value = args[i + 1]
                i += 1
            if name == "--plugin":
                plugins.append(value)
            else:
                os.environ[_VALUED[name]] = value
            i += 1
            continue
        if arg == "-m":
            if i + 1 >= len(args):
                _fail("-m needs a module name")
            return _run(module=args[i + 1], rest=args[i + 2:], plugins=plugins)
        if arg.startswith("-"):
            _fail(f"unknown option {arg}")
        return _run(script=arg, rest=args[i + 1:], plugins=plugins)
    _fail("no script given")


def _run(rest: List[str], plugins: List[str], script: Optional[str] = None,
         module: Optional[str] = None) -> int:
    if plugins:
        existing = os.environ.get("TESSERA_PLUGIN_PATH")
        os.environ["TESSERA_PLUGIN_PATH"] = os.pathsep.join(plugins + ([existing] if existing else []))
    from tessera import _activate
    try:
        _activate.activate()
    except RuntimeError as e:
        sys.stderr.write(f"python -m tessera: {e}\n")
        return 2
    if module is not None:
        sys.argv = [module] + rest
        if not sys.path or sys.path[0] not in ("", os.getcwd()):
            sys.path.insert(0, os.getcwd())
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    assert script is not None
    if not os.path.exists(script):
        _fail(f"can't open file '{script}': no such file")
    sys.argv = [script] + rest
    # `python SCRIPT.py` puts the script's folder first on sys.path where
    # `python -m` put the working directory.
    folder = os.path.dirname(os.path.abspath(script))
    if sys.path and sys.path[0] in ("", os.getcwd()):
        sys.path[0] = folder
    else:
        sys.path.insert(0, folder)
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
