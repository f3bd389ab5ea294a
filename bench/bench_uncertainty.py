#!/usr/bin/env python
"""Benchmark DeLong's AUC variance in evallib.uncertainty against what a user would write instead.

    .venv/bin/python -m bench.bench_uncertainty [--repeats 5] [--big 1000000]

Three ways to the uncertainty of an AUC on the same labels and scores (30 % positive, informative scores):

- evallib: ``uncertainty.roc_auc_interval`` (structural components by sorting and binary search, O(N log N));
- a plain O(m⁺·m⁻) DeLong: the ψ table of every (positive, negative) pair, in row blocks so memory stays bounded
  (the textbook formula as most implementations write it);
- bootstrapping the AUC: ``scipy.stats.bootstrap`` (percentile, 2000 resamples) over ``evallib.curves.roc_auc``.

The plain version and the bootstrap are timed where they finish in seconds and extrapolated to the big N from
their known growth (N² for the table; linear in the resamples for the bootstrap, each resample one O(N log N)
AUC); the extrapolation is labelled as such. Agreement is checked first (variances equal to 1e-12 relative).
Prints a Markdown section for bench/RESULTS.md with the machine's load average, which inflates every time.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
import scipy
from scipy import stats

from bench.timing import median_time
from evallib import curves, uncertainty


def data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    return y, rng.random(n) + 0.3 * y


def plain_delong_variance(y, s, block=2048):
    """DeLong's variance from the m⁺ × m⁻ table of ψ (1, ½, 0), built in row blocks: O(m⁺·m⁻) time."""
    pos, neg = s[y == 1], s[y == 0]
    v10 = np.empty(pos.size)
    v01 = np.zeros(neg.size)
    for i in range(0, pos.size, block):
        p = pos[i : i + block, None]
        psi = (p > neg[None, :]) + 0.5 * (p == neg[None, :])
        v10[i : i + block] = psi.mean(axis=1)
        v01 += psi.sum(axis=0)
    v01 /= pos.size
    return v10.var(ddof=1) / pos.size + v01.var(ddof=1) / neg.size


def bootstrap_auc(y, s, n_resamples, seed=0):
    return stats.bootstrap(
        (y, s),
        curves.roc_auc,
        paired=True,
        vectorized=False,
        n_resamples=n_resamples,
        method="percentile",
        rng=np.random.default_rng(seed),
    )


def fmt(t):
    return f"{t * 1e3:.1f} ms" if t < 1 else (f"{t:.2f} s" if t < 600 else f"{t / 60:.0f} min")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--big", type=int, default=10**6)
    args = ap.parse_args()
    load0 = os.getloadavg()
    rows = []
    # agreement first, with and without ties
    for n, rounding in ((3000, None), (3000, 2)):
        y, s = data(n)
        s = np.round(s, rounding) if rounding else s
        ours = uncertainty.roc_auc_interval(y, s).variance
        assert np.isclose(ours, plain_delong_variance(y, s), rtol=1e-12), "DeLong variances disagree"
    for n in (10**4, 3 * 10**4):
        y, s = data(n)
        t_ours = median_time(lambda: uncertainty.roc_auc_interval(y, s), args.repeats, warmup=True)
        t_plain = median_time(lambda: plain_delong_variance(y, s), max(1, args.repeats // 2), warmup=False)
        t_boot = median_time(lambda: bootstrap_auc(y, s, 2000), 1)
        rows.append((f"{n:.0e}".replace("e+0", "e"), "measured", t_ours, t_plain, t_boot))
    y, s = data(args.big)
    t_ours = median_time(lambda: uncertainty.roc_auc_interval(y, s), args.repeats, warmup=True)
    cpu = []
    for _ in range(args.repeats):  # CPU seconds of this process: much less inflated by other processes' load
        c0 = time.process_time()
        uncertainty.roc_auc_interval(y, s)
        cpu.append(time.process_time() - c0)
    n_small = 3 * 10**4
    t_plain_big = rows[-1][3] * (args.big / n_small) ** 2  # m⁺·m⁻ grows as N²
    t_boot20 = median_time(lambda: bootstrap_auc(y, s, 20), 1)
    t_boot_big = t_boot20 * 2000 / 20
    rows.append(
        (
            f"{args.big:.0e}".replace("e+0", "e"),
            "evallib measured; plain: N² from 3e4; bootstrap: 20 resamples × 100",
            t_ours,
            t_plain_big,
            t_boot_big,
        )
    )
    load1 = os.getloadavg()
    print("## Uncertainty: DeLong's AUC variance vs a plain O(m⁺·m⁻) DeLong and vs bootstrapping the AUC\n")
    print(
        "Labels 30 % positive, scores `U(0,1) + 0.3·y`; `bench/bench_uncertainty.py`. evallib: "
        "`uncertainty.roc_auc_interval` (sort-based structural components); plain: the ψ table of all "
        "(positive, negative) pairs in row blocks; bootstrap: `scipy.stats.bootstrap` (percentile, 2000 "
        "resamples) of `evallib.curves.roc_auc`. Variances agree with the plain table to 1e-12 (with and without "
        "ties) before timing. ratio = evallib / the other (< 1: evallib faster).\n"
    )
    print("| N | how | evallib DeLong | plain O(m⁺·m⁻) DeLong | ratio | bootstrap (2000) | ratio |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for n, how, a, b, c in rows:
        print(f"| {n} | {how} | {fmt(a)} | {fmt(b)} | {a / b:.2g} | {fmt(c)} | {a / c:.2g} |")
    big = f"{args.big:.0e}".replace("e+0", "e")
    print(
        f"\nevallib's DeLong at N = {big}: median CPU time {fmt(statistics.median(cpu))} "
        f"(process time, {args.repeats} calls; wall-clock above)."
    )
    print(
        f"\nMachine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; NumPy {np.__version__}, "
        f"SciPy {scipy.__version__}; one BLAS thread. Load average (1, 5, 15 min) at start "
        f"{load0[0]:.2f}, {load0[1]:.2f}, {load0[2]:.2f}; at end {load1[0]:.2f}, {load1[1]:.2f}, {load1[2]:.2f} "
        "(shared machine: a high load inflates every time, both sides of a ratio alike)."
    )


if __name__ == "__main__":
    main()
