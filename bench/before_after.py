#!/usr/bin/env python
"""Before/after timings of the performance fixes: the same cases run against evallib at an older commit and
against the working tree, each in a fresh process on the same data.

    .venv/bin/python bench/before_after.py [--before 77d6003] [--repeats 5] [--cases roc_curve_1e7 ...]

The old evallib is taken with ``git archive <rev> evallib`` into a temporary folder put first on PYTHONPATH.
Prints a Markdown table of median wall-clock and CPU times and the traced peak memory of one call
(tracemalloc), which bench/NOTES.md quotes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SETUP = r"""
import json, statistics, sys, time
import numpy as np
import matplotlib
matplotlib.use("Agg")
import evallib as el
from evallib import curves, splits
rng = np.random.default_rng(0)
"""

CASES = {
    "roc_curve_1e7": (
        "curves.roc_curve, 1e7 scores, no ties",
        "y = (rng.random(10**7) < 0.3).astype(np.int64); s = rng.random(10**7) + 0.3 * y",
        "curves.roc_curve(y, s)",
    ),
    "roc_curve_1e7_ties": (
        "curves.roc_curve, 1e7 scores, ties (2 decimals)",
        "y = (rng.random(10**7) < 0.3).astype(np.int64); s = np.round(rng.random(10**7) + 0.3 * y, 2)",
        "curves.roc_curve(y, s)",
    ),
    "pr_curve_1e7": (
        "curves.pr_curve, 1e7 scores, no ties",
        "y = (rng.random(10**7) < 0.3).astype(np.int64); s = rng.random(10**7) + 0.3 * y",
        "curves.pr_curve(y, s)",
    ),
    "roc_auc_1e7": (
        "curves.roc_auc, 1e7 scores, no ties (unchanged)",
        "y = (rng.random(10**7) < 0.3).astype(np.int64); s = rng.random(10**7) + 0.3 * y",
        "curves.roc_auc(y, s)",
    ),
    "fold_ids_1e6": (
        "splits.KFold(10).fold_ids, 1e6 samples",
        "y = (rng.random(10**6) < 0.3).astype(np.int64); X = np.zeros((10**6, 1)); kf = splits.KFold(10, random_state=0)",
        "kf.fold_ids(X, y)",
    ),
    "kfold_split_1e6": (
        "list(splits.KFold(10).split), 1e6 samples",
        "y = (rng.random(10**6) < 0.3).astype(np.int64); X = np.zeros((10**6, 1)); kf = splits.KFold(10, random_state=0)",
        "list(kf.split(X, y))",
    ),
    "bootstrap_1e6": (
        "list(splits.Bootstrap(10).split), 1e6 samples",
        "X = np.zeros((10**6, 1)); bs = splits.Bootstrap(10, random_state=0)",
        "list(bs.split(X))",
    ),
    "kfold_explorer": (
        "k-fold explorer of notebook 02 (GaussianNB, breast cancer): build, then p = 10, 5, 1, 10",
        "from sklearn.naive_bayes import GaussianNB; X, y = el.data.load_bundled('breast_cancer')",
        "ex = el.widgets.kfold_explorer(GaussianNB(), X, y, random_state=0)\n"
        "for p in (10, 5, 1, 10): ex.set(n_repeats=p)",
    ),
}

RUN = r"""
def run(stmt, repeats):
    exec(stmt, globals())  # warm-up
    wall, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        exec(stmt, globals())
        wall.append(time.perf_counter() - t0); cpu.append(time.process_time() - c0)
    import tracemalloc
    tracemalloc.start()
    exec(stmt, globals())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(wall), statistics.median(cpu), peak
print("RESULT" + json.dumps(run(STMT, REPEATS)))
"""


def measure(pythonpath, prep, stmt, repeats):
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
    code = SETUP + prep + f"\nSTMT = {stmt!r}\nREPEATS = {repeats}\n" + RUN
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tempfile.gettempdir()
    )
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.split("RESULT", 1)[1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="77d6003")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cases", nargs="*", default=list(CASES))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", args.before, "evallib"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        print(
            f"before: evallib at {args.before}; after: the working tree; median of {args.repeats} runs, "
            f"load average {os.getloadavg()[0]:.2f}\n"
        )
        print(
            "| case | before: wall | before: CPU | after: wall | after: CPU | speed-up (CPU) | peak memory before → after |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        for key in args.cases:
            label, prep, stmt = CASES[key]
            bw, bc, bm = measure(tmp, prep, stmt, args.repeats)
            aw, ac, am = measure(None, prep, stmt, args.repeats)
            print(
                f"| {label} | {bw:.3f} s | {bc:.3f} s | {aw:.3f} s | {ac:.3f} s | {bc / ac:.1f}× "
                f"| {bm / 2**20:.0f} → {am / 2**20:.0f} MiB |",
                flush=True,
            )


if __name__ == "__main__":
    main()
