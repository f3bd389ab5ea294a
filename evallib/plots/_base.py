"""Shared helpers for the plot functions: every ``plot_*`` takes ``ax=None`` and returns the Axes."""

from __future__ import annotations

from matplotlib.path import Path

from ..style import COLORS

# A round marker for dense scatters that explorers redraw per move: a 32-gon. At these sizes (2-3 px) it looks
# as "o" does, but "o" is a Bezier circle, whose extent matplotlib finds with polynomial roots on every draw of
# a scatter (4 ms a collection; bench/NOTES.md, "Where a move's time goes").
DOT = Path.unit_regular_polygon(32)

__all__ = ["get_ax", "COLORS"]


def get_ax(ax=None):
    """The Axes to draw on: ``ax`` itself, or pyplot's current Axes when ``ax`` is None."""
    if ax is None:
        import matplotlib.pyplot as plt

        return plt.gca()
    if not hasattr(ax, "plot"):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    return ax
