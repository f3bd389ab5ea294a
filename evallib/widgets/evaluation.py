"""Explorers for chapters 01–02: polynomial degree (over-/under-fitting) and p × k-fold cross-validation."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import plots
from ..evaluation import cross_validation
from ..fitting import polynomial_experiment
from ..style import new_figure
from ._base import Explorer, slider

__all__ = ["fitting_update", "fitting_explorer", "kfold_update", "kfold_explorer"]


@lru_cache(maxsize=64)
def _experiment(n_train, noise_std, seed, max_degree):
    return polynomial_experiment(n_train, noise_std=noise_std, max_degree=max_degree, random_state=seed)


def fitting_update(degree=3, n_train=20, noise_std=0.25, *, seed=0, max_degree=15):
    """Text and figure for one setting of the fitting explorer (pure: same inputs, same outputs).

    Left: the degree-``degree`` polynomial against the training points and the true curve; right:
    training and test MSE of every degree, with the current one marked.
    """
    e = _experiment(int(n_train), round(float(noise_std), 6), seed, max_degree)
    d = int(degree)
    text = (f"degree {d:2d} | training MSE {e.train_mse[d]:.4f} | test MSE {e.test_mse[d]:.4f} | "
            f"noise variance {noise_std ** 2:.4f} | best degree on test: {e.best_degree}")
    fig, (ax1, ax2) = new_figure(2)
    plots.plot_polynomial_fit(e, d, ax=ax1)
    ax1.set_title(f"degree {d}")
    plots.plot_train_test_curve(e.degrees, e.train_mse, e.test_mse, ax=ax2, mark=d, logy=True,
                                floor=noise_std ** 2 if noise_std > 0 else None, xlabel="polynomial degree",
                                ylabel="mean squared error")
    ax2.set_ylim(max(1e-4, 0.3 * e.train_mse.min()), 1e2)
    return text, fig


def fitting_explorer(*, seed=0):
    """Sliders for polynomial degree, training-set size and noise: watch training and test error part ways."""
    controls = {
        "degree": slider(3, 0, 15, description="degree"),
        "n_train": slider(20, 10, 100, 5, description="training samples"),
        "noise_std": slider(0.25, 0.0, 1.0, 0.05, description="noise std"),
    }
    return Explorer("Over- and under-fitting", controls,
                    lambda **v: fitting_update(**v, seed=seed))


def kfold_update(model, X, y, n_splits=10, n_repeats=1, *, random_state=0, ylim=None):
    """Text and figure for one (k, p) of the k-fold explorer: the estimate, its spread and its cost."""
    r = cross_validation(model, X, y, n_splits=int(n_splits), n_repeats=int(n_repeats), random_state=random_state)
    spread = f"{r.repeat_std:.4f}" if n_repeats > 1 else "n/a (needs p >= 2)"
    text = (f"k = {n_splits:2d}, p = {n_repeats:2d}: {r.n_fits:3d} fits | estimate {r.mean:.4f} | "
            f"std of the p k-fold estimates {spread} | single folds range "
            f"{r.scores.min():.3f}–{r.scores.max():.3f}")
    fig, ax = new_figure()
    plots.plot_cv_repeats(r, ax=ax, ylabel="error rate", ylim=ylim)
    return text, fig


def kfold_explorer(model, X, y, *, random_state=0, max_k=20, max_p=10):
    """Sliders for k (folds) and p (repeats) of p-times k-fold cross-validation on (X, y)."""
    max_k = min(int(max_k), len(y))
    controls = {
        "n_splits": slider(10, 2, max_k, description="k (folds)"),
        "n_repeats": slider(1, 1, int(max_p), description="p (repeats)"),
    }
    return Explorer("p-times k-fold cross-validation", controls,
                    lambda **v: kfold_update(model, X, y, **v, random_state=random_state))
