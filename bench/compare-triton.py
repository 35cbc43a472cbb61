#!/usr/bin/env python3
"""Runs the same conformance kernel files under Triton and under Tessera on
one GPU, in one run, and prints per workload both figures and their ratio.

Triton side: the kernel files are imported as Python modules and launched
with the launch parameters `tessera bench` uses (conformance/lib/Tutorial*.cpp),
timed with triton.testing.do_bench (median). Tessera side: `tessera bench
--backend nvptx --json`. Usage, on a GPU host with Triton and torch:

  bench/compare-triton.py --tessera PATH/bin/tessera [--kernels-dir DIR]
"""
import argparse
import importlib.util
import json
import os
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
    """(tessera workload id, GB moved or 0, TFLOP count or 0, launch) per
    workload; autotuned kernels tune over their own configs on both sides."""
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
    ma = (torch.rand(size, size, device="cuda") * 2 - 1).half()
    mb = (torch.rand(size, size, device="cuda") * 2 - 1).half()
    mc = torch.empty(size, size, device="cuda", dtype=torch.float16)
    mgrid = lambda meta: (triton.cdiv(size, meta["BLOCK_SIZE_M"]) *
                          triton.cdiv(size, meta["BLOCK_SIZE_N"]),)
    out.append(("03_matmul/matmul_kernel/fp16,8192x8192x8192", 0,
                2.0 * size ** 3,
                lambda: mm.matmul_kernel[mgrid](
                    ma, mb, mc, size, size, size, size, 1, size, 1, size, 1,
                    ACTIVATION="")))
    # fp8 e4m3 inputs (C fp16), B read K-major as the (K, N) view of an
    # (N, K) tensor: the shape the conformance workload times.
    fa = ma.to(torch.float8_e4m3fn)
    fb = mb.to(torch.float8_e4m3fn)  # (N, K), contiguous
    out.append(("03_matmul/matmul_kernel/fp8e4m3,8192x8192x8192,b-transposed",
                0, 2.0 * size ** 3,
                lambda: mm.matmul_kernel[mgrid](
                    fa, fb, mc, size, size, size, size, 1, 1, size, size, 1,
                    ACTIVATION="")))

    # Tensor descriptors made in the kernel (TMA on both sides): Triton
    # needs a global-scratch allocator for them.
    triton.set_allocator(lambda size, align, stream: torch.empty(
        size, dtype=torch.int8, device="cuda"))
    pm = load(os.path.join(kernels, "09_persistent_matmul.py"))
    mbt = mb.t().contiguous()  # B given transposed, (N, K)
    out.append(("09_persistent_matmul/matmul_kernel_descriptor/"
                "fp16,8192x8192x8192", 0, 2.0 * size ** 3,
                lambda: pm.matmul_kernel_descriptor[mgrid](
                    ma, mbt, mc, size, size, size, WARP_SPECIALIZE=False)))

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
                STAGE=3 if causal else 1)))
        out.append((
            "06_fused_attention/_attn_fwd_desc/fp16,Z=4,H=32,N_CTX=4096,D=128," +
            ("causal" if causal else "non-causal"), 0, flops,
            lambda causal=causal: at._attn_fwd_desc[agrid](
                q, k, v, hd ** -0.5, lse, o, az, ah, n_ctx, HEAD_DIM=hd,
                STAGE=3 if causal else 1)))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", required=True)
    parser.add_argument("--kernels-dir", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "conformance", "kernels"))
    parser.add_argument("--json", help="write both sides' figures here")
    parser.add_argument("--bandwidth-only", action="store_true",
                        help="leave out the matmul and attention rows")
    args = parser.parse_args()

    import torch
    import triton
    import triton.testing

    props = torch.cuda.get_device_properties(0)
    rows = []
    for wid, nbytes, flops, launch in triton_workloads(
            args.kernels_dir, torch, triton, props.multi_processor_count,
            args.bandwidth_only):
        launch()  # autotunes where the kernel is autotuned
        torch.cuda.synchronize()
        ms = triton.testing.do_bench(launch, warmup=50, rep=300)
        rows.append((wid, "GB/s", nbytes / ms / 1e6) if nbytes else
                    (wid, "TFLOP/s", flops / ms / 1e9))

    result = subprocess.run(
        [args.tessera, "bench", "--backend", "nvptx", "--kernels-dir",
         args.kernels_dir, "--json", "-"] +
        sum([["--kernel", wid if wid.count("/") == 2 else wid + "/*"]
             for wid, _, _ in rows], []),
        capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout, result.stderr, file=sys.stderr)
        sys.exit(result.returncode)
    report = json.loads(result.stdout[result.stdout.index("\n{") + 1:])
    ours = {}
    for w in report.get("workloads", []):
        ours[w["id"]] = w.get("rate")
        ours.setdefault(w["id"].rsplit("/", 1)[0], w.get("rate"))
    print(f"device: {props.name}, Triton {triton.__version__}, torch {torch.__version__}")
    print(f"{'workload':72} {'unit':>8} {'Triton':>9} {'Tessera':>9} {'ratio':>7}")
    table = []
    for wid, unit, theirs in rows:
        mine = ours.get(wid)
        ratio = mine / theirs if mine else float("nan")
        table.append({"workload": wid, "unit": unit, "triton": theirs,
                      "tessera": mine, "ratio": ratio})
        print(f"{wid:72} {unit:>8} {theirs:9.1f} "
              f"{mine if mine else float('nan'):9.1f} {ratio:7.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": props.name, "triton": triton.__version__,
                       "rows": table, "tessera_report": report}, f, indent=1)


if __name__ == "__main__":
    main()
