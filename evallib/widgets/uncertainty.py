"""Explorer for intervals of an error rate (notebook 12, beyond the book).

:func:`interval_view` is the pure ``(values) -> (text, figure)`` function the explorer calls; it is tested
without a browser. The numbers come from :mod:`evallib.uncertainty`.
"""
from __future__ import annotations

import ipywidgets as widgets

from .. import uncertainty as _unc
from .._validation import check_positive_int, check_probability
from ..plots import uncertainty as _plots
from ..style import new_figure
from ._base import Explorer, slider

__all__ = ["interval_view", "interval_explorer"]

CONFIDENCES = (0.8, 0.9, 0.95, 0.99)
N_TRIALS = 4000  # simulated test sets per method: standard error about 0.0035 at 95 % coverage


def interval_view(m, error_rate, confidence=0.95):
    """Text and figure: on ``m`` test samples with a true error rate ``error_rate``, the three intervals
    for the expected count of errors (round(ε·m)) and each method's coverage, exact and simulated
    (``N_TRIALS`` test sets, fixed seed).

    >>> text, fig = interval_view(20, 0.05)
    >>> print(text.splitlines()[2])
    normal           [0.000, 0.146]  width 0.146   coverage: exact 0.642, simulated 0.638
    """
    m = check_positive_int(m, "m")
    eps = check_probability(error_rate, "error_rate")
    confidence = check_probability(confidence, "confidence", low_open=True, high_open=True)
    k = int(round(eps * m))
    lines = [f"m = {m}, true error rate {eps:.2f}, confidence {confidence:g}",
             f"a test set with the expected {k} error(s) (test error rate {k / m:.3f}) gives:"]
    rows = []
    for meth in _unc.INTERVAL_METHODS[::-1]:  # normal, clopper-pearson, wilson
        r = _unc.error_rate_interval(k, m, confidence=confidence, method=meth)
        c = _unc.interval_coverage(m, eps, confidence=confidence, method=meth, n_trials=N_TRIALS, random_state=0)
        rows.append(r)
        lines.append(f"{meth:<16} [{r.low:.3f}, {r.high:.3f}]  width {r.width:.3f}   "
                     f"coverage: exact {c.exact:.3f}, simulated {c.simulated:.3f}")
    fig, (ax1, ax2) = new_figure(2, width=11.0, height=4.0)
    _plots.plot_intervals(rows, [r.method for r in rows], reference=eps, xlabel="error rate",
                          colors=[_plots._METHOD_COLORS[r.method] for r in rows],
                          title=f"{k} errors in {m}: {confidence:g} intervals", ax=ax1)
    _plots.plot_coverage(m, confidence=confidence, error_rate=eps, ax=ax2)
    return "\n".join(lines), fig


def interval_explorer(m=100, error_rate=0.05, confidence=0.95):
    """Sliders for the test-set size m and the true error rate, a menu for the confidence: each interval
    and its real coverage (notebook 12)."""
    interval_view(m, error_rate, confidence)  # validate the start values with clear messages
    options = list(CONFIDENCES) if confidence in CONFIDENCES else sorted({*CONFIDENCES, confidence})
    controls = {
        "m": slider(int(m), 10, 1000, 10, "m (test samples)"),
        "error_rate": slider(float(error_rate), 0.01, 0.99, 0.01, "true error rate"),
        "confidence": widgets.Dropdown(options=options, value=confidence, description="confidence"),
    }
    return Explorer("Intervals for an error rate: test-set size and true error", controls, interval_view)

