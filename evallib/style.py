"""The notebook set-up (first code cell of every chapter) and the course's figure style.

Only :func:`setup_notebook` changes global state (NumPy print options and matplotlib rcParams), and
only inside a notebook kernel; library code never does.
"""
from __future__ import annotations

import matplotlib as mpl
import numpy as np
from cycler import cycler

from ._validation import check_random_state

__all__ = ["STYLE", "COLORS", "setup_notebook", "new_figure"]

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


def setup_notebook(seed=0, *, precision=4) -> np.random.Generator:
    """Set print options and the figure style for a chapter notebook; return its one random generator.

    Every chapter's first code cell is::

        import numpy as np
        import matplotlib.pyplot as plt
        import evallib as el
        rng = el.setup_notebook(seed=0)

    NumPy prints ``precision`` decimals without scientific noise (and, on NumPy 2, plain ``0.5`` rather
    than ``np.float64(0.5)``); matplotlib uses :data:`STYLE`.

    >>> rng = setup_notebook(seed=0)
    >>> round(float(rng.random()), 4)
    0.637
    """
    from ._validation import check_positive_int

    precision = check_positive_int(precision, "precision", minimum=0)
    opts = {"precision": precision, "suppress": True}
    if int(np.__version__.split(".")[0]) >= 2:
        opts["legacy"] = "1.25"
    np.set_printoptions(**opts)
    mpl.rcParams.update(STYLE)
    return check_random_state(seed)


def new_figure(ncols=1, nrows=1, *, width=None, height=None, **kwargs):
    """A figure not registered with pyplot (used by widgets: it is never shown twice and never leaks).

    Returns ``(fig, axes)`` like ``plt.subplots``.
    """
    from matplotlib.figure import Figure

    w = width if width is not None else STYLE["figure.figsize"][0] * (1 if ncols == 1 else 0.75 * ncols)
    h = height if height is not None else STYLE["figure.figsize"][1] * (1 if nrows == 1 else 0.8 * nrows)
    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(w, h), dpi=STYLE["figure.dpi"], layout="constrained")
        axes = fig.subplots(nrows, ncols, **kwargs)
    return fig, axes
