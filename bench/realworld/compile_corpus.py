"""Compile every captured real-world specialization with Tessera and report.

    python3 bench/realworld/compile_corpus.py [--root .realworld]
        [--tessera build/bin/tessera] [--backends cpu,nvptx,amdgpu]
        [--jobs 2] [--timeout 120] [--report bench/results/DATE-...md]
        [--report-only] [--fresh]

For each specialization of ROOT/manifest.jsonl (see import_capture.py) and
each backend it runs, compile-only,

    tessera compile ROOT/corpus/FILE --kernel NAME --signature SIG
        --num-warps N --num-stages S [--num-ctas C] [--maxnreg R]
        --backend B [--arch A] --emit bin -o TMP [--module-path ROOT/corpus]

(`cpu`; `nvptx --arch sm_90a`, PTX assembled by ptxas through the plugin;
`amdgpu --arch gfx942`), with ROOT/corpus also in TESSERA_MODULE_PATH and
PYTHONPATH and the kernel cache off, in at most --jobs processes, each
killed after --timeout seconds. Results go to ROOT/compile-results.jsonl as
they come (a rerun with the same binary skips what is there; --fresh starts
over); the report counts them per project and backend, classifies the
failures by the compiler's first error line and gives one short example
message per category (the compiler's message only, never kernel code).
Specializations are taken round-robin over kernels, so an interrupted run
still covers every kernel.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Optional

REPO = Path(__file__).resolve().parents[2]

BACKENDS = {
    "cpu": [],
    "nvptx": ["--arch", "sm_90a"],
    "amdgpu": ["--arch", "gfx942"],
}

# (category, pattern over the first error line), first match wins. The
# order puts the specific reasons before the generic ones.
CATEGORIES: list[tuple[str, str]] = [
    ("timeout", r"^timeout"),
    ("compiler crash (signal)", r"^crash"),
    ("signature not expressible (tuple or unnamed constexpr)",
     r"tuple|<no literal|cannot parse '\(|unrepresentable"),
    ("tensor descriptor parameter",
     r"descriptor|tensordesc|cannot be passed to a .* launch"),
    ("target resource limit (shared memory, registers)",
     r"bytes of shared memory|registers? (limit|budget)|too many registers"),
    ("target launch limit (num_warps over the threads of a program)",
     r"num_warps must be"),
    ("per-thread element limit of a block",
     r"elements in each thread"),
    ("math function the target's library lacks",
     r"is called but neither the kernel nor|no math function|"
     r"no ocml function"),
    ("atomics whose returned old value is used",
     r"atomics whose old values are used"),
    ("tl.sort/flip/topk/gather",
     r"\b(sort|flip|topk|gather|argsort)\b"),
    ("helper imported from another module",
     r"is not supported in device code|imported|module '[^']*' has no|"
     r"cannot resolve module|no module named|not a @?triton\.jit"),
    ("wrapper decorator", r"decorator"),
    ("module global a function rebinds at run time (`global` statement)",
     r"cannot know the value of global"),
    ("module-level host code",
     r"module level|module-level|at module scope|host code|"
     r"cannot evaluate|is unknown|unknown name|undefined name"),
    ("unsupported tl builtin or attribute",
     r"'tl\.[A-Za-z_.]+'|unknown attribute|has no attribute|"
     r"unsupported (builtin|function|call)"),
    ("constexpr / specialization mismatch",
     r"constexpr|signature|parameter '[^']*'"),
    ("type or shape error", r"type|shape|broadcast|rank"),
    ("lowering / legalization failure",
     r"legaliz|failed to (lower|convert)|lowering|pass"),
    ("ptxas or assembler rejection", r"ptxas|assembl|lld|hsaco"),
]


LANGUAGE_PIECES = {"sort", "flip", "topk", "gather", "argsort",
                   "sort_impl", "_sort"}


def classify(message: str) -> str:
    m = re.match(r"'([^']*)' is not supported in device code", message)
    if m:
        name = m.group(1)
        if name.rsplit(".", 1)[-1] in LANGUAGE_PIECES:
            return "tl.sort/flip/topk/gather"
        if re.search(r"(^|\.)(libdevice|math|tl_math|tl_extra_shim)\.",
                     name):
            return "libdevice/tl.math re-exported through another module"
        if name.startswith(("tl.", "triton.")):
            return "unsupported language builtin"
        return "helper imported from another module"
    if re.match(r"cannot evaluate call to '[^']*' at compile time",
                message):
        return ("module-level host code (host function called, e.g. "
                "autotune configs computed by the library)")
    if message.startswith("cannot call host function"):
        return ("host function called from device code (@tl.constexpr or "
                "constexpr_function helper)")
    for name, pattern in CATEGORIES:
        if re.search(pattern, message, re.IGNORECASE):
            return name
    return "other: " + head(message)


def head(message: str, words: int = 6) -> str:
    """The message's first words with quoted names and numbers blanked."""
    text = re.sub(r"'[^']*'", "'…'", message)
    text = re.sub(r"\b\d+\b", "N", text)
    return " ".join(text.split()[:words])


def first_error(stderr: str, corpus: str) -> str:
    """The compiler's first error message, without location or code."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    chosen = ""
    for ln in lines:  # `FILE:LINE:COL: error: message`
        m = re.search(r":\d+:\d+: error: (.*)", ln)
        if m:
            chosen = m.group(1)
            break
    if not chosen:
        for ln in lines:
            m = re.search(r"error: (.*)", ln)
            if m and not re.search(r": (remark|warning|note): ", m.group(1)):
                chosen = m.group(1)
                break
    if not chosen:
        for ln in lines:
            if not re.search(r"(remark|warning|note):", ln):
                chosen = ln
                break
    return chosen.replace(corpus + "/", "")[:300]


def spec_id(r: dict[str, Any]) -> str:
    key = json.dumps([r["project"], r["file"], r["qualname"], r["signature"],
                      r["num_warps"], r["num_stages"], r["num_ctas"],
                      r.get("maxnreg")])
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def binary_id(tessera: Path) -> str:
    st = tessera.stat()
    return f"{tessera.resolve()}:{st.st_size}:{int(st.st_mtime)}"


def ordered(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Round-robin over kernels: every kernel's first specialization, then
    every kernel's second, ..."""
    groups: dict[tuple, list[dict[str, Any]]] = collections.OrderedDict()
    for r in records:
        groups.setdefault((r["project"], r["file"], r["qualname"]),
                          []).append(r)
    out: list[dict[str, Any]] = []
    depth = max((len(g) for g in groups.values()), default=0)
    for i in range(depth):
        for g in groups.values():
            if i < len(g):
                out.append(g[i])
    return out


SLOW_TEMPLATES = re.compile(r"^triton_(mm|bmm|grouped_mm|scaled_mm|"
                            r"convolution|tem_)")


def is_slow(r: dict[str, Any], backend: str) -> bool:
    return (backend == "nvptx" and r["project"] == "inductor"
            and bool(SLOW_TEMPLATES.match(r["qualname"])))


def schedule(records: list[dict[str, Any]], backends: list[str],
             have: set[tuple]) -> list[tuple[dict[str, Any], str]]:
    """The compiles still to run, in an order that leaves a balanced
    sample if the run is cut short: every kernel's first specialization
    on every backend, then one in twelve of the matmul templates on nvptx
    (which take minutes each), then the other specializations round-robin
    over kernels, then the remaining nvptx templates."""
    seen: collections.Counter = collections.Counter()
    tiers: list[tuple[int, int, dict[str, Any], str]] = []
    slow_index = 0
    for index, r in enumerate(ordered(records)):
        k = (r["project"], r["file"], r["qualname"])
        depth = seen[k]
        seen[k] += 1
        for b in backends:
            if (spec_id(r), b) in have:
                continue
            if is_slow(r, b):
                tier = 1 if slow_index % 12 == 0 else 3
                slow_index += 1
            else:
                tier = 0 if depth == 0 else 2
            tiers.append((tier, index, r, b))
    tiers.sort(key=lambda t: (t[0], t[1]))
    return [(r, b) for _, _, r, b in tiers]


class Runner:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.root = args.root.resolve()
        self.corpus = str(self.root / "corpus")
        self.tessera = args.tessera.resolve()
        self.binary = binary_id(self.tessera)
        help_text = subprocess.run(
            [str(self.tessera), "compile", "--help"], capture_output=True,
            text=True).stdout
        self.has_module_path = "--module-path" in help_text
        self.lock = threading.Lock()
        self.results_path = self.root / "compile-results.jsonl"
        self.tmp = tempfile.mkdtemp(prefix="rw-compile-")
        self.done = 0

    def command(self, r: dict[str, Any], backend: str, out: str) -> list[str]:
        cmd = [str(self.tessera), "compile", f"{self.corpus}/{r['file']}",
               "--kernel", r["name"], "--signature", r["signature"],
               "--num-warps", str(r["num_warps"]),
               "--num-stages", str(r["num_stages"])]
        if r.get("num_ctas", 1) != 1:
            cmd += ["--num-ctas", str(r["num_ctas"])]
        if r.get("maxnreg"):
            cmd += ["--maxnreg", str(r["maxnreg"])]
        cmd += ["--backend", backend, *BACKENDS[backend], "--emit", "bin",
                "-o", out]
        if self.has_module_path:
            cmd += ["--module-path", self.corpus]
        return cmd

    def compile_one(self, r: dict[str, Any], backend: str) -> dict[str, Any]:
        out = os.path.join(self.tmp, f"{spec_id(r)}-{backend}.tkb")
        env = dict(os.environ, TESSERA_MODULE_PATH=self.corpus,
                   PYTHONPATH=self.corpus, TESSERA_DISABLE_CACHE="1")
        t0 = time.time()
        result: dict[str, Any] = {"id": spec_id(r), "backend": backend,
                                  "project": r["project"],
                                  "binary": self.binary}
        try:
            p = subprocess.run(self.command(r, backend, out),
                               capture_output=True, text=True, env=env,
                               timeout=self.args.timeout, cwd=self.tmp)
            if p.returncode == 0:
                result["status"] = "ok"
            elif p.returncode < 0:
                result["status"] = "crash"
                result["error"] = (f"crash (signal {-p.returncode}): " +
                                   first_error(p.stderr, self.corpus))
            else:
                result["status"] = "fail"
                result["error"] = first_error(p.stderr, self.corpus)
            if p.returncode != 0:
                # Kept (git-ignored) to reclassify without recompiling.
                result["stderr"] = p.stderr[:4000]
        except subprocess.TimeoutExpired:
            result["status"] = "timeout"
            result["error"] = f"timeout after {self.args.timeout} s"
        result["seconds"] = round(time.time() - t0, 2)
        try:
            os.unlink(out)
        except OSError:
            pass
        return result

    def record(self, result: dict[str, Any]) -> None:
        with self.lock:
            with open(self.results_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(result) + "\n")
            self.done += 1
            if self.done % 200 == 0:
                print(f"{self.done} compiles done", flush=True)

    def run(self, records: list[dict[str, Any]], backends: list[str]) -> None:
        have = set()
        if self.results_path.exists() and not self.args.fresh:
            for line in self.results_path.read_text().splitlines():
                try:
                    x = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if x.get("binary") == self.binary and (
                        x["status"] == "ok" or "stderr" in x
                        or x["status"] == "timeout"):
                    have.add((x["id"], x["backend"]))
        elif self.args.fresh and self.results_path.exists():
            self.results_path.unlink()
        jobs = schedule(records, backends, have)
        print(f"{len(jobs)} compiles to run ({len(have)} already done), "
              f"module path flag: {self.has_module_path}", flush=True)
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            futures = [pool.submit(self.compile_one, r, b) for r, b in jobs]
            for fut in concurrent.futures.as_completed(futures):
                self.record(fut.result())


def load_results(root: Path, binary: Optional[str],
                 paths: Optional[list[Path]] = None) -> dict[tuple, dict]:
    """The results of ROOT/compile-results.jsonl made by `binary`, or every
    result of `paths` (later files win for the same specialization and
    backend: e.g. a run of the file-based CLI, then one through the Python
    package, compile_live.py)."""
    results: dict[tuple, dict] = {}
    if not paths:
        paths = [root / "compile-results.jsonl"]
    else:
        binary = None
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            try:
                x = json.loads(line)
            except json.JSONDecodeError:
                continue
            if binary is None or x.get("binary") == binary:
                results[(x["id"], x["backend"])] = x
    return results


def message_of(x: dict[str, Any], corpus: str) -> str:
    if "stderr" in x and x["status"] == "fail":
        return first_error(x["stderr"], corpus) or x.get("error", "")
    return x.get("error", "")


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "-"


def write_report(args: argparse.Namespace, records: list[dict[str, Any]],
                 backends: list[str], binary: str) -> str:
    root = args.root.resolve()
    results = load_results(root, binary, args.results)
    projects = sorted({r["project"] for r in records})
    by_spec = {spec_id(r): r for r in records}
    kernels_of: dict[str, set] = collections.defaultdict(set)
    for r in records:
        kernels_of[r["project"]].add((r["file"], r["qualname"]))
    lines: list[str] = []
    date = datetime.date.today().isoformat()
    git = args.label or subprocess.run(
        ["git", "-C", str(args.tessera.resolve().parent), "log", "-1",
         "--format=%h %s"], capture_output=True, text=True).stdout.strip()
    git = git or "an unknown commit"
    lines += [
        f"# Real-world Triton kernels through Tessera, compile only ({date})",
        "",
        "What: every distinct (kernel, specialization, launch options) that "
        "real programs made Triton 3.6.0 compile on the GPU host (torch "
        "2.11 Inductor, Liger-Kernel, FlagGems; captured by "
        "`bench/realworld/`, see its README), compiled for `cpu`, "
        "`nvptx --arch sm_90a` (ptxas) and `amdgpu --arch gfx942`: "
        + (args.route or "by `tessera compile --emit bin` with the corpus "
           "root as module search path") + ". Counts and categories "
        "only: the kernels are third-party code and are not in this "
        "repository.",
        "",
        f"Tessera: `{args.tessera}` built from `{git}`; "
        f"timeout {args.timeout} s per compile.",
        "",
        "## Corpus",
        "",
        "| project | kernels | specializations |",
        "|---|---:|---:|",
    ]
    for p in projects:
        n = sum(1 for r in records if r["project"] == p)
        lines.append(f"| {p} | {len(kernels_of[p])} | {n} |")
    lines.append(f"| all | {sum(len(v) for v in kernels_of.values())} | "
                 f"{len(records)} |")
    cases_path = root / "cases.jsonl"
    if cases_path.exists():
        rank = {"ok": 0, "error": 1}
        best: dict[tuple, str] = {}
        for ln in cases_path.read_text().splitlines():
            if not ln.strip():
                continue
            c = json.loads(ln)
            k = (c.get("project"), c.get("case"))
            st = c.get("status", "")
            if k not in best or rank.get(st, 2) < rank.get(best[k], 2):
                best[k] = st
        lines += ["", "Driver cases run on the GPU host (an error is the "
                  "library's or torch's, before or after its kernels "
                  "compiled under Triton):", "",
                  "| project | cases | ran | error | not run |",
                  "|---|---:|---:|---:|---:|"]
        for p in projects:
            sts = [v for (proj, _), v in best.items() if proj == p]
            lines.append(f"| {p} | {len(sts)} | "
                         f"{sum(1 for v in sts if v == 'ok')} | "
                         f"{sum(1 for v in sts if v == 'error')} | "
                         f"{sum(1 for v in sts if v not in rank)} |")
    lines += ["", "## Compiled, per project and backend", "",
              "Specializations compiled / attempted (percent); a kernel "
              "counts as compiled when all its attempted specializations did.",
              "",
              "| project | backend | specializations | % | kernels | % |",
              "|---|---|---:|---:|---:|---:|"]
    missing = 0
    for p in projects + ["all"]:
        recs = [r for r in records if p == "all" or r["project"] == p]
        for b in backends:
            got = [results.get((spec_id(r), b)) for r in recs]
            missing += sum(1 for g in got if g is None) if p == "all" else 0
            tried = [g for g in got if g is not None]
            ok = sum(1 for g in tried if g["status"] == "ok")
            kern_ok: dict[tuple, bool] = {}
            for r, g in zip(recs, got):
                if g is None:
                    continue
                k = (r["project"], r["file"], r["qualname"])
                kern_ok[k] = kern_ok.get(k, True) and g["status"] == "ok"
            kok = sum(1 for v in kern_ok.values() if v)
            lines.append(f"| {p} | {b} | {ok} / {len(tried)} | "
                         f"{pct(ok, len(tried))} | {kok} / {len(kern_ok)} | "
                         f"{pct(kok, len(kern_ok))} |")
    if missing:
        gaps: collections.Counter = collections.Counter()
        for r in records:
            for b in backends:
                if (spec_id(r), b) not in results:
                    slow = "template, " if is_slow(r, b) else ""
                    gaps[f"{r['project']} {r['qualname']} ({slow}{b})"] += 1
        top = "; ".join(f"{k}: {n}" for k, n in gaps.most_common(6))
        lines += ["", f"Not compiled in this run (cut short, see the "
                  f"schedule in `compile_corpus.py`): {missing} "
                  f"(specialization, backend) pairs; most: {top}."]
    lines += ["", "## Failure categories", "",
              "By the first error line of the compiler; counts are failed "
              "(specialization, backend) pairs, then distinct kernels.", "",
              "| category | cpu | nvptx | amdgpu | kernels "
              "| example message |",
              "|---|---:|---:|---:|---:|---|"]
    cat_counts: dict[str, collections.Counter] = collections.defaultdict(
        collections.Counter)
    cat_kernels: dict[str, set] = collections.defaultdict(set)
    example: dict[str, str] = {}
    for (sid, b), x in results.items():
        if x["status"] == "ok" or sid not in by_spec:
            continue
        msg = message_of(x, str(root / "corpus"))
        cat = classify(msg)
        cat_counts[cat][b] += 1
        r = by_spec[sid]
        cat_kernels[cat].add((r["project"], r["file"], r["qualname"]))
        example.setdefault(cat, msg)
    order = sorted(cat_counts, key=lambda c: -sum(cat_counts[c].values()))
    for cat in order:
        c = cat_counts[cat]
        ex = example[cat].replace("|", "\\|")
        if len(ex) > 140:
            ex = ex[:137] + "..."
        lines.append(f"| {cat} | {c['cpu']} | {c['nvptx']} | {c['amdgpu']} "
                     f"| {len(cat_kernels[cat])} | `{ex}` |")
    lines += ["", "A failure is classified by the compiler's first error "
              "only: a kernel stopped by an import or by module-level code "
              "may also use a construct listed lower down (tl.sort, "
              "descriptors, ...) that this table does not count yet."]
    groups = collections.Counter((r["project"], r["qualname"])
                                 for r in records)
    for (p, q), n in groups.most_common(1):
        share = sum(1 for r in records if r["project"] == p)
        lines.append("")
        lines.append(f"Largest kernel by specializations: {p} `{q}` with "
                     f"{n} of the project's {share} (its autotuning "
                     "sweep); the per-kernel columns are not weighted by "
                     "it.")
    lines += ["", "## Per project, top categories", ""]
    for p in projects:
        cnt: collections.Counter = collections.Counter()
        for (sid, b), x in results.items():
            if x["status"] != "ok" and sid in by_spec and \
                    by_spec[sid]["project"] == p:
                cnt[classify(message_of(x, str(root / "corpus")))] += 1
        top = ", ".join(f"{c} {n}" for c, n in cnt.most_common(5))
        lines.append(f"- {p}: {top or 'no failures'}")
    secs = [x["seconds"] for x in results.values() if "seconds" in x]
    if secs:
        lines += ["", f"Compile wall time: median {sorted(secs)[len(secs)//2]}"
                  f" s, total {sum(secs)/60:.1f} min over {len(secs)} "
                  f"compiles ({args.where})."]
    for note in args.note:
        lines += ["", note]
    lines += ["", "Reproduce: `bench/realworld/README.md`."]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse
                                     .RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=REPO / ".realworld")
    parser.add_argument("--tessera", type=Path,
                        default=REPO / "build" / "bin" / "tessera")
    parser.add_argument("--backends", default="cpu,nvptx,amdgpu")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--report", type=Path, default=None)
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--label", default="",
                        help="what the binary was built from, for the "
                        "report (default: git log of its folder)")
    parser.add_argument("--note", action="append", default=[],
                        help="a paragraph for the report (repeatable)")
    parser.add_argument("--project", default="",
                        help="only this project's specializations")
    parser.add_argument("--results", type=Path, action="append",
                        default=None,
                        help="report these result files (repeatable; later "
                        "ones win) instead of ROOT/compile-results.jsonl")
    parser.add_argument("--route", default="",
                        help="how the specializations were compiled, for "
                        "the report")
    parser.add_argument("--where", default="2 cores shared",
                        help="the machine the compiles ran on, for the "
                        "report's compile times")
    args = parser.parse_args()
    backends = [b for b in args.backends.split(",") if b]
    records = [json.loads(ln) for ln in
               (args.root / "manifest.jsonl").read_text().splitlines()
               if ln.strip()]
    records = [r for r in records if r.get("kind") == "kernel"
               and (not args.project or r["project"] == args.project)]
    binary = binary_id(args.tessera)
    if not args.report_only:
        Runner(args).run(records, backends)
    report = write_report(args, records, backends, binary)
    path = args.report or (REPO / "bench" / "results" /
                           f"{datetime.date.today().isoformat()}"
                           "-realworld-compile.md")
    path.write_text(report)
    print(f"report: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
