"""@triton.autotune and @triton.heuristics around Tessera kernels: choosing,
hooks, reset_to_zero/restore_value, pruning, re-tuning on key changes, and
the runtime's tuning records."""
from __future__ import annotations

import itertools
import uuid

import numpy as np
import pytest

import triton
import triton.language as tl

pytestmark = pytest.mark.device

# The runtime remembers tuning results per kernel and key, in the process
# and on disk, and these tests count measurements: each run has its own
# program (RUN changes its hash) and each test its own key values (fresh_n).
RUN = tl.constexpr(uuid.uuid4().hex)
_sizes = itertools.count(1)


def fresh_n(base: int) -> int:
    """`base` plus a number no other launch of this run used: a new key."""
    return base + next(_sizes)


def configs(*blocks):
    return [triton.Config({"BLOCK": b}, num_warps=4, num_stages=1) for b in blocks]


@triton.jit
def report_block(out_ptr, n, RUN_ID: tl.constexpr, BLOCK: tl.constexpr):
    """Writes BLOCK into out[0] and 1 into out[1 + i] for i < n."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + 1 + offs, tl.full([BLOCK], 1, tl.int32), mask=offs < n)
    if tl.program_id(0) == 0:
        tl.store(out_ptr, BLOCK)


class FakeBench:
    """A do_bench that runs the call once and reports a time chosen per
    BLOCK, read back from what the kernel wrote: a deterministic winner."""

    def __init__(self, lib, out, times):
        self.lib, self.out, self.times = lib, out, times
        self.measured = []

    def __call__(self, fn, quantiles=None):
        fn()
        block = int(self.lib.numpy(self.out)[0])
        self.measured.append(block)
        t = self.times[block]
        return [t, t, t] if quantiles else t


def tuned(do_bench, blocks=(16, 32, 64), **kwargs):
    return triton.autotune(configs=configs(*blocks), key=["n"], do_bench=do_bench, **kwargs)(report_block)


def grid(meta):
    return (triton.cdiv(meta["n"], meta["BLOCK"]), )


def test_fastest_config_wins_and_is_remembered(lib):
    n = fresh_n(200)
    out = lib.asarray(np.zeros(n + 1), "i32")
    bench = FakeBench(lib, out, {16: 3.0, 32: 1.0, 64: 2.0})
    kernel = tuned(bench)
    kernel[grid](out, n, RUN_ID=RUN)
    assert sorted(bench.measured) == [16, 32, 64]
    assert kernel.best_config.kwargs == {"BLOCK": 32}
    assert int(lib.numpy(out)[0]) == 32 and lib.numpy(out)[1:].all()
    assert set(c.kwargs["BLOCK"] for c in kernel.configs_timings) == {16, 32, 64}
    # Same key: no measurement.
    kernel[grid](out, n, RUN_ID=RUN)
    assert len(bench.measured) == 3
    # A new value of the key re-tunes.
    bench.times = {16: 0.5, 32: 1.0, 64: 2.0}
    kernel[grid](out, fresh_n(100), RUN_ID=RUN)
    assert len(bench.measured) == 6 and kernel.best_config.kwargs == {"BLOCK": 16}


def test_records_are_shared_by_autotuners_of_the_same_kernel(lib):
    n = fresh_n(300)
    out = lib.asarray(np.zeros(n + 1), "i32")
    first = FakeBench(lib, out, {16: 3.0, 32: 2.0, 64: 1.0})
    tuned(first)[grid](out, n, RUN_ID=RUN)
    second = FakeBench(lib, out, {16: 0.1, 32: 0.1, 64: 9.0})
    kernel = tuned(second)
    kernel[grid](out, n, RUN_ID=RUN)
    assert second.measured == [] and kernel.best_config.kwargs == {"BLOCK": 64}


def test_dtype_of_pointer_arguments_is_part_of_the_key(lib):
    n = fresh_n(64)
    out32 = lib.asarray(np.zeros(n + 1), "i32")
    bench = FakeBench(lib, out32, {16: 1.0, 32: 2.0, 64: 3.0})
    kernel = tuned(bench)
    kernel[grid](out32, n, RUN_ID=RUN)
    assert len(bench.measured) == 3
    out64 = lib.asarray(np.zeros(n + 1), "i64")
    bench.out = out64
    kernel[grid](out64, n, RUN_ID=RUN)
    assert len(bench.measured) == 6


def test_prune_configs_by(lib):
    n = fresh_n(100)
    out = lib.asarray(np.zeros(n + 1), "i32")
    bench = FakeBench(lib, out, {8: 5.0, 16: 4.0, 32: 3.0, 64: 2.0})

    def early(configs, named_args, **kwargs):
        return [c for c in configs if c.kwargs["BLOCK"] >= 16]

    def model(**kwargs):
        return kwargs["BLOCK"]  # claims smaller is faster

    kernel = tuned(bench, blocks=(8, 16, 32, 64),
                   prune_configs_by={"early_config_prune": early, "perf_model": model, "top_k": 2})
    kernel[grid](out, n, RUN_ID=RUN)
    assert sorted(bench.measured) == [16, 32]
    assert kernel.best_config.kwargs == {"BLOCK": 32}


@triton.jit
def accumulate(acc_ptr, x_ptr, n, RUN_ID: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.atomic_add(acc_ptr, tl.sum(tl.load(x_ptr + offs, mask=mask, other=0.0), axis=0))


def test_reset_to_zero(lib):
    n = fresh_n(100)
    x = lib.asarray(np.ones(n), "fp32")
    acc = lib.asarray(np.zeros(1), "fp32")
    kernel = triton.autotune(configs=configs(16, 32), key=["n"], reset_to_zero=["acc_ptr"],
                             do_bench=lambda fn, quantiles: [fn() or 1.0] * 3)(accumulate)
    kernel[grid](acc, x, n, RUN_ID=RUN)
    assert lib.numpy(acc)[0] == n  # the tuning runs were zeroed away


@triton.jit
def increment(x_ptr, n, RUN_ID: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1, mask=mask)


def test_restore_value(lib):
    n = fresh_n(50)
    x = lib.asarray(np.zeros(n), "fp32")
    kernel = triton.autotune(configs=configs(16, 32, 64), key=["n"], restore_value=["x_ptr"],
                             do_bench=lambda fn, quantiles: [fn() or 1.0] * 3)(increment)
    kernel[grid](x, n, RUN_ID=RUN)
    assert np.all(lib.numpy(x) == 1.0)  # tuning ran three times, restored each time


def test_user_hooks(lib):
    events = []
    n = fresh_n(40)
    x = lib.asarray(np.zeros(n), "fp32")

    def pre_hook(kwargs, reset_only=False):
        events.append(("pre", kwargs["BLOCK"], reset_only, kwargs["n"]))

    def post_hook(kwargs, exception):
        events.append(("post", kwargs["BLOCK"], exception))

    def config_pre_hook(nargs):
        events.append(("config", nargs["BLOCK"]))

    cs = [triton.Config({"BLOCK": 16}, pre_hook=config_pre_hook), triton.Config({"BLOCK": 64})]
    kernel = triton.autotune(configs=cs, key=["n"], pre_hook=pre_hook, post_hook=post_hook,
                             do_bench=lambda fn, quantiles: [fn() or 1.0] * 3)(increment)
    kernel[grid](x, n, RUN_ID=RUN)
    assert ("config", 16) in events and ("pre", 16, False, n) in events
    assert ("post", 64, None) in events and ("pre", 64, False, n) in events
    assert events[-1] in (("pre", 16, True, n), ("pre", 64, True, n), ("config", 16))


def test_warmup_rep_and_default_do_bench(lib):
    n = fresh_n(40)
    x = lib.asarray(np.zeros(n), "fp32")
    with pytest.warns(DeprecationWarning, match="warmup, rep"):
        kernel = triton.autotune(configs=configs(16, 32), key=["n"], warmup=1, rep=2,
                                 restore_value=["x_ptr"])(increment)
    kernel[grid](x, n, RUN_ID=RUN)
    assert kernel.best_config in kernel.configs
    assert all(len(t) == 3 for t in kernel.configs_timings.values())
    assert np.all(lib.numpy(x) == 1.0)


def test_autotune_warmup_compiles_every_config(lib):
    x = lib.asarray(np.zeros(40), "fp32")
    kernel = triton.autotune(configs=configs(16, 32), key=["n"])(increment)
    handles = kernel.warmup(x, 40, RUN_ID=RUN, grid=(1, ))
    assert len(handles) == 2 and all(h.name == "increment" for h in handles)
    assert np.all(lib.numpy(x) == 0.0)


def test_conflicting_meta_parameter(lib):
    n = fresh_n(40)
    x = lib.asarray(np.zeros(n), "fp32")
    kernel = triton.autotune(configs=configs(16, 32), key=["n"],
                             do_bench=lambda fn, quantiles: [1.0] * 3)(increment)
    with pytest.raises(ValueError, match="Conflicting meta-parameters: BLOCK"):
        kernel[grid](x, n, RUN_ID=RUN, BLOCK=16)


@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"]),
                    "EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def fill_with_heuristics(out_ptr, n, value, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, value + 0 * offs)
    else:
        tl.store(out_ptr + offs, value + 0 * offs, mask=offs < n)


@pytest.mark.parametrize("n", [32, 33, 1])
def test_heuristics(lib, n):
    out = lib.poisoned((64, ), "fp32")
    fill_with_heuristics[(1, )](out, n, 2.5)
    values = lib.numpy(out)
    assert np.all(values[:n] == 2.5)
    assert np.all(np.isnan(values[n:]))


@triton.autotune(configs=configs(16, 32), key=["n"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def tuned_then_heuristics(out_ptr, n, value, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, value + 0 * offs)
    else:
        tl.store(out_ptr + offs, value + 0 * offs, mask=offs < n)


def test_autotune_over_heuristics(lib):
    out = lib.poisoned((64, ), "fp32")
    tuned_then_heuristics[grid](out, 48, 1.5)
    values = lib.numpy(out)
    assert np.all(values[:48] == 1.5) and np.all(np.isnan(values[48:]))
    assert tuned_then_heuristics.best_config.kwargs["BLOCK"] in (16, 32)


def test_every_config_compiles_before_the_first_is_timed(lib):
    n = fresh_n(300)
    out = lib.asarray(np.zeros(n + 1), "i32")
    loads_at_first_measurement = []

    def loads():
        return report_block._kernel.statistics()["loads"] if report_block._kernel else 0

    class CountingBench(FakeBench):
        def __call__(self, fn, quantiles=None):
            if not self.measured:
                loads_at_first_measurement.append(loads())
            return super().__call__(fn, quantiles)

    before = loads()
    bench = CountingBench(lib, out, {16: 3.0, 32: 1.0, 64: 2.0})
    kernel = triton.autotune(configs=configs(16, 32, 64), key=["n"], do_bench=bench)(report_block)
    # A RUN_ID of its own: specializations no other test compiled.
    kernel[grid](out, n, RUN_ID=tl.constexpr(uuid.uuid4().hex))
    # The three configs were compiled (as one batch) before any was timed,
    # and timing them compiled nothing more.
    assert loads_at_first_measurement == [before + 3]
    assert loads() == before + 3
    assert kernel.best_config.kwargs == {"BLOCK": 32}
    assert int(lib.numpy(out)[0]) == 32 and lib.numpy(out)[1:].all()


def test_a_config_that_cannot_compile_loses_with_its_error(lib):
    n = fresh_n(400)
    out = lib.asarray(np.zeros(n + 1), "i32")
    bench = FakeBench(lib, out, {16: 3.0, 32: 1.0})
    # BLOCK=48 is no power of 2: tl.arange refuses it when compiled.
    kernel = triton.autotune(configs=configs(16, 48, 32), key=["n"], do_bench=bench)(report_block)
    kernel[grid](out, n, RUN_ID=RUN)
    assert sorted(bench.measured) == [16, 32]
    assert kernel.best_config.kwargs == {"BLOCK": 32}
