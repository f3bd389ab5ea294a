"""Explorer for comparing learners today (beyond the book, ``notebooks/13_comparing_today.ipynb``): the ROPE and
the number of data sets against the Bayesian signed-rank test's three probabilities and the frequentist
verdicts, side by side. The update is the pure :func:`bayesian_comparison_view`, tested without a browser.
"""
from __future__ import annotations

import numpy as np

from .. import compare as _cmp
from .._validation import as_finite_array, check_positive_int
from ..plots import compare_today as _plots
from ..style import COLORS, new_figure
from ._base import Explorer, figure_once, slider
from ..i18n import say

__all__ = ["bayesian_comparison_view", "bayesian_comparison_explorer"]

DECISION = 0.95  # Benavoli et al. (2017): act on a region whose posterior probability exceeds 0.95


def _region_labels(names, lower_is_better, tr=lambda template, **fields: template.format(**fields)):
    a, b = names
    better = lambda x: tr("{name} better", name=x)  # noqa: E731
    # d = scores_b - scores_a: "left" (d < -rope) means B scores lower
    return (better(b), tr("equivalent"), better(a)) if lower_is_better else (better(a), tr("equivalent"), better(b))


def bayesian_comparison_view(scores_a, scores_b, rope, n_datasets, names=("A", "B"), lower_is_better=True,
                             n_samples=10000, *, _figure=None):
    """Text and figure: A against B on the first ``n_datasets`` data sets, with a ROPE of ``rope``.

    The Bayesian signed-rank test (:func:`evallib.compare.bayesian_signed_rank`, ``random_state=0``) gives
    P(B better), P(equivalent), P(A better); beside it, the Wilcoxon signed-rank test, the sign test and the
    t-test over the same data sets. The figure: the posterior draws in the simplex, and the three
    probabilities against the 0.95 decision line. ``_figure`` (a dict the explorer keeps) draws again into one
    figure (:func:`evallib.widgets.figure_once`, the fast redraw of issue 19) instead of a new one.

    >>> a = np.linspace(0.10, 0.30, 12); b = a - 0.01
    >>> text, fig = bayesian_comparison_view(a, b, 0.005, 12)
    >>> print(text.splitlines()[0])
    N = 12 data sets, rope = 0.005: mean B - A = -0.0100 (B better on 12, A better on 0, ties 0)
    """
    a = as_finite_array(scores_a, "scores_a")
    b = as_finite_array(scores_b, "scores_b")
    n = check_positive_int(n_datasets, "n_datasets", minimum=2)
    if n > a.size:
        raise ValueError(f"n_datasets={n} is larger than the {a.size} data sets given")
    names = tuple(str(x) for x in names)
    if len(names) != 2:
        raise ValueError(f"names must name the two learners, got {len(names)} entries")
    a, b = a[:n], b[:n]
    bs = _cmp.bayesian_signed_rank(a, b, rope=rope, n_samples=n_samples, random_state=0)
    wx = _cmp.wilcoxon(a, b)
    sg = _cmp.sign_test(a, b, lower_is_better=lower_is_better)
    tt = _cmp.paired_ttest(a, b)
    labels = _region_labels(names, lower_is_better)
    probs = bs.probs
    best = int(np.argmax(probs))
    said = _region_labels(names, lower_is_better, say)   # the same labels in the learner's language
    verdict = say("{label} (P > {d})", label=said[best], d=DECISION) if probs[best] > DECISION else \
        say("no decision (no P above {d})", d=DECISION)
    d = b - a
    diff = float(d.mean()) + 0.0  # + 0.0: never print -0.0000
    b_wins = int(np.sum(d < 0)) if lower_is_better else int(np.sum(d > 0))
    ties = int(np.sum(d == 0))
    decide = lambda res: say("reject H0") if res.reject else say("cannot reject H0")  # noqa: E731
    text = "\n".join([
        say("N = {n} data sets, rope = {rope:.3f}: mean {b} - {a} = {diff:.4f} ({b} better on {bw}, {a} better on "
            "{aw}, ties {ties})", n=n, rope=bs.rope, a=names[0], b=names[1], diff=diff, bw=b_wins,
            aw=n - b_wins - ties, ties=ties),
        say("Bayesian signed-rank: P({l0}) = {p0:.3f}, P({l1}) = {p1:.3f}, P({l2}) = {p2:.3f} -> {verdict}",
            l0=said[0], l1=said[1], l2=said[2], p0=probs[0], p1=probs[1], p2=probs[2], verdict=verdict),
        say("Wilcoxon: T = {t:g}, p = {p:.4f} -> {v1} | sign test: p = {ps:.4f} -> {v2} | t-test over data sets: "
            "p = {pt:.4f} -> {v3}", t=wx.statistic, p=wx.pvalue, v1=decide(wx), ps=sg.pvalue, v2=decide(sg),
            pt=tt.pvalue, v3=decide(tt))])
    fig, (ax1, ax2) = (figure_once(_figure, 2, width=10.5, height=4.2) if _figure is not None
                       else new_figure(2, width=10.5, height=4.2))
    _plots.plot_simplex(bs, labels=labels, max_points=3000, ax=ax1)
    y = np.arange(3)[::-1]
    ax2.barh(y, probs, color=[COLORS["red"], COLORS["grey"], COLORS["blue"]])
    ax2.axvline(DECISION, color="black", ls="--", lw=1.2, label=f"decide above {DECISION}")
    for yi, p in zip(y, probs):
        ax2.text(min(p + 0.02, 0.85), yi, f"{p:.3f}", va="center", fontsize=9)
    ax2.set_yticks(y)
    ax2.set_yticklabels([f"P({lab})" for lab in labels])
    ax2.set_xlim(0, 1)
    ax2.set_xlabel("posterior probability")
    ax2.set_title(f"Wilcoxon p = {wx.pvalue:.4f}, sign test p = {sg.pvalue:.4f}")
    ax2.legend(loc="lower right")
    return text, fig


def bayesian_comparison_explorer(scores_a, scores_b, *, rope=0.01, n_datasets=None, names=("A", "B"),
                                 lower_is_better=True):
    """Sliders for the ROPE width and the number of data sets N over :func:`bayesian_comparison_view`
    (notebook 13): a wider ROPE moves probability to "equivalent"; more data sets sharpen every verdict."""
    a = _cmp.as_finite_array(scores_a, "scores_a")
    b = _cmp.as_finite_array(scores_b, "scores_b")
    _cmp.check_consistent_length(scores_a=a, scores_b=b)
    n_datasets = a.size if n_datasets is None else n_datasets
    bayesian_comparison_view(a, b, rope, n_datasets, names, lower_is_better)  # validate the start values
    a, b = tuple(float(v) for v in a), tuple(float(v) for v in b)
    names = tuple(names)
    held = {}  # one figure, drawn again on each change (figure_once)
    controls = {
        "rope": slider(float(rope), 0.0, 0.05, 0.0025, "rope (half-width)", readout_format=".4f"),
        "n_datasets": slider(int(n_datasets), 3, len(a), 1, "N (data sets)"),
    }
    return Explorer("Bayesian signed-rank vs Wilcoxon: the ROPE and the number of data sets", controls,
                    lambda rope, n_datasets: bayesian_comparison_view(a, b, rope, n_datasets, names, lower_is_better,
                                                                      _figure=held))
