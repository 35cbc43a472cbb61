"""Exits 0 when two conformance JSON reports agree case by case in all but
wall times (statuses, checks, messages, what each case compiled and where
it came from), else prints the first difference and exits 1."""
import json
import sys

TIMES = {"seconds", "compile_seconds", "compile_steps"}


def cases(path):
    with open(path) as f:
        report = json.load(f)
    out = []
    for case in report["cases"]:
        case = {k: v for k, v in case.items() if k not in TIMES}
        case["kernels"] = [{k: v for k, v in kernel.items() if k not in TIMES}
                           for kernel in case.get("kernels", [])]
        out.append(case)
    return out


a, b = cases(sys.argv[1]), cases(sys.argv[2])
if len(a) != len(b):
    print(f"{len(a)} cases against {len(b)}")
    sys.exit(1)
for x, y in zip(a, b):
    for key in sorted(set(x) | set(y)):
        if x.get(key) != y.get(key):
            print(f"{x.get('id')}: {key} differs")
            sys.exit(1)
print(f"same: {len(a)} cases")
