# Language pieces real kernels use beyond the tutorials: tl.sort, tl.topk,
# tl.flip, tl.bitonic_merge and tl.gather; (key, index) sorts, by packing
# both into one integer and by a hand-written bitonic network over size-2
# axes; a decoupled look-back scan across programs; concatenations;
# rounding to fp8. The
# kernels of LanguageEndToEndTest.cpp, runnable unchanged under Triton.
import triton
import triton.language as tl


@triton.jit
def _tile(M: tl.constexpr, N: tl.constexpr):
    return tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]


@triton.jit
def sort_rows(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr,
              DESCENDING: tl.constexpr):
    offs = _tile(M, N)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.sort(x, descending=DESCENDING))


@triton.jit
def sort_method(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, x.sort(dim=0, descending=True))


@triton.jit
def topk_rows(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr,
              K: tl.constexpr):
    x = tl.load(x_ptr + _tile(M, N))
    tl.store(y_ptr + _tile(M, K), tl.topk(x, K))


@triton.jit
def flip_2d(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr,
            DIM: tl.constexpr):
    offs = _tile(M, N)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.flip(x, DIM))


@triton.jit
def merge_rows(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr,
               DESCENDING: tl.constexpr):
    # Each row is bitonic (up then down); one merge sorts it.
    offs = _tile(M, N)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.bitonic_merge(x, descending=DESCENDING))


@triton.jit
def gather_2d(src_ptr, idx_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
              IM: tl.constexpr, IN: tl.constexpr, AXIS: tl.constexpr):
    src = tl.load(src_ptr + _tile(M, N))
    idx = tl.load(idx_ptr + _tile(IM, IN))
    tl.store(out_ptr + _tile(IM, IN), tl.gather(src, idx, AXIS))


@triton.jit
def argsort_packed(x_ptr, idx_ptr, val_ptr, N: tl.constexpr):
    # Sort (key, index) pairs as one int64: the float's bits mapped onto
    # signed integers in the floats' order, above the index, so equal keys
    # keep their index order.
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    bits = x.to(tl.int32, bitcast=True)
    key = tl.where(bits < 0, bits ^ 0x7FFFFFFF, bits)
    packed = (key.to(tl.int64) << 32) | offs.to(tl.int64)
    order = (tl.sort(packed) & 0xFFFFFFFF).to(tl.int32)
    tl.store(idx_ptr + offs, order)
    tl.store(val_ptr + offs, tl.load(x_ptr + order))


@triton.jit
def _halves(v, shape: tl.constexpr):
    # Both elements of every pair along the middle (size-2) axis of `shape`,
    # each broadcast over its pair, back in v's shape.
    y = tl.reshape(v, shape)
    second = tl.arange(0, 2)[None, :, None]
    lo = tl.broadcast_to(tl.sum(y * (1 - second), 1)[:, None, :], shape)
    hi = tl.broadcast_to(tl.sum(y * second, 1)[:, None, :], shape)
    return tl.reshape(lo, v.shape), tl.reshape(hi, v.shape)


@triton.jit
def _swap_pairs(keys, ids, down, bit: tl.constexpr, LOG: tl.constexpr):
    # Orders the pairs whose in-row positions differ in bit LOG - 1 - bit,
    # swapping keys and ids together with xors.
    rows: tl.constexpr = keys.numel >> LOG
    shape: tl.constexpr = [rows * 2**bit, 2, 2**(LOG - bit - 1)]
    lk, rk = _halves(keys, shape)
    li, ri = _halves(ids, shape)
    swap = (lk > rk) != down
    keys = keys ^ tl.where(swap, lk ^ rk, tl.zeros_like(keys))
    ids = ids ^ tl.where(swap, li ^ ri, tl.zeros_like(ids))
    return keys, ids


@triton.jit
def _merge_pairs(keys, ids, stage: tl.constexpr, ALTERNATE: tl.constexpr,
                 DESCENDING: tl.constexpr, LOG: tl.constexpr):
    rows: tl.constexpr = keys.numel >> LOG
    if ALTERNATE:
        # Runs of 2**stage go up and down in turn.
        shape: tl.constexpr = [rows * 2**(LOG - 1 - stage), 2, 2**stage]
        down = tl.reshape(tl.broadcast_to(tl.arange(0, 2)[None, :, None],
                                          shape), keys.shape)
    else:
        down = DESCENDING
    for i in tl.static_range(stage):
        keys, ids = _swap_pairs(keys, ids, down, i + (LOG - stage), LOG)
    return keys, ids


@triton.jit
def bitonic_argsort_rows(x_ptr, key_ptr, idx_ptr, M: tl.constexpr,
                         N: tl.constexpr, LOG: tl.constexpr,
                         DESCENDING: tl.constexpr):
    # A hand-written bitonic sort carrying indices, in the style of
    # libraries' top-k kernels: reshape to size-2 axes, tl.sum to pick a
    # side, broadcast back, xor-swap.
    offs = _tile(M, N)
    keys = tl.load(x_ptr + offs)
    ids = tl.broadcast_to(tl.arange(0, N)[None, :], (M, N))
    for stage in tl.static_range(1, LOG + 1):
        keys, ids = _merge_pairs(keys, ids, stage, stage < LOG, DESCENDING,
                                 LOG)
    tl.store(key_ptr + offs, keys)
    tl.store(idx_ptr + offs, ids)


@triton.jit
def pair_max(x_ptr, y_ptr, N: tl.constexpr):
    # The larger of each adjacent pair, through a size-2 axis.
    x = tl.load(x_ptr + tl.arange(0, 2 * N))
    tl.store(y_ptr + tl.arange(0, N), tl.max(tl.reshape(x, (N, 2)), axis=1))


@triton.jit
def narrow_to_fp8(x_ptr, e4m3_ptr, e5m2_ptr, N: tl.constexpr):
    # Rounding to nearest even into both fp8 formats.
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(e4m3_ptr + offs, x.to(tl.float8e4nv))
    tl.store(e5m2_ptr + offs, x.to(tl.float8e5))


@triton.jit
def lookback_cumsum(x_ptr, y_ptr, flag_ptr, prefix_ptr, n,
                    BLOCK: tl.constexpr, SPIN_ATOMIC: tl.constexpr):
    # Decoupled look-back: program i waits for program i - 1 to publish the
    # inclusive prefix of everything before it, adds its own total and
    # publishes that for program i + 1.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    before = 0
    if pid > 0:
        if SPIN_ATOMIC:
            while tl.atomic_add(flag_ptr + pid - 1, 0) == 0:
                pass
        else:
            while tl.load(flag_ptr + pid - 1, volatile=True) == 0:
                pass
        before = tl.atomic_add(prefix_ptr + pid - 1, 0)
    tl.atomic_xchg(prefix_ptr + pid, before + tl.sum(x, 0))
    tl.atomic_xchg(flag_ptr + pid, 1)
    tl.store(y_ptr + offs, tl.cumsum(x, 0) + before, mask=mask)


@triton.jit
def cat_halves(a_ptr, b_ptr, y_ptr, sum_ptr, N: tl.constexpr):
    # tl.cat may reorder elements: its sum is exact, its order is the
    # backend's; the cpu keeps a before b.
    a = tl.load(a_ptr + tl.arange(0, N))
    b = tl.load(b_ptr + tl.arange(0, N))
    c = tl.cat(a, b, can_reorder=True)
    tl.store(y_ptr + tl.arange(0, 2 * N), c)
    tl.store(sum_ptr, tl.sum(c, 0))


@triton.jit
def where_join(a_ptr, b_ptr, y_ptr, N: tl.constexpr, FIRST_A: tl.constexpr):
    # Joining two loads into one block with tl.where, and choosing between
    # whole blocks with a scalar condition.
    offs = tl.arange(0, 2 * N)
    low = offs < N
    a = tl.load(a_ptr + offs, mask=low, other=0.0)
    b = tl.load(b_ptr + offs - N, mask=offs >= N, other=0.0)
    joined = tl.where(low, a, b)
    swapped = tl.where(low, b, a)
    pid = tl.program_id(0)
    tl.store(y_ptr + pid * 2 * N + offs,
             tl.where((pid == 0) == FIRST_A, joined, swapped))


@triton.jit
def cat_join_pairs(a_ptr, b_ptr, y_ptr, N: tl.constexpr):
    # Interleaving two blocks through join, and a where between a cat and a
    # block of the cat's shape.
    a = tl.load(a_ptr + tl.arange(0, N))
    b = tl.load(b_ptr + tl.arange(0, N))
    pairs = tl.reshape(tl.join(a, b), (2 * N,))
    c = tl.cat(a, b, can_reorder=True)
    keep = tl.sum(c, 0) > -1e30
    tl.store(y_ptr + tl.arange(0, 2 * N), tl.where(keep, pairs, c))
