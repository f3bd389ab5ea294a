"""Shared helpers for the plot functions: every ``plot_*`` takes ``ax=None`` and returns the Axes."""

from __future__ import annotations

import numbers

from matplotlib.axes import Axes
from matplotlib.path import Path

from .._validation import Interval, validate_params
from ..style import COLORS

# Declared constraints shared by the plot functions (evallib._validation.validate_params)
AX = [None, Axes]
THRESHOLD = [None, Interval(numbers.Real, None, None, allow_inf=True)]  # a threshold to mark: ±inf is one
POSITIVE_INT = [Interval(numbers.Integral, 1, None, closed="left")]

# A round marker for dense scatters that explorers redraw per move: a 32-gon. At these sizes (2-3 px) it looks
# as "o" does, but "o" is a Bezier circle, whose extent matplotlib finds with polynomial roots on every draw of
# a scatter (4 ms a collection; bench/NOTES.md, "Where a move's time goes").
DOT = Path.unit_regular_polygon(32)

__all__ = ["get_ax", "COLORS"]


@validate_params({"ax": AX})
def get_ax(ax=None):
    """The Axes to draw on: ``ax`` itself, or pyplot's current Axes when ``ax`` is None."""
    if ax is None:
        import matplotlib.pyplot as plt

        return plt.gca()
    return ax
