"""Record every Triton kernel a program compiles, with its specialization.

Install a `Recorder` before the program compiles its first kernel. It sets
Triton 3.6's `triton.knobs.compilation.listener`, which `triton.compile`
calls for every compilation, cache hit or not, whichever path asked for it:
`JITFunction.run` (Liger-Kernel, FlagGems, user code) and Inductor's
`CachingAutotuner`, which builds its `ASTSource` and calls `triton.compile`
itself. From the `ASTSource` (the JIT function, the signature, the constants
and the attributes) and the compiled options it writes one JSON line per
distinct (kernel, specialization, launch options) with the signature in
Triton's ahead-of-time syntax as `tessera compile --signature` takes it, and
copies the kernel's file and the Python files it imports (other than
`triton` and the standard library) into a corpus folder laid out as a module
search path.
"""

from __future__ import annotations

import ast
import json
import math
import os
import re
import shutil
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Optional

# Packages whose whole tree is never copied: `triton` is the language
# itself, and `torch` is far too large (only the modules kernel files import
# and the folder `torch/_inductor/runtime` travel).
_SKIPPED_TOPS = {"triton", "__main__", "__future__"}
_TORCH_WHOLE_DIRS = ("torch/_inductor/runtime",)

_TENSORDESC_RE = re.compile(r"tensordesc<([^\[>]*)\[([^\]]*)\]")


def _is_stdlib(top: str) -> bool:
    return top in sys.stdlib_module_names or top in sys.builtin_module_names


def _tl_dtype_names() -> dict[str, str]:
    """Maps a Triton dtype's name (`fp16`) to its `triton.language` name."""
    import triton.language as tl

    preferred = [
        "int1", "int8", "int16", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64", "float8e4nv", "float8e4b8", "float8e4b15",
        "float8e5", "float8e5b16", "float16", "bfloat16", "float32",
        "float64", "void",
    ]
    names: dict[str, str] = {}
    for attr in preferred:
        value = getattr(tl, attr, None)
        if isinstance(value, tl.dtype):
            names.setdefault(str(value), attr)
    for attr in dir(tl):
        value = getattr(tl, attr, None)
        if isinstance(value, tl.dtype) and not attr.startswith("_"):
            names.setdefault(str(value), attr)
    return names


class LiteralError(Exception):
    """A constexpr value that has no literal spelling in a signature."""


def format_literal(value: Any, dtype_names: dict[str, str],
                   flags: set[str]) -> str:
    """Spells a constexpr value as a Python literal a signature accepts."""
    import triton.language as tl

    if isinstance(value, tl.constexpr):
        value = value.value
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            flags.add("nonfinite-float-constexpr")
            return "float('nan')"
        if math.isinf(value):
            flags.add("nonfinite-float-constexpr")
            return "float('inf')" if value > 0 else "float('-inf')"
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tl.dtype):
        name = dtype_names.get(str(value))
        if name is None:
            flags.add("unnamed-dtype-constexpr")
            return f"tl.{value}"
        return f"tl.{name}"
    if isinstance(value, (tuple, list)):
        flags.add("tuple-constexpr")
        items = [format_literal(v, dtype_names, flags) for v in value]
        if len(items) == 1:
            return f"({items[0]},)"
        return "(" + ", ".join(items) + ")"
    try:
        import torch

        if isinstance(value, torch.dtype):
            flags.add("torch-dtype-constexpr")
            return repr(value)
    except ImportError:  # pragma: no cover - torch is always there
        pass
    inner = getattr(value, "fn", None)
    if callable(value) or callable(inner):
        flags.add("function-constexpr")
        name = getattr(inner, "__name__", None) or getattr(
            value, "__name__", None)
        if name:
            return name
    flags.add("unrepresentable-constexpr")
    raise LiteralError(f"no literal for {type(value).__name__}: {value!r}")


def _has_divisibility(attr: Any) -> bool:
    if not attr:
        return False
    for item in attr:
        if (isinstance(item, (list, tuple)) and len(item) == 2
                and item[0] == "tt.divisibility" and item[1] == 16):
            return True
    return False


def build_signature(fn: Any, signature: dict[str, Any],
                    constants: dict[tuple, Any], attrs: dict[tuple, Any],
                    dtype_names: dict[str, str]) -> dict[str, Any]:
    """Turns an ASTSource's pieces into Tessera's ahead-of-time signature.

    Returns the signature text, the per-parameter entries, the constexpr
    parameters by name and flags for what a signature cannot express.
    """
    flags: set[str] = set()
    entries: list[str] = []
    params: list[dict[str, Any]] = []
    named: dict[str, str] = {}
    kparams = list(getattr(fn, "params", []))
    names = list(signature.keys())
    for index, name in enumerate(names):
        ty = signature[name]
        is_constexpr = bool(kparams[index].is_constexpr) if index < len(
            kparams) else False
        entry: str
        if isinstance(ty, tuple):
            flags.add("tuple-parameter")
            entry = "(" + ", ".join(str(t) for t in ty) + ")"
        elif ty == "constexpr":
            value = constants.get((index,))
            raw = value.value if hasattr(value, "value") and type(
                value).__name__ == "constexpr" else value
            if (not is_constexpr and isinstance(raw, int)
                    and not isinstance(raw, bool) and raw == 1):
                entry = "i32:1"
            else:
                try:
                    entry = format_literal(value, dtype_names, flags)
                except LiteralError as err:
                    entry = f"<{err}>"
            if is_constexpr:
                named[name] = entry
        elif isinstance(ty, str) and ty.startswith("tensordesc"):
            match = _TENSORDESC_RE.match(ty)
            if match:
                entry = f"tensordesc<{match.group(1)}[{match.group(2)}]>"
                rest = ty[match.end():].strip()
                if rest not in ("", ">"):
                    flags.add("tensordesc-layout")
            else:
                entry = ty
            flags.add("tensor-descriptor-parameter")
        else:
            entry = str(ty)
            if _has_divisibility(attrs.get((index,))):
                entry += ":16"
        entries.append(entry)
        params.append({
            "name": name,
            "triton_type": ty if isinstance(ty, str) else list(ty),
            "constexpr_param": is_constexpr,
            "entry": entry,
        })
    # Constants deeper than one level (inside tuples) are noted only.
    if any(len(path) > 1 for path in constants):
        flags.add("nested-constants")
    return {
        "signature": ",".join(entries),
        "params": params,
        "constexprs": named,
        "flags": sorted(flags),
    }


class Recorder:
    """The compilation listener and the corpus writer."""

    def __init__(self, out_dir: Path, project: str,
                 generated_roots: Optional[dict[str, Path]] = None,
                 search_roots: Optional[list[Path]] = None) -> None:
        self.out_dir = Path(out_dir)
        self.corpus = self.out_dir / "corpus"
        self.project = project
        self.case = ""
        self.generated_roots = {
            tag: Path(p).resolve()
            for tag, p in (generated_roots or {}).items()
        }
        roots = [Path(p) for p in (search_roots or [])]
        import site

        roots += [Path(p) for p in site.getsitepackages()]
        roots += [Path(p) for p in os.environ.get("PYTHONPATH", "").split(
            os.pathsep) if p]
        self.search_roots = sorted(
            {r.resolve() for r in roots if r.is_dir()},
            key=lambda r: len(str(r)), reverse=True)
        self.lock = threading.RLock()
        self.seen: set[tuple] = set()
        self.copied: set[str] = set()
        self.scanned: set[str] = set()
        self.whole_packages: set[str] = set()
        self.dtype_names = _tl_dtype_names()
        self.manifest_path = (self.out_dir /
                              f"manifest-{project}-{os.getpid()}.jsonl")
        self.count = 0
        self.compiles = 0
        self.previous: Optional[Callable[..., Any]] = None

    # -- installation -------------------------------------------------------
    def install(self) -> None:
        from triton import knobs

        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.corpus.mkdir(parents=True, exist_ok=True)
        self.previous = knobs.compilation.listener
        knobs.compilation.listener = self._listener

    def set_case(self, case: str) -> None:
        self.case = case

    # -- the listener --------------------------------------------------------
    def _listener(self, *, src: Any, metadata: dict[str, Any],
                  metadata_group: Any, times: Any, cache_hit: bool) -> None:
        try:
            with self.lock:
                self.compiles += 1
                self._record(src, metadata, cache_hit)
        except Exception:  # never break the program being measured
            self._write({"kind": "capture-error", "project": self.project,
                         "case": self.case,
                         "error": traceback.format_exc(limit=4)})
        if self.previous is not None:
            self.previous(src=src, metadata=metadata,
                          metadata_group=metadata_group, times=times,
                          cache_hit=cache_hit)

    def _write(self, record: dict[str, Any]) -> None:
        with self.lock:
            with open(self.manifest_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(record, default=str) + "\n")

    def _record(self, src: Any, metadata: dict[str, Any],
                cache_hit: bool) -> None:
        fn = getattr(src, "fn", None)
        if fn is None:  # an IR file, not a kernel
            return
        pyfn = getattr(fn, "fn", fn)
        code = getattr(pyfn, "__code__", None)
        orig_file = code.co_filename if code is not None else "<unknown>"
        qualname = getattr(pyfn, "__qualname__", getattr(src, "name", "?"))
        sig = build_signature(fn, dict(src.signature), dict(src.constants),
                              dict(src.attrs), self.dtype_names)
        num_warps = int(metadata.get("num_warps", 4))
        num_stages = int(metadata.get("num_stages", 3))
        num_ctas = int(metadata.get("num_ctas", 1))
        maxnreg = metadata.get("maxnreg")
        key = (orig_file, qualname, sig["signature"], num_warps, num_stages,
               num_ctas, maxnreg)
        if key in self.seen:
            return
        self.seen.add(key)
        rel = self._place_kernel_file(orig_file, fn)
        target = metadata.get("target")
        record = {
            "kind": "kernel",
            "project": self.project,
            "case": self.case,
            "module": getattr(pyfn, "__module__", None),
            "qualname": qualname,
            "name": getattr(src, "name", getattr(pyfn, "__name__", "?")),
            "file": rel,
            "orig_file": orig_file,
            "line": code.co_firstlineno if code is not None else None,
            "signature": sig["signature"],
            "params": sig["params"],
            "constexprs": sig["constexprs"],
            "flags": sig["flags"],
            "num_warps": num_warps,
            "num_stages": num_stages,
            "num_ctas": num_ctas,
            "maxnreg": maxnreg,
            "target": str(getattr(target, "arch", target)),
            "triton_hash": metadata.get("hash"),
            "cache_hit": cache_hit,
            "time": time.time(),
        }
        self.count += 1
        self._write(record)

    # -- the corpus -----------------------------------------------------------
    def _root_of(self, path: Path) -> Optional[tuple[str, Path]]:
        """(prefix in the corpus, root) of a file: generated or installed."""
        for tag, root in self.generated_roots.items():
            if path.is_relative_to(root):
                if tag == "inductor":
                    # Inductor names a kernel file by its content's hash
                    # under a temporary folder per compilation when its
                    # caches are off: keep `<2 chars>/<hash>.py` alone.
                    return f"_generated/{tag}", path.parent.parent
                return f"_generated/{tag}", root
        for root in self.search_roots:
            if path.is_relative_to(root):
                return "", root
        return None

    def _place_kernel_file(self, orig_file: str, fn: Any) -> str:
        path = Path(orig_file)
        if not path.is_file():
            # No file (exec'd source): keep the function's own text.
            name = f"_nofile/{self.project}/{getattr(fn, '__name__', 'k')}"
            rel = f"{name}_{abs(hash(orig_file)) % 10**8}.py"
            self._write_text(rel, getattr(fn, "src", ""))
            return rel
        path = path.resolve()
        placed = self._root_of(path)
        if placed is None:
            rel = "_other" + str(path)
        else:
            prefix, root = placed
            inner = path.relative_to(root).as_posix()
            rel = f"{prefix}/{inner}" if prefix else inner
            if not prefix:
                self._copy_init_chain(root, path)
                top = inner.split("/")[0]
                if "/" in inner and top != "torch":
                    self._copy_package(root, top)
        self._copy_file(path, rel)
        self._scan_imports(path, rel)
        return rel

    def _write_text(self, rel: str, text: str) -> None:
        if rel in self.copied:
            return
        self.copied.add(rel)
        dst = self.corpus / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = dst.with_name(dst.name + f".tmp{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, dst)

    def _copy_file(self, src: Path, rel: str) -> None:
        if rel in self.copied:
            return
        self.copied.add(rel)
        dst = self.corpus / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = dst.with_name(dst.name + f".tmp{os.getpid()}")
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)

    def _copy_init_chain(self, root: Path, path: Path) -> None:
        folder = path.parent
        while folder != root and folder.is_relative_to(root):
            init = folder / "__init__.py"
            if init.is_file():
                self._copy_file(init, init.relative_to(root).as_posix())
            folder = folder.parent

    def _copy_tree(self, root: Path, folder: Path) -> None:
        for py in sorted(folder.rglob("*.py")):
            if "__pycache__" in py.parts:
                continue
            self._copy_file(py, py.relative_to(root).as_posix())

    def _copy_package(self, root: Path, top: str) -> None:
        if top in self.whole_packages or top in _SKIPPED_TOPS:
            return
        self.whole_packages.add(top)
        folder = root / top
        if folder.is_dir():
            self._copy_tree(root, folder)

    def _module_file(self, name: str) -> Optional[Path]:
        module = sys.modules.get(name)
        file = getattr(module, "__file__", None) if module else None
        if file is None:
            try:
                import importlib.util

                spec = importlib.util.find_spec(name)
            except Exception:
                return None
            file = spec.origin if spec is not None else None
        if not file or not file.endswith(".py"):
            return None
        return Path(file).resolve()

    def _scan_imports(self, path: Path, rel: str) -> None:
        """Copies what a kernel file imports, other than triton and stdlib."""
        if rel in self.scanned:
            return
        self.scanned.add(rel)
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, OSError):
            return
        parts = rel.split("/")
        package = parts[:-1] if parts[-1] == "__init__.py" else parts[:-1]
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    if rel.startswith("_"):
                        continue  # a generated file has no package
                    base = package[:len(package) - (node.level - 1)]
                    module = ".".join(base + ([node.module]
                                              if node.module else []))
                else:
                    module = node.module or ""
                if not module:
                    continue
                names.add(module)
                for alias in node.names:
                    names.add(f"{module}.{alias.name}")
        for name in sorted(names):
            top = name.split(".")[0]
            if top in _SKIPPED_TOPS or _is_stdlib(top):
                continue
            # `from a.b import f` names a.b.f, which is no module: only ask
            # for modules that exist.
            if name not in sys.modules and "." in name:
                parent = sys.modules.get(name.rsplit(".", 1)[0])
                if parent is not None and not hasattr(parent, "__path__"):
                    continue
            file = self._module_file(name)
            if file is None:
                continue
            placed = self._root_of(file)
            if placed is None or placed[0]:
                continue
            root = placed[1]
            inner = file.relative_to(root).as_posix()
            self._copy_init_chain(root, file)
            self._copy_file(file, inner)
            if top == "torch":
                for whole in _TORCH_WHOLE_DIRS:
                    if inner.startswith(whole + "/"):
                        if whole not in self.whole_packages:
                            self.whole_packages.add(whole)
                            self._copy_tree(root, root / whole)
                            self._copy_init_chain(root,
                                                  root / whole / "__init__.py")
            else:
                self._copy_package(root, top)


def summary(recorder: Recorder) -> str:
    return (f"{recorder.project}: {recorder.count} specializations recorded "
            f"from {recorder.compiles} compilations; "
            f"{len(recorder.copied)} files in the corpus")
