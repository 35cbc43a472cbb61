"""Writes a kernel file whose one expression or block nests N levels deep.

usage: deep.py KIND N, KIND one of chain (x + x + ...), attributes
(x.a.a...), subscripts (x[0][0]...), calls (f()()...), global (a
module-level chain), parens (((x))), blocks (nested ifs).
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
head = "import triton\nimport triton.language as tl\n\n"
if kind == "global":
    print(head + "X = " + " + ".join(["1"] * n) + "\n")
    print("@triton.jit\ndef k(p):\n    tl.store(p, X)")
    sys.exit(0)
body = {
    "chain": "    y = " + " + ".join(["x"] * n) + "\n    tl.store(p, y)",
    "attributes": "    y = x" + ".T" * n,
    "subscripts": "    y = x" + "[0]" * n,
    "calls": "    y = tl.load" + "(p)" * n,
    "parens": "    y = " + "(" * n + "x" + ")" * n,
    "blocks": "".join("    " + " " * i + "if x:\n" for i in range(n))
    + "    " + " " * n + "pass",
}[kind]
print(head + "@triton.jit\ndef k(p):\n    x = tl.load(p)\n" + body)
