#!/usr/bin/env python
"""Benchmark evallib.biasvar.bias_variance: the batched polynomial path vs loops of fits vs mlxtend.

    .venv/bin/python bench/bench_biasvar.py [--repeats 7] [--degrees 3 9] [--n-train 30] [--n-datasets 200]

Same settings for every method: a polynomial of the given degree, 200 fits on training sets of 30 points,
predictions at 101 test points, target sin(2πx) with noise 0.3. Methods:

* ``vectorised`` — ``bias_variance(PolynomialRegression(d), ...)``: all 200 least-squares problems in one
  batched SVD (the whole call: simulation, fits, decomposition);
* ``loop, evallib`` — the same call with ``method="loop"``: 200 ``clone(PolynomialRegression(d)).fit``;
* ``loop, sklearn pipeline`` — ``bias_variance`` with ``make_pipeline(PolynomialFeatures(d), LinearRegression())``;
* ``mlxtend`` — ``mlxtend.evaluate.bias_variance_decomp(PolynomialRegression(d), ..., loss="mse",
  num_rounds=200)``: 200 fits on bootstrap resamples of one training set of 30 points (its own way of making
  data sets), predictions at the same 101 test points.

Prints a Markdown table of median wall-clock times (ms) and the ratio to the vectorised path. Before timing,
the vectorised and evallib-loop predictions are checked to agree to 1e-10.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import warnings

import numpy as np
import sklearn
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

from evallib.biasvar import bias_variance
from evallib.fitting import PolynomialRegression


def sine(x):
    return np.sin(2 * np.pi * x)


def median_ms(f, repeats):
    f()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--degrees", type=int, nargs="+", default=[3, 9])
    ap.add_argument("--n-train", type=int, default=30)
    ap.add_argument("--n-datasets", type=int, default=200)
    args = ap.parse_args()
    try:
        import mlxtend
        from mlxtend.evaluate import bias_variance_decomp
    except ImportError:  # pragma: no cover
        mlxtend = bias_variance_decomp = None

    kw = dict(noise_std=0.3, n_train=args.n_train, n_datasets=args.n_datasets, random_state=0)
    rng = np.random.default_rng(0)
    X_tr = rng.uniform(0, 1, (args.n_train, 1))
    y_tr = sine(X_tr[:, 0]) + rng.normal(0, 0.3, args.n_train)
    X_te = np.linspace(0, 1, 101).reshape(-1, 1)
    y_te = sine(X_te[:, 0])

    print(f"Python {platform.python_version()}, NumPy {np.__version__}, scikit-learn {sklearn.__version__}"
          + (f", mlxtend {mlxtend.__version__}" if mlxtend else ", mlxtend not installed")
          + f"; OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}; median of {args.repeats} runs\n")
    print(f"{args.n_datasets} fits of {args.n_train} points, 101 test points\n")
    print("| degree | method | median (ms) | ratio to vectorised |")
    print("|---:|---|---:|---:|")
    for d in args.degrees:
        vec = bias_variance(PolynomialRegression(d), sine, **kw)
        loop = bias_variance(PolynomialRegression(d), sine, method="loop", **kw)
        np.testing.assert_allclose(vec.predictions, loop.predictions, rtol=1e-10, atol=1e-10)
        rows = [
            ("vectorised (batched SVD)", lambda: bias_variance(PolynomialRegression(d), sine, **kw)),
            ("loop, evallib PolynomialRegression",
             lambda: bias_variance(PolynomialRegression(d), sine, method="loop", **kw)),
            ("loop, sklearn PolynomialFeatures + LinearRegression",
             lambda: bias_variance(make_pipeline(PolynomialFeatures(d), LinearRegression()), sine, **kw)),
        ]
        if bias_variance_decomp is not None:
            def run_mlxtend():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return bias_variance_decomp(PolynomialRegression(d), X_tr, y_tr, X_te, y_te, loss="mse",
                                                num_rounds=args.n_datasets, random_seed=0)
            rows.append(("mlxtend bias_variance_decomp (bootstrap)", run_mlxtend))
        base = None
        for name, f in rows:
            t = median_ms(f, args.repeats)
            base = base or t
            print(f"| {d} | {name} | {t:.2f} | {t / base:.1f}× |")


if __name__ == "__main__":
    main()
