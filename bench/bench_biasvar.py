#!/usr/bin/env python
"""Benchmark evallib.biasvar.bias_variance: the batched polynomial path vs loops of fits vs mlxtend.

    .venv/bin/python -m bench.bench_biasvar [--repeats 7] [--degrees 3 9] [--n-train 30] [--n-datasets 200]

Same settings for every method: a polynomial of the given degree, 200 fits on training sets of 30 points,
predictions at 101 test points, target sin(2πx) with noise 0.3. Methods:

* ``vectorised`` — ``bias_variance(PolynomialRegression(d), ...)``: all 200 least-squares problems in one
  batched SVD (the whole call: simulation, fits, decomposition);
* ``loop, evallib`` — the same call with ``method="loop"``: 200 ``clone(PolynomialRegression(d)).fit``;
* ``loop, sklearn pipeline`` — ``bias_variance`` with ``make_pipeline(PolynomialFeatures(d), LinearRegression())``;
* ``mlxtend`` — ``mlxtend.evaluate.bias_variance_decomp(PolynomialRegression(d), ..., loss="mse",
  num_rounds=200)``: 200 fits on bootstrap resamples of one training set of 30 points (its own way of making
  data sets), predictions at the same 101 test points.

``bench/run.py`` imports ``method_rows``. Prints a Markdown table of median wall-clock times (ms) and the ratio to the vectorised path. Before timing,
the vectorised and evallib-loop predictions are checked to agree to 1e-10.
"""

from __future__ import annotations

import argparse
import os
import platform
import warnings

import numpy as np
import sklearn
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

from bench.timing import median_time
from evallib.biasvar import bias_variance
from evallib.fitting import PolynomialRegression


def sine(x):
    return np.sin(2 * np.pi * x)


def median_ms(f, repeats):
    return 1e3 * median_time(f, repeats, warmup=True)


def method_rows(degrees=(3, 9), *, repeats=7, n_train=30, n_datasets=200):
    """Rows (degree, name, time in seconds, ratio to the vectorised path) for every method on the same settings."""
    try:
        from mlxtend.evaluate import bias_variance_decomp
    except ImportError:  # pragma: no cover
        bias_variance_decomp = None

    kw = dict(noise_std=0.3, n_train=n_train, n_datasets=n_datasets, random_state=0)
    rng = np.random.default_rng(0)
    X_tr = rng.uniform(0, 1, (n_train, 1))
    y_tr = sine(X_tr[:, 0]) + rng.normal(0, 0.3, n_train)
    X_te = np.linspace(0, 1, 101).reshape(-1, 1)
    y_te = sine(X_te[:, 0])
    out = []
    for d in degrees:
        vec = bias_variance(PolynomialRegression(d), sine, **kw)
        loop = bias_variance(PolynomialRegression(d), sine, method="loop", **kw)
        np.testing.assert_allclose(vec.predictions, loop.predictions, rtol=1e-10, atol=1e-10)
        rows = [
            (
                "evallib bias_variance, vectorised (batched SVD)",
                lambda: bias_variance(PolynomialRegression(d), sine, **kw),
            ),
            (
                'evallib bias_variance(method="loop"): 200 PolynomialRegression fits',
                lambda: bias_variance(PolynomialRegression(d), sine, method="loop", **kw),
            ),
            (
                "loop of 200 sklearn PolynomialFeatures + LinearRegression fits",
                lambda: bias_variance(make_pipeline(PolynomialFeatures(d), LinearRegression()), sine, **kw),
            ),
        ]
        if bias_variance_decomp is not None:

            def run_mlxtend():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return bias_variance_decomp(
                        PolynomialRegression(d),
                        X_tr,
                        y_tr,
                        X_te,
                        y_te,
                        loss="mse",
                        num_rounds=n_datasets,
                        random_seed=0,
                    )

            rows.append(("mlxtend bias_variance_decomp (bootstrap), PolynomialRegression", run_mlxtend))

            def run_mlxtend_sk():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return bias_variance_decomp(
                        make_pipeline(PolynomialFeatures(d), LinearRegression()),
                        X_tr,
                        y_tr,
                        X_te,
                        y_te,
                        loss="mse",
                        num_rounds=n_datasets,
                        random_seed=0,
                    )

            rows.append(("mlxtend bias_variance_decomp (bootstrap), sklearn pipeline", run_mlxtend_sk))
        base = None
        for name, f in rows:
            t = median_ms(f, repeats) / 1000
            base = base or t
            out.append(dict(degree=d, name=name, time=t, ratio=t / base))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--degrees", type=int, nargs="+", default=[3, 9])
    ap.add_argument("--n-train", type=int, default=30)
    ap.add_argument("--n-datasets", type=int, default=200)
    args = ap.parse_args()
    try:
        import mlxtend
    except ImportError:  # pragma: no cover
        mlxtend = None
    print(
        f"Python {platform.python_version()}, NumPy {np.__version__}, scikit-learn {sklearn.__version__}"
        + (f", mlxtend {mlxtend.__version__}" if mlxtend else ", mlxtend not installed")
        + f"; OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}; median of {args.repeats} runs\n"
    )
    print(f"{args.n_datasets} fits of {args.n_train} points, 101 test points\n")
    print("| degree | method | median (ms) | ratio to vectorised |")
    print("|---:|---|---:|---:|")
    for r in method_rows(args.degrees, repeats=args.repeats, n_train=args.n_train, n_datasets=args.n_datasets):
        print(f"| {r['degree']} | {r['name']} | {1000 * r['time']:.2f} | {r['ratio']:.1f}× |")


if __name__ == "__main__":
    main()
