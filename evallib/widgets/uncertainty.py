"""Explorer for intervals of an error rate (notebook 12, beyond the book).

:func:`interval_view` is the pure ``(values) -> (text, figure)`` function the explorer calls; it is tested
without a browser. The numbers come from :mod:`evallib.uncertainty`.
"""
from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import uncertainty as _unc
from .._validation import check_positive_int, check_probability
from ..plots import uncertainty as _plots
from ..plots._base import COLORS
from ..style import new_figure
from ._base import Explorer, _Pixels, redraw_all, slider
from ..i18n import say, N_

__all__ = ["interval_view", "interval_explorer"]

CONFIDENCES = (0.8, 0.9, 0.95, 0.99)
N_TRIALS = 4000  # simulated test sets per method: standard error about 0.0035 at 95 % coverage


def _interval_rows(m, eps, confidence):
    """Text and the three interval results for the expected count round(ε·m)."""
    k = int(round(eps * m))
    lines = [say("m = {m}, true error rate {eps:.2f}, confidence {c:g}", m=m, eps=eps, c=confidence),
             say("a test set with the expected {k} error(s) (test error rate {rate:.3f}) gives:", k=k, rate=k / m)]
    rows = []
    for meth in _unc.INTERVAL_METHODS[::-1]:  # normal, clopper-pearson, wilson
        r = _unc.error_rate_interval(k, m, confidence=confidence, method=meth)
        c = _unc.interval_coverage(m, eps, confidence=confidence, method=meth, n_trials=N_TRIALS, random_state=0)
        rows.append(r)
        lines.append(say("{meth:<16} [{lo:.3f}, {hi:.3f}]  width {w:.3f}   coverage: exact {ce:.3f}, simulated "
                         "{cs:.3f}", meth=meth, lo=r.low, hi=r.high, w=r.width, ce=c.exact, cs=c.simulated))
    return "\n".join(lines), rows, k


class _IntervalView:
    """The explorer's figure, built once and changed in place: a move of the error rate moves the three interval
    bars, their labels, the truth lines and the title; a new m or confidence gives the coverage curves, the
    nominal line, the legend and the right title new data. All of them are animated artists, blitted over the
    cached frames; the whole figure is drawn again only when the coverage axis' range changes (a confidence
    below 0.8). Rows and curves already computed are kept (bounded caches the view keeps)."""

    MAX_CACHED = 256

    def __init__(self):
        self.fig = self.key = None
        self._rows, self._curves = {}, {}

    def _cached(self, cache, key, compute):
        if key not in cache:
            if len(cache) >= self.MAX_CACHED:
                cache.pop(next(iter(cache)))
            cache[key] = compute()
        return cache[key]

    def __call__(self, m=100, error_rate=0.05, confidence=0.95):
        m = check_positive_int(m, "m")
        eps = check_probability(error_rate, "error_rate")
        confidence = check_probability(confidence, N_("confidence"), low_open=True, high_open=True)
        text, rows, k = self._cached(self._rows, (m, eps, confidence), lambda: _interval_rows(m, eps, confidence))
        if self.fig is None:
            self._build(m, eps, confidence, rows)
        elif (m, confidence) != self.key:
            self._new_curves(m, confidence)
        self.key = (m, confidence)
        for r, (bar, cap_lo, cap_hi, dot), label in zip(rows, self.bars, self.labels):
            bar.set_xdata([r.low, r.high])
            cap_lo.set_xdata([r.low, r.low])
            cap_hi.set_xdata([r.high, r.high])
            dot.set_xdata([r.estimate])
            label.set_text(f"[{r.low:.3f}, {r.high:.3f}]")
        for line in self.truth:
            line.set_xdata([eps, eps])
        self.ax1.set_title(f"{k} error(s) in {m}: {confidence:g} intervals (dashed: true error)")
        return text, self.fig

    def _build(self, m, eps, confidence, rows):
        self.fig, (self.ax1, self.ax2) = new_figure(2, width=11.0, height=4.0)
        _plots.plot_intervals(rows, [r.method for r in rows], xlabel="error rate",
                              colors=[_plots._METHOD_COLORS[r.method] for r in rows], ax=self.ax1)
        self.ax1.set_xlim(0, 1.3)  # fixed: widths compare across m; the labels stand in a column right of 1
        self.ax1.set_xticks(np.linspace(0, 1, 6))
        self.bars = [self.ax1.lines[4 * i: 4 * i + 4] for i in range(len(rows))]
        self.labels = list(self.ax1.texts)
        for label in self.labels:
            label.xy = (1.0, label.xy[1])
        _plots.plot_coverage(m, confidence=confidence, error_rate=eps, ax=self.ax2)
        self.curves = self.ax2.lines[:len(_unc.INTERVAL_METHODS)]
        self.nominal, marker = self.ax2.lines[len(_unc.INTERVAL_METHODS):len(_unc.INTERVAL_METHODS) + 2]
        self.nominal_text = self.ax2.get_legend().texts[len(_unc.INTERVAL_METHODS)]
        self.truth = [self.ax1.axvline(eps, color=COLORS["grey"], ls="--", lw=1.2), marker]
        # the coverage panel's curves, nominal line and title change with m and the confidence: animated, like the
        # bars; so is its legend (its nominal entry changes with the confidence, and a curve may run through it:
        # drawn over the curves as in a plain draw), pasted from cached pixels while its labels stay the same
        self.legend = self.ax2.get_legend()
        moving = [a for group in self.bars for a in group] + self.labels + self.truth + [self.ax1.title] + \
            self.curves + [self.nominal, self.ax2.title, self.legend]
        self._curves[(m, confidence)] = [line.get_ydata() for line in self.curves]
        _Pixels().install(self.ax2.title, self.legend)  # the right title changes with m only: pasted when unchanged
        for a in moving:
            a.set_animated(True)

    def _new_curves(self, m, confidence):
        curves = self._cached(self._curves, (m, confidence), lambda: [
            _unc.coverage_curve(m, line.get_xdata(), confidence=confidence, method=line.get_label())
            for line in self.curves])
        for line, cov in zip(self.curves, curves):
            line.set_ydata(cov)
        self.nominal.set_ydata([confidence, confidence])
        self.nominal.set_label(f"nominal {confidence:g}")
        self.nominal_text.set_text(self.nominal.get_label())
        self.ax2.set_title(f"Real coverage of {confidence:g} intervals, m = {m}")
        ylim = (max(0.0, min(0.5, confidence - 0.3)), 1.005)
        if tuple(self.ax2.get_ylim()) != ylim:  # the same for every confidence of the menu (0.8 and above)
            self.ax2.set_ylim(*ylim)
            redraw_all(self.fig)


def interval_view(m, error_rate, confidence=0.95):
    """Text and figure: on ``m`` test samples with a true error rate ``error_rate``, the three intervals
    for the expected count of errors (round(ε·m)) and each method's coverage, exact and simulated
    (``N_TRIALS`` test sets, fixed seed). Pure: builds a fresh view (the explorer keeps one and changes it in place).

    >>> text, fig = interval_view(20, 0.05)
    >>> print(text.splitlines()[2])
    normal           [0.000, 0.146]  width 0.146   coverage: exact 0.639, simulated 0.637
    """
    return _IntervalView()(m, error_rate, confidence)


def interval_explorer(m=100, error_rate=0.05, confidence=0.95):
    """Sliders for the test-set size m and the true error rate, a menu for the confidence: each interval
    and its real coverage (notebook 12)."""
    interval_view(m, error_rate, confidence)  # validate the start values with clear messages
    options = list(CONFIDENCES) if confidence in CONFIDENCES else sorted({*CONFIDENCES, confidence})
    controls = {
        "m": slider(int(m), 10, 1000, 10, "m (test samples)"),
        "error_rate": slider(float(error_rate), 0.01, 0.99, 0.01, "true error rate"),
        N_("confidence"): widgets.Dropdown(options=options, value=confidence, description=N_("confidence")),
    }
    return Explorer(N_("Intervals for an error rate: test-set size and true error"), controls, _IntervalView())

