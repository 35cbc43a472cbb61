"""Merge what the capture processes wrote and pack it for the trip back.

    python3 pack_capture.py WORK_DIR OUT_DIR

WORK_DIR holds `manifest-*.jsonl`, `cases-*.jsonl`, `corpus/` and `logs/`
from the drivers. OUT_DIR receives at most five files: `manifest.jsonl`
(one line per distinct specialization over all processes), `cases.jsonl`,
`corpus.tar.gz`, `logs.tar.gz` and `summary.txt`.
"""

from __future__ import annotations

import collections
import json
import sys
import tarfile
from pathlib import Path
from typing import Any


def load_jsonl(paths: list[Path]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:  # a line cut by a killed process
                continue
    return out


def spec_key(r: dict[str, Any]) -> tuple:
    return (r.get("file"), r.get("qualname"), r.get("signature"),
            r.get("num_warps"), r.get("num_stages"), r.get("num_ctas"),
            r.get("maxnreg"))


def main() -> int:
    work, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    records = load_jsonl(sorted(work.glob("manifest-*.jsonl")))
    kernels: dict[tuple, dict[str, Any]] = {}
    errors = [r for r in records if r.get("kind") == "capture-error"]
    for r in records:
        if r.get("kind") != "kernel":
            continue
        kernels.setdefault(spec_key(r), r)
    with open(out / "manifest.jsonl", "w", encoding="utf-8") as f:
        for r in sorted(kernels.values(),
                        key=lambda r: (r["project"], r["file"] or "",
                                       r["qualname"], r["signature"])):
            f.write(json.dumps(r) + "\n")
        for r in errors[:200]:
            f.write(json.dumps(r) + "\n")
    cases = load_jsonl(sorted(work.glob("cases-*.jsonl")))
    with open(out / "cases.jsonl", "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    corpus = work / "corpus"
    with tarfile.open(out / "corpus.tar.gz", "w:gz") as tar:
        if corpus.is_dir():
            tar.add(corpus, arcname="corpus")
    logs = work / "logs"
    with tarfile.open(out / "logs.tar.gz", "w:gz") as tar:
        if logs.is_dir():
            tar.add(logs, arcname="logs")
    per_project = collections.Counter(r["project"] for r in kernels.values())
    kernels_per_project = collections.Counter()
    seen_kernels: set[tuple] = set()
    for r in kernels.values():
        k = (r["project"], r["file"], r["qualname"])
        if k not in seen_kernels:
            seen_kernels.add(k)
            kernels_per_project[r["project"]] += 1
    case_status = collections.Counter(
        (c.get("project"), c.get("status")) for c in cases)
    lines = [f"specializations: {sum(per_project.values())}",
             f"capture errors: {len(errors)}"]
    for p in sorted(per_project):
        lines.append(f"  {p}: {kernels_per_project[p]} kernels, "
                     f"{per_project[p]} specializations")
    for (p, s), n in sorted(case_status.items(), key=str):
        lines.append(f"  cases {p} {s}: {n}")
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
