"""The notebook set-up (first code cell of every chapter) and the course's figure style.

Only :func:`setup_notebook` and :func:`presentation` change global state (NumPy print options and
matplotlib rcParams), and only inside a notebook kernel; library code never does.
"""
from __future__ import annotations

import matplotlib as mpl
import numpy as np
from cycler import cycler

from ._validation import check_random_state

__all__ = ["STYLE", "PRESENTATION_STYLE", "COLORS", "setup_notebook", "presentation", "new_figure"]

# Colour-blind-safe palette (Okabe–Ito), used by every plot in evallib.
COLORS = {
    "blue": "#0072B2", "orange": "#E69F00", "green": "#009E73", "red": "#D55E00",
    "purple": "#CC79A7", "sky": "#56B4E9", "yellow": "#F0E442", "black": "#000000", "grey": "#999999",
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


def setup_notebook(seed=0, *, precision=4, lang="en") -> np.random.Generator:
    """Set print options and the figure style for a chapter notebook; return its one random generator.

    Every chapter's first code cell is::

        import numpy as np
        import matplotlib.pyplot as plt
        import evallib as el
        rng = el.setup_notebook(seed=0)

    NumPy prints ``precision`` decimals without scientific noise (and, on NumPy 2, plain ``0.5`` rather
    than ``np.float64(0.5)``); matplotlib uses :data:`STYLE`. ``lang`` is the learner's language (``"en"`` or
    ``"zh"``, :mod:`evallib.i18n`): the Chinese edition's set-up cell passes ``lang="zh"``, and explorers and
    exercise feedback then speak Chinese (figures keep English labels).

    >>> rng = setup_notebook(seed=0)
    >>> round(float(rng.random()), 4)
    0.637
    """
    from ._validation import check_positive_int

    from .i18n import set_language

    precision = check_positive_int(precision, "precision", minimum=0)
    set_language(lang)
    opts = {"precision": precision, "suppress": True}
    if int(np.__version__.split(".")[0]) >= 2:
        opts["legacy"] = "1.25"
    np.set_printoptions(**opts)
    global _active
    _active = STYLE
    mpl.rcParams.update(STYLE)
    return check_random_state(seed, "seed")


def presentation() -> dict:
    """Switch figures to the presentation style (:data:`PRESENTATION_STYLE`) and return it.

    Call it after :func:`setup_notebook` to project a chapter: ``make slides`` runs each chapter with it (an
    extra hidden cell after the set-up), and the Voilà apps in ``apps/`` start with it. Both pyplot figures
    (rcParams) and explorer figures (:func:`new_figure`) get larger text and thicker lines; the plots are the
    same. :func:`setup_notebook` switches back to :data:`STYLE`.

    >>> style = presentation()
    >>> style["font.size"] > STYLE["font.size"], style["figure.figsize"] == STYLE["figure.figsize"]
    (True, True)
    >>> _ = setup_notebook(seed=0)
    """
    global _active
    _active = PRESENTATION_STYLE
    mpl.rcParams.update(PRESENTATION_STYLE)
    return dict(PRESENTATION_STYLE)


def new_figure(ncols=1, nrows=1, *, width=None, height=None, **kwargs):
    """A figure not registered with pyplot (used by widgets: it is never shown twice and never leaks).

    Returns ``(fig, axes)`` like ``plt.subplots``.
    """
    from matplotlib.figure import Figure

    from ._validation import check_positive_int, check_real

    ncols, nrows = check_positive_int(ncols, "ncols"), check_positive_int(nrows, "nrows")
    if width is not None:
        width = check_real(width, "width", low=0, low_open=True)
    if height is not None:
        height = check_real(height, "height", low=0, low_open=True)
    style = _active
    w = width if width is not None else style["figure.figsize"][0] * (1 if ncols == 1 else 0.75 * ncols)
    h = height if height is not None else style["figure.figsize"][1] * (1 if nrows == 1 else 0.8 * nrows)
    with mpl.rc_context(style):
        fig = Figure(figsize=(w, h), dpi=style["figure.dpi"], layout="constrained")
        axes = fig.subplots(nrows, ncols, **kwargs)
    return fig, axes
