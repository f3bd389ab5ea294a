"""Explorers for the comparison tests (notebooks 08 and 09).

Each explorer wraps a pure ``*_view(**values) -> (text, figure)`` function that is tested without a
browser; the statistics come from :mod:`evallib.compare`.
"""
from __future__ import annotations

import ipywidgets as widgets
import matplotlib.colors as mcolors
import numpy as np

from .. import compare as _cmp
from .._validation import as_finite_array, check_positive_int, check_probability
from ..plots import compare as _plots
from ..style import COLORS, new_figure
from ._base import Explorer, _Pixels, clear_content, slider
from ..i18n import say

__all__ = ["binomial_view", "binomial_test_explorer", "cd_view", "cd_explorer"]

ALPHAS = (0.01, 0.05, 0.10)


def binomial_view(m, eps0, alpha, error_rate, *, _figure=None):
    """Text and figure of the binomial test for ``m`` test samples, H0: ε ≤ ``eps0``, level ``alpha``,
    and an observed test error rate ``error_rate`` (n_errors = round(error_rate · m)).

    >>> text, fig = binomial_view(100, 0.3, 0.05, 0.38)
    >>> print(text.splitlines()[1])
    critical count C = 38, critical error rate = 0.380
    """
    m = check_positive_int(m, "m")
    eps0 = check_probability(eps0, "eps0")
    error_rate = check_probability(error_rate, "error_rate")
    n_errors = int(round(error_rate * m))
    r = _cmp.binomial_test(n_errors, m, eps0, alpha)
    verdict = say("reject H0: the error rate is above eps0") if r.reject else \
        say("cannot reject H0 (which does not prove it)")
    text = "\n".join([
        say("m = {m}, eps0 = {eps0:.2f}, alpha = {alpha:.2f}: {k} errors observed (test error rate {rate:.3f})",
            m=m, eps0=eps0, alpha=r.alpha, k=n_errors, rate=r.statistic),
        say("critical count C = {c}, critical error rate = {cv:.3f}", c=r.critical_count, cv=r.critical_value),
        say("p = P(X >= {k} | eps0) = {p:.4f} -> {verdict}", k=n_errors, p=r.pvalue, verdict=verdict)])
    if _figure is None:
        fig, ax = new_figure(width=7.5, height=4.0)
        _plots.plot_binomial_test(m, eps0, r.alpha, n_errors, ax=ax)
        return text, fig
    return text, _figure(m, eps0, n_errors, r)


def _set_loc(legend, loc):
    if hasattr(legend, "set_loc"):  # matplotlib >= 3.8
        legend.set_loc(loc)
    else:  # pragma: no cover
        legend._loc = legend.codes[loc]


def _bar_verts(x, h):
    """Rectangles of width 0.9 centred on ``x``, from 0 to ``h`` (what ``ax.bar(x, h, width=0.9)`` draws)."""
    x = np.asarray(x, float)
    h = np.asarray(h, float)
    v = np.empty((x.size, 4, 2))
    v[:, 0, 0] = v[:, 1, 0] = x - 0.45
    v[:, 2, 0] = v[:, 3, 0] = x + 0.45
    v[:, 0, 1] = v[:, 3, 1] = 0.0
    v[:, 1, 1] = v[:, 2, 1] = h
    return v


class _BinomialFigure:
    """The binomial explorer's one figure, changed in place: what :func:`~evallib.plots.plot_binomial_test` draws,
    with the bars as two collections (see ``_build`` for how it is drawn)."""

    def __init__(self):
        self.fig = None
        self.pixels = _Pixels()

    def _build(self, m, eps0, n_errors, r):
        from matplotlib.collections import PolyCollection

        self.fig, ax = new_figure(width=7.5, height=4.0)
        _plots.plot_binomial_test(m, eps0, r.alpha, n_errors, ax=ax)
        self.ax = ax
        self.bars = []
        for container in list(ax.containers):  # the same bars, as one artist per colour
            face = container.patches[0].get_facecolor() if container.patches else None
            coll = PolyCollection([], facecolors=[face] if face is not None else [], edgecolors="none",
                                  linewidths=0, antialiaseds=True, zorder=1)
            container.remove()
            ax.add_collection(coll, autolim=False)
            self.bars.append(coll)
        self.line = ax.lines[-1]
        self.legend = ax.get_legend()
        self.crit_label = next(t for t in self.legend.texts if t.get_text().startswith("critical region"))
        self.obs_label = next(t for t in self.legend.texts if t.get_text().startswith("observed:"))
        ax.set_autoscale_on(False)
        # The axes (frame, ticks, labels, bars) is drawn as one animated artist whose pixels are kept per state
        # (bars, limits, x label): a move back to a state seen before pastes it; the observed line, the legend and
        # the title are drawn over it. Nothing is left in the background but the figure's face.
        for a in (ax, self.line, self.legend, ax.title):
            a.set_animated(True)
        # (not the labels that change with the legend: a new legend would draw each of them once more in a layer)
        self.pixels.install(ax.title, self.legend, ax.xaxis.label, ax.yaxis.label,
                            *(t for t in self.legend.texts if t is not self.crit_label and t is not self.obs_label))
        self.pixels.install(ax, key=lambda a, renderer: ("axes", id(a), self.state, tuple(a.bbox.bounds)))
        self.state = None

    def __call__(self, m, eps0, n_errors, r):
        from scipy import stats

        if self.fig is None:
            self._build(m, eps0, n_errors, r)
        ax = self.ax
        c = r.critical_count
        # the bars plot_binomial_test draws (the same rule)
        i = np.arange(m + 1)
        pmf = stats.binom.pmf(i, m, eps0)
        keep = pmf > 1e-6 * pmf.max()
        keep[min(n_errors, m)] = True
        lo, hi = int(np.flatnonzero(keep)[0]), int(np.flatnonzero(keep)[-1])
        lo, hi = max(0, lo - 1), min(m, max(hi + 1, c + 2))
        x, h = i[lo:hi + 1], pmf[lo:hi + 1]
        crit = x > c
        self.line.set_xdata([n_errors, n_errors])
        self.crit_label.set_text(f"critical region (> {c} errors), P = {stats.binom.sf(c, m, eps0):.3f}")
        self.obs_label.set_text(f"observed: {n_errors} errors, p = {r.pvalue:.3f}")
        verdict = "reject H0" if r.reject else "cannot reject H0"
        # y=1.0: where matplotlib puts it (no tick labels on top, no offset text for probabilities) without
        # measuring every tick label again at each full draw
        ax.set_title(f"Binomial test, m = {m}, eps0 = {eps0:.2f}, alpha = {r.alpha:.2f}: {verdict}", y=1.0)
        mode = lo + int(np.argmax(h))
        _set_loc(self.legend, "upper right" if mode < (lo + hi) / 2 else "upper left")
        # the limits autoscaling gives the bars (5 % margins in x), and plot_binomial_test's headroom in y
        x0, x1 = lo - 0.45, hi + 0.45
        state = ((x0 - 0.05 * (x1 - x0), x1 + 0.05 * (x1 - x0)), (0, h.max() * 1.45),
                 f"number of misclassified test samples (critical error rate = {c / m:.3f})", (m, eps0, c, lo, hi))
        if state != self.state:  # the bars, limits or x label change: the axes is drawn again (or pasted)
            self.bars[0].set_verts(_bar_verts(x[~crit], h[~crit]))
            self.bars[1].set_verts(_bar_verts(x[crit], h[crit]))
            ax.set_xlim(state[0])
            ax.set_ylim(state[1])
            ax.set_xlabel(state[2])
            for axis in (ax.xaxis, ax.yaxis):  # tick labels too: moving back and forth draws the same ones again
                self.pixels.install(*(t.label1 for t in axis.get_major_ticks(len(axis.get_majorticklocs()))))
            self.state = state
        return self.fig


def binomial_test_explorer(m=50, eps0=0.3, alpha=0.05, error_rate=0.4):
    """Sliders for m, ε0, α and the observed error rate over the binomial test (notebook 08)."""
    binomial_view(m, eps0, alpha, error_rate)  # validate the start values with clear messages
    controls = {
        "m": slider(int(m), 5, 500, 5, "m (test samples)"),
        "eps0": slider(float(eps0), 0.01, 0.99, 0.01, "eps0"),
        "alpha": widgets.Dropdown(options=list(ALPHAS) if alpha in ALPHAS else sorted({*ALPHAS, alpha}),
                                  value=alpha, description="alpha"),
        "error_rate": slider(float(error_rate), 0.0, 1.0, 0.01, "observed error rate"),
    }
    for name in ("m", "eps0", "error_rate"):
        controls[name].layout.width = "400px"  # long descriptions would leave a track too short to drag
    view = _BinomialFigure()  # one figure, changed in place on each move
    ex = Explorer("Binomial test: H0 says the generalisation error is at most eps0", controls,
                  lambda **v: binomial_view(**v, _figure=view), columns=2)
    ex._view = view  # for tests
    return ex


def cd_view(mean_ranks, names, alpha, n_datasets, *, _figure=None):
    """Text and figure: the Nemenyi CD for ``alpha`` and ``n_datasets`` (N), which pairs of algorithms
    with these mean ranks it separates, the CD-against-N curve and the CD diagram.

    >>> text, fig = cd_view([1.0, 2.125, 2.875], ("A", "B", "C"), 0.05, 4)
    >>> print(text.splitlines()[0])
    k = 3, N = 4, alpha = 0.05: q_alpha = 2.344, CD = 1.657
    """
    r = as_finite_array(mean_ranks, "mean_ranks")
    k = r.size
    if k < 2:
        raise ValueError(f"mean_ranks has {k} value; at least 2 algorithms are needed")
    names = tuple(str(n) for n in names) if names is not None else _cmp._default_names(k)
    if len(names) != k:
        raise ValueError(f"names has {len(names)} entries but mean_ranks has {k}")
    n = check_positive_int(n_datasets, "n_datasets", minimum=2)
    q = _cmp.q_alpha(k, alpha)
    cd = _cmp.critical_difference(k, n, alpha)
    diff = np.abs(r[:, None] - r[None, :])
    pairs = []
    for i, j in zip(*np.nonzero(np.triu(diff > cd, 1))):
        a, b = (i, j) if r[i] <= r[j] else (j, i)
        pairs.append(f"{names[a]} < {names[b]} ({diff[i, j]:.2f})")
    groups = [" ".join(names[i] for i in g) for g in _cmp.cd_groups(r, cd)]
    text = "\n".join([
        say("k = {k}, N = {n}, alpha = {alpha:.2f}: q_alpha = {q:.3f}, CD = {cd:.3f}", k=k, n=n, alpha=alpha, q=q,
            cd=cd),
        say("significantly different pairs: {pairs}", pairs=", ".join(pairs) if pairs else say("none")),
        say("groups joined by a bar: {groups}", groups="; ".join(groups) if groups else say("none"))])
    if _figure is not None:
        return text, _figure(r, names, alpha, n, cd)
    fig, (ax1, ax2) = new_figure(2, width=11.0, height=4.2)
    _plots.plot_cd_curve(sorted({3, k, 10} if k != 10 else {3, 10}), n_range=(2, max(50, n)), alpha=alpha,
                         mark=(k, n), ax=ax1)
    _plots.plot_cd_diagram(mean_ranks=r, cd=cd, names=names, ax=ax2)
    return text, fig


class _CDFigure:
    """The CD explorer's one figure, changed in place. Left: the CD curves over the slider's whole range of N
    (2..100) with y limits that hold the curves of every α in the dropdown, so a move never changes the frame;
    right: the CD diagram, drawn again only when the groups change (its pixels are kept per groups), with the CD
    bar and its label drawn over it."""

    def __init__(self, alphas, n_range=(2, 100)):
        self.alphas, self.n_range = tuple(alphas), n_range
        self.fig = None
        self.pixels = _Pixels()

    def _build(self, r, names, alpha, n, cd):
        k = r.size
        self.fig, (ax1, ax2) = new_figure(2, width=11.0, height=4.2)
        self.ks = sorted({3, k, 10} if k != 10 else {3, 10})
        _plots.plot_cd_curve(self.ks, n_range=self.n_range, alpha=alpha, mark=(k, n), ax=ax1)
        nn = np.arange(self.n_range[0], self.n_range[1] + 1)
        ys = [_cmp.q_alpha(kk, a) * np.sqrt(kk * (kk + 1) / (6 * nn)) for a in self.alphas for kk in self.ks]
        lo, hi = min(y.min() for y in ys), max(y.max() for y in ys)
        ax1.set_ylim(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))  # autoscale's margins, for every alpha
        ax1.set_autoscale_on(False)
        self.curves, self.mark = ax1.lines[:len(self.ks)], ax1.lines[len(self.ks)]
        self.legend = ax1.get_legend()
        self.mark_label = self.legend.texts[-1]
        for a in (*ax1.lines, self.legend, ax1.title):
            a.set_animated(True)
        _set_loc(self.legend, "upper right")  # where "best" puts it (the curves fall to the right), without a search
        self.pixels.install(ax1.title, self.legend, *self.legend.texts[:-1], ax1.xaxis.label, ax1.yaxis.label)
        self.ax1, self.ax2 = ax1, ax2
        self.alpha = alpha
        self.groups = None
        # the diagram's axes (off: no frame) is one animated artist whose pixels are kept per groups; its CD bar
        # and label are drawn over it
        ax2.set_animated(True)
        self.pixels.install(ax2, key=lambda a, renderer: ("diagram", id(a), self.groups, tuple(a.bbox.bounds)))

    def _diagram(self, r, names, cd):
        ax2 = self.ax2
        clear_content(ax2)
        _plots.plot_cd_diagram(mean_ranks=r, cd=cd, names=names, ax=ax2)
        self.pixels.install(ax2.title, *ax2.texts)
        # the CD bar, its two end ticks and its label (plot_cd_diagram draws them after the rank axis, in red) move
        # with N and alpha; the rest of the diagram changes only with the groups (the axes' kept pixels)
        red = mcolors.to_rgba(COLORS["red"])
        self.cd_lines = [ln for ln in ax2.lines if mcolors.to_rgba(ln.get_color()) == red]
        self.cd_text = next(t for t in ax2.texts if t.get_text().startswith("CD = "))
        for a in (*self.cd_lines, self.cd_text):
            a.set_animated(True)

    def __call__(self, r, names, alpha, n, cd):
        if self.fig is None:
            self._build(r, names, alpha, n, cd)
        k = r.size
        if alpha != self.alpha:
            nn = np.arange(self.n_range[0], self.n_range[1] + 1)
            for line, kk in zip(self.curves, self.ks):
                line.set_ydata(_cmp.q_alpha(kk, alpha) * np.sqrt(kk * (kk + 1) / (6 * nn)))
            self.ax1.set_title(f"Nemenyi critical difference, alpha = {alpha:.2f}")
            self.alpha = alpha
        self.mark.set_data([n], [cd])
        self.mark_label.set_text(f"k = {k}, N = {n}: CD = {cd:.3f}")
        groups = _cmp.cd_groups(r, cd)
        if groups != self.groups:
            self._diagram(r, names, cd)
            self.groups = groups
        else:  # what plot_cd_diagram draws for this CD
            lo = 1
            bar, left, right = self.cd_lines
            bar.set_xdata([lo, lo + cd])
            left.set_xdata([lo, lo])
            right.set_xdata([lo + cd, lo + cd])
            self.cd_text.set_x(lo + cd / 2)
            self.cd_text.set_text(f"CD = {cd:.3f}")
        return self.fig


def cd_explorer(mean_ranks, names=None, *, n_datasets=10, alpha=0.05):
    """Sliders for α and N over the Nemenyi critical difference of fixed mean ranks (notebook 09):
    with the same mean ranks, more data sets shrink CD and separate more pairs."""
    cd_view(mean_ranks, names, alpha, n_datasets)  # validate the start values
    r = tuple(float(v) for v in np.asarray(mean_ranks, dtype=float))
    names = tuple(names) if names is not None else None
    controls = {
        "alpha": widgets.Dropdown(options=list(ALPHAS) if alpha in ALPHAS else sorted({*ALPHAS, alpha}),
                                  value=alpha, description="alpha"),
        "n_datasets": slider(int(n_datasets), 2, 100, 1, "N (data sets)"),
    }
    view = _CDFigure(controls["alpha"].options)  # one figure, changed in place on each move
    ex = Explorer("Nemenyi critical difference: alpha and the number of data sets", controls,
                  lambda alpha, n_datasets: cd_view(r, names, alpha, n_datasets, _figure=view))
    ex._view = view  # for tests
    return ex
