"""Explorers for the comparison tests (notebooks 08 and 09).

Each explorer wraps a pure ``*_view(**values) -> (text, figure)`` function that is tested without a
browser; the statistics come from :mod:`evallib.compare`.
"""
from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from .. import compare as _cmp
from .._validation import as_finite_array, check_positive_int, check_probability
from ..plots import compare as _plots
from ..style import new_figure
from ._base import Explorer, clear_content, figure_once, slider
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
    # The explorer's figure: when only the observed count moves within the bars already drawn, move its line and
    # relabel (what plot_binomial_test would draw); otherwise draw again (figure_once).
    key = (m, eps0, r.alpha, _binomial_range(m, eps0, r.alpha, n_errors))
    if _figure.get("key") == key:
        ax = _figure["axes"]
        line, label = _figure["observed"]
        line.set_xdata([n_errors, n_errors])
        label.set_text(f"observed: {n_errors} errors, p = {r.pvalue:.3f}")
        verdict = "reject H0" if r.reject else "cannot reject H0"
        ax.set_title(f"Binomial test, m = {m}, eps0 = {eps0:.2f}, alpha = {r.alpha:.2f}: {verdict}")
        return text, _figure["fig"]
    fig, ax = figure_once(_figure, width=7.5, height=4.0)
    _plots.plot_binomial_test(m, eps0, r.alpha, n_errors, ax=ax)
    _figure["key"] = key
    label = next(t for t in ax.get_legend().texts if t.get_text().startswith("observed:"))
    _figure["observed"] = (ax.lines[-1], label)
    return text, fig


def _binomial_range(m, eps0, alpha, n_errors):
    """The bars plot_binomial_test draws (first, last count) for these inputs (the same rule)."""
    from scipy import stats

    pmf = stats.binom.pmf(np.arange(m + 1), m, eps0)
    keep = pmf > 1e-6 * pmf.max()
    keep[min(n_errors, m)] = True
    c = _cmp.binomial_critical_count(m, eps0, alpha)
    lo, hi = int(np.flatnonzero(keep)[0]), int(np.flatnonzero(keep)[-1])
    return max(0, lo - 1), min(m, max(hi + 1, c + 2))


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
    held = {}  # one figure, drawn again on each change (figure_once)
    return Explorer("Binomial test: H0 says the generalisation error is at most eps0", controls,
                    lambda **v: binomial_view(**v, _figure=held), columns=2)


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
    key = (alpha, k, max(50, n))
    if _figure is not None and _figure.get("key") == key:
        # the explorer's figure, N moved within the drawn range: the CD curves stay, the marked point moves, the
        # diagram (every part of it depends on CD) is drawn again
        ax1, ax2 = _figure["axes"]
        mark, label = _figure["mark"]
        mark.set_data([n], [cd])
        label.set_text(f"k = {k}, N = {n}: CD = {cd:.3f}")
        clear_content(ax2)
        _plots.plot_cd_diagram(mean_ranks=r, cd=cd, names=names, ax=ax2)
        return text, _figure["fig"]
    fig, (ax1, ax2) = (figure_once(_figure, 2, width=11.0, height=4.2) if _figure is not None
                       else new_figure(2, width=11.0, height=4.2))
    if _figure is not None:
        _figure["key"] = key
        _figure["mark"] = None
    _plots.plot_cd_curve(sorted({3, k, 10} if k != 10 else {3, 10}), n_range=(2, max(50, n)), alpha=alpha,
                         mark=(k, n), ax=ax1)
    _plots.plot_cd_diagram(mean_ranks=r, cd=cd, names=names, ax=ax2)
    if _figure is not None:
        label = next(t for t in ax1.get_legend().texts if t.get_text().startswith(f"k = {k}, N = "))
        _figure["mark"] = (ax1.lines[-1], label)
    return text, fig


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
    held = {}
    return Explorer("Nemenyi critical difference: alpha and the number of data sets", controls,
                    lambda alpha, n_datasets: cd_view(r, names, alpha, n_datasets, _figure=held))
