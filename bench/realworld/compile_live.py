"""Compile captured library kernels through Tessera's Python package.

    # here: the jobs and FlagGems' generated modules, for the GPU host
    python3 bench/realworld/compile_live.py pack --root .realworld \
        --projects flaggems,liger --out DIR
    # on the GPU host (torch, the libraries' wheels, Tessera's package):
    python3 bench/realworld/compile_live.py run --pack DIR \
        --backends cpu,nvptx,amdgpu --procs 16 --timeout 60 --out RESULTS
    # here: the report, with the file-based results of the other projects
    python3 bench/realworld/compile_corpus.py --report-only \
        --results .realworld/compile-results.jsonl --results RESULTS ...

`compile_corpus.py` compiles each captured specialization from the kernel
file (`tessera compile`): the frontend evaluates the module-level code of
the kernel's modules itself. Libraries such as FlagGems compute module
globals by running Python at import time (a device-detecting singleton
picks `tl_extra_shim`, the libdevice module its kernels call), which a
file-based evaluator cannot run. Their users run them from Python, where
Tessera's package reads the live module globals. This driver compiles the
same specializations that way: under `tessera.activate()`, it imports the
library (`import flag_gems`, `liger_kernel.ops.*`; FlagGems' generated
modules from their captured files), finds the `@triton.jit` function by
qualified name (looking through `@triton.autotune`, `@triton.heuristics`
and the libraries' wrappers, which hold it in `.fn`), and compiles it with
`triton.compile(ASTSource(fn, SIGNATURE), target=GPUTarget(...))` for the
captured signature and launch options: `cpu`, `nvptx` sm_90a (ptxas),
`amdgpu` gfx942. The results have `compile_corpus.py`'s format.

Worker processes take the jobs round-robin; one whose compile runs past
--timeout is killed, the job recorded as a timeout and a new worker goes on
after it.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compile_corpus import first_error, ordered, spec_id  # noqa: E402

TARGETS = {"cpu": ("cpu", "", 1), "nvptx": ("cuda", 90, 32), "amdgpu": ("hip", "gfx942", 64)}
FIELDS = ("project", "module", "qualname", "name", "file", "signature", "num_warps",
          "num_stages", "num_ctas", "maxnreg")


def pack(args: argparse.Namespace) -> int:
    projects = set(args.projects.split(","))
    records = [json.loads(ln) for ln in (args.root / "manifest.jsonl").read_text().splitlines()
               if ln.strip()]
    records = [r for r in records if r.get("kind") == "kernel" and r["project"] in projects]
    args.out.mkdir(parents=True, exist_ok=True)
    with lzma.open(args.out / "jobs.jsonl.xz", "wt", encoding="utf-8") as f:
        for r in ordered(records):
            job = {k: r.get(k) for k in FIELDS}
            job["id"] = spec_id(r)
            f.write(json.dumps(job) + "\n")
    generated = sorted({r["file"] for r in records if r["file"].startswith("_generated/")})
    with tarfile.open(args.out / "generated.tar.xz", "w:xz") as tar:
        for name in generated:
            tar.add(args.root / "corpus" / name, arcname=name)
    print(f"{len(records)} specializations, {len(generated)} generated files -> {args.out}")
    return 0


# Worker ----------------------------------------------------------------------


class Loader:
    """Finds each job's jit function in the live modules."""

    def __init__(self, generated: Path) -> None:
        self.generated = generated
        self.files: Dict[str, Any] = {}
        self.pointwise: Optional[Dict[str, Any]] = None

    def complete(self, job: Dict[str, Any], module: Any) -> None:
        """As FlagGems loads a pointwise_dynamic module: the scalar
        function's globals and the function itself are copied into it (the
        generated kernel calls the function by name, and the function reads
        its own module's globals, e.g. `exp = tl_extra_shim.exp`). The
        module's name holds Triton's cache key of the function, which
        Tessera's differs from: the function is found by the name in the
        file's name and by its source, which the file repeats."""
        m = re.match(r"pointwise_dynamic_[0-9a-f]{64}_(\w+)_kernel_rank_\d+",
                     Path(job["file"]).name)
        if not m:
            return
        if self.pointwise is None:
            self.pointwise = {}
            for mod in list(sys.modules.values()):
                if not getattr(mod, "__name__", "").startswith("flag_gems"):
                    continue
                for value in list(vars(mod).values()):
                    fn = getattr(value, "_scalar_fn", None)
                    if fn is not None and hasattr(value, "_scalar_fn_cache_key"):
                        self.pointwise.setdefault(fn.__name__, []).append(fn)
        text = (self.generated / job["file"]).read_text()
        for fn in self.pointwise.get(m.group(1), []):
            try:
                lines = inspect.getsource(getattr(fn, "fn", fn)).splitlines()
            except (OSError, TypeError):
                continue
            # The body: what follows the `def` line (decorators differ).
            defs = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("def ")]
            body = "\n".join(lines[defs[0] + 1:]) if defs else ""
            if body.strip() and body.strip() in text:
                module.__dict__.update(fn.__globals__)
                module.__dict__[fn.__name__] = fn
                return

    def module(self, job: Dict[str, Any]) -> Any:
        if job["file"].startswith("_generated/"):
            # Generated modules share names across files: one per file.
            if job["file"] not in self.files:
                path = self.generated / job["file"]
                spec = importlib.util.spec_from_file_location(job["module"], path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                self.complete(job, module)
                self.files[job["file"]] = module
            return self.files[job["file"]]
        if job["module"] in sys.modules:
            return sys.modules[job["module"]]
        return importlib.import_module(job["module"])

    def kernel(self, job: Dict[str, Any]) -> Any:
        obj = self.module(job)
        for part in job["qualname"].split("."):
            obj = getattr(obj, part)
        from triton.runtime.jit import JITFunction
        seen = 0
        while not isinstance(obj, JITFunction):
            inner = getattr(obj, "fn", None)
            seen += 1
            if inner is None or inner is obj or seen > 8:
                raise TypeError(f"{job['qualname']} is a {type(obj).__name__} that holds no "
                                "@triton.jit function")
            obj = inner
        return obj


def worker(args: argparse.Namespace) -> int:
    warnings.simplefilter("ignore")
    os.environ.setdefault("GEMS_VENDOR", "nvidia")
    import tessera
    tessera.activate()
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    projects = set(args.projects.split(",")) if args.projects else set()
    if "flaggems" in projects:
        import flag_gems  # noqa: F401  (imports the arch modules, e.g. hopper.ops.*)
    loader = Loader(args.pack / "generated")
    binary = f"live:{tessera.version()}"
    jobs = [json.loads(ln) for ln in Path(args.shard).read_text().splitlines() if ln.strip()]
    out = open(args.out, "a", encoding="utf-8")
    for index in range(args.start, len(jobs)):
        job = jobs[index]
        out.write(json.dumps({"start": index}) + "\n")
        out.flush()
        backend = job["backend"]
        result: Dict[str, Any] = {"id": job["id"], "backend": backend, "project": job["project"],
                                  "binary": binary, "index": index}
        t0 = time.time()
        try:
            fn = loader.kernel(job)
        except Exception as e:  # the library's own import or lookup
            result.update(status="fail", error=f"live import: {type(e).__name__}: {e}"[:300])
        else:
            options = {"num_warps": job["num_warps"], "num_stages": job["num_stages"],
                       "num_ctas": job.get("num_ctas") or 1}
            if job.get("maxnreg"):
                options["maxnreg"] = job["maxnreg"]
            try:
                triton.compile(ASTSource(fn, job["signature"]), target=GPUTarget(*TARGETS[backend]),
                               options=options)
                result["status"] = "ok"
            except Exception as e:
                text = str(e)
                result.update(status="fail", error=first_error(text, str(args.pack / "generated"))
                              or f"{type(e).__name__}: {text}"[:300], stderr=text[:4000])
        result["seconds"] = round(time.time() - t0, 2)
        out.write(json.dumps(result) + "\n")
        out.flush()
    return 0


# Parent ----------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    generated = args.pack / "generated"
    if not generated.exists():
        with tarfile.open(args.pack / "generated.tar.xz") as tar:
            tar.extractall(generated)
    with lzma.open(args.pack / "jobs.jsonl.xz", "rt", encoding="utf-8") as f:
        jobs = [json.loads(ln) for ln in f if ln.strip()]
    if args.limit:
        jobs = jobs[:args.limit]  # round-robin order: every kernel first
    backends = [b for b in args.backends.split(",") if b]
    work = [dict(job, backend=b) for job in jobs for b in backends]
    projects = ",".join(sorted({j["project"] for j in jobs}))
    tmp = args.out.parent / (args.out.name + ".shards")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    shards = []
    for i in range(args.procs):
        shard = tmp / f"shard{i}.jsonl"
        shard.write_text("".join(json.dumps(w) + "\n" for w in work[i::args.procs]))
        shards.append({"shard": shard, "log": tmp / f"shard{i}.out", "proc": None, "start": 0,
                       "count": len(work[i::args.procs]), "since": time.time(), "seen": 0})
    deadline = time.time() + args.budget if args.budget else None

    def launch(s: Dict[str, Any]) -> None:
        cmd = [sys.executable, __file__, "worker", "--pack", str(args.pack), "--shard",
               str(s["shard"]), "--out", str(s["log"]), "--start", str(s["start"]),
               "--projects", projects]
        s["proc"] = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                     stderr=open(str(s["log"]) + ".err", "a"))
        s["since"] = time.time()

    for s in shards:
        if s["count"]:
            launch(s)
    stuck: List[Dict[str, Any]] = []

    def record_stuck(s: Dict[str, Any], index: int, status: str, error: str) -> None:
        """Records the job a worker died or hung in; a new worker goes on
        after it."""
        job = json.loads(s["shard"].read_text().splitlines()[index])
        stuck.append({"id": job["id"], "backend": job["backend"], "project": job["project"],
                      "status": status, "error": error})
        s["start"] = index + 1
        if s["start"] < s["count"]:
            launch(s)

    while any(s["proc"] is not None for s in shards):
        time.sleep(1)
        for s in shards:
            if s["proc"] is None:
                continue
            lines = s["log"].read_text().splitlines() if s["log"].exists() else []
            if len(lines) != s["seen"]:
                s["seen"], s["since"] = len(lines), time.time()
            last = json.loads(lines[-1]) if lines else None
            code = s["proc"].poll()
            if code is not None:
                s["proc"] = None
                if last is not None and "start" in last:
                    # Died inside a compile: a crash; go on after it.
                    record_stuck(s, last["start"], "crash", f"crash (exit {code}) in the worker")
                elif code != 0:
                    # Died outside a compile (an import of the library):
                    # the rest of the shard fails with its error.
                    err = Path(str(s["log"]) + ".err").read_text().strip().splitlines()
                    why = err[-1] if err else f"exit {code}"
                    rest = last["index"] + 1 if last is not None else s["start"]
                    for line in s["shard"].read_text().splitlines()[rest:]:
                        job = json.loads(line)
                        stuck.append({"id": job["id"], "backend": job["backend"],
                                      "project": job["project"], "status": "fail",
                                      "error": f"live import: worker failed: {why}"[:300]})
                continue
            if last is not None and "start" in last and time.time() - s["since"] > args.timeout:
                s["proc"].kill()
                s["proc"].wait()
                s["proc"] = None
                record_stuck(s, last["start"], "timeout", f"timeout after {args.timeout} s")
            if deadline and time.time() > deadline and s["proc"] is not None:
                s["proc"].kill()
                s["proc"].wait()
                s["proc"] = None
    with open(args.out, "w", encoding="utf-8") as f:
        for s in shards:
            if s["log"].exists():
                for ln in s["log"].read_text().splitlines():
                    x = json.loads(ln)
                    if "status" in x:
                        f.write(json.dumps(x) + "\n")
        for x in stuck:
            f.write(json.dumps(x) + "\n")
    done = sum(1 for _ in open(args.out))
    print(f"{done} of {len(work)} compiles recorded in {args.out}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack")
    p.add_argument("--root", type=Path, default=Path(".realworld"))
    p.add_argument("--projects", default="flaggems,liger")
    p.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run")
    r.add_argument("--pack", type=Path, required=True)
    r.add_argument("--backends", default="cpu,nvptx,amdgpu")
    r.add_argument("--procs", type=int, default=os.cpu_count() or 2)
    r.add_argument("--timeout", type=int, default=60)
    r.add_argument("--budget", type=int, default=0,
                   help="stop starting compiles after this many seconds (0: none)")
    r.add_argument("--limit", type=int, default=0, help="only the first N specializations")
    r.add_argument("--out", type=Path, required=True)
    w = sub.add_parser("worker")
    w.add_argument("--pack", type=Path, required=True)
    w.add_argument("--shard", required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--start", type=int, default=0)
    w.add_argument("--projects", default="")
    args = parser.parse_args()
    return {"pack": pack, "run": run, "worker": worker}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
