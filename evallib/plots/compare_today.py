"""Figures for comparing learners today (beyond the book, ``notebooks/13_comparing_today.ipynb``): the posterior
of a Bayesian test with its region of practical equivalence (ROPE), and Type-I error beside power.

Every function draws on ``ax`` (pyplot's current Axes when None) and returns it; none calls ``plt.show()``.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from .. import compare as _cmp
from .._validation import Interval, as_finite_array, check_positive_int, check_real, validate_params
from ._base import AX, COLORS, DOT, POSITIVE_INT, get_ax

__all__ = ["plot_posterior", "plot_simplex", "plot_size_power", "plot_power_curve"]


def _labels(labels):
    if labels is None:
        return ("left", "rope", "right")
    labels = tuple(str(x) for x in labels)
    if len(labels) != 3:
        raise ValueError(f"labels must name the three regions (left, rope, right), got {len(labels)} entries")
    return labels


@validate_params({"result": [_cmp.CorrelatedTTestResult, _cmp.SignedRankResult], "ax": AX})
def plot_posterior(result, *, labels=None, ax=None):
    """The posterior of a Bayesian comparison with the ROPE shaded.

    For :func:`evallib.compare.correlated_bayesian_ttest`: the Student-t density of the mean difference d,
    its mass left of -rope, inside [-rope, rope] and right of rope filled in three colours and labelled with
    P(left), P(rope), P(right). For :func:`evallib.compare.bayesian_signed_rank`: the simplex plot
    (:func:`plot_simplex`). ``labels`` names the three regions (default "left", "rope", "right").
    """
    if isinstance(result, _cmp.SignedRankResult):
        return plot_simplex(result, labels=labels, ax=ax)
    labels = _labels(labels)
    ax = get_ax(ax)
    rope, mu, sc, df = result.rope, result.mean, result.scale, result.df
    if sc == 0:  # a point mass: draw it as a spike
        ax.axvline(mu, color=COLORS["blue"], lw=2, label=f"posterior: all mass at {mu:.4f}")
        half = max(rope * 1.5, abs(mu) * 1.5, 1e-3)
        ax.set_xlim(-half, half)
    else:
        lo = min(stats.t.ppf(0.001, df, mu, sc), -1.5 * rope)
        hi = max(stats.t.ppf(0.999, df, mu, sc), 1.5 * rope)
        x = np.linspace(lo, hi, 600)
        y = stats.t.pdf(x, df, mu, sc)
        ax.plot(x, y, color=COLORS["black"], lw=1.4)
        for mask, color, name, p in (
            (x < -rope, COLORS["red"], labels[0], result.p_left),
            ((x >= -rope) & (x <= rope), COLORS["grey"], labels[1], result.p_rope),
            (x > rope, COLORS["blue"], labels[2], result.p_right),
        ):
            if mask.any():
                ax.fill_between(x, 0, y, where=mask, color=color, alpha=0.45, label=f"P({name}) = {p:.3f}")
        ax.set_ylim(0, y.max() * 1.3)
    if rope > 0:
        for v in (-rope, rope):
            ax.axvline(v, color=COLORS["grey"], ls="--", lw=1)
    ax.set_xlabel("mean difference d = B - A")
    ax.set_ylabel("posterior density")
    ax.set_title(f"Correlated Bayesian t-test (rho = {result.rho:.3f}, rope = {rope:.3f})")
    ax.legend(loc="upper left")
    return ax


def _project(theta):
    """Barycentric (left, rope, right) to the plane: left bottom-left, right bottom-right, rope on top."""
    return theta[:, 2] + theta[:, 1] / 2, theta[:, 1] * np.sqrt(3) / 2


@validate_params({"result": [_cmp.SignedRankResult], "max_points": POSITIVE_INT, "ax": AX})
def plot_simplex(result, *, labels=None, max_points=5000, ax=None):
    """The posterior draws of a Bayesian signed-rank test in the probability simplex (Benavoli et al. 2017).

    Each draw (θ_left, θ_rope, θ_right) is a point of the triangle (corners: all mass left, all in the ROPE,
    all right); the three lines from the centre split it into the regions where one θ is the largest, and the
    share of points in each region is P(left), P(rope), P(right). ``max_points`` draws are shown.
    """
    labels = _labels(labels)
    max_points = check_positive_int(max_points, "max_points")
    ax = get_ax(ax)
    s = result.samples[:max_points]
    winner = s.argmax(axis=1)
    x, y = _project(s)
    h = np.sqrt(3) / 2
    ax.plot([0, 1, 0.5, 0], [0, 0, h, 0], color=COLORS["black"], lw=1.2)
    cx, cy = 0.5, h / 3
    for mx, my in ((0.5, 0.0), (0.25, h / 2), (0.75, h / 2)):  # edge midpoints: where two θ are equal
        ax.plot([cx, mx], [cy, my], color=COLORS["grey"], lw=1, ls="--")
    for k, color in enumerate((COLORS["red"], COLORS["grey"], COLORS["blue"])):
        sel = winner == k
        if sel.any():
            ax.scatter(x[sel], y[sel], s=3, color=color, alpha=0.35, linewidths=0, marker=DOT)
    ax.text(-0.02, -0.04, f"{labels[0]}\nP = {result.p_left:.3f}", ha="center", va="top", fontsize=9)
    ax.text(0.5, h + 0.03, f"{labels[1]}: P = {result.p_rope:.3f}", ha="center", va="bottom", fontsize=9)
    ax.text(1.02, -0.04, f"{labels[2]}\nP = {result.p_right:.3f}", ha="center", va="top", fontsize=9)
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.2, h + 0.12)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"Bayesian signed-rank test: N = {result.n}, rope = {result.rope:.3f}")
    return ax


@validate_params({"null": [_cmp.RejectionRates], "power": [_cmp.RejectionRates], "ax": AX})
def plot_size_power(null, power, *, ax=None):
    """Type-I error (from :func:`evallib.compare.rejection_rates` with ``difference=0``) beside power (the same
    with a true difference) for every test, with ±2 standard errors and α dashed. A good test has a short red
    bar (near or below α) and a long blue one."""
    if null.tests != power.tests:
        raise ValueError("null and power must measure the same tests")
    if null.difference != 0:
        raise ValueError(f"null must be measured with difference=0, got {null.difference}")
    ax = get_ax(ax)
    y = np.arange(len(null.tests))[::-1].astype(float)
    ax.barh(
        y + 0.2,
        null.rates,
        height=0.4,
        xerr=2 * null.stderr,
        color=COLORS["red"],
        capsize=2,
        label="rejects when A and B are equal (Type-I error)",
    )
    ax.barh(
        y - 0.2,
        power.rates,
        height=0.4,
        xerr=2 * power.stderr,
        color=COLORS["blue"],
        capsize=2,
        label=f"rejects when B's error is {power.difference:.3f} lower (power)",
    )
    ax.axvline(null.alpha, color="black", ls="--", lw=1.2)
    ax.set_yticks(y)
    ax.set_yticklabels(
        [f"{t} (N = {null.n_datasets})" if n < null.n_trials else t for t, n in zip(null.tests, null.n_runs)]
    )
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"rejection rate (dashed: alpha = {null.alpha:.2f})")
    ax.set_title("Every test on the same simulated data sets")
    ax.legend(loc="lower right")
    return ax


@validate_params(
    {
        "n_values": ["array-like"],
        "power": [dict],
        "alpha": [Interval(numbers.Real, 0, 1, closed="neither")],
        "ax": AX,
    }
)
def plot_power_curve(n_values, power, *, alpha=0.05, ax=None):
    """Power against the number of data sets N, one line per test: ``power`` maps a test's name to its rejection
    rates at ``n_values`` (e.g. simulated with :func:`evallib.compare.wilcoxon` and friends). The dashed lines are
    alpha and the conventional 0.8 target."""
    n = as_finite_array(n_values, "n_values")
    alpha = check_real(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    if not power:
        raise TypeError("power must be a non-empty dict {test name: rejection rates at n_values}")
    ax = get_ax(ax)
    for name, rates in power.items():
        r = as_finite_array(rates, f"power[{name!r}]")
        if r.size != n.size:
            raise ValueError(f"power[{name!r}] has {r.size} rates but n_values has {n.size}")
        if r.min() < 0 or r.max() > 1:
            raise ValueError(f"power[{name!r}] must hold rates in [0, 1]")
        ax.plot(n, r, marker="o", label=name)
    ax.axhline(alpha, color=COLORS["grey"], ls="--", lw=1, label=f"alpha = {alpha:.2f}")
    ax.axhline(0.8, color=COLORS["black"], ls=":", lw=1, label="power 0.8")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("number of data sets N")
    ax.set_ylabel("probability of rejecting H0")
    ax.set_title("Power against the number of data sets")
    ax.legend(loc="lower right")
    return ax
