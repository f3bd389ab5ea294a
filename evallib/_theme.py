"""The course's figure style: the Okabe–Ito palette, the notebook style, the presentation style, and which
of the two new figures use (:func:`presentation` switches it; :func:`evallib.style.setup_notebook` switches back)."""

from __future__ import annotations

import matplotlib as mpl
from cycler import cycler

# Colour-blind-safe palette (Okabe–Ito), used by every plot in evallib.
COLORS = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "red": "#D55E00",
    "purple": "#CC79A7",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
    "black": "#000000",
    "grey": "#999999",
}

# Fixed size and dpi so stored figures look the same everywhere (and nbval's "<Figure size 640x400 …>" is stable).
STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.8,
    "lines.markersize": 5,
    "axes.prop_cycle": cycler(color=[COLORS[c] for c in ("blue", "orange", "green", "red", "purple", "sky", "black")]),
}


# For projecting (slides from `make slides`, the Voilà apps in apps/): the same plots, readable from the back
# of a room: larger text, thicker lines and markers, crisper pixels; figures keep their size in inches.
PRESENTATION_STYLE = {
    **STYLE,
    "figure.dpi": 120,
    "savefig.dpi": 120,
    "figure.constrained_layout.use": True,
    "font.size": 15,
    "axes.titlesize": 17,
    "axes.labelsize": 16,
    "xtick.labelsize": 14,
    "ytick.labelsize": 14,
    "legend.fontsize": 13,
    "lines.linewidth": 3.0,
    "lines.markersize": 8,
    "axes.linewidth": 1.4,
    "grid.linewidth": 1.0,
    "grid.alpha": 0.4,
}

_active = STYLE  # the style new_figure() uses: STYLE, or PRESENTATION_STYLE after presentation()


def use(style: dict) -> None:
    """Make ``style`` the figures' style: matplotlib's rcParams and :func:`evallib.style.new_figure`."""
    global _active
    _active = style
    mpl.rcParams.update(style)


def presentation() -> dict:
    """Switch figures to the presentation style (:data:`PRESENTATION_STYLE`) and return it.

    Call it after :func:`setup_notebook` to project a chapter: ``make slides`` runs each chapter with it (an
    extra hidden cell after the set-up), and the Voilà apps in ``apps/`` start with it. Both pyplot figures
    (rcParams) and explorer figures (:func:`new_figure`) get larger text and thicker lines; the plots are the
    same. :func:`setup_notebook` switches back to :data:`STYLE`.

    >>> from evallib import setup_notebook
    >>> style = presentation()
    >>> style["font.size"] > STYLE["font.size"], style["figure.figsize"] == STYLE["figure.figsize"]
    (True, True)
    >>> _ = setup_notebook(seed=0)
    """
    use(PRESENTATION_STYLE)
    return dict(PRESENTATION_STYLE)
