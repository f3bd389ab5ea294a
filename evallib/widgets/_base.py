"""The one widget pattern of the course: controls → a pure, tested function → text and a figure.

nbval compares a cell's outputs but not widget views, and JupyterLab piles up figures when an Output
widget is cleared and re-drawn. The pattern below (see shared NOTEBOOK-TESTING.md) avoids both: on
every change the Output's outputs are replaced by the new text in one message (``out.outputs = (stream,)``,
sent before the figure renders); the figure is a canvas widget sent only the pixels that changed
(``widgets/_figure.py``). Figures come from
:func:`evallib.style.new_figure`, which pyplot never sees, so nothing is shown twice.

Speed (issue 19, bench/NOTES.md "Redraw paths"): a figure that ``update`` returns again (the same object,
changed in place) is rendered by its own Agg canvas with its layout frozen after the first draw; when it has
*animated* artists (``artist.set_animated(True)``), only those are redrawn over a cached background (blitting),
until :func:`redraw_all` says that something else changed. PNGs are written with zlib level 1. Inside a
kernel, control changes are handled by one worker thread that always draws the newest values and skips the ones
a faster hand has already replaced (coalescing), so sliders can update while they are dragged.
"""
from __future__ import annotations

import functools
import gc
import struct
import sys
import threading
import time
import traceback
import zlib
from typing import Callable

import ipywidgets as widgets
import matplotlib.colors as mcolors
import numpy as np
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.legend import Legend

__all__ = ["Explorer", "slider", "redraw_all", "render_png", "figure_once", "clear_content"]

# After this long without a new figure, the explorer says that it is computing (heavy corners of a few explorers).
BUSY_AFTER_S = 0.1


def redraw_all(fig, key=None) -> None:
    """Tell the explorer's renderer that more than the animated artists of ``fig`` changed (axes limits, ticks,
    a non-animated artist): the next render draws the whole figure and caches a new background.

    ``key`` (hashable): a name for everything static the view has just set (e.g. a y-range). The background
    drawn under a key is kept (the last ``_LiveCanvas.MAX_BACKGROUNDS``) and pasted back when the view asks for
    the same key again, instead of a whole-figure draw: a slider that moves the frame between a few states
    (bias-variance's y-range per noise step) costs a full draw once per state, not once per move.
    """
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise TypeError(f"fig: must be a matplotlib Figure; got {type(fig).__name__}")
    try:
        hash(key)
    except TypeError:
        raise TypeError(f"key: must be hashable (it names a cached background); got {type(key).__name__}") from None
    fig._evallib_background_key = key
    live = fig.__dict__.get("_evallib_live")
    if live is not None:
        live.full = True
        live.force = key is None  # without a key: a real whole-figure draw, no frame pasted back


def figure_once(holder: dict, *args, **kwargs):
    """``(fig, axes)`` of :func:`evallib.style.new_figure(*args, **kwargs)` at the first call with ``holder`` (a dict
    the view keeps); at later calls the same figure with its axes cleared, for the view to draw into again.

    The simple fast pattern, for a view whose artists all change with its controls: no new figure, no new layout,
    and the renderer redraws only the axes' content (lines, bars, texts, legends, titles) over the cached frames,
    ticks and labels, unless those changed (limits, scales, ticks, labels): then it draws the whole figure once.
    """
    from .. import style

    if not isinstance(holder, dict):
        raise TypeError(f"holder: must be a dict the view keeps between calls; got {type(holder).__name__}")
    if "fig" not in holder:
        holder["fig"], holder["axes"] = style.new_figure(*args, **kwargs)
        holder["fig"]._evallib_auto = True
    else:
        for ax in holder["fig"].axes:
            clear_content(ax)
    return holder["fig"], holder["axes"]


def clear_content(ax) -> None:
    """Remove what was plotted in ``ax`` (lines, collections, patches, texts, images, legend, titles) and let it
    autoscale afresh, keeping the axes' frame, scales and style: what ``ax.cla()`` does for a view that draws the
    same kind of plot again, at a fifth of its cost (cla rebuilds both axes' ticks)."""
    for c in list(ax.containers):  # bar containers (the legend reads their labels) and their bars
        c.remove()
    for a in [*ax.lines, *ax.collections, *ax.patches, *ax.texts, *ax.images, *ax.artists, *ax.tables]:
        a.remove()
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    for t in (ax.title, ax._left_title, ax._right_title):
        t.set_text("")
    import matplotlib as mpl

    from .. import style

    with mpl.rc_context(style._active):  # the colour cycle starts again, from the figure's style
        ax.set_prop_cycle(None)
    ax.ignore_existing_data_limits = True
    ax.dataLim.set_points(np.array([[np.inf, np.inf], [-np.inf, -np.inf]]))
    ax.set_autoscalex_on(True)
    ax.set_autoscaley_on(True)


def _frame_signature(fig):
    """What the cached background of a figure_once figure shows: each axes' limits, scales, ticks and labels."""
    sig = []
    for ax in fig.axes:
        axis_sig = []
        for axis in (ax.xaxis, ax.yaxis):
            fmt = axis.get_major_formatter()
            axis_sig.append((type(axis.get_major_locator()).__name__, type(fmt).__name__,
                             tuple(getattr(fmt, "seq", ()) or ()), tuple(np.round(axis.get_majorticklocs(), 12)),
                             type(axis.get_minor_locator()).__name__, axis.get_label_text(), axis.get_visible()))
        sig.append((tuple(ax.get_xlim()), tuple(ax.get_ylim()), ax.get_xscale(), ax.get_yscale(), ax.axison,
                    tuple(axis_sig), ax.get_position().bounds, ax.xaxis._major_tick_kw.get("gridOn"),
                    ax.yaxis._major_tick_kw.get("gridOn")))
    return tuple(sig)


def _animated_artists(fig):
    """The figure's animated artists (its own and its axes' children), by zorder. Not fig.findobj: walking into an
    Axis creates its tick artists, which costs more than the blit itself."""
    found = [a for a in fig.get_children() if a.get_animated() and a is not fig.patch]
    for ax in fig.axes:
        found += [a for a in ax.get_children() if a.get_animated() and a is not ax.xaxis and a is not ax.yaxis]
    return sorted(found, key=lambda a: a.get_zorder())


def _animate_spines(fig):
    """Mark animated the spines above an axes' lowest animated artist: a full draw leaves them out of the cached
    background and every blit draws them in zorder with the moving artists, over a line that reaches the frame,
    as a plain draw does (spines: zorder 2.5, lines 2)."""
    for ax in fig.axes:
        if not ax.axison:  # axis("off"): Axes.draw leaves the spines out; drawn on their own they would show
            continue
        moving = [a.get_zorder() for a in ax.get_children() if a.get_animated() and a not in ax.spines.values()]
        if moving:
            for spine in ax.spines.values():
                if spine.get_zorder() > min(moving):
                    spine.set_animated(True)


def _animate_content(fig):
    """Mark every axes' content animated (not its frame, axis, ticks and labels)."""
    for ax in fig.axes:
        frame = {ax.patch, ax.xaxis, ax.yaxis, *ax.spines.values()}
        for a in ax.get_children():
            if a not in frame:
                a.set_animated(True)


_FRAMES = object()  # the first item of the keys under which figure_once frames are kept (no redraw_all key is it)


class _LiveCanvas:
    """Renders one figure again and again: full draws with the layout frozen after the first one, or a blit of the
    animated artists over the background cached at the last full draw."""

    def __init__(self, fig):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.fig = fig
        self.canvas = FigureCanvasAgg(fig)
        self.full = True
        self.n_draws = 0
        self.background = None
        self.backgrounds = {}  # redraw_all's key (or a figure_once frame signature) -> background drawn under it
        self.force = False
        self.animated = []
        self.signature = None

    MAX_BACKGROUNDS = 8  # a full-figure RGBA each (~1.6 MB at the explorers' size)

    def render(self):
        fig = self.fig
        key = fig.__dict__.get("_evallib_background_key")
        if fig.__dict__.get("_evallib_auto"):  # a figure_once figure: its frames are the background
            _animate_content(fig)
            sig = _frame_signature(fig) if self.n_draws else None
            if sig != self.signature:
                self.full = True
            key = (_FRAMES, sig) if sig is not None else None  # frames seen before are pasted back
        if self.full and not self.force and key is not None and key in self.backgrounds:
            self.background = self.backgrounds[key]
            if isinstance(key, tuple) and key and key[0] is _FRAMES:
                self.signature = key[1]
            self.full = False
        if self.full or self.background is None:
            _animate_spines(fig)
            self.canvas.draw()
            if self.n_draws == 0 and fig.get_layout_engine() is not None:
                # Constrained layout ran once; keep its positions (moving axes would be a re-layout per frame).
                fig.set_layout_engine("none")
            if fig.__dict__.get("_evallib_auto"):
                self.signature = _frame_signature(fig)  # after the draw: the tick locations are those drawn
                key = (_FRAMES, self.signature)
            self.background = None
            self.full, self.force = True, False
        else:
            self.canvas.restore_region(self.background)
        self.animated = _animated_artists(fig)
        if self.full:
            if self.animated:
                self.background = self.canvas.copy_from_bbox(fig.bbox)
                if key is not None:
                    if len(self.backgrounds) >= self.MAX_BACKGROUNDS:
                        self.backgrounds.pop(next(iter(self.backgrounds)))
                    self.backgrounds[key] = self.background
            self.full = not self.animated  # without animated artists every render is a full draw
        renderer = self.canvas.get_renderer()
        for a in self.animated:
            if a.get_visible():
                a.draw(renderer)
        self.n_draws += 1
        return np.asarray(self.canvas.buffer_rgba())


def render_png(fig, *, compress_level=1) -> bytes:
    """PNG bytes of ``fig`` as the explorers render it (see the module docstring); used by :class:`Explorer`."""
    from matplotlib.figure import Figure

    from .._validation import check_positive_int

    compress_level = check_positive_int(compress_level, "compress_level", minimum=0)
    if compress_level > 9:
        raise ValueError(f"compress_level: must be a zlib level in 0..9; got {compress_level}")
    if not isinstance(fig, Figure):
        raise TypeError(f"fig: must be a matplotlib Figure; got {type(fig).__name__}")
    rgba = _render_rgba(fig)
    return _png(rgba[..., :3] if _opaque(rgba) else rgba, compress_level)


def _render_rgba(fig):
    """The figure's pixels as the explorers render them: an (h, w, 4) uint8 view of its Agg buffer."""
    live = fig.__dict__.get("_evallib_live")
    if live is None:
        live = fig._evallib_live = _LiveCanvas(fig)
    return live.render()


def _opaque(rgba):
    return bool(rgba[0, 0, 3] == 255 and rgba[-1, -1, 3] == 255 and rgba[..., 3].min() == 255)


def _png(pixels, level):
    """A PNG of an (h, w, 3 or 4) uint8 array: no row filter, zlib at ``level``. Written here (the PNG container
    is three chunks) because Pillow's encoder tries adaptive row filters: 5× slower at the explorers' sizes for
    the same file size at level 1 (bench/NOTES.md "Redraw paths"); zlib does the compression."""
    h, w, c = pixels.shape
    raw = np.empty((h, w * c + 1), np.uint8)
    raw[:, 0] = 0  # filter type 0 (none) for every row
    raw[:, 1:] = pixels.reshape(h, w * c)

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", w, h, 8, 2 if c == 3 else 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw.tobytes(), level))
            + chunk(b"IEND", b""))


def _in_kernel():
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None


class Explorer(widgets.VBox):
    """A row of controls above one output area and one image, redrawn through ``update(**values) -> (text, figure)``.

    ``update`` must be a pure function of the control values (tested without a browser); it returns the
    text to print (str, may be empty) and a matplotlib Figure (or None). It may return a new figure each time,
    or (fast, bench/NOTES.md) the same figure changed in place, with its moving artists marked animated.

    Attributes useful in tests: ``controls`` (name -> widget), ``values``, ``text`` (the last text
    printed), ``figure`` (the last figure), ``image`` (the canvas widget showing it; ``image.value`` is the whole
    figure as PNG bytes), ``n_updates``.
    """

    _threaded = None  # None: a worker thread inside a kernel, synchronous elsewhere (tests)

    def __init__(self, title: str, controls: dict, update: Callable, *, columns: int = 3):
        if not callable(update):
            raise TypeError(f"update: must be callable as update(**values) -> (text, figure); got {update!r}")
        if not controls:
            raise ValueError("controls must name at least one widget")
        from .._validation import check_positive_int

        columns = check_positive_int(columns, "columns")
        from ..i18n import ui

        self.title = title = ui(title)  # the learner's language (evallib.i18n; English by default)
        self.controls = dict(controls)
        for c in self.controls.values():  # dropdowns and other controls made without slider() too
            if getattr(c, "description", ""):
                c.description = ui(c.description)
        self._update = update
        self.out = widgets.Output()
        from ._figure import FigureCanvas

        self.image = FigureCanvas()  # a <canvas> sent only the pixels that changed (widgets/_figure.py)
        self.image.layout.display = "none"  # until there is a figure
        self.status = widgets.HTML("", layout=widgets.Layout(min_width="8em"))
        self.text = ""
        self.figure = None
        self.n_updates = 0
        self._lock = threading.RLock()  # one update at a time
        self._wake = threading.Condition()
        self._pending = False
        self._worker = None
        self._closing = False
        self._holding = False
        boxes = list(self.controls.values())
        rows = [widgets.HBox(boxes[i : i + columns]) for i in range(0, len(boxes), columns)]
        header = widgets.HTML(f"<b>{title}</b>")
        super().__init__([header, *rows, self.status, self.out, self.image])
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
        if self._holding:
            return
        threaded = self._threaded if self._threaded is not None else _in_kernel()
        if not threaded:
            self.refresh()
            return
        with self._wake:
            self._pending = True  # a newer value replaces one not drawn yet: the worker reads the values when it starts
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name=f"explorer {self.title[:30]}", daemon=True)
                self._worker.start()
            self._wake.notify()

    def _work(self) -> None:
        while True:
            with self._wake:
                while not self._pending and not self._closing:
                    self._wake.wait()
                if self._closing:
                    return
                self._pending = False
            timer = threading.Timer(BUSY_AFTER_S, self._show_busy)
            timer.daemon = True
            timer.start()
            try:
                self.refresh()
            except Exception:  # shown to the learner in the explorer, as a cell's error would be
                self.out.outputs = ()
                self.out.append_stderr(traceback.format_exc())
            finally:
                timer.cancel()
                if self.status.value:
                    self.status.value = ""

    def _show_busy(self) -> None:
        from ..i18n import ui

        self.status.value = f"<i>{ui('computing…')}</i>"

    def wait(self, timeout: float = 60.0) -> bool:
        """Block until every change so far is drawn (the worker is idle); True if it is. For tests and benches."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._wake:
                idle = not self._pending
            if idle and self._lock.acquire(timeout=0.01):
                try:
                    with self._wake:
                        if not self._pending:
                            return True
                finally:
                    self._lock.release()
            time.sleep(0.005)
        return False

    def refresh(self) -> None:
        """Recompute and redraw from the current control values (synchronously)."""
        with self._lock:
            text, fig = self._update(**self.values)[:2]
            self.text, self.figure = text, fig
            # the text first (the learner reads it while the picture renders), in one message to the browser
            # (clearing, then appending, took two messages and two re-renders of the output)
            self.out.outputs = ({"output_type": "stream", "name": "stdout",
                                 "text": text if text.endswith("\n") else text + "\n"},) if text else ()
            if fig is not None:
                from matplotlib.figure import Figure

                if not isinstance(fig, Figure):
                    raise TypeError(f"update: must return (text, Figure or None); got a {type(fig).__name__}")
                rgba = _render_rgba(fig)
                if self.image.layout.display == "none":
                    h, w = rgba.shape[:2]
                    self.image.layout = widgets.Layout(width=f"{w}px", height=f"{h}px")
                self.image.show(rgba)
            elif self.image.layout.display != "none":
                self.image.layout.display = "none"
            self.n_updates += 1

    def set(self, **values) -> None:
        """Move several controls at once, then redraw once (synchronously), e.g. in tests."""
        for name in values:
            if name not in self.controls:
                raise ValueError(f"unknown control {name!r}; controls are {sorted(self.controls)}")
        changed = False
        self._holding = True
        try:
            for name, v in values.items():
                c = self.controls[name]
                before = c.value
                c.value = v
                changed |= c.value != before
        finally:
            self._holding = False
        if changed:
            self.refresh()

    def close(self) -> None:
        wake = self.__dict__.get("_wake")  # absent when __init__ refused its arguments
        if wake is not None:
            with wake:
                self._closing = True
                wake.notify()
        super().close()

    def __repr__(self) -> str:
        # Short and stable: it is the text/plain nbval compares (the default repr would embed the PNG).
        # floats to 6 significant digits: a last-bit difference between CPUs (np.log2(5)) must not change it
        vals = ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v!r}" for k, v in self.values.items())
        return f"Explorer({self.title!r}: {vals})"


def slider(value, lo, hi, step=1, description="", *, continuous_update=True, readout_format=None):
    """An Int or Float slider with the course's defaults: updates while dragged (the explorer draws the newest
    value and skips stale ones; pass ``continuous_update=False`` for an update that takes well over 100 ms), and a
    box wide enough that the track keeps at least one pixel per step (200 px at least, 400 px at most) whatever
    the description's length.

    ipywidgets' default box is 300 px including the description, so a long description would squeeze the
    track until the mouse could no longer reach every value (the browser tests measure this).
    """
    from .._validation import check_bool, check_real
    from ..i18n import ui

    for arg, v in (("value", value), ("lo", lo), ("hi", hi)):
        check_real(v, arg)
    if step is not None and check_real(step, "step") <= 0:
        raise ValueError(f"step: must be > 0; got {step!r}")
    if lo > hi:
        raise ValueError(f"lo, hi: the slider's range needs lo <= hi; got lo={lo!r}, hi={hi!r}")
    if not lo <= value <= hi:
        raise ValueError(f"value: must lie in [lo, hi] = [{lo!r}, {hi!r}]; got {value!r}")
    continuous_update = check_bool(continuous_update, "continuous_update")
    if step and abs((value - lo) / step - round((value - lo) / step)) > 1e-9:
        # A start value between two steps (log2(5) on a 0.25 grid): with continuous_update the browser would send
        # the step-rounded value back as soon as it draws the slider, so the explorer would not start where the
        # notebook says. Such a slider updates on release.
        continuous_update = False
    description = ui(description)  # the learner's language (evallib.i18n)
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


class _Pixels:
    """The pixels of texts and legends an explorer's figure has drawn, reused when the same thing is drawn again
    at the same place.

    Text is what an explorer's move costs here: Agg renders every glyph of a Text at every draw (about 0.2 ms a
    glyph on the course machine; a title costs 10 ms), and a legend lays out its entries again at every draw, while
    most strings of a legend, a title or a diagram stay the same from one move to the next. An artist drawn once is
    kept as the RGBA image it made (drawn into a scratch layer, the way matplotlib's agg_filter draws), keyed by
    everything that decides its pixels (for a Text: string, place on the canvas, font, colour, alignment,
    rotation; for a legend: its labels, location and axes; for an axes: what its view says), and pasted again.
    Bounded (16 MB of pixels, the oldest dropped first); one per explorer figure.
    """

    def __init__(self, max_bytes=16 * 2**20):
        self.images = {}
        self.max_bytes, self.n_bytes = max_bytes, 0

    def install(self, *artists, key=None):
        """Draw these artists through the cache (an instance attribute shadows their ``draw``): Text and Legend
        artists with their own keys, others (an Axes) with ``key(artist, renderer)``, which must name everything
        the artist's pixels depend on (None: draw it as usual)."""
        for a in artists:
            if "draw" not in a.__dict__:
                key_of = key or (_legend_key if isinstance(a, Legend) else _text_key)
                a.draw = functools.partial(self._draw, a, key_of)

    def _draw(self, a, key_of, renderer):
        if not a.get_visible():
            return
        key = key_of(a, renderer) if isinstance(renderer, RendererAgg) else None
        if key is None:
            return type(a).draw(a, renderer)
        key = (key, renderer.width, renderer.height, renderer.dpi)
        hit = self.images.get(key)
        if hit is None:
            renderer.start_filter()
            try:
                type(a).draw(a, renderer)
                layer = np.asarray(renderer.buffer_rgba())
                # drawn: alpha > 0 (the layer starts transparent white); one comparison per pixel on little-endian
                drawn = layer.view(np.uint32)[..., 0] > 0xFFFFFF if sys.byteorder == "little" else layer[..., 3] > 0
                rect = _bounding_rect(drawn)
                if rect is not None:
                    x, y, w, h = rect
                    img = layer[y:y + h, x:x + w][::-1].copy()
                    hit = (img, x, int(renderer.height) - (y + h))
                else:
                    hit = (None, 0, 0)
            finally:
                renderer.clear()  # the layer is dropped (pasted below)
                renderer.stop_filter(None)
            self.images[key] = hit
            self.n_bytes += hit[0].nbytes if hit[0] is not None else 0
            while self.n_bytes > self.max_bytes and len(self.images) > 1:  # the oldest go first
                old = self.images.pop(next(iter(self.images)))[0]
                self.n_bytes -= old.nbytes if old is not None else 0
        img, x0, y0 = hit
        if img is not None:
            gc = renderer.new_gc()
            renderer.draw_image(gc, x0, y0, img)
            gc.restore()


def _bounding_rect(mask):
    """(x, y, w, h) of the smallest rectangle (rows from the top) holding every True of a 2-D mask; None if none."""
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(mask[rows[0]:rows[-1] + 1].any(axis=0))
    return int(cols[0]), int(rows[0]), int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1)


def _text_key(t, renderer):
    if t.get_text() == "" or t.get_wrap() or t.get_bbox_patch() is not None or t.get_agg_filter() is not None \
            or t.get_clip_on() and (t.get_clip_box() is not None or t.get_clip_path() is not None):
        return None
    x, y = t.get_transform().transform((float(t.convert_xunits(t._x)), float(t.convert_yunits(t._y))))
    if not (np.isfinite(x) and np.isfinite(y)):
        return None
    return (t.get_text(), round(float(x), 4), round(float(y), 4), mcolors.to_rgba(t.get_color(), t.get_alpha()),
            t.get_fontproperties(), t.get_rotation(), t.get_rotation_mode(), t.get_horizontalalignment(),
            t.get_verticalalignment(), t._multialignment, t._linespacing, t.get_antialiased())


def _legend_key(leg, renderer):
    """A legend whose handles stay as built (the explorers here): its labels and where it sits decide its pixels."""
    if leg._loc == 0 or leg.get_agg_filter() is not None:  # "best" depends on the data under it
        return None
    return ("legend", id(leg), tuple(t.get_text() for t in leg.texts), leg._loc, leg.get_bbox_to_anchor().bounds,
            tuple(leg.axes.bbox.bounds))
