"""The bias–variance explorer (偏差与方差, 西瓜书 §2.5; centrepiece of ``notebooks/10_bias_variance.ipynb``).

Sliders for the polynomial degree (model complexity), the noise level, the training-set size and the number
of simulated data sets drive :func:`bias_variance_view`, a pure function over
:func:`evallib.biasvar.bias_variance` (vectorised for polynomials: a 200-data-set simulation takes a few ms).
"""
from __future__ import annotations

import re

import numpy as np

from ..biasvar import bias_variance
from ..fitting import PolynomialRegression
from ..plots.biasvar import plot_decomposition, plot_prediction_fan
from ..style import new_figure
from ._base import Explorer, _Pixels, figure_once, redraw_all, slider
from ..i18n import say

__all__ = ["sine_target", "bias_variance_view", "bias_variance_explorer"]

DECOMPOSITION_YLIM = (1e-4, 1e4)  # mean squared error: bars outside it (degree 15 on 2 points) leave the axes


def sine_target(x):
    """The course's true function f(x) = sin(2πx) (the same curve as :func:`evallib.data.make_sine`)."""
    from .._validation import as_finite_array, check_real

    x = check_real(x, "x") if np.ndim(x) == 0 else as_finite_array(x, "x")
    return np.sin(2 * np.pi * x)


def bias_variance_view(degree, noise_std, n_train, n_datasets, *, target=sine_target, x_range=(0, 1),
                       random_state=0, n_curves=40, _figure=None):
    """Text and figure of the explorer for one setting: ``(text, figure, result)``.

    The same ``random_state`` for every setting (common random numbers) means that moving one slider changes
    only what that slider controls. The figure shows the fan of fitted polynomials and the bars of the decomposition 式(2.42).
    """
    r = bias_variance(PolynomialRegression(degree), target, noise_std=noise_std, n_train=n_train,
                      n_datasets=n_datasets, x_range=x_range, random_state=random_state)
    text = _readout(degree, r)
    fig, (ax1, ax2) = (figure_once(_figure, ncols=2, width=9.6, height=3.8) if _figure is not None
                       else new_figure(ncols=2, width=9.6, height=3.8))
    _draw(degree, r, ax1, ax2, n_curves)
    return text, fig, r


def _draw(degree, r, ax1, ax2, n_curves):
    plot_prediction_fan(r, ax1, n_curves=n_curves)
    ax1.set_title(f"Polynomials of degree {degree} fitted to {r.n_datasets} data sets")
    # A fixed log axis (every setting of the sliders fits in it): the bars move against still ticks, so a move
    # redraws only the bars over the cached axes (bench/NOTES.md "Redraw paths"), and heights compare across moves.
    plot_decomposition(r, ax2, log=True)
    ax2.set_ylim(*DECOMPOSITION_YLIM)
    ax2.set_title("Decomposition, mean over x")


def _readout(degree, r):
    """The explorer's text for one result (or a cached frame with the same fields)."""
    s = r.bias2 + r.variance + r.noise
    dominant = max(("bias²", r.bias2), ("variance", r.variance), ("noise", r.noise), key=lambda t: t[1])[0]
    return "\n".join([
        say("degree {d}, noise_std {s:.2f}, {n} data sets of {m} points", d=degree, s=r.noise_std, n=r.n_datasets,
            m=r.n_train),
        say("bias² = {b:.4f}   variance = {v:.4f}   noise = {e:.4f}", b=r.bias2, v=r.variance, e=r.noise),
        say("bias² + variance + noise = {s:.4f}   simulated expected error = {ee:.4f}", s=s, ee=r.expected_error),
        say("dominant term: {term}", term=say(dominant))])


# Noise levels at which the fan's y-range steps (the range fits ±2.5 noise_std around the curve for every noise up to
# the step): a drag of the noise slider moves the y-axis only when it crosses one, not on every step of 0.05.
NOISE_STEPS = (0.3, 0.6, 1.0, 1.5, 2.0)


def _fan_ylim(y_true, noise_std):
    """plot_prediction_fan's y-range for the next noise step at or above ``noise_std``."""
    step = next((s for s in NOISE_STEPS if noise_std <= s + 1e-9), noise_std)
    span = float(np.ptp(y_true)) or 1.0
    pad = 0.5 * span + 2.5 * step
    return float(y_true.min()) - pad, float(y_true.max()) + pad


class _BiasVarianceView:
    """The explorer's update: one figure, changed in place; simulations cached per slider setting (bounded).

    A move redraws the fan, the mean, the bars and their labels over the cached axes; the title and the legend
    replay cached pixels; the fan's y-axis changes (a full redraw) only when the noise crosses one of NOISE_STEPS.
    """

    MAX_CACHED = 128  # compact frames (≈ 70 kB each: 40 curves of 101 points)

    # At the first setting every degree is simulated at once when the explorer is built, if that is cheap (the
    # chapter's 30 points × 200 data sets: ~0.1 s for 16 degrees): the degree slider then only draws.
    PREFETCH_POINTS = 20_000  # n_train × n_datasets

    def __init__(self, *, target, x_range, random_state, n_curves=40, max_degree=15):
        from collections import OrderedDict

        self.target, self.x_range, self.random_state, self.n_curves = target, x_range, random_state, n_curves
        self.max_degree = max_degree
        self.frames = OrderedDict()
        self.view = {}

    def frame(self, degree, noise_std, n_train, n_datasets):
        """What the view shows of bias_variance(...) for one setting (the readout's numbers, the first curves)."""
        from types import SimpleNamespace

        key = (int(degree), float(noise_std), int(n_train), int(n_datasets))
        f = self.frames.get(key)
        if f is not None:
            self.frames.move_to_end(key)
            return f
        r = bias_variance(PolynomialRegression(degree), self.target, noise_std=noise_std, n_train=n_train,
                          n_datasets=n_datasets, x_range=self.x_range, random_state=self.random_state)
        order = np.argsort(r.x_test)
        k = min(self.n_curves, r.n_datasets)
        f = SimpleNamespace(bias2=r.bias2, variance=r.variance, noise=r.noise, expected_error=r.expected_error,
                            noise_std=r.noise_std, n_train=r.n_train, n_datasets=r.n_datasets, k=k,
                            curves=np.ascontiguousarray(r.predictions[:k, order]), x_train=r.x_train[0].copy(),
                            y_train=r.y_train[0].copy(), mean=r.mean_prediction[order], result=r)
        if len(self.frames) >= self.MAX_CACHED:
            self.frames.popitem(last=False)
        self.frames[key] = f
        return f

    def __call__(self, degree, noise_std, n_train, n_datasets):
        f = self.frame(degree, noise_std, n_train, n_datasets)
        text = _readout(degree, f)
        v = self.view
        if not v:
            self._build(degree, f)
            if f.n_train * f.n_datasets <= self.PREFETCH_POINTS:
                for d in range(min(self.max_degree, self.MAX_CACHED - 1) + 1):
                    self.frame(d, noise_std, n_train, n_datasets).result = None
        else:
            self._move(degree, f)
        f.result = None  # the full result (predictions of every data set) is needed only to build the figure
        return text, v["fig"]

    def _build(self, degree, f):
        from .curves import _moving_label

        r = f.result
        fig, (ax1, ax2) = new_figure(ncols=2, width=9.6, height=3.8)
        _draw(degree, r, ax1, ax2, self.n_curves)
        fan, (train, truth, mean) = ax1.collections[0], ax1.lines
        x = np.sort(r.x_test)
        ylim = _fan_ylim(r.y_true, f.noise_std)
        ax1.set_ylim(*ylim)
        redraw_all(fig, key=ylim)  # the frame drawn for each y-range is kept: moving back across a step pastes it
        bars, labels = list(ax2.containers[0]), list(ax2.texts)
        legend = ax1.get_legend()
        fan_label = _moving_label(ax1, 0)  # "f(x; D), k of n data sets" over the legend, with its own cache
        hidden = legend.texts[0]
        shape = lambda: re.sub(r"\d", "0", hidden.get_text())  # digits keep their width: the frame fits
        pixels = _Pixels()  # texts drawn once are pasted again: the title, the moving label, the bars' numbers
        pixels.install(ax1.title, *labels)
        # the legend (its label hidden under fan_label) changes only with the number of digits; it places fan_label
        # when it draws, so a pasted legend leaves fan_label where the last legend of that shape put it
        pixels.install(legend, key=lambda leg, renderer: ("legend", shape()))
        pixels.install(fan_label, key=lambda t, renderer: ("fan label", t.get_text(), shape()))
        for a in (fan, train, truth, mean, ax1.title, legend, fan_label, *bars, *labels):  # drawn in this order
            a.set_animated(True)
        self.view.update(fig=fig, ax1=ax1, x=x, y_true=np.sort(r.y_true), ylim=ylim, fan=fan, train=train,
                         mean=mean, bars=bars, labels=labels, hidden=hidden, fan_label=fan_label, r_y=r.y_true)

    def _move(self, degree, f):
        v = self.view
        ax1 = v["ax1"]
        v["fan"].set_segments(np.stack([np.broadcast_to(v["x"], f.curves.shape), f.curves], axis=-1))
        v["train"].set_data(f.x_train, f.y_train)
        v["mean"].set_data(v["x"], f.mean)
        ax1.set_title(f"Polynomials of degree {degree} fitted to {f.n_datasets} data sets")
        label = f"f(x; D), {f.k} of {f.n_datasets} data sets"
        v["fan_label"].set_text(label)
        if re.sub(r"\d", "0", label) != re.sub(r"\d", "0", v["hidden"].get_text()):
            v["hidden"].set_text(label)  # one digit more or less: the legend's frame follows
        ylim = _fan_ylim(v["r_y"], f.noise_std)
        if ylim != v["ylim"]:
            ax1.set_ylim(*ylim)
            v["ylim"] = ylim
            redraw_all(v["fig"], key=ylim)
        vals = (f.bias2, f.variance, f.noise, f.bias2 + f.variance + f.noise, f.expected_error)
        for i, (bar, lab, val) in enumerate(zip(v["bars"], v["labels"], vals)):
            bar.set_height(val)
            lab.set_text(f"{val:.3g}")
            lab.xy = (i, val)


def bias_variance_explorer(*, degree=3, noise_std=0.3, n_train=30, n_datasets=200, max_degree=15,
                           target=sine_target, x_range=(0, 1), random_state=0):
    """Explorer with sliders ``degree``, ``noise_std``, ``n_train`` and ``n_datasets`` over :func:`bias_variance_view`.

    >>> ex = bias_variance_explorer(degree=1)
    >>> ex.set(degree=3); ex.text.splitlines()[0]
    'degree 3, noise_std 0.30, 200 data sets of 30 points'
    """
    if not callable(target):
        raise TypeError(f"target must be a callable f(x) -> y, got {type(target).__name__}")
    for name, v in (("degree", degree), ("max_degree", max_degree), ("n_train", n_train), ("n_datasets", n_datasets)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be an int, got {type(v).__name__}")
    if not 0 <= degree <= max_degree:
        raise ValueError(f"degree must lie in [0, max_degree={max_degree}], got {degree}")
    if not 2 <= n_train <= 200:
        raise ValueError(f"n_train must lie in [2, 200], got {n_train}")
    if not 2 <= n_datasets <= 1000:
        raise ValueError(f"n_datasets must lie in [2, 1000], got {n_datasets}")
    if isinstance(noise_std, bool) or not isinstance(noise_std, (int, float, np.floating)) or not 0 <= noise_std <= 2:
        raise ValueError(f"noise_std must be a number in [0, 2], got {noise_std!r}")
    controls = {
        "degree": slider(int(degree), 0, int(max_degree), 1, "degree (complexity)"),
        "noise_std": slider(float(noise_std), 0.0, 2.0, 0.05, "noise_std", readout_format=".2f"),
        "n_train": slider(int(n_train), 2, 200, 1, "training-set size"),
        "n_datasets": slider(int(n_datasets), 2, 1000, 1, "data sets"),
    }

    view = _BiasVarianceView(target=target, x_range=x_range, random_state=random_state, max_degree=int(max_degree))
    return Explorer("Bias–variance explorer (squared loss, 式(2.42))", controls, view, columns=2)
