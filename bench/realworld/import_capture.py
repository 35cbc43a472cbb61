"""Merge the captures brought back from the GPU host into one corpus.

    python3 import_capture.py DEST CAPTURE_DIR [CAPTURE_DIR ...]

Each CAPTURE_DIR holds what `host_capture.sh` left in $OUT
(`manifest.jsonl`, `cases.jsonl`, `corpus.tar.gz`). DEST (git-ignored,
e.g. `.realworld`) receives `corpus/` (the union of the corpora, laid out as
a module search path), `manifest.jsonl` (one line per distinct
specialization: the same kernel file content, kernel, signature and launch
options count once, whichever run or process compiled it) and
`cases.jsonl`. Nothing here is committed: the kernels are third-party code.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any


def normalize(rel: str) -> str:
    """Drops the temporary folder an Inductor cache-less run adds."""
    parts = rel.split("/")
    if rel.startswith("_generated/inductor/") and len(parts) == 5:
        return "/".join(parts[:2] + parts[3:])
    return rel


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> int:
    dest = Path(sys.argv[1])
    captures = [Path(p) for p in sys.argv[2:]]
    corpus = dest / "corpus"
    if corpus.exists():
        shutil.rmtree(corpus)
    corpus.mkdir(parents=True)
    kernels: dict[tuple, dict[str, Any]] = {}
    cases: list[str] = []
    renamed = 0
    for run, cap in enumerate(captures):
        with tempfile.TemporaryDirectory() as tmp:
            with tarfile.open(cap / "corpus.tar.gz") as tar:
                tar.extractall(tmp, filter="data")
            src_root = Path(tmp) / "corpus"
            moved: dict[str, str] = {}
            for path in sorted(src_root.rglob("*")):
                if not path.is_file():
                    continue
                rel = path.relative_to(src_root).as_posix()
                new = normalize(rel)
                dst = corpus / new
                if dst.exists() and digest(dst) != digest(path):
                    # Same name, other text (generated files named per
                    # process): keep both.
                    new = f"{new[:-3]}__r{run}_{digest(path)[:8]}.py"
                    dst = corpus / new
                    renamed += 1
                moved[rel] = new
                if not dst.exists():
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, dst)
        for line in (cap / "manifest.jsonl").read_text().splitlines():
            r = json.loads(line)
            if r.get("kind") != "kernel":
                continue
            r["file"] = moved.get(r["file"], normalize(r["file"]))
            r["run"] = cap.name
            text_hash = digest(corpus / r["file"])
            key = (r["project"], text_hash, r["qualname"], r["signature"],
                   r["num_warps"], r["num_stages"], r["num_ctas"],
                   r.get("maxnreg"))
            kernels.setdefault(key, r)
        cases += (cap / "cases.jsonl").read_text().splitlines()
    with open(dest / "manifest.jsonl", "w", encoding="utf-8") as f:
        for r in kernels.values():
            f.write(json.dumps(r) + "\n")
    (dest / "cases.jsonl").write_text("\n".join(cases) + "\n")
    per: dict[str, int] = {}
    for r in kernels.values():
        per[r["project"]] = per.get(r["project"], 0) + 1
    print(f"{len(kernels)} specializations {per}; {renamed} renamed files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
