"""The notebook set-up (first code cell of every chapter) and the course's figure style.

Only :func:`setup_notebook` and :func:`presentation` change global state (NumPy print options and
matplotlib rcParams), and only inside a notebook kernel; library code never does. Three jobs, three private
modules: ``_notebook`` (the set-up cell; the language is a call into :mod:`evallib.i18n`), ``_theme`` (palette and
styles) and ``_figures`` (the figure factory of the explorers).
"""

from __future__ import annotations

from . import _theme
from ._figures import new_figure
from ._notebook import setup_notebook
from ._theme import COLORS, PRESENTATION_STYLE, STYLE, presentation

__all__ = ["STYLE", "PRESENTATION_STYLE", "COLORS", "setup_notebook", "presentation", "new_figure"]


def __getattr__(name):
    if name == "_active":  # the style new figures use, read live (evallib.widgets._base)
        return _theme._active
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
