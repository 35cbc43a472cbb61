"""What the three capture drivers share: cases, shards, a deadline, a log.

A driver lists cases (a name and a callable that runs it); `run_cases`
runs the cases of this process's shard with the recorder's case name set,
catches every error so one broken case never stops the others, stops
starting cases once the deadline has passed, and writes one JSON line per
case (status, seconds, specializations recorded, the error's first line).

Common flags: OUT_DIR, --shard I/N, --deadline SECONDS (wall clock from the
start of the process), --dry (run on the CPU without the recorder, to check
the cases' own code on a machine without a GPU), --only SUBSTRING.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))


@dataclass
class Case:
    name: str
    run: Callable[[], Any]


def parse_args(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--shard", default="0/1",
                        help="I/N: run every Nth case from the Ith")
    parser.add_argument("--deadline", type=float, default=300.0,
                        help="seconds after start not to begin a new case")
    parser.add_argument("--dry", action="store_true",
                        help="CPU only, no recorder: check the cases")
    parser.add_argument("--only", default="",
                        help="run only cases whose name contains this")
    parser.add_argument("--cases-file", type=Path, default=None,
                        help="run only the cases listed there, one "
                        "PROJECT:CASE a line")
    return parser.parse_args()


def select(cases: list[Case], shard: str, only: str,
           listed: Optional[set[str]] = None) -> list[Case]:
    index, count = (int(x) for x in shard.split("/"))
    picked = [c for c in cases if only in c.name
              and (listed is None or c.name in listed)]
    return [c for i, c in enumerate(picked) if i % count == index]


def first_line(err: BaseException) -> str:
    text = f"{type(err).__name__}: {err}".strip()
    return text.splitlines()[0][:400] if text else type(err).__name__


def run_cases(project: str, cases: list[Case], args: argparse.Namespace,
              recorder: Optional[Any], start: float,
              sync: Callable[[], None] = lambda: None) -> dict[str, int]:
    args.out_dir.mkdir(parents=True, exist_ok=True)
    log = args.out_dir / f"cases-{project}-{os.getpid()}.jsonl"
    counts = {"ok": 0, "error": 0, "skipped": 0}
    listed = None
    if args.cases_file is not None:
        listed = set()
        for line in args.cases_file.read_text().splitlines():
            proj, _, name = line.strip().partition(":")
            if proj == project and name:
                listed.add(name)
    mine = select(cases, args.shard, args.only, listed)
    for case in mine:
        elapsed = time.time() - start
        entry: dict[str, Any] = {"project": project, "case": case.name}
        if elapsed > args.deadline:
            entry["status"] = "skipped (deadline)"
            counts["skipped"] += 1
        else:
            before = recorder.count if recorder else 0
            t0 = time.time()
            if recorder:
                recorder.set_case(case.name)
            try:
                case.run()
                sync()
                entry["status"] = "ok"
                counts["ok"] += 1
            except Exception as err:  # one case never stops the others
                entry["status"] = "error"
                entry["error"] = first_line(err)
                entry["trace"] = traceback.format_exc(limit=3)[-1500:]
                counts["error"] += 1
                try:
                    sync()
                except Exception as err2:
                    entry["sync_error"] = first_line(err2)
            entry["seconds"] = round(time.time() - t0, 2)
            entry["recorded"] = (recorder.count - before) if recorder else 0
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
        status = entry["status"]
        extra = f" {entry.get('error', '')}" if status == "error" else ""
        print(f"[{project} {args.shard}] {case.name}: {status}"
              f" +{entry.get('recorded', 0)}{extra}", flush=True)
    print(f"[{project} {args.shard}] done: {counts}", flush=True)
    return counts
