#!/usr/bin/env python
"""Benchmark the Friedman/Nemenyi path of evallib.compare against SciPy on 100 × 20 score tables.

    .venv/bin/python -m bench.bench_compare [--repeats 7] [--shape 100 20]

Prints a Markdown table of median wall-clock times (milliseconds): evallib.compare.friedman (default and
tie-corrected), nemenyi (ranks, CD, all pairwise p-values, CD groups) and q_alpha, next to what SciPy
offers for the same step (scipy.stats.friedmanchisquare, rankdata, studentized_range), and scikit-posthocs'
posthoc_nemenyi_friedman when installed (``bench`` extra). ``bench/run.py`` imports ``compare_rows``. Results are checked
to agree first, on a table without ties and one with many ties (scores rounded to 1 decimal).
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
import scipy
from scipy import stats

from bench.timing import median_time
from evallib import compare


def median_ms(f, repeats):
    return 1000 * median_time(f, repeats)


def scipy_nemenyi(s):
    """The same computation written directly on SciPy: ranks, mean ranks, all pairwise p-values."""
    n, k = s.shape
    r = stats.rankdata(s, axis=1).mean(axis=0)
    se = np.sqrt(k * (k + 1) / (6 * n))
    q = stats.studentized_range.isf(0.05, k, np.inf) / np.sqrt(2)
    diff = np.abs(r[:, None] - r[None, :])
    return q * se, stats.studentized_range.sf(diff / se * np.sqrt(2), k, np.inf)


def posthocs_path(s):
    """scikit-posthocs' Friedman-then-Nemenyi (p-values of every pair), or None when it is not installed."""
    try:
        import scikit_posthocs as sp
    except ImportError:
        return None
    return lambda: (stats.friedmanchisquare(*s.T), sp.posthoc_nemenyi_friedman(s))


def compare_rows(shape=(100, 20), repeats=7, seed=0):
    """Rows (table, name, ours, base_name, base) of median seconds, after checking that the numbers agree."""
    n, k = shape
    rng = np.random.default_rng(seed)
    tables = {"no ties": rng.random((n, k)), "many ties": np.round(rng.random((n, k)), 1)}

    def t(f):
        return median_ms(f, repeats) / 1000

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
        t_fc = t(lambda: stats.friedmanchisquare(*s.T))
        rows += [
            dict(
                table=label,
                name="friedman (book, uncorrected)",
                ours=t(lambda: compare.friedman(s)),
                base_name="scipy.stats.friedmanchisquare",
                base=t_fc,
            ),
            dict(
                table=label,
                name="friedman(tie_correction=True)",
                ours=t(lambda: compare.friedman(s, tie_correction=True)),
                base_name="scipy.stats.friedmanchisquare",
                base=t_fc,
            ),
            dict(
                table=label,
                name="nemenyi (CD, p-values, groups)",
                ours=t(lambda: compare.nemenyi(s)),
                base_name="SciPy: rankdata + studentized_range",
                base=t(lambda: scipy_nemenyi(s)),
            ),
        ]
        both = lambda: (compare.friedman(s), compare.nemenyi(s))  # noqa: E731
        ph = posthocs_path(s)
        if ph is not None:
            import scikit_posthocs as sp

            assert np.allclose(ne.pvalue[off], sp.posthoc_nemenyi_friedman(s).to_numpy()[off], atol=1e-6)
            rows.append(
                dict(
                    table=label,
                    name="friedman + nemenyi",
                    ours=t(both),
                    base_name="friedmanchisquare + scikit_posthocs.posthoc_nemenyi_friedman",
                    base=t(ph),
                )
            )
    rows.append(
        dict(
            table="-",
            name=f"q_alpha(k={k})",
            ours=t(lambda: compare.q_alpha(k)),
            base_name="studentized_range.isf",
            base=t(lambda: stats.studentized_range.isf(0.05, k, np.inf)),
        )
    )
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--shape", type=int, nargs=2, default=(100, 20))
    args = ap.parse_args()
    n, k = args.shape
    rows = compare_rows((n, k), args.repeats)
    print(
        f"Friedman/Nemenyi on {n} data sets x {k} algorithms, median of {args.repeats} runs; "
        f"NumPy {np.__version__}, SciPy {scipy.__version__}, Python {platform.python_version()}\n"
    )
    print("| table | evallib | ms | baseline | ms | ratio |")
    print("|---|---|---:|---|---:|---:|")
    for r in rows:
        print(
            f"| {r['table']} | {r['name']} | {1000 * r['ours']:.2f} | {r['base_name']} | {1000 * r['base']:.2f} "
            f"| {r['ours'] / r['base']:.2f} |"
        )


if __name__ == "__main__":
    main()
