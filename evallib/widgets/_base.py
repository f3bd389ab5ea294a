"""The one widget pattern of the course: controls → a pure, tested function → text and a figure.

nbval compares a cell's outputs but not widget views, and JupyterLab piles up figures when an Output
widget is cleared and re-drawn. The pattern below (see shared NOTEBOOK-TESTING.md) avoids both: on
every change the Output's outputs are replaced (``out.outputs = ()``), the text is appended with
``append_stdout`` and the figure with ``append_display_data``. Figures come from
:func:`evallib.style.new_figure`, which pyplot never sees, so nothing is shown twice.
"""
from __future__ import annotations

import gc
from typing import Callable

import ipywidgets as widgets

__all__ = ["Explorer", "slider"]


class Explorer(widgets.VBox):
    """A row of controls above one output area, redrawn through ``update(**values) -> (text, figure)``.

    ``update`` must be a pure function of the control values (tested without a browser); it returns the
    text to print (str, may be empty) and a matplotlib Figure (or None).

    Attributes useful in tests: ``controls`` (name -> widget), ``values``, ``text`` (the last text
    printed), ``figure`` (the last figure), ``n_updates``.
    """

    def __init__(self, title: str, controls: dict, update: Callable, *, columns: int = 3):
        if not controls:
            raise ValueError("controls must name at least one widget")
        if not callable(update):
            raise TypeError("update must be callable as update(**values) -> (text, figure)")
        self.title = title
        self.controls = dict(controls)
        self._update = update
        self.out = widgets.Output()
        self.text = ""
        self.figure = None
        self.n_updates = 0
        boxes = list(self.controls.values())
        rows = [widgets.HBox(boxes[i : i + columns]) for i in range(0, len(boxes), columns)]
        header = widgets.HTML(f"<b>{title}</b>")
        super().__init__([header, *rows, self.out])
        for c in self.controls.values():
            c.observe(self._on_change, names="value")
        # A notebook kernel holds a few hundred thousand long-lived objects (modules, data, figures); a full
        # cyclic-GC pass over them costs 70-90 ms and used to land inside slider updates (bench/NOTES.md).
        # Moving what exists now to the permanent generation keeps updates fast; reference counting still
        # frees those objects as usual.
        gc.collect()
        gc.freeze()
        self.refresh()

    @property
    def values(self) -> dict:
        return {name: c.value for name, c in self.controls.items()}

    def _on_change(self, change) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recompute and redraw from the current control values."""
        text, fig = self._update(**self.values)
        self.text, self.figure = text, fig
        self.out.outputs = ()
        if text:
            self.out.append_stdout(text if text.endswith("\n") else text + "\n")
        if fig is not None:
            self.out.append_display_data(fig)
        self.n_updates += 1

    def set(self, **values) -> None:
        """Move several controls at once (one redraw per control that changes), e.g. in tests."""
        for name, v in values.items():
            if name not in self.controls:
                raise ValueError(f"unknown control {name!r}; controls are {sorted(self.controls)}")
            self.controls[name].value = v

    def __repr__(self) -> str:
        # Short and stable: it is the text/plain nbval compares (the default repr would embed the PNG).
        vals = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"Explorer({self.title!r}: {vals})"


def slider(value, lo, hi, step=1, description="", *, continuous_update=False, readout_format=None):
    """An Int or Float slider with the course's defaults: updates on release, and a box wide enough that the
    track keeps at least one pixel per step (200 px at least, 400 px at most) whatever the description's length.

    ipywidgets' default box is 300 px including the description, so a long description would squeeze the
    track until the mouse could no longer reach every value (the browser tests measure this).
    """
    n_steps = int(round((hi - lo) / step)) if step else 100
    track = min(max(200, n_steps), 400)
    layout = widgets.Layout(width=f"{7 * len(description) + 70 + track}px")
    style = {"description_width": "initial"}
    if isinstance(value, int) and isinstance(step, int):
        return widgets.IntSlider(value=value, min=lo, max=hi, step=step, description=description,
                                 continuous_update=continuous_update, style=style, layout=layout)
    kw = {"readout_format": readout_format} if readout_format else {}
    return widgets.FloatSlider(value=value, min=lo, max=hi, step=step, description=description,
                               continuous_update=continuous_update, style=style, layout=layout, **kw)
