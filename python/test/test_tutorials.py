"""Each tutorial kernel of conformance/kernels, launched from Python as a
Triton user writes it: host functions in the style of Triton's tutorials,
over NumPy arrays (cpu backend) and torch tensors, checked against float64
references on fresh random inputs with the outputs poisoned first.

Sizes are small (odd, to exercise the masks) so the suite stays fast on the
cpu backend; autotuned kernels run over two of their configs.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import triton

import kernel_files
import philox

pytestmark = pytest.mark.device


def rel_err(out, ref) -> float:
    out = np.asarray(out, np.float64)
    ref = np.asarray(ref, np.float64)
    if not np.all(np.isfinite(out)):
        return math.inf
    denom = np.linalg.norm(ref)
    return float(np.linalg.norm(out - ref) / (denom if denom else 1.0))


def stride(lib, array, dim: int) -> int:
    """A dimension's stride in elements, for torch tensors and NumPy arrays."""
    if lib.name == "torch":
        return array.stride(dim)
    return array.strides[dim] // array.itemsize


def randn(lib, rng, shape, dtype="fp32", scale=1.0):
    values = rng.standard_normal(shape) * scale
    return lib.asarray(values, dtype), lib.numpy(lib.asarray(values, dtype)).astype(np.float64)


def need(lib, *dtypes):
    for d in dtypes:
        if not lib.supports(d):
            pytest.skip(f"{lib.name} has no {d} arrays")


# --------------------------------------------------------------------------- 01


def vector_add(lib, x, y, block=1024, dtype="fp32"):
    output = lib.poisoned(x.shape, dtype)
    n_elements = x.shape[0]
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]), )
    kernel_files.load("01_vector_add").add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=block)
    return output


@pytest.mark.parametrize("n,block,dtype", [(1, 1024, "fp32"), (1000, 1024, "fp32"), (4097, 1024, "fp32"),
                                           (1000, 128, "fp32"), (777, 256, "fp16")])
def test_01_vector_add(lib, rng, n, block, dtype):
    x, xr = randn(lib, rng, (n, ), dtype)
    y, yr = randn(lib, rng, (n, ), dtype)
    out = vector_add(lib, x, y, block, dtype)
    tol = 1e-7 if dtype == "fp32" else 1e-3
    assert rel_err(lib.numpy(out), xr + yr) < tol


# --------------------------------------------------------------------------- 02


def softmax(lib, x, programs, dtype="fp32"):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = lib.poisoned(x.shape, dtype)
    kernel = kernel_files.load("02_fused_softmax").softmax_kernel
    kernel[(min(programs, n_rows), 1, 1)](y, x, stride(lib, x, 0), stride(lib, y, 0), n_rows, n_cols,
                                          BLOCK_SIZE=BLOCK_SIZE, num_stages=2, num_warps=8)
    return y


def softmax_ref(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("rows,cols,programs,dtype", [(1, 1, 1, "fp32"), (7, 33, 3, "fp32"),
                                                      (64, 1000, 8, "fp32"), (13, 129, 13, "fp16")])
def test_02_fused_softmax(lib, rng, rows, cols, programs, dtype):
    x, xr = randn(lib, rng, (rows, cols), dtype)
    y = softmax(lib, x, programs, dtype)
    assert rel_err(lib.numpy(y), softmax_ref(xr)) < (1e-5 if dtype == "fp32" else 1e-3)


def test_02_occupancy_from_the_warmed_up_handle(lib, rng):
    """Tutorial 02 sizes its grid from the compiled kernel's registers and
    shared memory, read off kernel.warmup()'s handle."""
    x, xr = randn(lib, rng, (10, 50))
    y = lib.poisoned((10, 50), "fp32")
    kernel = kernel_files.load("02_fused_softmax").softmax_kernel
    properties = triton.runtime.driver.active.utils.get_device_properties(0)
    compiled = kernel.warmup(y, x, stride(lib, x, 0), stride(lib, y, 0), 10, 50, BLOCK_SIZE=64,
                             num_stages=2, num_warps=8, grid=(1, ))
    compiled._init_handles()
    assert isinstance(compiled.n_regs, int) and isinstance(compiled.metadata.shared, int)
    assert properties["multiprocessor_count"] >= 1
    kernel[(3, 1, 1)](y, x, stride(lib, x, 0), stride(lib, y, 0), 10, 50, 64, 2)
    assert rel_err(lib.numpy(y), softmax_ref(xr)) < 1e-5


# --------------------------------------------------------------------------- 03


SMALL_MATMUL = [(32, 64, 32, 5, 2), (64, 32, 32, 5, 2)]


def small_configs(module_configs, wanted):
    keep = [c for c in module_configs
            if (c.kwargs["BLOCK_SIZE_M"], c.kwargs["BLOCK_SIZE_N"], c.kwargs["BLOCK_SIZE_K"],
                c.num_stages, c.num_warps) in wanted]
    assert keep, "the kernel file's configs changed"
    return keep


def matmul(lib, a, b, activation="", group=None):
    module = kernel_files.load("03_matmul")
    kernel = module.matmul_kernel
    kernel.configs = small_configs(module.MATMUL_CONFIGS, SMALL_MATMUL)
    M, K = a.shape
    _, N = b.shape
    c = lib.poisoned((M, N), "fp16")
    grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]), )
    if group is None:
        kernel[grid](a, b, c, M, N, K, stride(lib, a, 0), stride(lib, a, 1), stride(lib, b, 0),
                     stride(lib, b, 1), stride(lib, c, 0), stride(lib, c, 1), ACTIVATION=activation)
    else:  # one config by hand, through kernel.fn as tutorials' ablations do
        kernel.fn[grid](a, b, c, M, N, K, stride(lib, a, 0), stride(lib, a, 1), stride(lib, b, 0),
                        stride(lib, b, 1), stride(lib, c, 0), stride(lib, c, 1), BLOCK_SIZE_M=32,
                        BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=group, ACTIVATION=activation,
                        num_warps=4, num_stages=2)
    return c


def leaky_relu(x):
    return np.where(x >= 0, x, 0.01 * x)


@pytest.mark.parametrize("M,N,K,activation,group", [(64, 64, 64, "", None), (67, 45, 39, "", 2),
                                                    (67, 45, 39, "leaky_relu", 4), (16, 16, 16, "", 8)])
def test_03_matmul(lib, rng, M, N, K, activation, group):
    a, ar = randn(lib, rng, (M, K), "fp16")
    b, br = randn(lib, rng, (K, N), "fp16")
    c = matmul(lib, a, b, activation, group)
    ref = ar @ br
    if activation:
        ref = leaky_relu(ref)
    assert rel_err(lib.numpy(c), ref) < 2e-3


def test_03_matmul_fp8_with_b_transposed(lib, rng):
    need(lib, "fp8e4nv")
    import torch
    M, N, K = 48, 40, 64
    a = torch.from_numpy(rng.standard_normal((M, K)).astype(np.float32)).to(torch.float8_e4m3fn)
    b = torch.from_numpy(rng.standard_normal((N, K)).astype(np.float32)).to(torch.float8_e4m3fn).T
    a, b = a.to(lib.device), b.to(lib.device)
    c = matmul(lib, a, b)
    ref = a.double().cpu().numpy() @ b.double().cpu().numpy()
    assert rel_err(lib.numpy(c), ref) < 4e-2


# --------------------------------------------------------------------------- 04


def test_04_dropout_with_a_given_mask(lib, rng):
    module = kernel_files.load("04_low_memory_dropout")
    n, p = 1000, 0.3
    x, xr = randn(lib, rng, (n, ))
    keep = (rng.random(n) > p).astype(np.int8)
    x_keep = lib.asarray(keep, "i8")
    out = lib.poisoned((n, ), "fp32")
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]), )
    module.dropout_kernel[grid](x, x_keep, out, n, p, BLOCK_SIZE=1024)
    assert rel_err(lib.numpy(out), np.where(keep != 0, xr / (1 - p), 0.0)) < 1e-6


@pytest.mark.parametrize("n,p,seed", [(4099, 0.5, 123), (1000, 0.25, 7)])
def test_04_seeded_dropout_is_triton_philox(lib, rng, n, p, seed):
    module = kernel_files.load("04_low_memory_dropout")

    def seeded_dropout(x, p, seed):
        output = lib.poisoned(x.shape, "fp32")
        n_elements = x.shape[0]
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]), )
        module.seeded_dropout_kernel[grid](x, output, n_elements, p, seed, BLOCK_SIZE=1024)
        return output

    x, xr = randn(lib, rng, (n, ))
    first = lib.numpy(seeded_dropout(x, p, seed))
    again = lib.numpy(seeded_dropout(x, p, seed))
    assert np.array_equal(first, again)
    keep = philox.rand(seed, np.arange(n, dtype=np.int32)) > np.float32(p)
    assert np.array_equal(first != 0, keep & (xr != 0))
    assert rel_err(first, np.where(keep, xr / (1 - p), 0.0)) < 1e-6


# --------------------------------------------------------------------------- 05


def layer_norm_reference(x, w, b, eps):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    return (x - mean) * rstd * w + b, mean[:, 0], rstd[:, 0]


def layer_norm_backward_reference(x, w, dy, eps):
    N = x.shape[1]
    mean = x.mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + eps)
    xhat = (x - mean) * rstd
    g = dy * w
    dx = (g - (xhat * (xhat * g).sum(axis=1, keepdims=True) / N + g.sum(axis=1, keepdims=True) / N)) * rstd
    return dx, (dy * xhat).sum(axis=0), dy.sum(axis=0)


@pytest.mark.parametrize("M,N,dtype,block", [(37, 100, "fp32", 128), (19, 300, "fp16", 64), (1, 1, "fp32", 1)])
def test_05_layer_norm_forward(lib, rng, M, N, dtype, block):
    module = kernel_files.load("05_layer_norm")
    eps = 1e-5
    x, xr = randn(lib, rng, (M, N), dtype)
    w, wr = randn(lib, rng, (N, ), dtype)
    b, br = randn(lib, rng, (N, ), dtype)
    y = lib.poisoned((M, N), dtype)
    mean = lib.poisoned((M, ), "fp32")
    rstd = lib.poisoned((M, ), "fp32")
    num_warps = min(max(block // 256, 1), 8)
    module._layer_norm_fwd_fused[(M, )](x, y, w, b, mean, rstd, stride(lib, x, 0), N, eps,
                                        BLOCK_SIZE=block, num_warps=num_warps)
    ref_y, ref_mean, ref_rstd = layer_norm_reference(xr, wr, br, eps)
    tol = 1e-5 if dtype == "fp32" else 1e-3
    assert rel_err(lib.numpy(y), ref_y) < tol
    assert rel_err(lib.numpy(mean), ref_mean) < 1e-5
    assert rel_err(lib.numpy(rstd), ref_rstd) < 1e-5


@pytest.mark.parametrize("M,N,dtype,group", [(37, 100, "fp32", 8), (50, 64, "fp16", 16), (5, 33, "fp32", 64)])
def test_05_layer_norm_backward(lib, rng, M, N, dtype, group):
    module = kernel_files.load("05_layer_norm")
    eps = 1e-5
    x, xr = randn(lib, rng, (M, N), dtype)
    w, wr = randn(lib, rng, (N, ), dtype)
    b, _ = randn(lib, rng, (N, ), dtype)
    dy, dyr = randn(lib, rng, (M, N), dtype)
    BLOCK_N = triton.next_power_of_2(N)
    y = lib.poisoned((M, N), dtype)
    mean = lib.poisoned((M, ), "fp32")
    rstd = lib.poisoned((M, ), "fp32")
    module._layer_norm_fwd_fused[(M, )](x, y, w, b, mean, rstd, stride(lib, x, 0), N, eps, BLOCK_SIZE=BLOCK_N)
    lock = lib.asarray(np.zeros(2 * group), "i32")
    partial_dw = lib.poisoned((group, N), "fp32")
    partial_db = lib.poisoned((group, N), "fp32")
    dx = lib.poisoned((M, N), dtype)
    module._layer_norm_bwd_dx_fused[(M, )](dx, dy, partial_dw, partial_db, x, w, mean, rstd, lock,
                                           stride(lib, x, 0), N, GROUP_SIZE_M=group, BLOCK_SIZE_N=BLOCK_N)
    dw = lib.poisoned((N, ), dtype)
    db = lib.poisoned((N, ), dtype)
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK_SIZE_N"]), )
    module._layer_norm_bwd_dwdb[grid](partial_dw, partial_db, dw, db, min(group, M), N,
                                      BLOCK_SIZE_M=module.DWDB_BLOCK_SIZE_M,
                                      BLOCK_SIZE_N=module.DWDB_BLOCK_SIZE_N)
    ref_dx, ref_dw, ref_db = layer_norm_backward_reference(xr, wr, dyr, eps)
    tol = 1e-5 if dtype == "fp32" else 2e-3
    assert rel_err(lib.numpy(dx), ref_dx) < tol
    assert rel_err(lib.numpy(dw), ref_dw) < tol
    assert rel_err(lib.numpy(db), ref_db) < tol
    assert not lib.numpy(lock)[:group].any()  # every lock released


# --------------------------------------------------------------------------- 06


def attention_reference(q, k, v, causal, sm_scale):
    s = q @ np.swapaxes(k, -1, -2) * sm_scale
    if causal:
        n = q.shape[-2]
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    p = np.exp(s - m)
    lse = (m[..., 0] + np.log(p.sum(axis=-1)))
    return (p / p.sum(axis=-1, keepdims=True)) @ v, lse / math.log(2)


@pytest.mark.parametrize("Z,H,N_CTX,D,causal", [(1, 2, 64, 32, False), (1, 2, 64, 32, True),
                                                (2, 1, 128, 16, True)])
@pytest.mark.parametrize("variant", ["pointers", "descriptors"])
def test_06_attention_forward(lib, rng, Z, H, N_CTX, D, causal, variant):
    module = kernel_files.load("06_fused_attention")
    q, qr = randn(lib, rng, (Z, H, N_CTX, D), "fp16", 0.5)
    k, kr = randn(lib, rng, (Z, H, N_CTX, D), "fp16", 0.5)
    v, vr = randn(lib, rng, (Z, H, N_CTX, D), "fp16", 0.5)
    sm_scale = 1.0 / math.sqrt(D)
    o = lib.poisoned((Z, H, N_CTX, D), "fp16")
    M = lib.poisoned((Z * H, N_CTX), "fp32")
    stage = 3 if causal else 1
    grid = lambda args: (triton.cdiv(N_CTX, args["BLOCK_M"]), Z * H, 1)
    if variant == "pointers":
        kernel = module._attn_fwd
        kernel.configs = [c for c in module.ATTN_FWD_CONFIGS
                          if c.kwargs == {"BLOCK_M": 64, "BLOCK_N": 32} and c.num_stages == 3][:1]
        strides = [stride(lib, t, d) for t in (q, k, v, o) for d in range(4)]
        kernel[grid](q, k, v, sm_scale, M, o, *strides, Z, H, N_CTX, HEAD_DIM=D, STAGE=stage)
    else:
        triton.set_allocator(lambda size, alignment, stream: lib.empty((size, ), "i8"))
        kernel = module._attn_fwd_desc
        kernel.configs = [c for c in module.ATTN_FWD_DESC_CONFIGS
                          if c.kwargs == {"BLOCK_M": 64, "BLOCK_N": 32} and c.num_stages == 2][:1]
        kernel[grid](q, k, v, sm_scale, M, o, Z, H, N_CTX, HEAD_DIM=D, STAGE=stage)
    ref_o, ref_m = attention_reference(qr, kr, vr, causal, sm_scale)
    assert rel_err(lib.numpy(o), ref_o) < 2e-3
    assert rel_err(lib.numpy(M), ref_m.reshape(Z * H, N_CTX)) < 1e-5


def attention_backward_reference(q, k, v, do, causal, sm_scale):
    s = q @ np.swapaxes(k, -1, -2) * sm_scale
    n = q.shape[-2]
    if causal:
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    o = p @ v
    dv = np.swapaxes(p, -1, -2) @ do
    dp = do @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(axis=-1, keepdims=True))
    dq = ds @ k * sm_scale
    dk = np.swapaxes(ds, -1, -2) @ q * sm_scale
    return o, dq, dk, dv


@pytest.mark.parametrize("Z,H,N_CTX,D,causal", [(1, 2, 64, 32, False), (1, 2, 128, 32, True)])
def test_06_attention_backward(lib, rng, Z, H, N_CTX, D, causal):
    module = kernel_files.load("06_fused_attention")
    q, qr = randn(lib, rng, (Z, H, N_CTX, D), "fp16", 0.5)
    k, kr = randn(lib, rng, (Z, H, N_CTX, D), "fp16", 0.5)
    v, vr = randn(lib, rng, (Z, H, N_CTX, D), "fp16", 0.5)
    do, dor = randn(lib, rng, (Z, H, N_CTX, D), "fp16", 0.5)
    sm_scale = 1.0 / math.sqrt(D)
    o = lib.poisoned((Z, H, N_CTX, D), "fp16")
    M = lib.poisoned((Z * H, N_CTX), "fp32")
    fwd = module._attn_fwd
    fwd.configs = [c for c in module.ATTN_FWD_CONFIGS
                   if c.kwargs == {"BLOCK_M": 64, "BLOCK_N": 32} and c.num_stages == 3][:1]
    strides = [stride(lib, t, d) for t in (q, k, v, o) for d in range(4)]
    grid = lambda args: (triton.cdiv(N_CTX, args["BLOCK_M"]), Z * H, 1)
    fwd[grid](q, k, v, sm_scale, M, o, *strides, Z, H, N_CTX, HEAD_DIM=D, STAGE=3 if causal else 1)

    delta = lib.poisoned((Z * H, N_CTX), "fp32")
    module._attn_bwd_preprocess[(N_CTX // 32, Z * H)](o, do, delta, Z, H, N_CTX, BLOCK_M=32, HEAD_DIM=D)
    dq = lib.poisoned((Z, H, N_CTX, D), "fp16")
    dk = lib.poisoned((Z, H, N_CTX, D), "fp16")
    dv = lib.poisoned((Z, H, N_CTX, D), "fp16")
    # Blocks (32, 64, 64, 32), slice factor 2: the CPU shapes of the conformance plan.
    module._attn_bwd[(N_CTX // 64, 1, Z * H)](
        q, k, v, sm_scale, do, dq, dk, dv, M, delta, stride(lib, q, 0), stride(lib, q, 1),
        stride(lib, q, 2), stride(lib, q, 3), H, N_CTX, BLOCK_M1=32, BLOCK_N1=64, BLOCK_M2=64, BLOCK_N2=32,
        BLK_SLICE_FACTOR=2, HEAD_DIM=D, CAUSAL=causal, num_warps=4, num_stages=5)
    ref_o, ref_dq, ref_dk, ref_dv = attention_backward_reference(qr, kr, vr, dor, causal, sm_scale)
    assert rel_err(lib.numpy(o), ref_o) < 2e-3
    o_values = lib.numpy(o).astype(np.float64)  # Delta is computed from the stored (fp16) O
    assert rel_err(lib.numpy(delta), (o_values * dor).sum(axis=-1).reshape(Z * H, N_CTX)) < 1e-5
    for got, ref in ((dq, ref_dq), (dk, ref_dk), (dv, ref_dv)):
        assert rel_err(lib.numpy(got), ref) < 1e-2


# --------------------------------------------------------------------------- 07


def test_07_libdevice_asin(lib, rng):
    module = kernel_files.load("07_extern_functions")
    n = 1000
    values = rng.uniform(-1, 1, n)
    x = lib.asarray(values, "fp32")
    y = lib.poisoned((n, ), "fp32")
    module.asin_kernel[(triton.cdiv(n, module.BLOCK_SIZE), )](x, y, n, BLOCK_SIZE=module.BLOCK_SIZE)
    assert rel_err(lib.numpy(y), np.arcsin(values.astype(np.float32).astype(np.float64))) < 1e-6


# --------------------------------------------------------------------------- 08


def address(lib, array) -> int:
    return array.data_ptr() if lib.name == "torch" else array.__array_interface__["data"][0]


def grouped_gemm_host(lib, rng, shapes, pad_lda=0, b_transposed=False):
    """Tutorial 08's host side: per-GEMM matrices and the pointer tables."""
    a_list, b_list, c_list, refs, sizes, lds = [], [], [], [], [], []
    for (m, n, k) in shapes:
        lda = k + pad_lda
        a_full, a_ref = randn(lib, rng, (m, lda), "fp16")
        a_ref = a_ref[:, :k]
        b, b_ref = randn(lib, rng, (n, k) if b_transposed else (k, n), "fp16")
        c = lib.poisoned((m, n), "fp16")
        a_list.append(a_full)
        b_list.append(b)
        c_list.append(c)
        refs.append(a_ref @ (b_ref.T if b_transposed else b_ref))
        sizes += [m, n, k]
        lds += [lda, k if b_transposed else n, n]
    tables = [lib.asarray(np.array([address(lib, t) for t in ts], np.int64), "i64")
              for ts in (a_list, b_list, c_list)]
    keep_alive = (a_list, b_list)
    return tables, lib.asarray(np.array(sizes), "i32"), lib.asarray(np.array(lds), "i32"), c_list, refs, keep_alive


@pytest.mark.parametrize("num_sm", [3, 64])
def test_08_grouped_gemm(lib, rng, num_sm):
    module = kernel_files.load("08_grouped_gemm")
    shapes = [(40, 24, 40), (17, 33, 20), (64, 64, 64), (1, 8, 5)]
    (a_ptrs, b_ptrs, c_ptrs), sizes, lds, cs, refs, _alive = grouped_gemm_host(lib, rng, shapes, pad_lda=3)
    group_size = len(shapes)
    module.grouped_matmul_kernel.fn[(num_sm, )](a_ptrs, b_ptrs, c_ptrs, sizes, lds, group_size, NUM_SM=num_sm,
                                                BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32)
    for c, ref in zip(cs, refs):
        assert rel_err(lib.numpy(c), ref) < 2e-3


def test_08_grouped_gemm_descriptors(lib, rng):
    module = kernel_files.load("08_grouped_gemm")
    shapes = [(40, 24, 48), (17, 40, 32), (64, 64, 64), (1, 16, 16)]
    (a_ptrs, b_ptrs, c_ptrs), sizes, lds, cs, refs, _alive = grouped_gemm_host(lib, rng, shapes,
                                                                               b_transposed=True)
    triton.set_allocator(lambda size, alignment, stream: lib.empty((size, ), "i8"))
    module.grouped_matmul_desc_kernel.fn[(5, )](a_ptrs, b_ptrs, c_ptrs, sizes, lds, len(shapes), NUM_SM=5,
                                                BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=16,
                                                FP8=False)
    for c, ref in zip(cs, refs):
        assert rel_err(lib.numpy(c), ref) < 2e-3


# --------------------------------------------------------------------------- 09


@pytest.mark.parametrize("M,N,K", [(50, 40, 72), (16, 16, 16)])
@pytest.mark.parametrize("variant", ["matmul_kernel", "matmul_kernel_persistent", "matmul_kernel_descriptor",
                                     "matmul_kernel_descriptor_persistent"])
def test_09_persistent_matmul(lib, rng, M, N, K, variant):
    module = kernel_files.load("09_persistent_matmul")
    a, ar = randn(lib, rng, (M, K), "fp16")
    b_nk, br = randn(lib, rng, (N, K), "fp16")  # B stored (N, K)
    c = lib.poisoned((M, N), "fp16")
    kernel = getattr(module, variant).fn
    meta = dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=4, num_warps=4, num_stages=2)
    tiles = triton.cdiv(M, 32) * triton.cdiv(N, 32)
    num_sms = 3
    if variant in ("matmul_kernel", "matmul_kernel_persistent"):
        b = b_nk.T  # the (K, N) view
        strides = (stride(lib, a, 0), stride(lib, a, 1), stride(lib, b, 0), stride(lib, b, 1),
                   stride(lib, c, 0), stride(lib, c, 1))
        if variant == "matmul_kernel":
            kernel[(tiles, )](a, b, c, M, N, K, *strides, **meta)
        else:
            kernel[(min(num_sms, tiles), )](a, b, c, M, N, K, *strides, NUM_SMS=num_sms, **meta)
    else:
        triton.set_allocator(lambda size, alignment, stream: lib.empty((size, ), "i8"))
        if variant == "matmul_kernel_descriptor":
            kernel[(tiles, )](a, b_nk, c, M, N, K, WARP_SPECIALIZE=False, **meta)
        else:
            for subtile in (False, True):
                kernel[(min(num_sms, tiles), )](a, b_nk, c, M, N, K, EPILOGUE_SUBTILE=subtile, NUM_SMS=num_sms,
                                                WARP_SPECIALIZE=False, **meta)
    assert rel_err(lib.numpy(c), ar @ br.T) < 2e-3
