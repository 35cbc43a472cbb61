#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from the repository.

usage: fuzz-seeds.py SOURCE_DIR OUT_DIR

Kernel files (conformance/kernels, the frontend's lit tests, runtime test
inputs) seed the parser, host-evaluator and frontend targets; for the
frontend target, each `--kernel K --signature "S"` of a file's RUN lines
becomes one seed with `# fuzz-kernel: K` and `# fuzz-signature: S` header
lines. The signatures (and `--constexpr` values) of every RUN line seed the
signature target. The cache-entry and plugin-file seeds are binaries of a
build: scripts/fuzz adds them.
"""
import hashlib
import os
import re
import sys

src, out = sys.argv[1], sys.argv[2]
KERNEL_DIRS = ["conformance/kernels", "frontend/test", "runtime/unittests/Inputs",
               "runtime/test", "conformance/test/Inputs", "backends/cpu/test",
               "fuzz/regressions"]
RUN = re.compile(r'--kernel[= ]([A-Za-z_][A-Za-z_0-9]*)[^\n]*?--signature[= ]"([^"]*)"')
SIGNATURE = re.compile(r'--signature[= ]"([^"]*)"')
CONSTEXPR = re.compile(r'--constexpr[= ]"?([A-Za-z_][A-Za-z_0-9]*=[^" \n]+)')


def write(target, data):
    path = os.path.join(out, target)
    os.makedirs(path, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(path, name), "wb") as f:
        f.write(data)


count = {}
for top in KERNEL_DIRS:
    for root, _, files in os.walk(os.path.join(src, top)):
        for name in sorted(files):
            if not name.endswith((".py", ".test")):
                continue
            with open(os.path.join(root, name), "rb") as f:
                data = f.read()
            text = data.decode("utf-8", "replace")
            if name.endswith(".py") and "triton" in text:
                for target in ("parser", "host-evaluator", "frontend"):
                    write(target, data)
                for kernel, sig in sorted(set(RUN.findall(text))):
                    header = "# fuzz-kernel: %s\n# fuzz-signature: %s\n" % (kernel, sig)
                    write("frontend", header.encode() + data)
            constexprs = sorted(set(CONSTEXPR.findall(text)))
            for sig in sorted(set(SIGNATURE.findall(text))):
                write("signature", "\n".join([sig] + constexprs).encode())
for target in sorted(os.listdir(out)):
    print("%s: %d seeds" % (target, len(os.listdir(os.path.join(out, target)))))
