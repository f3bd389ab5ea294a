#!/usr/bin/env python
"""Benchmark chapter 13's tests (evallib.compare) against what a user would reach for instead.

    .venv/bin/python -m bench.bench_compare_today [--repeats 5]

Prints a Markdown table of median wall-clock times (milliseconds) and the ratio alternative / evallib
(above 1: evallib is faster), with the machine's load average. Every pair is first checked to agree: exactly
(SciPy, statsmodels, baycomp's correlated t-test) or within Monte Carlo error (baycomp's signed-rank test).
baycomp and statsmodels are test extras; rows whose alternative is missing are skipped.
"""

from __future__ import annotations

import argparse
import os
import platform

import numpy as np
from scipy import stats

from bench.timing import median_time
from evallib import compare


def _cases(seed=0):
    rng = np.random.default_rng(seed)
    a10 = 0.8 + 0.03 * rng.standard_normal(10)
    b10 = a10 + 0.01 + 0.02 * rng.standard_normal(10)
    a30 = np.round(0.8 + 0.05 * rng.standard_normal(30), 2)
    b30 = np.round(a30 + 0.01 + 0.02 * rng.standard_normal(30), 2)
    a12, b12 = a30[:12], b30[:12]  # ties and zeros, N <= 13: SciPy runs a permutation test
    table = np.round(rng.random((30, 5)) * 0.1 + np.linspace(0.1, 0.2, 5), 2)
    pvals = rng.random(100) ** 3
    return a10, b10, a30, b30, a12, b12, table, pvals


def rows(repeats=5):
    """(case, evallib ms, alternative name, alternative ms) after checking agreement."""
    a10, b10, a30, b30, a12, b12, table, pvals = _cases()
    out = []

    def t(f, r=repeats):
        return 1000 * median_time(f, r, warmup=True)

    # Wilcoxon: ties and zeros, N = 12 (SciPy: permutation test, loops over 4096 sign patterns)
    assert np.isclose(compare.wilcoxon(a12, b12).pvalue, stats.wilcoxon(b12, a12, zero_method="zsplit").pvalue)
    out.append(
        (
            "Wilcoxon, N = 12 with ties (exact permutation)",
            t(lambda: compare.wilcoxon(a12, b12)),
            "scipy.stats.wilcoxon(zero_method='zsplit')",
            t(lambda: stats.wilcoxon(b12, a12, zero_method="zsplit")),
        )
    )
    out.append(
        (
            "Wilcoxon, N = 30 with ties (normal approx.)",
            t(lambda: compare.wilcoxon(a30, b30)),
            "scipy.stats.wilcoxon(zero_method='zsplit')",
            t(lambda: stats.wilcoxon(b30, a30, zero_method="zsplit")),
        )
    )
    w, l, ties = int(np.sum(a30 < b30)), int(np.sum(a30 > b30)), int(np.sum(a30 == b30))
    assert np.isclose(
        compare.sign_test(a30, b30).pvalue, stats.binomtest(w + ties // 2, w + l + 2 * (ties // 2), 0.5).pvalue
    )
    out.append(
        (
            "sign test, N = 30",
            t(lambda: compare.sign_test(a30, b30)),
            "counting + scipy.stats.binomtest",
            t(
                lambda: stats.binomtest(
                    int(np.sum(a30 < b30)) + int(np.sum(a30 == b30)) // 2,
                    int(np.sum(a30 != b30)) + 2 * (int(np.sum(a30 == b30)) // 2),
                    0.5,
                )
            ),
        )
    )
    try:
        from statsmodels.stats.multitest import multipletests
    except ImportError:
        multipletests = None
    if multipletests is not None:
        assert np.allclose(compare.holm(pvals).adjusted_pvalue, multipletests(pvals, method="holm")[1])
        out.append(
            (
                "Holm, 100 p-values",
                t(lambda: compare.holm(pvals)),
                "statsmodels multipletests(method='holm')",
                t(lambda: multipletests(pvals, method="holm")),
            )
        )

        def plain_posthoc():
            r = stats.rankdata(table, axis=1).mean(axis=0)
            z = (r[1:] - r[0]) / np.sqrt(5 * 6 / (6 * 30))
            return multipletests(2 * stats.norm.sf(np.abs(z)), method="holm")

        assert np.allclose(compare.posthoc_vs_control(table, 0).adjusted_pvalue, plain_posthoc()[1])
        out.append(
            (
                "Holm vs control, 30 x 5",
                t(lambda: compare.posthoc_vs_control(table, 0)),
                "SciPy ranks + statsmodels Holm",
                t(plain_posthoc),
            )
        )

        def plain_pairwise():
            p = [
                stats.wilcoxon(table[:, j], table[:, i], zero_method="zsplit").pvalue
                for i in range(5)
                for j in range(i + 1, 5)
            ]
            return multipletests(p, method="holm")

        assert np.allclose(
            compare.pairwise_wilcoxon_holm(table).adjusted_pvalue[np.triu_indices(5, 1)], plain_pairwise()[1]
        )
        out.append(
            (
                "pairwise Wilcoxon-Holm, 30 x 5",
                t(lambda: compare.pairwise_wilcoxon_holm(table)),
                "scipy.stats.wilcoxon per pair + statsmodels",
                t(plain_pairwise),
            )
        )
    try:
        import baycomp
    except ImportError:
        baycomp = None
    if baycomp is not None:
        ref = baycomp.CorrelatedTTest(a10, b10, rope=0.01).probs()
        assert np.allclose(compare.correlated_bayesian_ttest(a10, b10, rho=0.1, rope=0.01).probs, ref, atol=1e-12)
        out.append(
            (
                "correlated Bayesian t-test, 10 folds",
                t(lambda: compare.correlated_bayesian_ttest(a10, b10, rho=0.1, rope=0.01)),
                "baycomp.CorrelatedTTest(...).probs()",
                t(lambda: baycomp.CorrelatedTTest(a10, b10, rope=0.01).probs()),
            )
        )
        ours = compare.bayesian_signed_rank(a30, b30, rope=0.01, random_state=0).probs
        theirs = baycomp.SignedRankTest(a30, b30, 0.01, random_state=0).probs()
        assert np.all(np.abs(np.subtract(ours, theirs)) < 0.02)  # Monte Carlo: 50000 draws each
        out.append(
            (
                "Bayesian signed-rank, N = 30, 50000 draws",
                t(lambda: compare.bayesian_signed_rank(a30, b30, rope=0.01, random_state=0), max(2, repeats // 2)),
                "baycomp.SignedRankTest().probs()",
                t(lambda: baycomp.SignedRankTest(a30, b30, 0.01, random_state=0).probs(), 2),
            )
        )
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    load = os.getloadavg()
    result = rows(args.repeats)
    load_after = os.getloadavg()
    print(
        f"Machine: {platform.processor() or platform.machine()}, load average {load[0]:.2f} before, "
        f"{load_after[0]:.2f} after; median of {args.repeats} runs (2 for baycomp's signed-rank test).\n"
    )
    print("| case | evallib (ms) | alternative | alternative (ms) | ratio (alternative / evallib) |")
    print("|---|---:|---|---:|---:|")
    for case, ours, name, base in result:
        print(f"| {case} | {ours:.3f} | {name} | {base:.3f} | {base / ours:.1f} |")


if __name__ == "__main__":
    main()
