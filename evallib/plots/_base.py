"""Shared helpers for the plot functions: every ``plot_*`` takes ``ax=None`` and returns the Axes."""
from __future__ import annotations

from ..style import COLORS

__all__ = ["get_ax", "COLORS"]


def get_ax(ax=None):
    """The Axes to draw on: ``ax`` itself, or pyplot's current Axes when ``ax`` is None."""
    if ax is None:
        import matplotlib.pyplot as plt

        return plt.gca()
    if not hasattr(ax, "plot"):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    return ax
