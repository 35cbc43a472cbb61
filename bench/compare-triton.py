#!/usr/bin/env python3
"""Runs the same conformance kernel files under Triton and under Tessera on
one GPU, in one run, and prints per workload both figures and their ratio.

Triton side: the kernel files are imported as Python modules and launched
with the launch parameters `tessera bench` uses (conformance/lib/Tutorial*.cpp),
timed with triton.testing.do_bench (median). Tessera side, either:

  bench/compare-triton.py --tessera PATH/bin/tessera [--kernels-dir DIR]
      `tessera bench --backend nvptx --json` (the C++ runtime), or
  bench/compare-triton.py --python [--kernels-dir DIR]
      the same Python code as the Triton side, in a fresh interpreter that
      ran `tessera.activate()` first (so `import triton` is Tessera's, with
      the package on PYTHONPATH): both compilers driven from Python, each
      output checked against torch before it is timed.

Matmul rows (tutorial 03, tutorial 08's grouped GEMMs and every variant of
09, fp16 and fp8) have randn inputs on both sides and a third column,
cuBLAS through torch on the same inputs (`torch.matmul` for fp16,
`torch._scaled_mm` with unit scales and fp16 output for fp8). The SM clock,
its maximum, power and temperature (nvidia-smi) are recorded when the run
starts and when it ends.

With --configs all (C++ side) every config of 09's autotuned kernels is
also timed alone on both sides, in the same run, and printed (and written
under "per_config" in --json) config by config: which configs each
compiler makes fast, not only which one its autotuner picked.
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def next_pow2(n):
    return 1 << (n - 1).bit_length()


def triton_workloads(kernels, torch, triton, sms, only_bandwidth):
    """(tessera workload id, bytes moved or 0, FLOP count or 0, launch) per
    workload, and for matmuls a fifth item, cuBLAS doing the same product;
    autotuned kernels tune over their own configs on both sides."""
    out = []
    va = load(os.path.join(kernels, "01_vector_add.py"))
    n = 1 << 28
    x = torch.rand(n, device="cuda") * 2 - 1
    y = torch.rand(n, device="cuda") * 2 - 1
    z = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)
    out.append(("01_vector_add/add_kernel", 3 * 4 * n, 0,
                lambda: va.add_kernel[grid](x, y, z, n, BLOCK_SIZE=1024)))

    sm = load(os.path.join(kernels, "02_fused_softmax.py"))
    rows, cols = 4096, 8192
    a = torch.rand(rows, cols, device="cuda") * 8 - 4
    b = torch.empty_like(a)
    programs = min(rows, 4 * sms)
    stages = 4  # >= 200 KB of shared memory per block on an H100
    out.append(("02_fused_softmax/softmax_kernel", 2 * 4 * rows * cols, 0,
                lambda: sm.softmax_kernel[(programs,)](
                    b, a, cols, cols, rows, cols, BLOCK_SIZE=next_pow2(cols),
                    num_stages=stages, num_warps=8)))

    dr = load(os.path.join(kernels, "04_low_memory_dropout.py"))
    n2 = 1 << 26
    d_in = torch.rand(n2, device="cuda") * 2 - 1
    d_out = torch.empty_like(d_in)
    out.append(("04_low_memory_dropout/seeded_dropout_kernel", 2 * 4 * n2, 0,
                lambda: dr.seeded_dropout_kernel[(triton.cdiv(n2, 1024),)](
                    d_in, d_out, n2, 0.5, 123, BLOCK_SIZE=1024)))

    ln = load(os.path.join(kernels, "05_layer_norm.py"))
    lx = (torch.rand(rows, cols, device="cuda") * 4 - 2).half()
    lw = torch.rand(cols, device="cuda").half()
    lb = torch.rand(cols, device="cuda").half()
    ly = torch.empty_like(lx)
    mean = torch.empty(rows, device="cuda")
    rstd = torch.empty(rows, device="cuda")
    block = min(65536 // 2, next_pow2(cols))
    warps = min(max(block // 256, 1), 8)
    out.append(("05_layer_norm/_layer_norm_fwd_fused", 2 * 2 * rows * cols, 0,
                lambda: ln._layer_norm_fwd_fused[(rows,)](
                    lx, ly, lw, lb, mean, rstd, cols, cols, 1e-5,
                    BLOCK_SIZE=block, num_warps=warps)))
    if only_bandwidth:
        return out

    mm = load(os.path.join(kernels, "03_matmul.py"))
    size = 8192
    ma = torch.randn(size, size, device="cuda").half()
    mb = torch.randn(size, size, device="cuda").half()
    mbt = mb.t().contiguous()  # B given transposed, (N, K)
    mc = torch.empty(size, size, device="cuda", dtype=torch.float16)
    fa = ma.to(torch.float8_e4m3fn)
    fbt = mbt.to(torch.float8_e4m3fn)  # (N, K), contiguous
    fc = torch.empty(size, size, device="cuda", dtype=torch.float8_e4m3fn)
    one = torch.ones((), device="cuda")
    cublas = {
        "fp16": lambda: torch.matmul(ma, mb, out=mc),
        "fp8e4m3": lambda: torch._scaled_mm(fa, fbt.t(), scale_a=one,
                                            scale_b=one,
                                            out_dtype=torch.float16),
    }
    flops = 2.0 * size ** 3
    mgrid = lambda meta: (triton.cdiv(size, meta["BLOCK_SIZE_M"]) *
                          triton.cdiv(size, meta["BLOCK_SIZE_N"]),)
    out.append(("03_matmul/matmul_kernel/fp16,8192x8192x8192", 0, flops,
                lambda: mm.matmul_kernel[mgrid](
                    ma, mb, mc, size, size, size, size, 1, size, 1, size, 1,
                    ACTIVATION=""), cublas["fp16"]))
    # fp8 e4m3 inputs (C fp16), B read K-major as the (K, N) view of an
    # (N, K) tensor: the shape the conformance workload times.
    out.append(("03_matmul/matmul_kernel/fp8e4m3,8192x8192x8192,b-transposed",
                0, flops,
                lambda: mm.matmul_kernel[mgrid](
                    fa, fbt, mc, size, size, size, size, 1, 1, size, size, 1,
                    ACTIVATION=""), cublas["fp8e4m3"]))

    # Every variant of tutorial 09 as conformance/lib/Tutorial09*.cpp
    # launches it: C in the input type, B row-major (K, N) for the fp16
    # pointer kernels and the (K, N) view of (N, K) for fp8, descriptors
    # read B as (N, K); persistent kernels get NUM_SMS programs at most;
    # WARP_SPECIALIZE=False (Tessera has no warp specialization yet);
    # EPILOGUE_SUBTILE from the autotuner. Tensor descriptors made in the
    # kernel need a global-scratch allocator under Triton.
    triton.set_allocator(lambda size, align, stream: torch.empty(
        size, dtype=torch.int8, device="cuda"))
    pm = load(os.path.join(kernels, "09_persistent_matmul.py"))
    pgrid = lambda meta: (min(sms, triton.cdiv(size, meta["BLOCK_SIZE_M"]) *
                              triton.cdiv(size, meta["BLOCK_SIZE_N"])),)
    for dtype, a, b_rows, bt, c in (("fp16", ma, mb, mbt, mc),
                                    ("fp8e4m3", fa, None, fbt, fc)):
        # Pointer kernels: (B, stride_bk, stride_bn).
        b, sbk, sbn = (b_rows, size, 1) if b_rows is not None else (bt, 1, size)
        name = f"{dtype},8192x8192x8192"
        kernels09 = (
            ("matmul_kernel", mgrid, lambda a=a, b=b, c=c, sbk=sbk, sbn=sbn:
             pm.matmul_kernel[mgrid](a, b, c, size, size, size, size, 1, sbk,
                                     sbn, size, 1)),
            ("matmul_kernel_persistent", pgrid,
             lambda a=a, b=b, c=c, sbk=sbk, sbn=sbn:
             pm.matmul_kernel_persistent[pgrid](
                 a, b, c, size, size, size, size, 1, sbk, sbn, size, 1,
                 NUM_SMS=sms)),
            ("matmul_kernel_descriptor", mgrid, lambda a=a, bt=bt, c=c:
             pm.matmul_kernel_descriptor[mgrid](a, bt, c, size, size, size,
                                                WARP_SPECIALIZE=False)),
            ("matmul_kernel_descriptor_persistent", pgrid,
             lambda a=a, bt=bt, c=c:
             pm.matmul_kernel_descriptor_persistent[pgrid](
                 a, bt, c, size, size, size, NUM_SMS=sms,
                 WARP_SPECIALIZE=False)),
        )
        for kernel, _, launch in kernels09:
            launch.kernel = getattr(pm, kernel)
            out.append((f"09_persistent_matmul/{kernel}/{name}", 0, flops,
                        launch, cublas[dtype]))

    # Tutorial 08's benchmark as conformance/lib/Tutorial08GroupedGemm.cpp
    # times it: four square fp16 GEMMs in one launch, NUM_SM programs from
    # the autotuner; the descriptor kernel reads B transposed, (N, K), and
    # makes its descriptors in the kernel (Triton's global-scratch allocator
    # is set above). cuBLAS: the four torch.matmul calls one after another.
    gg = load(os.path.join(kernels, "08_grouped_gemm.py"))
    sizes08 = (128, 256, 512, 1024)
    flops08 = sum(2.0 * n ** 3 for n in sizes08)
    name08 = "fp16,group=" + "+".join(f"{n}x{n}x{n}" for n in sizes08)
    ga = [torch.randn(n, n, device="cuda").half() for n in sizes08]
    gb = [torch.randn(n, n, device="cuda").half() for n in sizes08]
    gbt = [b.t().contiguous() for b in gb]
    gc = [torch.empty(n, n, device="cuda", dtype=torch.float16)
          for n in sizes08]
    addresses = lambda ts: torch.tensor([t.data_ptr() for t in ts],
                                        device="cuda", dtype=torch.int64)
    g_sizes = torch.tensor([d for n in sizes08 for d in (n, n, n)],
                           device="cuda", dtype=torch.int32)
    g_lds = g_sizes.clone()  # square and dense: every stride is n
    g_a, g_b, g_bt, g_c = (addresses(ga), addresses(gb), addresses(gbt),
                           addresses(gc))
    ggrid = lambda meta: (meta["NUM_SM"],)
    groups = len(sizes08)
    cublas08 = lambda: [torch.matmul(a, b, out=c)
                        for a, b, c in zip(ga, gb, gc)]
    out.append((f"08_grouped_gemm/grouped_matmul_kernel/{name08}", 0, flops08,
                lambda: gg.grouped_matmul_kernel[ggrid](
                    g_a, g_b, g_c, g_sizes, g_lds, groups), cublas08))
    out.append((f"08_grouped_gemm/grouped_matmul_desc_kernel/{name08}", 0,
                flops08,
                lambda: gg.grouped_matmul_desc_kernel[ggrid](
                    g_a, g_bt, g_c, g_sizes, g_lds, groups, FP8=False),
                cublas08))

    at = load(os.path.join(kernels, "06_fused_attention.py"))
    az, ah, n_ctx, hd = 4, 32, 4096, 128
    q, k, v = (torch.randn(az, ah, n_ctx, hd, device="cuda").half()
               for _ in range(3))
    o = torch.empty_like(q)
    lse = torch.empty(az * ah, n_ctx, device="cuda")
    agrid = lambda meta: (triton.cdiv(n_ctx, meta["BLOCK_M"]), az * ah, 1)
    for causal in (False, True):
        flops = 4.0 * az * ah * n_ctx * n_ctx * hd / (2 if causal else 1)
        out.append((
            "06_fused_attention/_attn_fwd/fp16,Z=4,H=32,N_CTX=4096,D=128," +
            ("causal" if causal else "non-causal"), 0, flops,
            lambda causal=causal: at._attn_fwd[agrid](
                q, k, v, hd ** -0.5, lse, o, *q.stride(), *k.stride(),
                *v.stride(), *o.stride(), az, ah, n_ctx, HEAD_DIM=hd,
                STAGE=3 if causal else 1), None))
        out.append((
            "06_fused_attention/_attn_fwd_desc/fp16,Z=4,H=32,N_CTX=4096,D=128," +
            ("causal" if causal else "non-causal"), 0, flops,
            lambda causal=causal: at._attn_fwd_desc[agrid](
                q, k, v, hd ** -0.5, lse, o, az, ah, n_ctx, HEAD_DIM=hd,
                STAGE=3 if causal else 1), None))
    return out


def gpu_clocks():
    """SM clock and its maximum (MHz), power (W) and temperature (C) of
    GPU 0 now, from nvidia-smi; {} where it cannot be read."""
    fields = ("clocks.sm", "clocks.max.sm", "power.draw", "temperature.gpu")
    try:
        line = subprocess.run(
            ["nvidia-smi", "-i", "0", "--query-gpu=" + ",".join(fields),
             "--format=csv,noheader,nounits"], capture_output=True, text=True,
            check=True).stdout.strip().splitlines()[0]
        return dict(zip(fields, (v.strip() for v in line.split(","))))
    except (OSError, subprocess.CalledProcessError, IndexError):
        return {}


def time_workload(launch, nbytes, flops, torch, triton):
    """(unit, rate) of one workload: a first launch (which autotunes where the
    kernel is autotuned), then the median of triton.testing.do_bench."""
    launch()
    torch.cuda.synchronize()
    ms = triton.testing.do_bench(launch, warmup=50, rep=300)
    return ("GB/s", nbytes / ms / 1e6) if nbytes else ("TFLOP/s", flops / ms / 1e9)


def config_key(pairs):
    """A config as sorted "name=value" text, from (name, value) pairs: the
    meta-parameters, num_warps and num_stages (what both autotuners vary)."""
    keep = {k: str(v) for k, v in pairs if k not in ("num_ctas", "maxnreg")}
    return ", ".join(f"{k}={keep[k]}" for k in sorted(keep))


def triton_config_rates(launch, flops, torch, triton):
    """{config key: TFLOP/s or error text} for every config of the autotuned
    kernel a launch calls (`launch.kernel`), each timed alone; {} for a
    kernel without configs. The autotuner is left as it was."""
    tuner = getattr(launch, "kernel", None)
    configs = getattr(tuner, "configs", None)
    if not configs:
        return {}
    saved, saved_cache = list(configs), dict(tuner.cache)
    rates = {}
    try:
        for cfg in saved:
            key = config_key(list(cfg.kwargs.items()) +
                             [("num_warps", cfg.num_warps),
                              ("num_stages", cfg.num_stages)])
            tuner.configs, tuner.cache = [cfg], {}
            try:
                rates[key] = time_workload(launch, 0, flops, torch, triton)[1]
            except Exception as e:  # e.g. out of shared memory
                rates[key] = f"{type(e).__name__}: {e}".splitlines()[0][:200]
    finally:
        tuner.configs, tuner.cache = saved, saved_cache
    return rates


def tessera_config_rates(workload, flops):
    """{config key: TFLOP/s} from a `tessera bench --configs all` workload's
    notes ("NAME=V, ...: X ms median over N runs" per config)."""
    rates = {}
    for line in workload.get("notes", "").splitlines():
        m = re.match(r"(.*): ([0-9.]+) ms median", line)
        if m and "=" in m.group(1) and not line.startswith("autotuned"):
            pairs = [p.split("=", 1) for p in m.group(1).split(", ")]
            rates[config_key(pairs)] = flops / float(m.group(2)) / 1e9
    return rates


def run_side(args):
    """One side of --python, in its own interpreter: `import triton` is the
    real Triton, or Tessera's after tessera.activate(). Prints one JSON
    object: the rows and which outputs were checked."""
    if args.side == "tessera":
        import tessera
        tessera.activate()
    import torch
    import triton
    import triton.testing
    props = torch.cuda.get_device_properties(0)
    rows = []
    for wid, nbytes, flops, launch, *ref in triton_workloads(
            args.kernels_dir, torch, triton, props.multi_processor_count,
            args.bandwidth_only):
        row = {"workload": wid}
        try:
            row["unit"], row["rate"] = time_workload(launch, nbytes, flops, torch, triton)
        except Exception as e:  # a failure is a row, not the end of the run
            row["error"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        if ref and ref[0] and args.side == "triton":
            row["cublas"] = time_workload(ref[0], nbytes, flops, torch, triton)[1]
        rows.append(row)
        print(f"{args.side}: {wid}: {row.get('rate', row.get('error'))}",
              file=sys.stderr, flush=True)
    checks = check_outputs(args.kernels_dir, torch, triton)
    print(json.dumps({"side": args.side, "triton": triton.__version__,
                      "device": props.name, "rows": rows, "checks": checks}))


def check_outputs(kernels, torch, triton):
    """Each bandwidth tutorial and the fp16 matmul launched once on small
    shapes and compared with torch: name -> "ok" or the mismatch."""
    results = {}

    def check(name, fn):
        try:
            fn()
            results[name] = "ok"
        except Exception as e:
            results[name] = f"{type(e).__name__}: {e}".splitlines()[0][:300]

    def vector_add():
        va = load(os.path.join(kernels, "01_vector_add.py"))
        n = 98432
        x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
        z = torch.full_like(x, float("nan"))
        va.add_kernel[(triton.cdiv(n, 1024),)](x, y, z, n, BLOCK_SIZE=1024)
        torch.testing.assert_close(z, x + y)

    def softmax():
        sm = load(os.path.join(kernels, "02_fused_softmax.py"))
        a = torch.randn(1823, 781, device="cuda")
        b = torch.full_like(a, float("nan"))
        sm.softmax_kernel[(1823,)](b, a, a.stride(0), b.stride(0), 1823, 781,
                                   BLOCK_SIZE=1024, num_stages=2)
        torch.testing.assert_close(b, torch.softmax(a, dim=1))

    def layer_norm():
        ln = load(os.path.join(kernels, "05_layer_norm.py"))
        m, n = 1151, 8192
        x = (torch.randn(m, n, device="cuda")).half()
        w = torch.rand(n, device="cuda").half()
        bias = torch.rand(n, device="cuda").half()
        y = torch.full_like(x, float("nan"))
        mean = torch.empty(m, device="cuda")
        rstd = torch.empty(m, device="cuda")
        ln._layer_norm_fwd_fused[(m,)](x, y, w, bias, mean, rstd, n, n, 1e-5,
                                       BLOCK_SIZE=8192, num_warps=8)
        ref = torch.nn.functional.layer_norm(x.float(), (n,), w.float(),
                                             bias.float(), 1e-5)
        torch.testing.assert_close(y.float(), ref, atol=1e-2, rtol=0)

    def matmul():
        mm = load(os.path.join(kernels, "03_matmul.py"))
        m, n, k = 512, 384, 1024
        a = torch.randn(m, k, device="cuda").half()
        b = torch.randn(k, n, device="cuda").half()
        c = torch.full((m, n), float("nan"), device="cuda").half()
        grid = lambda meta: (triton.cdiv(m, meta["BLOCK_SIZE_M"]) *
                             triton.cdiv(n, meta["BLOCK_SIZE_N"]),)
        mm.matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1),
                               b.stride(0), b.stride(1), c.stride(0),
                               c.stride(1), ACTIVATION="")
        torch.testing.assert_close(c.float(), (a.float() @ b.float()),
                                   atol=0.5, rtol=1e-2)

    for name, fn in (("01_vector_add", vector_add), ("02_fused_softmax", softmax),
                     ("05_layer_norm", layer_norm), ("03_matmul fp16", matmul)):
        check(name, fn)
    return results


def main_python(args):
    """Both sides from Python, each in a fresh interpreter."""
    sides = {}
    for side in ("triton", "tessera"):
        cmd = [sys.executable, os.path.abspath(__file__), "--side", side,
               "--kernels-dir", args.kernels_dir]
        if args.bandwidth_only:
            cmd.append("--bandwidth-only")
        result = subprocess.run(cmd, capture_output=True, text=True)
        sys.stderr.write(result.stderr)
        if result.returncode != 0:
            print(f"{side}: exit {result.returncode}", file=sys.stderr)
            sys.exit(result.returncode)
        sides[side] = json.loads(result.stdout.strip().splitlines()[-1])
    theirs = {r["workload"]: r for r in sides["triton"]["rows"]}
    print(f"device: {sides['triton']['device']}, Triton "
          f"{sides['triton']['triton']}, Tessera through its Triton API")
    print(f"{'workload':72} {'unit':>8} {'Triton':>9} {'Tessera':>9} {'ratio':>7}")
    table = []
    for mine in sides["tessera"]["rows"]:
        wid = mine["workload"]
        other = theirs.get(wid, {})
        t, m = other.get("rate"), mine.get("rate")
        ratio = m / t if t and m else float("nan")
        table.append({"workload": wid, "unit": other.get("unit"), "triton": t,
                      "tessera": m, "ratio": ratio,
                      "cublas": other.get("cublas"),
                      "tessera_error": mine.get("error"),
                      "triton_error": other.get("error")})
        fmt = lambda v: f"{v:9.1f}" if v else f"{'failed':>9}"
        print(f"{wid:72} {other.get('unit') or '':>8} {fmt(t)} {fmt(m)} {ratio:7.3f}")
    print("output checks (Triton / Tessera):")
    for name in sides["tessera"]["checks"]:
        print(f"  {name:20} {sides['triton']['checks'].get(name)} / "
              f"{sides['tessera']['checks'][name]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": sides["triton"]["device"],
                       "triton": sides["triton"]["triton"], "mode": "python",
                       "rows": table, "checks": {
                           s: sides[s]["checks"] for s in sides}}, f, indent=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", help="the tessera binary (C++ side)")
    parser.add_argument("--python", action="store_true",
                        help="drive Tessera from Python too (tessera.activate())")
    parser.add_argument("--side", choices=("triton", "tessera"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--kernels-dir", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "conformance", "kernels"))
    parser.add_argument("--json", help="write both sides' figures here")
    parser.add_argument("--bandwidth-only", action="store_true",
                        help="leave out the matmul and attention rows")
    parser.add_argument("--configs", choices=("tune", "all"), default="tune",
                        help="all: also time every config of each autotuned "
                             "matmul on both sides (C++ side)")
    parser.add_argument("--only", action="append", default=[],
                        help="only the workloads whose id contains this "
                             "(repeatable; C++ side)")
    args = parser.parse_args()
    if args.side:
        return run_side(args)
    if args.python:
        return main_python(args)
    if not args.tessera:
        parser.error("give --tessera PATH or --python")

    import torch
    import triton
    import triton.testing

    props = torch.cuda.get_device_properties(0)
    clocks_start = gpu_clocks()
    rows = []
    per_config = {}
    for wid, nbytes, flops, launch, *ref in triton_workloads(
            args.kernels_dir, torch, triton, props.multi_processor_count,
            args.bandwidth_only):
        if args.only and not any(o in wid for o in args.only):
            continue
        unit, rate = time_workload(launch, nbytes, flops, torch, triton)
        cublas = (time_workload(ref[0], nbytes, flops, torch, triton)[1]
                  if ref and ref[0] else None)
        rows.append((wid, unit, rate, cublas))
        if args.configs == "all":
            per_config[wid] = triton_config_rates(launch, flops, torch, triton)
        print(f"triton: {wid}: {rate:.1f}, cuBLAS {cublas}", file=sys.stderr,
              flush=True)

    result = subprocess.run(
        [args.tessera, "bench", "--backend", "nvptx", "--kernels-dir",
         args.kernels_dir, "--json", "-", "--configs", args.configs] +
        sum([["--kernel", wid if wid.count("/") == 2 else wid + "/*"]
             for wid, _, _, _ in rows], []),
        capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout, result.stderr, file=sys.stderr)
        sys.exit(result.returncode)
    report = json.loads(result.stdout[result.stdout.index("\n{") + 1:])
    ours = {}
    for w in report.get("workloads", []):
        ours[w["id"]] = w.get("rate")
        ours.setdefault(w["id"].rsplit("/", 1)[0], w.get("rate"))
        if w["id"] in per_config and w.get("rate"):
            flops = w["rate"] * w["milliseconds"] * 1e9
            mine = tessera_config_rates(w, flops)
            theirs = per_config[w["id"]]
            per_config[w["id"]] = [
                {"config": k, "triton": theirs.get(k), "tessera": mine.get(k)}
                for k in sorted(set(theirs) | set(mine))]
    clocks_end = gpu_clocks()
    print(f"device: {props.name}, Triton {triton.__version__}, torch {torch.__version__}")
    print(f"clocks at start: {clocks_start}")
    print(f"clocks at end:   {clocks_end}")
    nan = float("nan")
    print(f"{'workload':72} {'unit':>8} {'Triton':>9} {'Tessera':>9} {'ratio':>7}"
          f" {'cuBLAS':>9} {'/cuBLAS':>8}")
    table = []
    for wid, unit, theirs, cublas in rows:
        mine = ours.get(wid)
        ratio = mine / theirs if mine else nan
        vs_cublas = mine / cublas if mine and cublas else nan
        table.append({"workload": wid, "unit": unit, "triton": theirs,
                      "tessera": mine, "ratio": ratio, "cublas": cublas,
                      "tessera_vs_cublas": vs_cublas})
        print(f"{wid:72} {unit:>8} {theirs:9.1f} "
              f"{mine if mine else nan:9.1f} {ratio:7.3f}"
              f" {cublas if cublas else nan:9.1f} {vs_cublas:8.3f}")
    for wid, configs in per_config.items():
        print(f"per config: {wid}")
        for c in configs:
            t, m = c["triton"], c["tessera"]
            both = isinstance(t, float) and isinstance(m, float)
            show = lambda v: f"{v:9.1f}" if isinstance(v, float) else f"{'-':>9}"
            print(f"  {c['config']:110} {show(t)} {show(m)}"
                  f" {m / t if both else nan:7.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": props.name, "triton": triton.__version__,
                       "torch": torch.__version__, "clocks_start": clocks_start,
                       "clocks_end": clocks_end, "rows": table,
                       "per_config": per_config,
                       "tessera_report": report}, f, indent=1)


if __name__ == "__main__":
    main()
