#!/usr/bin/env python
"""Benchmark the Friedman/Nemenyi path of evallib.compare against SciPy on 100 × 20 score tables.

    .venv/bin/python bench/bench_compare.py [--repeats 7] [--shape 100 20]

Prints a Markdown table of median wall-clock times (milliseconds): evallib.compare.friedman (default and
tie-corrected), nemenyi (ranks, CD, all pairwise p-values, CD groups) and q_alpha, next to what SciPy
offers for the same step (scipy.stats.friedmanchisquare, rankdata, studentized_range). Results are checked
to agree first, on a table without ties and one with many ties (scores rounded to 1 decimal).
"""
from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np
import scipy
from scipy import stats

from evallib import compare


def median_ms(f, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def scipy_nemenyi(s):
    """The same computation written directly on SciPy: ranks, mean ranks, all pairwise p-values."""
    n, k = s.shape
    r = stats.rankdata(s, axis=1).mean(axis=0)
    se = np.sqrt(k * (k + 1) / (6 * n))
    q = stats.studentized_range.isf(0.05, k, np.inf) / np.sqrt(2)
    diff = np.abs(r[:, None] - r[None, :])
    return q * se, stats.studentized_range.sf(diff / se * np.sqrt(2), k, np.inf)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--shape", type=int, nargs=2, default=(100, 20))
    args = ap.parse_args()
    n, k = args.shape
    rng = np.random.default_rng(0)
    tables = {"no ties": rng.random((n, k)), "many ties": np.round(rng.random((n, k)), 1)}

    rows = []
    for label, s in tables.items():
        # agreement first
        ref = stats.friedmanchisquare(*s.T)
        assert np.isclose(compare.friedman(s, tie_correction=True).chi2, ref.statistic)
        cd, p = scipy_nemenyi(s)
        ne = compare.nemenyi(s)
        assert np.isclose(ne.cd, cd)
        off = ~np.eye(k, dtype=bool)
        assert np.allclose(ne.pvalue[off], p[off])
        rows += [
            (label, "Friedman (book, uncorrected)", median_ms(lambda: compare.friedman(s), args.repeats),
             "friedmanchisquare", median_ms(lambda: stats.friedmanchisquare(*s.T), args.repeats)),
            (label, "Friedman (tie-corrected)", median_ms(lambda: compare.friedman(s, tie_correction=True), args.repeats),
             "friedmanchisquare", median_ms(lambda: stats.friedmanchisquare(*s.T), args.repeats)),
            (label, "Nemenyi (CD, p-values, groups)", median_ms(lambda: compare.nemenyi(s), args.repeats),
             "rankdata + studentized_range", median_ms(lambda: scipy_nemenyi(s), args.repeats)),
        ]
    rows.append(("-", f"q_alpha(k={k})", median_ms(lambda: compare.q_alpha(k), args.repeats),
                 "studentized_range.isf", median_ms(lambda: stats.studentized_range.isf(0.05, k, np.inf), args.repeats)))

    print(f"Friedman/Nemenyi on {n} data sets x {k} algorithms, median of {args.repeats} runs; "
          f"NumPy {np.__version__}, SciPy {scipy.__version__}, Python {platform.python_version()}\n")
    print("| table | evallib | ms | SciPy | ms | ratio |")
    print("|---|---|---:|---|---:|---:|")
    for label, name, t, ref_name, t_ref in rows:
        print(f"| {label} | {name} | {t:.2f} | {ref_name} | {t_ref:.2f} | {t / t_ref:.2f} |")


if __name__ == "__main__":
    main()
