"""Figures for the comparison tests (比较检验, 西瓜书 §2.4): notebooks 08 and 09.

Every function draws on ``ax`` (pyplot's current Axes when None) and returns it; none calls
``plt.show()`` or changes rcParams. Figure text is English only.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from .. import compare as _cmp
from .._validation import (
    Interval,
    check_mean_ranks,
    check_nonnegative,
    check_positive_int,
    check_probability,
    validate_params,
)
from ._base import AX, COLORS, get_ax

_ALPHA = [Interval(numbers.Real, 0, 1, closed="neither")]

__all__ = [
    "plot_binomial_test",
    "plot_null_distribution",
    "plot_cd_diagram",
    "plot_friedman_graph",
    "plot_rejection_rates",
    "plot_cd_curve",
]


@validate_params(  # m, ax: get_ax and inline (tests/test_compare_widgets.py matches "m must", "ax must")
    {
        "eps0": [Interval(numbers.Real, 0, 1)],
        "alpha": _ALPHA,
        "n_errors": [None, Interval(numbers.Integral, 0, None, closed="left")],
    }
)
def plot_binomial_test(m, eps0, alpha=0.05, n_errors=None, *, ax=None):
    """The binomial distribution of the error count under H0 (ε = ε0), its critical region and a decision.

    Bars: P(X = i) for X ~ Binomial(m, ε0); red bars are the critical region i > C (式(2.27), corrected),
    whose total probability is below ``alpha``. A vertical line marks ``n_errors`` when given.
    Taught in ``notebooks/08_hypothesis_tests.ipynb``.
    """
    m = check_positive_int(m, "m")
    eps0 = check_probability(eps0, "eps0")
    c = _cmp.binomial_critical_count(m, eps0, alpha)
    ax = get_ax(ax)
    i = np.arange(m + 1)
    pmf = stats.binom.pmf(i, m, eps0)
    keep = pmf > 1e-6 * pmf.max()
    if n_errors is not None:
        res = _cmp.binomial_test(n_errors, m, eps0, alpha)
        keep[min(n_errors, m)] = True
    lo, hi = int(np.flatnonzero(keep)[0]), int(np.flatnonzero(keep)[-1])
    lo, hi = max(0, lo - 1), min(m, max(hi + 1, c + 2))
    sel = slice(lo, hi + 1)
    crit = i[sel] > c
    ax.bar(i[sel][~crit], pmf[sel][~crit], width=0.9, color=COLORS["blue"], label="do not reject")
    ax.bar(
        i[sel][crit],
        pmf[sel][crit],
        width=0.9,
        color=COLORS["red"],
        label=f"critical region (> {c} errors), P = {stats.binom.sf(c, m, eps0):.3f}",
    )
    if n_errors is not None:
        ax.axvline(
            n_errors, color=COLORS["black"], ls="--", lw=1.4, label=f"observed: {n_errors} errors, p = {res.pvalue:.3f}"
        )
        verdict = "reject H0" if res.reject else "cannot reject H0"
        ax.set_title(f"Binomial test, m = {m}, eps0 = {eps0:.2f}, alpha = {alpha:.2f}: {verdict}")
    else:
        ax.set_title(f"Binomial test, m = {m}, eps0 = {eps0:.2f}, alpha = {alpha:.2f}")
    ax.set_xlabel(f"number of misclassified test samples (critical error rate = {c / m:.3f})")
    ax.set_ylabel("probability under H0")
    ax.set_ylim(0, pmf[sel].max() * 1.45)  # headroom: the legend never covers a bar
    mode = lo + int(np.argmax(pmf[sel]))
    ax.legend(loc="upper right" if mode < (lo + hi) / 2 else "upper left")
    return ax


@validate_params({"ax": AX})  # result: any t, chi2 or F test result (its distribution field), checked inline
def plot_null_distribution(result, *, ax=None):
    """The null distribution of a t, χ² or F test result, its rejection region and the observed statistic.

    ``result`` comes from :func:`evallib.compare.ttest`, ``paired_ttest``, ``ttest_5x2cv``,
    ``corrected_resampled_ttest``, ``combined_ftest_5x2cv``, ``mcnemar`` (χ² form) or ``friedman``.
    """
    kind = getattr(result, "distribution", None)
    if kind not in ("t", "chi2", "F"):
        raise ValueError(f"result must be a t, chi2 or F test result (distribution 't', 'chi2' or 'F'), got {kind!r}")
    ax = get_ax(ax)
    df = result.df
    dist = {"t": lambda: stats.t(df), "chi2": lambda: stats.chi2(df), "F": lambda: stats.f(*df)}[kind]()
    crit, stat = result.critical_value, result.statistic
    finite_stat = float(stat) if np.isfinite(stat) else None
    if kind == "t":
        span = max(dist.ppf(0.999), crit * 1.3, abs(finite_stat or 0) * 1.1)
        x = np.linspace(-span, span, 600)
    else:
        span = max(dist.ppf(0.995), crit * 1.3, (finite_stat or 0) * 1.1)
        x = np.linspace(0, span, 600)[1:]
    y = dist.pdf(x)
    ax.plot(x, y, color=COLORS["blue"], label=f"null distribution: {kind}{df}")
    region = (np.abs(x) > crit) if kind == "t" else (x > crit)
    ax.fill_between(
        x,
        0,
        y,
        where=region,
        color=COLORS["red"],
        alpha=0.5,
        label=f"rejection region (alpha = {result.alpha:.2f}), critical value {crit:.3f}",
    )
    if finite_stat is not None:
        ax.axvline(
            finite_stat,
            color=COLORS["black"],
            ls="--",
            lw=1.4,
            label=f"statistic = {finite_stat:.3f}, p = {result.pvalue:.4f}",
        )
    else:
        ax.annotate(
            "statistic = inf",
            xy=(x[-1], 0),
            xytext=(0.75, 0.6),
            textcoords="axes fraction",
            arrowprops=dict(arrowstyle="->"),
        )
    ax.set_xlabel("statistic")
    ax.set_ylabel("density")
    ax.set_title(f"{result.test}: {'reject H0' if result.reject else 'cannot reject H0'}")
    ax.legend(loc="upper right")
    return ax


def _cd_inputs(result, mean_ranks, cd, names, *, cd_optional=False):
    if result is not None:
        if isinstance(result, _cmp.PairwiseWilcoxonResult) and cd_optional:
            return np.asarray(result.mean_ranks, float), None, tuple(result.names)
        if not hasattr(result, "mean_ranks") or not hasattr(result, "cd"):
            raise TypeError(
                f"result must be a NemenyiResult{' or PairwiseWilcoxonResult' if cd_optional else ''}, "
                f"got {type(result).__name__}"
            )
        return np.asarray(result.mean_ranks, float), float(result.cd), tuple(result.names)
    if mean_ranks is None or (cd is None and not cd_optional):
        raise ValueError("give either a NemenyiResult or both mean_ranks and cd")
    if cd is None:
        r = check_mean_ranks(mean_ranks)
        names = tuple(str(n) for n in names) if names is not None else _cmp._default_names(r.size)
        if len(names) != r.size:
            raise ValueError(f"names has {len(names)} entries but mean_ranks has {r.size}")
        return r, None, names
    r = check_mean_ranks(mean_ranks)
    if r.size < 2:
        raise ValueError(f"mean_ranks has {r.size} value; at least 2 algorithms are needed")
    cd = check_nonnegative(cd, "cd")
    names = tuple(str(n) for n in names) if names is not None else _cmp._default_names(r.size)
    if len(names) != r.size:
        raise ValueError(f"names has {len(names)} entries but mean_ranks has {r.size}")
    return r, float(cd), names


def _rank_str(v: float) -> str:
    """2 decimals, or 3 when the third is needed (the book's 2.125, 2.875)."""
    s = f"{v:.3f}"
    return s[:-1] if s.endswith("0") else s


def _group_indices(groups, names):
    out = []
    for g in groups:
        idx = []
        for x in g:
            if isinstance(x, str):
                if x not in names:
                    raise ValueError(f"groups names {x!r}, which is not one of {names}")
                idx.append(names.index(x))
            elif isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x < len(names):
                idx.append(int(x))
            else:
                raise ValueError(f"groups must hold algorithm names or column indices, got {x!r}")
        out.append(tuple(idx))
    return tuple(out)


@validate_params(
    {
        "result": [None, _cmp.NemenyiResult, _cmp.PairwiseWilcoxonResult],
        "mean_ranks": [None, "array-like"],
        "cd": [None, Interval(numbers.Real, 0, None, closed="left")],
        "ax": AX,
    }
)
def plot_cd_diagram(result=None, *, mean_ranks=None, cd=None, names=None, groups=None, ax=None):
    """Demšar's critical-difference diagram (Demšar 2006; 西瓜书 图 2.8 in another style).

    An axis of mean ranks (best, rank 1, on the left); each algorithm hangs from its mean rank with its
    name on the left (better half) or right side; a bar above the axis shows the length of CD; thick
    bars join the groups whose mean ranks differ by at most CD (:func:`evallib.compare.cd_groups`), i.e.
    algorithms the Nemenyi test cannot tell apart. Pass a :class:`~evallib.compare.NemenyiResult`, or
    ``mean_ranks`` and ``cd`` (and ``names``). Taught in ``notebooks/09_friedman_nemenyi.ipynb``.

    Wilcoxon–Holm cliques (``notebooks/13_comparing_today.ipynb``): pass a
    :class:`~evallib.compare.PairwiseWilcoxonResult` (no CD bar; its cliques are the bars), or ``groups``
    (tuples of names or column indices) to draw those bars instead of the CD groups.
    """
    r, cd, names = _cd_inputs(result, mean_ranks, cd, names, cd_optional=True)
    if cd is None and groups is None and not isinstance(result, _cmp.PairwiseWilcoxonResult):
        raise ValueError("give cd (Nemenyi's critical difference) or groups (the bars to draw)")
    k = r.size
    ax = get_ax(ax)
    order = np.argsort(r, kind="stable")
    lo, hi = 1, max(k, int(np.ceil(r.max())))
    ax.set_xlim(lo - 0.35 * (hi - lo) - 0.2, hi + 0.35 * (hi - lo) + 0.2)
    if groups is not None:
        groups = _group_indices(groups, names)
    elif cd is None:
        groups = result.cliques
    else:
        groups = _cmp.cd_groups(r, cd)
    groups_from_cd = cd is not None and groups == _cmp.cd_groups(r, cd)
    n_left = (k + 1) // 2
    line_step = 1.0
    bottom = -(max(n_left, k - n_left) + 1) * line_step - 0.6 * len(groups)
    ax.set_ylim(bottom - 0.5, 2.4)
    # rank axis
    ax.plot([lo, hi], [0, 0], color="black", lw=1.2)
    for t in range(lo, hi + 1):
        ax.plot([t, t], [0, 0.18], color="black", lw=1.0)
        ax.text(t, 0.3, str(t), ha="center", va="bottom", fontsize=9)
    for t in np.arange(lo + 0.5, hi, 1.0):
        ax.plot([t, t], [0, 0.09], color="black", lw=0.8)
    if cd is not None:  # CD bar
        ax.plot([lo, lo + cd], [1.5, 1.5], color=COLORS["red"], lw=2.0)
        for xe in (lo, lo + cd):
            ax.plot([xe, xe], [1.38, 1.62], color=COLORS["red"], lw=1.5)
        ax.text(lo + cd / 2, 1.7, f"CD = {cd:.3f}", ha="center", va="bottom", color=COLORS["red"], fontsize=9)
    # group bars just below the axis
    for g_i, g in enumerate(groups):
        y = -0.35 - 0.45 * g_i
        a, b = r[list(g)].min(), r[list(g)].max()
        ax.plot([a - 0.04, b + 0.04], [y, y], color="black", lw=3.5, solid_capstyle="round")
    y0 = -0.35 - 0.45 * len(groups)
    # names on both sides
    for pos, idx in enumerate(order):
        left = pos < n_left
        row = pos if left else k - 1 - pos
        y = y0 - (row + 1) * line_step
        x_text = lo - 0.3 * (hi - lo) - 0.1 if left else hi + 0.3 * (hi - lo) + 0.1
        ax.plot([r[idx], r[idx], x_text], [0, y, y], color=COLORS["blue"], lw=1.0)
        ax.text(
            x_text + (-0.05 if left else 0.05),
            y,
            f"{names[idx]} ({_rank_str(r[idx])})",
            ha="right" if left else "left",
            va="center",
            fontsize=9,
        )
    ax.axis("off")
    ax.set_title(
        "Critical difference diagram ("
        + (
            "Nemenyi)"
            if cd is not None and groups_from_cd
            else "Wilcoxon-Holm cliques)"
            if cd is None
            else "bars as given)"
        )
    )
    return ax


@validate_params(
    {
        "result": [None, _cmp.NemenyiResult],
        "mean_ranks": [None, "array-like"],
        "cd": [None, Interval(numbers.Real, 0, None, closed="left")],
        "ax": AX,
    }
)
def plot_friedman_graph(result=None, *, mean_ranks=None, cd=None, names=None, ax=None):
    """The book's Friedman test graph (西瓜书 图 2.8): one row per algorithm, a dot at its mean rank and a
    horizontal segment of length CD centred on it. Two algorithms differ significantly when their
    segments do not overlap (|r_i - r_j| > CD)."""
    r, cd, names = _cd_inputs(result, mean_ranks, cd, names)
    ax = get_ax(ax)
    rows = np.arange(r.size)[::-1]
    ax.errorbar(r, rows, xerr=cd / 2, fmt="o", color=COLORS["blue"], ecolor=COLORS["blue"], capsize=4)
    ax.set_yticks(rows)
    ax.set_yticklabels(names)
    ax.set_xlabel(f"mean rank (segment length = CD = {cd:.3f})")
    ax.set_title("Friedman test graph")
    ax.set_ylim(-0.7, r.size - 0.3)
    return ax


@validate_params({"ax": AX})  # result: inline (tests/test_compare_widgets.py matches "null_rejection_rates")
def plot_rejection_rates(result, *, ax=None):
    """Type-I error rates of the comparison tests (from :func:`evallib.compare.null_rejection_rates`).

    Horizontal bars with ±2 standard errors; the dashed line is α and the shaded band the range a valid
    test's rate falls in (α ± 2 binomial standard errors for this many trials).
    """
    if not hasattr(result, "rates") or not hasattr(result, "tests"):
        raise TypeError(f"result must come from null_rejection_rates, got {type(result).__name__}")
    ax = get_ax(ax)
    y = np.arange(len(result.tests))[::-1]
    a, n = result.alpha, result.n_trials
    band = 2 * np.sqrt(a * (1 - a) / n)
    ax.axvspan(max(0, a - band), a + band, color=COLORS["grey"], alpha=0.25, label="alpha ± 2 SE")
    colors = [COLORS["red"] if rate > a + band else COLORS["blue"] for rate in result.rates]
    ax.barh(y, result.rates, xerr=2 * result.stderr, color=colors, capsize=3)
    ax.axvline(a, color="black", ls="--", lw=1.2, label=f"alpha = {a:.2f}")
    for yi, rate in zip(y, result.rates):
        ax.text(rate + 2 * np.max(result.stderr) + 0.01, yi, f"{rate:.3f}", va="center", fontsize=9)
    ax.set_yticks(y)
    ax.set_yticklabels(result.tests)
    ax.set_xlim(0, min(1.0, max(result.rates.max() * 1.25 + 0.05, 0.15)))
    ax.set_xlabel(f"rejection rate under a true H0 ({n} data sets)")
    ax.set_title("How often each test rejects when the learners are equally good")
    ax.legend(loc="lower right")
    return ax


@validate_params({"alpha": _ALPHA, "ax": AX})
def plot_cd_curve(k_values=(3, 5, 8), *, n_range=(2, 50), alpha=0.05, mark=None, ax=None):
    """The Nemenyi critical difference CD = q_α √(k(k+1)/(6N)) against the number of data sets N, one
    curve per k. ``mark=(k, N)`` highlights one point."""
    ax = get_ax(ax)
    lo, hi = (check_positive_int(v, "n_range") for v in n_range)
    if hi <= lo:
        raise ValueError(f"n_range must be (low, high) with low < high, got {n_range!r}")
    n = np.arange(lo, hi + 1)
    for k in k_values:
        k = check_positive_int(k, "k_values", minimum=2)
        ax.plot(n, _cmp.q_alpha(k, alpha) * np.sqrt(k * (k + 1) / (6 * n)), label=f"k = {k}")
    if mark is not None:
        k, nn = mark
        cd = _cmp.critical_difference(k, nn, alpha)
        ax.plot([nn], [cd], "o", color=COLORS["red"], ms=8, label=f"k = {k}, N = {nn}: CD = {cd:.3f}")
    ax.set_xlabel("number of data sets N")
    ax.set_ylabel("critical difference CD (mean ranks)")
    ax.set_title(f"Nemenyi critical difference, alpha = {alpha:.2f}")
    ax.legend()
    return ax
