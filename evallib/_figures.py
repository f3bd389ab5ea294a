"""The figure factory of the explorers: a figure not registered with pyplot, in the current style."""

from __future__ import annotations

import numbers

import matplotlib as mpl

from . import _theme
from ._validation import Interval, validate_params

_POSITIVE_INT = Interval(numbers.Integral, 1, None, closed="left")
_POSITIVE = Interval(numbers.Real, 0, None, closed="neither")


@validate_params(
    {"ncols": [_POSITIVE_INT], "nrows": [_POSITIVE_INT], "width": [_POSITIVE, None], "height": [_POSITIVE, None]}
)
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
    style = _theme._active
    w = width if width is not None else style["figure.figsize"][0] * (1 if ncols == 1 else 0.75 * ncols)
    h = height if height is not None else style["figure.figsize"][1] * (1 if nrows == 1 else 0.8 * nrows)
    with mpl.rc_context(style):
        fig = Figure(figsize=(w, h), dpi=style["figure.dpi"], layout="constrained")
        axes = fig.subplots(nrows, ncols, **kwargs)
    return fig, axes
