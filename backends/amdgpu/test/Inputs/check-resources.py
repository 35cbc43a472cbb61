"""Checks the kernels of a compile-only conformance report against an AMD
CDNA architecture's limits: each is an HSA code object, its LDS fits the
given bytes and its unified VGPR/AGPR count fits 512; kernels of cases at
their default configuration (not an autotune `config=N`) use no scratch.
Prints one summary line per property, or the offending kernels and exits 1.
"""
import json
import sys

report = json.load(open(sys.argv[1]))
lds_limit = int(sys.argv[2])
problems = []
kernels = 0
defaults = 0
for case in report["cases"]:
    default = "config=" not in case["case"]
    for k in case["kernels"]:
        kernels += 1
        name = case["id"] + " " + k["kernel"]
        if k["format"] != "hsaco":
            problems.append(name + ": format " + k["format"])
        if not 0 <= k["shared_memory_bytes"] <= lds_limit:
            problems.append(name + ": %d bytes of LDS" % k["shared_memory_bytes"])
        if not 0 < k["registers"] <= 512:
            problems.append(name + ": %d registers" % k["registers"])
        if default:
            defaults += 1
            if k["spill_bytes"] != 0:
                problems.append(name + ": %d bytes of scratch" % k["spill_bytes"])
if problems or kernels == 0:
    print("\n".join(problems) or "no kernels")
    sys.exit(1)
print("kernels: %d, all hsaco, all within LDS and registers" % kernels)
print("default configurations without scratch: %d" % defaults)
