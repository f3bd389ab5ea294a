"""Explorer for comparing learners today (beyond the book, ``notebooks/13_comparing_today.ipynb``): the ROPE and
the number of data sets against the Bayesian signed-rank test's three probabilities and the frequentist
verdicts, side by side. The update is the pure :func:`bayesian_comparison_view`, tested without a browser.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .. import compare as _cmp
from .._validation import as_finite_array, check_positive_int
from ..plots import compare_today as _plots
from ..style import COLORS, new_figure
from ..plots._base import DOT
from ._base import Explorer, _Pixels, slider
from ..i18n import say

__all__ = ["bayesian_comparison_view", "bayesian_comparison_explorer"]

DECISION = 0.95  # Benavoli et al. (2017): act on a region whose posterior probability exceeds 0.95
MAX_POINTS = 3000  # posterior draws shown in the simplex


def _region_labels(names, lower_is_better, tr=lambda template, **fields: template.format(**fields)):
    a, b = names
    better = lambda x: tr("{name} better", name=x)  # noqa: E731
    # d = scores_b - scores_a: "left" (d < -rope) means B scores lower
    return (better(b), tr("equivalent"), better(a)) if lower_is_better else (better(a), tr("equivalent"), better(b))


def bayesian_comparison_view(scores_a, scores_b, rope, n_datasets, names=("A", "B"), lower_is_better=True,
                             n_samples=10000):
    """Text and figure: A against B on the first ``n_datasets`` data sets, with a ROPE of ``rope``.

    The Bayesian signed-rank test (:func:`evallib.compare.bayesian_signed_rank`, ``random_state=0``) gives
    P(B better), P(equivalent), P(A better); beside it, the Wilcoxon signed-rank test, the sign test and the
    t-test over the same data sets. The figure: the posterior draws in the simplex, and the three
    probabilities against the 0.95 decision line. Pure: builds a fresh view (the explorer keeps one and changes
    its figure in place, the fast redraw of issue 19).

    >>> a = np.linspace(0.10, 0.30, 12); b = a - 0.01
    >>> text, fig = bayesian_comparison_view(a, b, 0.005, 12)
    >>> print(text.splitlines()[0])
    N = 12 data sets, rope = 0.005: mean B - A = -0.0100 (B better on 12, A better on 0, ties 0)
    """
    return _BayesView(scores_a, scores_b, names, lower_is_better, n_samples)(rope, n_datasets)


class _BayesView:
    """The explorer's figure, built once and changed in place: on every move the three point clouds of the simplex
    get new offsets, the bars new widths, the texts and titles new strings (all of the axes' content is animated
    and blitted over the cached frames). The tests that depend on N alone are computed once per N, the Bayesian
    test once per (rope, N) (bounded caches the view keeps)."""

    MAX_CACHED = 64

    def __init__(self, scores_a, scores_b, names=("A", "B"), lower_is_better=True, n_samples=10000):
        self.a = as_finite_array(scores_a, "scores_a")
        self.b = as_finite_array(scores_b, "scores_b")
        self.names = tuple(str(x) for x in names)
        if len(self.names) != 2:
            raise ValueError(f"names must name the two learners, got {len(self.names)} entries")
        self.lower_is_better, self.n_samples = lower_is_better, n_samples
        self.labels = _region_labels(self.names, lower_is_better)
        self.said = _region_labels(self.names, lower_is_better, say)  # the same labels in the learner's language
        self.fig = None
        self._freq, self._bayes = {}, {}

    def _tests(self, rope, n):
        if n not in self._freq:
            a, b = self.a[:n], self.b[:n]
            if len(self._freq) >= self.MAX_CACHED:
                self._freq.pop(next(iter(self._freq)))
            self._freq[n] = (_cmp.wilcoxon(a, b), _cmp.sign_test(a, b, lower_is_better=self.lower_is_better),
                             _cmp.paired_ttest(a, b))
        key = (rope, n)
        if key not in self._bayes:
            bs = _cmp.bayesian_signed_rank(self.a[:n], self.b[:n], rope=rope, n_samples=self.n_samples,
                                           random_state=0)
            if len(self._bayes) >= self.MAX_CACHED:
                self._bayes.pop(next(iter(self._bayes)))
            # kept with the draws the figure shows (3000 of 10000): 72 kB a setting, under 5 MB in all
            self._bayes[key] = dataclasses.replace(bs, samples=bs.samples[:MAX_POINTS].copy())
        return (self._bayes[key], *self._freq[n])

    def __call__(self, rope, n_datasets):
        n = check_positive_int(n_datasets, "n_datasets", minimum=2)
        if n > self.a.size:
            raise ValueError(f"n_datasets={n} is larger than the {self.a.size} data sets given")
        names, said = self.names, self.said
        rope = _cmp._check_real(rope, "rope")  # the test's own check, before the value keys a cache
        bs, wx, sg, tt = self._tests(rope, n)
        a, b = self.a[:n], self.b[:n]
        probs = bs.probs
        best = int(np.argmax(probs))
        verdict = say("{label} (P > {d})", label=said[best], d=DECISION) if probs[best] > DECISION else \
            say("no decision (no P above {d})", d=DECISION)
        d = b - a
        diff = float(d.mean()) + 0.0  # + 0.0: never print -0.0000
        b_wins = int(np.sum(d < 0)) if self.lower_is_better else int(np.sum(d > 0))
        ties = int(np.sum(d == 0))
        decide = lambda res: say("reject H0") if res.reject else say("cannot reject H0")  # noqa: E731
        text = "\n".join([
            say("N = {n} data sets, rope = {rope:.3f}: mean {b} - {a} = {diff:.4f} ({b} better on {bw}, {a} better "
                "on {aw}, ties {ties})", n=n, rope=bs.rope, a=names[0], b=names[1], diff=diff, bw=b_wins,
                aw=n - b_wins - ties, ties=ties),
            say("Bayesian signed-rank: P({l0}) = {p0:.3f}, P({l1}) = {p1:.3f}, P({l2}) = {p2:.3f} -> {verdict}",
                l0=said[0], l1=said[1], l2=said[2], p0=probs[0], p1=probs[1], p2=probs[2], verdict=verdict),
            say("Wilcoxon: T = {t:g}, p = {p:.4f} -> {v1} | sign test: p = {ps:.4f} -> {v2} | t-test over data sets: "
                "p = {pt:.4f} -> {v3}", t=wx.statistic, p=wx.pvalue, v1=decide(wx), ps=sg.pvalue, v2=decide(sg),
                pt=tt.pvalue, v3=decide(tt))])
        if self.fig is None:
            self._build(bs, wx, sg)
        else:
            self._move(bs, wx, sg)
        return text, self.fig

    def _build(self, bs, wx, sg):
        probs, labels = bs.probs, self.labels
        self.fig, (ax1, ax2) = new_figure(2, width=10.5, height=4.2)
        _plots.plot_simplex(bs, labels=labels, max_points=MAX_POINTS, ax=ax1)
        y = np.arange(3)[::-1]
        self.bars = ax2.barh(y, probs, color=[COLORS["red"], COLORS["grey"], COLORS["blue"]]).patches
        ax2.axvline(DECISION, color="black", ls="--", lw=1.2, label=f"decide above {DECISION}")
        self.values = [ax2.text(min(p + 0.02, 0.85), yi, f"{p:.3f}", va="center", fontsize=9)
                       for yi, p in zip(y, probs)]
        ax2.set_yticks(y)
        ax2.set_yticklabels([f"P({lab})" for lab in labels])
        ax2.set_xlim(0, 1)
        ax2.set_xlabel("posterior probability")
        ax2.set_title(f"Wilcoxon p = {wx.pvalue:.4f}, sign test p = {sg.pvalue:.4f}")
        ax2.legend(loc="lower right")
        self.ax1, self.ax2 = ax1, ax2
        # plot_simplex draws one scatter per region that holds a draw: give every region its own (empty if need
        # be), drawn in the same order (red, grey, blue) whichever regions were empty at the start
        present = [k for k in range(3) if k in set(bs.samples[:MAX_POINTS].argmax(axis=1).tolist())]
        found = dict(zip(present, ax1.collections))
        self.clouds = []
        for k, color in enumerate((COLORS["red"], COLORS["grey"], COLORS["blue"])):
            cloud = found[k] if k in found else \
                ax1.scatter(np.empty(0), np.empty(0), s=3, color=color, alpha=0.35, linewidths=0, marker=DOT)
            cloud.set_zorder(cloud.get_zorder() + 1e-3 * k)
            self.clouds.append(cloud)
        self.corners = list(ax1.texts[:3])
        # the legend and the right title (which changes with N only) are pasted from their pixels when drawn again
        _Pixels().install(ax2.get_legend(), ax2.title)
        for ax in (ax1, ax2):  # everything inside the axes moves or is drawn over what moves: blit it all
            frame = {ax.patch, ax.xaxis, ax.yaxis, *ax.spines.values()}
            for a in ax.get_children():
                if a not in frame:
                    a.set_animated(True)

    def _move(self, bs, wx, sg):
        s = bs.samples[:MAX_POINTS]
        winner = s.argmax(axis=1)
        x, y = _plots._project(s)
        xy = np.column_stack([x, y])
        for k, cloud in enumerate(self.clouds):
            cloud.set_offsets(xy[winner == k])
        labels, probs = self.labels, bs.probs
        # the strings of plot_simplex (tests/test_compare_today_widgets.py checks that they stay the same)
        self.corners[0].set_text(f"{labels[0]}\nP = {bs.p_left:.3f}")
        self.corners[1].set_text(f"{labels[1]}: P = {bs.p_rope:.3f}")
        self.corners[2].set_text(f"{labels[2]}\nP = {bs.p_right:.3f}")
        self.ax1.set_title(f"Bayesian signed-rank test: N = {bs.n}, rope = {bs.rope:.3f}")
        for bar, value, p in zip(self.bars, self.values, probs):
            bar.set_width(p)
            value.set_x(min(p + 0.02, 0.85))
            value.set_text(f"{p:.3f}")
        self.ax2.set_title(f"Wilcoxon p = {wx.pvalue:.4f}, sign test p = {sg.pvalue:.4f}")


def bayesian_comparison_explorer(scores_a, scores_b, *, rope=0.01, n_datasets=None, names=("A", "B"),
                                 lower_is_better=True):
    """Sliders for the ROPE width and the number of data sets N over :func:`bayesian_comparison_view`
    (notebook 13): a wider ROPE moves probability to "equivalent"; more data sets sharpen every verdict."""
    a = _cmp.as_finite_array(scores_a, "scores_a")
    b = _cmp.as_finite_array(scores_b, "scores_b")
    _cmp.check_consistent_length(scores_a=a, scores_b=b)
    n_datasets = a.size if n_datasets is None else n_datasets
    view = _BayesView(a, b, tuple(names), lower_is_better)
    view(rope, n_datasets)  # validate the start values (and build the figure the explorer shows first)
    controls = {
        "rope": slider(float(rope), 0.0, 0.05, 0.0025, "rope (half-width)", readout_format=".4f"),
        "n_datasets": slider(int(n_datasets), 3, len(a), 1, "N (data sets)"),
    }
    return Explorer("Bayesian signed-rank vs Wilcoxon: the ROPE and the number of data sets", controls, view)
