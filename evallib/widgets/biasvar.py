"""The bias–variance explorer (偏差与方差, 西瓜书 §2.5; centrepiece of ``notebooks/10_bias_variance.ipynb``).

Sliders for the polynomial degree (model complexity), the noise level, the training-set size and the number
of simulated data sets drive :func:`bias_variance_view`, a pure function over
:func:`evallib.biasvar.bias_variance` (vectorised for polynomials: a 200-data-set simulation takes a few ms).
"""
from __future__ import annotations

import numpy as np

from ..biasvar import bias_variance
from ..fitting import PolynomialRegression
from ..plots.biasvar import plot_decomposition, plot_prediction_fan
from ..style import new_figure
from ._base import Explorer, figure_once, slider
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
    s = r.bias2 + r.variance + r.noise
    dominant = max(("bias²", r.bias2), ("variance", r.variance), ("noise", r.noise), key=lambda t: t[1])[0]
    text = "\n".join([
        say("degree {d}, noise_std {s:.2f}, {n} data sets of {m} points", d=degree, s=r.noise_std, n=r.n_datasets,
            m=r.n_train),
        say("bias² = {b:.4f}   variance = {v:.4f}   noise = {e:.4f}", b=r.bias2, v=r.variance, e=r.noise),
        say("bias² + variance + noise = {s:.4f}   simulated expected error = {ee:.4f}", s=s, ee=r.expected_error),
        say("dominant term: {term}", term=say(dominant))])
    fig, (ax1, ax2) = (figure_once(_figure, ncols=2, width=9.6, height=3.8) if _figure is not None
                       else new_figure(ncols=2, width=9.6, height=3.8))
    plot_prediction_fan(r, ax1, n_curves=n_curves)
    ax1.set_title(f"Polynomials of degree {degree} fitted to {r.n_datasets} data sets")
    # A fixed log axis (every setting of the sliders fits in it): the bars move against still ticks, so a move
    # redraws only the bars over the cached axes (bench/NOTES.md "Redraw paths"), and heights compare across moves.
    plot_decomposition(r, ax2, log=True)
    ax2.set_ylim(*DECOMPOSITION_YLIM)
    ax2.set_title("Decomposition, mean over x")
    return text, fig, r


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

    held = {}  # one figure, drawn again on each change (figure_once)

    def update(degree, noise_std, n_train, n_datasets):
        text, fig, _ = bias_variance_view(degree, noise_std, n_train, n_datasets, target=target,
                                          x_range=x_range, random_state=random_state, _figure=held)
        return text, fig

    return Explorer("Bias–variance explorer (squared loss, 式(2.42))", controls, update, columns=2)
