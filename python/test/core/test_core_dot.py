"""Port of test_core.py's tl.dot tests: epilogues, precisions, operand
layouts, mixed sizes, 3-D dots, fp8 inputs, and dots fed by loops."""
from __future__ import annotations

import numpy as np
import pytest

import triton
import triton.language as tl

from core_util import BACKEND, assert_close, empty, kernel_from_source, random, to_device, to_numpy

pytestmark = pytest.mark.device

DOT_KERNEL = """
@triton.jit
def kernel(X, sxm, sxk, Y, syk, syn, W, swn, swl, Z, szm, szn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ADD_MATRIX: tl.constexpr,
           ADD_ROWS: tl.constexpr, ADD_COLS: tl.constexpr, INPUT_PRECISION: tl.constexpr, DO_SOFTMAX: tl.constexpr,
           CHAIN_DOT: tl.constexpr, out_dtype: tl.constexpr = tl.float32):
    m = tl.arange(0, BLOCK_M)
    n = tl.arange(0, BLOCK_N)
    l = tl.arange(0, BLOCK_N)
    k = tl.arange(0, BLOCK_K)
    Zs = Z + m[:, None] * szm + n[None, :] * szn
    x = tl.load(X + m[:, None] * sxm + k[None, :] * sxk)
    y = tl.load(Y + k[:, None] * syk + n[None, :] * syn)
    z = tl.dot(x, y, input_precision=INPUT_PRECISION, out_dtype=out_dtype)
    if ADD_MATRIX:
        z += tl.load(Zs)
    if ADD_ROWS:
        z += tl.load(Z + m * szm)[:, None]
    if ADD_COLS:
        z += tl.load(Z + n * szn)[None, :]
    if DO_SOFTMAX:
        row_max = tl.max(z, 1)
        z = z - row_max[:, None]
        num = tl.exp(z.to(tl.float32)).to(row_max.dtype)
        z = num / tl.sum(num, 1)[:, None]
    if CHAIN_DOT:
        w = tl.load(W + n[:, None] * swn + l[None, :] * swl)
        z = tl.dot(z.to(w.dtype), w, input_precision=INPUT_PRECISION, out_dtype=out_dtype)
    tl.store(Zs, z)
"""

EPILOGUES = ["none", "trans", "add-matrix", "add-rows", "add-cols", "softmax", "chain-dot"]

BASE_CASES = [(M, N, K, 4, False, False, epilogue, precision, a, b)
              for (M, N, K) in [(64, 64, 64), (32, 32, 32), (16, 16, 16)]
              for epilogue in EPILOGUES
              for precision in ["tf32", "tf32x3", "ieee"]
              for (a, b) in [("float16", "float16"), ("float16", "float32"), ("float32", "float32")]
              if not (precision != "ieee" and a == "float16")]

MIXED_CASES = [(M, N, K, nw, col_a, col_b, "none", "ieee", a, b)
               for (M, N, K, nw) in [(128, 256, 32, 8), (128, 16, 32, 4), (32, 128, 64, 4), (128, 128, 64, 4),
                                     (64, 128, 128, 4), (32, 128, 64, 2), (64, 64, 32, 4), (32, 32, 128, 16),
                                     (128, 128, 64, 2), (64, 128, 128, 2)]
               for col_a in [True, False] for col_b in [True, False]
               for (a, b) in [("int8", "int8"), ("float16", "float16"), ("float16", "float32"), ("float32", "float32")]]

TRANSPOSED_CASES = [(64, 64, 64, 4, col_a, col_b, "none", "ieee", "float32", "float32")
                    for col_a in [True, False] for col_b in [True, False]]

SMALL_MN_CASES = [(M, N, K, nw, False, False, epilogue, "ieee", a, b)
                  for (M, N, K, nw) in [(2, 2, 16, 1), (1, 64, 64, 1), (64, 2, 64, 2), (64, 64, 4, 4)]
                  for epilogue in ["none", "trans", "add-matrix", "add-rows", "add-cols"]
                  for (a, b) in [("float16", "float16"), ("float32", "float32")]]

OTHER_CASES = [(64, 64, 64, 4, False, False, "chain-dot", "ieee", "bfloat16", "float32")] + \
    [(128, 128, 64, 4, False, False, "chain-dot", "ieee", fp8, "float32") for fp8 in ["float8e5", "float8e4nv"]]


def _tf32(values):
    return (values.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


@pytest.mark.matrix
@pytest.mark.parametrize("M,N,K,num_warps,col_a,col_b,epilogue,precision,in_dtype,out_dtype",
                         BASE_CASES + MIXED_CASES + TRANSPOSED_CASES + SMALL_MN_CASES + OTHER_CASES)
def test_dot(M, N, K, num_warps, col_a, col_b, epilogue, precision, in_dtype, out_dtype):
    if BACKEND == "nvptx" and (M < 16 or N < 16 or K < 16):
        pytest.skip("not applicable: the original runs dots below 16 only on AMD GPUs")
    rng = np.random.default_rng(17)
    fp8 = in_dtype.startswith("float8")
    if fp8:
        torch = pytest.importorskip("torch")
    x = random((K, M), in_dtype if not fp8 else "float32", rng).T if col_a else \
        random((M, K), in_dtype if not fp8 else "float32", rng)
    y = random((N, K), in_dtype if not fp8 else "float32", rng).T if col_b else \
        random((K, N), in_dtype if not fp8 else "float32", rng)
    w = random((N, N), in_dtype if not fp8 else "float32", rng)
    if in_dtype not in ("int8", ) and not fp8:
        x, y = x * 0.1, y * 0.1
    if fp8:
        import arrays
        lib = arrays.make_lib("torch", BACKEND)
        torch_fp8 = {"float8e5": torch.float8_e5m2, "float8e4nv": torch.float8_e4m3fn}[in_dtype]
        cast = lambda a: torch.from_numpy(np.ascontiguousarray(a, np.float32)).to(torch_fp8)
        x_t, y_t, w_t = cast(x), cast(y), cast(w)
        x, y, w = (t.float().numpy() for t in (x_t, y_t, w_t))
        # Column-major operands are uploaded as the transposed row-major data.
        x_dev = (x_t.T.contiguous() if col_a else x_t).to(lib.device)
        y_dev = (y_t.T.contiguous() if col_b else y_t).to(lib.device)
        w_dev = w_t.to(lib.device)
    else:
        if in_dtype == "float32" and precision == "tf32":
            x, y, w = _tf32(x), _tf32(y), _tf32(w)
        x_dev = to_device(np.ascontiguousarray(x.T) if col_a else x, in_dtype)
        y_dev = to_device(np.ascontiguousarray(y.T) if col_b else y, in_dtype)
        w_dev = to_device(w, in_dtype)
    if out_dtype == "int8":
        z = 1 + random((M, N), "int32", rng)
        z_dtype = "int32"
    else:
        z = 1 + random((M, N), in_dtype if not fp8 and in_dtype != "int8" else "float32", rng) * 0.1
        z_dtype = in_dtype if not fp8 and in_dtype != "int8" else "float32"
    if in_dtype == "int8":
        z_dtype, z = "int32", (1 + random((M, N), "int32", rng)).astype(np.int32)
    if epilogue == "trans":
        z_dev = to_device(np.ascontiguousarray(z.T), z_dtype)
        szm, szn = 1, M
    else:
        z_dev = to_device(z, z_dtype)
        szm, szn = N, 1
    tl_out = {"int8": tl.int8, "float16": tl.float16}.get(out_dtype, tl.float32)
    if out_dtype == "float16" and epilogue == "softmax":
        tl_out = tl.float32
    kernel = kernel_from_source(DOT_KERNEL)

    sx = (1, M) if col_a else (K, 1)
    sy = (1, K) if col_b else (N, 1)
    kernel[(1, 1)](x_dev, *sx, y_dev, *sy, w_dev, N, 1, z_dev, szm, szn, BLOCK_M=M, BLOCK_N=N, BLOCK_K=K,
                   ADD_MATRIX=epilogue == "add-matrix", ADD_ROWS=epilogue == "add-rows",
                   ADD_COLS=epilogue == "add-cols", INPUT_PRECISION=precision, DO_SOFTMAX=epilogue == "softmax",
                   CHAIN_DOT=epilogue == "chain-dot", out_dtype=tl_out, num_warps=num_warps)
    ref = x.astype(np.float64) @ y.astype(np.float64)
    if epilogue == "add-matrix":
        ref = ref + z
    if epilogue == "add-rows":
        ref = ref + z[:, 0][:, None]
    if epilogue == "add-cols":
        ref = ref + z[0, :][None, :]
    if epilogue == "softmax":
        e = np.exp(ref - ref.max(axis=-1, keepdims=True))
        ref = e / e.sum(axis=-1, keepdims=True)
    if epilogue == "chain-dot":
        if fp8:
            ref = torch.from_numpy(ref.astype(np.float32)).to(torch_fp8).float().numpy()
        ref = ref @ w.astype(np.float64)
    got = to_numpy(z_dev)
    if epilogue == "trans":
        got = got.T
    if in_dtype == "int8":  # integer dots accumulate (and return) int32
        assert_close(got, ref.astype(np.int64), exact=True)
        return
    atol = 1e-2 if (tl_out == tl.float16 or in_dtype == "bfloat16") else 1e-3
    if fp8:
        atol = 1e-1
    assert_close(got, ref, rtol=1e-2, atol=atol)


@pytest.mark.matrix
@pytest.mark.parametrize("B,num_warps,M,N,K,BLOCK_M,BLOCK_N,in_dtype,out_dtype",
                         [(B, nw, M, N, K, BM, BN, a, b)
                          for B in [1, 2, 4, 8] for nw in [1, 2, 4, 8, 16]
                          for (BM, BN) in [(32, 32)] for (M, N, K) in [(64, 64, 64), (32, 32, 32)]
                          for (a, b) in [("int8", "int8"), ("float16", "float16"), ("float16", "float32"),
                                         ("float32", "float32")]] +
                         [(4, 4, 128, 128, 64, 64, 64, "float16", "float16")] +
                         [(B, nw, 32, 32, 32, BM, BN, a, b)
                          for B in [1, 2, 8] for nw in [1, 2, 4]
                          for (BM, BN) in [(1, 32), (32, 2), (8, 8)]
                          for (a, b) in [("float16", "float16"), ("float32", "float32")]])
def test_dot3d(B, num_warps, M, N, K, BLOCK_M, BLOCK_N, in_dtype, out_dtype):
    if BACKEND == "nvptx" and (BLOCK_M < 16 or BLOCK_N < 16):
        pytest.skip("not applicable: the original runs dots below 16 only on AMD GPUs")
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(q_ptr, k_ptr, o_ptr, sqb, sqm, sqk, skb, skk, skn, sob, som, son,
                   BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   INPUT_PRECISION: tl.constexpr, out_dtype: tl.constexpr = tl.float32):
            b = tl.arange(0, BLOCK_B)
            m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
            n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
            k = tl.arange(0, BLOCK_K)
            q = tl.load(q_ptr + b[:, None, None] * sqb + m[None, :, None] * sqm + k[None, None, :] * sqk)
            kk = tl.load(k_ptr + b[:, None, None] * skb + k[None, :, None] * skk + n[None, None, :] * skn)
            qk = tl.dot(q, kk, input_precision=INPUT_PRECISION, out_dtype=out_dtype)
            tl.store(o_ptr + b[:, None, None] * sob + m[None, :, None] * som + n[None, None, :] * son, qk)
    """)
    rng = np.random.default_rng(17)
    x = random((B, M, K), in_dtype, rng)
    y = random((B, K, N), in_dtype, rng)
    out_np_dtype = "int32" if in_dtype == "int8" else out_dtype
    out = empty((B, M, N), out_np_dtype)
    tl_out = {"int8": tl.int8, "float16": tl.float16}.get(out_dtype, tl.float32)
    kernel[(triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))](
        to_device(x), to_device(y), out, M * K, K, 1, K * N, N, 1, M * N, N, 1, BLOCK_B=B, BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N, BLOCK_K=K, INPUT_PRECISION="ieee", out_dtype=tl_out, num_warps=num_warps)
    ref = np.matmul(x.astype(np.float64), y.astype(np.float64))
    if in_dtype == "int8":
        assert_close(out, ref.astype(np.int64), exact=True)
    else:
        assert_close(out, ref, rtol=1e-2, atol=1e-2)


def test_dot_of_broadcast_products():
    kernel = kernel_from_source("""
        @triton.jit
        def kernel(Z, X, Y, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr):
            pidn = tl.program_id(1)
            pidm = tl.program_id(0)
            offm = tl.arange(0, BM)[:, None]
            offn = tl.arange(0, BN)[None, :]
            offak = tl.arange(0, BK)[None, :]
            offbk = tl.arange(0, BK)[:, None]
            acc = tl.full((BM, BN), 0.0, tl.float32)
            for r in range(0, K // BK):
                x = tl.load(X + ((pidm * K * BM) + (offm * K) + (r * BK) + offak))
                y = tl.load(Y + ((pidn * BN) + (offbk * N) + (r * N * BK) + offn))
                acc = tl.sum(tl.expand_dims(x, axis=2) * tl.expand_dims(y, axis=0), axis=1) + acc
            tl.store(Z + ((pidm * BM * N) + (pidn * BN) + (offm * N) + offn), acc)
    """)
    M, N, K, BM, BN, BK = 256, 192, 160, 128, 32, 32
    rng = np.random.default_rng(17)
    x = random((M, K), "float32", rng) * np.float32(0.1)
    y = random((K, N), "float32", rng) * np.float32(0.1)
    z = empty((M, N), "float32")
    kernel[(M // BM, N // BN)](z, to_device(x), to_device(y), M, N, K, BM, BN, BK)
    assert_close(z, x.astype(np.float64) @ y, rtol=0, atol=0.01)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_dot_without_load(dtype):
    kernel = kernel_from_source(f"""
        @triton.jit
        def kernel(out):
            a = tl.full((32, 32), 1.0, tl.{dtype})
            b = tl.full((32, 32), 1.0, tl.{dtype})
            out_ptr = out + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
            tl.store(out_ptr, tl.dot(a, b))
    """)
    out = empty((32, 32), dtype)
    kernel[(1, )](out)
    assert_close(out, np.full((32, 32), 32.0), exact=True)


MATMUL = """
@triton.jit
def kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, low_precision_acc: tl.constexpr,
           num_stages: tl.constexpr = 3):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    pid_m = pid % num_pid_m
    pid_n = pid // num_pid_m
    am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (am[:, None] * sam + k[None, :] * sak)
    b_ptrs = b_ptr + (k[:, None] * sbk + bn[None, :] * sbn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=num_stages):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc=acc, max_num_imprecise_acc=low_precision_acc)
        a_ptrs += BLOCK_K * sak
        b_ptrs += BLOCK_K * sbk
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + scm * cm[:, None] + scn * cn[None, :], acc)
"""


def test_tl_range_num_stages():
    M, N, K = 64, 64, 512
    rng = np.random.default_rng(1)
    a = random((M, K), "float16", rng)
    b = random((K, N), "float16", rng)
    c = empty((M, N), "float32")
    kernel_from_source(MATMUL)[1, ](to_device(a), to_device(b), c, M, N, K, K, 1, N, 1, N, 1, 64, 64, 64, 0,
                                    num_stages=5)
    assert_close(c, a.astype(np.float64) @ b, rtol=1e-3, atol=1e-3)


@pytest.mark.matrix
@pytest.mark.parametrize("BLOCK_M,BLOCK_N,BLOCK_K", [(128, 256, 128), (64, 64, 64)])
@pytest.mark.parametrize("in_dtype", ["float8e5", "float8e4nv"])
@pytest.mark.parametrize("low_precision_acc", [0, 32, 64, 128])
def test_dot_max_num_imprecise_acc(BLOCK_M, BLOCK_N, BLOCK_K, in_dtype, low_precision_acc):
    torch = pytest.importorskip("torch")
    import arrays
    lib = arrays.make_lib("torch", BACKEND)
    M, N, K = 128, 256, 256
    fp8 = {"float8e5": torch.float8_e5m2, "float8e4nv": torch.float8_e4m3fn}[in_dtype]
    torch.manual_seed(0)
    a = torch.randn(M, K).to(fp8)
    b = torch.randn(K, N).to(fp8)
    c = torch.empty(M, N, dtype=torch.float32, device=lib.device)
    acc = low_precision_acc if low_precision_acc <= BLOCK_K else None
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N), 1)
    kernel_from_source(MATMUL)[grid](a.to(lib.device), b.to(lib.device), c, M, N, K, K, 1, N, 1, N, 1, BLOCK_M,
                                     BLOCK_N, BLOCK_K, acc, num_warps=8, num_stages=3)
    ref = a.double() @ b.double()
    tol = 1e-2 if in_dtype == "float8e4nv" else 1e-3
    assert_close(c.cpu().numpy(), ref.numpy(), rtol=tol, atol=tol)
