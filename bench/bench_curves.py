#!/usr/bin/env python
"""Benchmark evallib.curves.roc_auc, roc_curve and pr_curve against scikit-learn on 10^6 and 10^7 scores.

    .venv/bin/python -m bench.bench_curves [--repeats 5] [--sizes 1000000 10000000]

Prints a Markdown table of median wall-clock times (seconds) and the evallib / scikit-learn ratio
(< 1: evallib is faster), for scores without ties (uniform floats) and with many ties (rounded to
2 decimals, 101 distinct values), (``bench/run.py`` imports ``make_scores`` and ``check_agreement`` from here and adds 10^5 and peak memory),
plus one bare ``np.argsort`` of the scores as the floor of any
method that sorts the scores together with their labels. Results are checked to agree first.

roc_curve is compared with ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``, which returns
the same points as evallib (one per distinct score); the default ``drop_intermediate=True`` drops
collinear points after computing them all, so it costs slightly more.
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
import sklearn
from sklearn import metrics as skm

from bench.timing import median_time
from evallib import curves


def make_scores(n, rng):
    """Labels (30 % positive) and informative scores (AUC about 0.8), the data of every curve benchmark."""
    y = (rng.random(n) < 0.3).astype(np.int64)
    return y, rng.random(n) + 0.3 * y


def check_agreement(y, s):
    """evallib and scikit-learn give the same AUC, ROC points and P-R points (checked before timing)."""
    a, b = curves.roc_auc(y, s), skm.roc_auc_score(y, s)
    assert abs(a - b) < 1e-9, (a, b)
    f1, t1, _ = curves.roc_curve(y, s)
    f2, t2, _ = skm.roc_curve(y, s, drop_intermediate=False)
    assert np.allclose(f1, f2) and np.allclose(t1, t2)
    p1, r1, _ = curves.pr_curve(y, s)
    p2, r2, _ = skm.precision_recall_curve(y, s)  # increasing thresholds, ends at (recall 0, precision 1)
    assert np.allclose(p1, p2[::-1]) and np.allclose(r1, r2[::-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10**6, 10**7])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)

    print(
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}; median of {args.repeats} runs, seconds\n"
    )
    print("| n | scores | function | evallib | scikit-learn | evallib / sklearn | np.argsort (floor) |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for n in args.sizes:
        y, raw = make_scores(n, rng)
        for kind, s in (("no ties", raw), ("ties (2 decimals)", np.round(raw, 2))):
            check_agreement(y, s)
            floor = median_time(lambda: np.argsort(s), args.repeats)
            for name, ours, theirs in (
                ("roc_auc", lambda: curves.roc_auc(y, s), lambda: skm.roc_auc_score(y, s)),
                ("roc_curve", lambda: curves.roc_curve(y, s), lambda: skm.roc_curve(y, s, drop_intermediate=False)),
                ("pr_curve", lambda: curves.pr_curve(y, s), lambda: skm.precision_recall_curve(y, s)),
            ):
                t_ours = median_time(ours, args.repeats)
                t_theirs = median_time(theirs, args.repeats)
                print(
                    f"| {n:.0e} | {kind} | {name} | {t_ours:.3f} | {t_theirs:.3f} | {t_ours / t_theirs:.2f} "
                    f"| {floor:.3f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
