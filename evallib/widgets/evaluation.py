"""Explorers for chapters 01–02: polynomial degree (over-/under-fitting) and p × k-fold cross-validation."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import plots
from ..evaluation import _cv_summary, cross_validation, evaluate
from ..splits import KFold
from ..fitting import polynomial_experiment
from .._validation import check_labels, check_nonnegative, check_positive_int, check_random_state
from ..style import new_figure
from ._base import Explorer, figure_once, _Pixels, redraw_all, slider
from ..i18n import say

__all__ = ["fitting_update", "fitting_explorer", "kfold_update", "kfold_explorer"]


@lru_cache(maxsize=64)
def _experiment(n_train, noise_std, seed, max_degree):
    return polynomial_experiment(n_train, noise_std=noise_std, max_degree=max_degree, random_state=seed)


class _FittingView:
    """The fitting explorer's figure, built once and changed in place: a move of the degree redraws only the
    fitted curve, the marker and the titles (animated artists); a new training set redraws the whole figure."""

    def __init__(self, seed=0, max_degree=15):
        check_random_state(seed, "seed")
        self.seed, self.max_degree = seed, check_positive_int(max_degree, "max_degree")
        self.fig = self.key = None

    def __call__(self, degree=3, n_train=20, noise_std=0.25):
        if check_positive_int(degree, "degree", minimum=0) > self.max_degree:
            raise ValueError(f"degree must be <= max_degree = {self.max_degree}; got {degree}")
        check_positive_int(n_train, "n_train", minimum=2)
        check_nonnegative(noise_std, "noise_std")
        key = (int(n_train), round(float(noise_std), 6))
        e = _experiment(*key, self.seed, self.max_degree)
        d = int(degree)
        text = say("degree {d:2d} | training MSE {train:.4f} | test MSE {test:.4f} | noise variance {noise:.4f} | "
                   "best degree on test: {best}", d=d, train=e.train_mse[d], test=e.test_mse[d],
                   noise=noise_std ** 2, best=e.best_degree)
        floor = noise_std ** 2 if noise_std > 0 else None
        if self.fig is None:
            self._build(e, d, floor)
        elif key != self.key:
            self._new_data(e, floor)
        self.key = key
        self.fit.set_ydata(np.clip(e.curves[d], -2.0, 2.0))
        self.fit_label.set_text(f"degree {d} fit")
        self.ax1.set_title(f"degree {d}")
        self.mark.set_xdata([d, d])
        return text, self.fig

    def _build(self, e, d, floor):
        self.fig, (ax1, ax2) = new_figure(2)
        plots.plot_polynomial_fit(e, d, ax=ax1)
        plots.plot_train_test_curve(e.degrees, e.train_mse, e.test_mse, ax=ax2, mark=d, logy=True,
                                    floor=floor if floor is not None else 1e-9, xlabel="polynomial degree",
                                    ylabel="mean squared error")
        self.ax1, self.ax2 = ax1, ax2
        self.fit = ax1.lines[1]
        self.points = ax1.collections[0]
        self.train_line, self.test_line, self.floor_line, self.mark = ax2.lines[:4]
        self.fit_label = ax1.get_legend().texts[1]
        ax2.get_legend().set_loc("upper center")  # "best" would move with the data; a static legend may not
        # Fixed limits (the MSE axis spans what any setting can show), so that every move only moves curves: all
        # of them are animated and drawn over one background (a learner dragging a slider sees the curves move
        # against still axes). The training points sit above the fitted curve (zorder 3).
        ax2.set_ylim(1e-4, 1e2)
        for a in (self.fit, self.points, ax1.title, ax1.get_legend(), self.train_line, self.test_line,
                  self.floor_line, self.mark):
            a.set_animated(True)
        # the legend ("degree d fit") and the title ("degree d") take 16 values: pasted from their pixels once drawn
        _Pixels().install(ax1.get_legend(), ax1.title)
        self._new_data(e, floor)

    def _new_data(self, e, floor):
        self.points.set_offsets(np.column_stack([e.x_train, e.y_train]))
        self.train_line.set_data(e.degrees, e.train_mse)
        self.test_line.set_data(e.degrees, e.test_mse)
        self.floor_line.set_visible(floor is not None)
        if floor is not None:
            self.floor_line.set_ydata([floor, floor])



def fitting_update(degree=3, n_train=20, noise_std=0.25, *, seed=0, max_degree=15):
    """Text and figure for one setting of the fitting explorer (pure: same inputs, same outputs).

    Left: the degree-``degree`` polynomial against the training points and the true curve; right:
    training and test MSE of every degree, with the current one marked. (The explorer keeps one such
    figure and changes it in place.)
    """
    return _FittingView(seed, max_degree)(degree, n_train, noise_std)


def fitting_explorer(*, seed=0):
    """Sliders for polynomial degree, training-set size and noise: watch training and test error part ways."""
    controls = {
        "degree": slider(3, 0, 15, description="degree"),
        "n_train": slider(20, 10, 100, 5, description="training samples"),
        "noise_std": slider(0.25, 0.0, 1.0, 0.05, description="noise std"),
    }
    return Explorer("Over- and under-fitting", controls, _FittingView(seed))


def _cached_cross_validation(model, X, y, k, p, random_state, cache):
    """:func:`cross_validation` that fits only the repeats not in ``cache`` ({(k, repeat): fold scores}).

    Repeat r of ``KFold(k, n_repeats=p, random_state=s)`` is the same partition for every p > r (the repeats
    are drawn one after another from one generator), so its fold scores can be reused when p changes.
    """
    splits = list(KFold(k, n_repeats=p, random_state=random_state).split(X, y))
    missing = [r for r in range(p) if (k, r) not in cache]
    if missing:
        todo = [s for r in missing for s in splits[r * k:(r + 1) * k]]
        for r, row in zip(missing, evaluate(model, X, y, todo).reshape(len(missing), k)):
            cache[(k, r)] = row
    return _cv_summary(np.stack([cache[(k, r)] for r in range(p)]))


def kfold_update(model, X, y, n_splits=10, n_repeats=1, *, random_state=0, ylim=None, _figure=None):
    """Text and figure for one (k, p) of the k-fold explorer: the estimate, its spread and its cost."""
    check_labels(y, "y")
    n_splits = check_positive_int(n_splits, "n_splits", minimum=2)
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    r = cross_validation(model, X, y, n_splits=n_splits, n_repeats=n_repeats, random_state=random_state)
    return _kfold_view(r, n_splits, n_repeats, ylim, _figure)


def _kfold_update_cached(model, X, y, cache, n_splits=10, n_repeats=1, *, random_state=0, ylim=None, _figure=None):
    """:func:`kfold_update` for the explorer: each (k, repeat) is fitted once (``cache``), since p·k fits cost
    about a millisecond each (bench/RESULTS.md). Same text and figure as :func:`kfold_update`."""
    if random_state is None:
        return kfold_update(model, X, y, n_splits, n_repeats, random_state=None, ylim=ylim, _figure=_figure)
    r = _cached_cross_validation(model, X, y, int(n_splits), int(n_repeats), random_state, cache)
    return _kfold_view(r, n_splits, n_repeats, ylim, _figure)


def _kfold_view(r, n_splits, n_repeats, ylim, _figure=None):
    spread = f"{r.repeat_std:.4f}" if n_repeats > 1 else say("n/a (needs p >= 2)")
    text = say("k = {k:2d}, p = {p:2d}: {fits:3d} fits | estimate {mean:.4f} | std of the p k-fold estimates "
               "{spread} | single folds range {lo:.3f}–{hi:.3f}", k=n_splits, p=n_repeats, fits=r.n_fits,
               mean=r.mean, spread=spread, lo=r.scores.min(), hi=r.scores.max())
    fig, ax = figure_once(_figure) if _figure is not None else new_figure()
    plots.plot_cv_repeats(r, ax=ax, ylabel="error rate", ylim=ylim)
    return text, fig


def kfold_explorer(model, X, y, *, random_state=0, max_k=20, max_p=10):
    """Sliders for k (folds) and p (repeats) of p-times k-fold cross-validation on (X, y)."""
    check_labels(y, "y")
    # stratified folds: k at most the smallest class, so that every fold can hold every class (above it
    # evallib and scikit-learn warn, and refuse once every class is smaller than k)
    max_k = check_positive_int(max_k, "max_k", minimum=2)
    max_p = check_positive_int(max_p, "max_p")
    smallest = int(np.unique(np.asarray(y), return_counts=True)[1].min())
    max_k = max(2, min(max_k, len(y), smallest))
    controls = {
        # p·k scikit-learn fits (up to 200): updated on release, not while dragged (the explorer says "computing…")
        "n_splits": slider(min(10, max_k), 2, max_k, description="k (folds)", continuous_update=False),
        "n_repeats": slider(1, 1, int(max_p), description="p (repeats)", continuous_update=False),
    }
    cache = {}  # fold scores of every (k, repeat) fitted so far: moving p or k back costs no fit
    held = {}  # one figure, drawn again on each change (figure_once)
    top = [0.0]  # the highest single-fold error seen: the y-axis only grows, in steps of 0.05

    def update(n_splits, n_repeats):
        if random_state is None:  # new folds every time: nothing to cache, limits as the points fall
            return _kfold_update_cached(model, X, y, cache, n_splits, n_repeats, random_state=None, _figure=held)
        r = _cached_cross_validation(model, X, y, int(n_splits), int(n_repeats), random_state, cache)
        # A y-axis that stays put lets k and p be compared by eye, and keeps the frame (a move redraws the points
        # only, bench/NOTES.md): it grows when a fold's error passes its top, never shrinks, and stops at 1.05.
        top[0] = max(top[0], min(float(np.ceil(1.1 * float(r.scores.max()) / 0.05) * 0.05), 1.05), 0.05)
        return _kfold_view(r, n_splits, n_repeats, (-0.05 * top[0], top[0]), held)

    return Explorer("p-times k-fold cross-validation", controls, update)
