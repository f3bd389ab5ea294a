"""The roofline explorer (notebooks/11_roofline.ipynb; notes 004 §5): pick a device or move its peak and
bandwidth, choose models, batch size and counting conventions, and watch the models move on the roofline."""
from __future__ import annotations

import math
from dataclasses import fields
from functools import cached_property, lru_cache

import ipywidgets as widgets
import matplotlib.colors as mcolors
import numpy as np
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.text import Annotation, Text
from matplotlib.textpath import text_to_path
from matplotlib.ticker import NullLocator
from matplotlib.transforms import Bbox, ScaledTranslation

from .. import plots
from .. import roofline as rl
from ..style import new_figure
from ._base import Explorer, clear_content, redraw_all
from ..i18n import say

__all__ = ["roofline_update", "roofline_explorer", "RooflineExplorer"]

_DTYPES = ("float32", "float16", "bfloat16", "int8", "float64")
_OUTPUT_LABELS = (("weights + conv/linear outputs (article)", "conv_linear"),
                  ("weights + every layer's output", "all"),
                  ("weights + every layer's inputs and output", "io"))
_X_RANGE = (0.05, 5000.0)  # fixed axes, so a model's move is visible
_GF = 1e9  # the figure plots GFLOP/s
# The legend keeps room for labels this long, so that it stays put while its numbers change (issue 19).
_ROOF_ROOM = "roof: 0.123 TFLOP/s, 1234 GB/s"
_I_ROOM = "1234.5"


@lru_cache(maxsize=16)
def _base_model(name):
    return rl.get_model(name)


class _Counted(rl.Model):
    """A Model that counts its totals and per-layer arrays once (the explorer asks for them on every move);
    the same computations as :class:`evallib.roofline.Model`, so the same numbers."""

    @cached_property
    def _per_layer(self):
        c = self.convention
        return [layer.flops(c) for layer in self.layers], [layer.memory_bytes(c) for layer in self.layers]

    @cached_property
    def flops(self):
        return sum(self._per_layer[0])

    @cached_property
    def memory_bytes(self):
        return sum(self._per_layer[1])

    @cached_property
    def layer_flops(self):
        return np.array(self._per_layer[0], dtype=float)

    @cached_property
    def layer_bytes(self):
        return np.array(self._per_layer[1], dtype=float)


def _device_label(device, peak_flops, bandwidth, dtype, devices):
    dev = devices.get(device)
    if dev is None:
        raise ValueError(f"device must be one of {list(devices)}, got {device!r}")
    same = math.isclose(peak_flops, dev.peak(dtype), rel_tol=1e-6) and math.isclose(bandwidth, dev.bandwidth,
                                                                                     rel_tol=1e-6)
    if not same:
        return say("custom (moved from {device})", device=device)
    used = dev.peak_dtype(dtype)
    return device + ("" if used == dtype else say(" (no documented {dtype} peak: its {used} peak is used)",
                                                  dtype=dtype, used=used))


def _y_range(dev, peak_flops, bandwidth):
    """Fixed y limits (GFLOP/s, whole decades) for a device: every dtype's roof of the preset fits, so moving the
    dtype, peak or bandwidth moves the roof within still axes; a slider moved beyond widens them."""
    peaks = [float(v) for v in dev.peaks.values()] + [peak_flops]
    lo = min(min(peaks) * 1e-2, dev.bandwidth * _X_RANGE[0], bandwidth * _X_RANGE[0]) / _GF
    hi = max(peaks) * 4 / _GF
    return 10.0 ** math.floor(math.log10(lo)), 10.0 ** math.ceil(math.log10(hi))


class _Stamps:
    """The pixels of a view's animated texts, kept while a text's string and place stay the same: a text costs
    ~0.1 ms per glyph to render (matplotlib 3.11 renders glyph by glyph), and a blit draws every animated text,
    changed or not. Each text is rendered onto a transparent scratch canvas and composited, whether new or kept,
    so every frame has the same pixels. The legend (with the fixed starts of its labels) is kept the same way, as
    one block, until the axes move or the legend is made anew."""

    SIZE = 512

    def __init__(self):
        self.kept = {}
        self.scratch = None

    def attach(self, text):
        text.draw = lambda renderer, _text=text: self.draw(_text, renderer)

    def attach_block(self, lead, others):
        """Draw ``lead`` and then ``others`` (texts placed by lead's draw) as one kept block, when lead is drawn."""
        for a in others:
            a.draw = lambda renderer: None
        lead.draw = lambda renderer, _lead=lead, _others=tuple(others): self.draw_block(_lead, _others, renderer)

    def _scratch_for(self, renderer):
        w, h = int(renderer.width), int(renderer.height)
        if self.scratch is None or (self.scratch.width, self.scratch.height, self.scratch.dpi) != (w, h, renderer.dpi):
            self.scratch = RendererAgg(w, h, renderer.dpi)
        self.scratch.clear()
        return self.scratch

    def _crop(self, bbox):
        w, h = int(self.scratch.width), int(self.scratch.height)
        x0, x1 = max(int(bbox.x0) - 2, 0), min(int(math.ceil(bbox.x1)) + 2, w)
        r0, r1 = max(h - int(math.ceil(bbox.y1)) - 2, 0), min(h - int(bbox.y0) + 2, h)
        if x1 <= x0 or r1 <= r0:
            return None
        return x0, h - r1, np.array(np.asarray(self.scratch.buffer_rgba())[r0:r1, x0:x1][::-1])  # rows bottom up

    @staticmethod
    def _composite(renderer, hit):
        if hit is not None:
            gc = renderer.new_gc()
            renderer.draw_image(gc, hit[0], hit[1], hit[2])
            gc.restore()

    def draw(self, text, renderer):
        if not text.get_visible() or not text.get_text():
            return
        if isinstance(text, Annotation):
            text.update_positions(renderer)
        anchor = text.get_transform().transform(text.get_unitless_position())  # with the string: the pixels
        key = (text.get_text(), tuple(np.round(anchor, 4)), text.get_ha(), text.get_va(), text.get_fontproperties(),
               mcolors.to_rgba(text.get_color(), text.get_alpha()), renderer.width, renderer.height, renderer.dpi)
        if key not in self.kept:
            scratch = self._scratch_for(renderer)
            type(text).draw(text, scratch)
            if len(self.kept) >= self.SIZE:
                self.kept.pop(next(iter(self.kept)))
            self.kept[key] = self._crop(text.get_window_extent(scratch))  # the layout just made (same dpi, size)
        self._composite(renderer, self.kept[key])

    def draw_block(self, lead, others, renderer):
        if not lead.get_visible():
            return
        key = (renderer.width, renderer.height, renderer.dpi, tuple(np.round(lead.axes.bbox.bounds, 4)))
        kept = lead.__dict__.get("_evallib_kept")
        if kept is None or kept[0] != key:
            scratch = self._scratch_for(renderer)
            type(lead).draw(lead, scratch)
            for a in others:
                type(a).draw(a, scratch)
            bbox = Bbox.union([a.get_window_extent(scratch) for a in (lead, *others)])
            lead._evallib_kept = kept = (key, self._crop(bbox))
        self._composite(renderer, kept[1])


class _RooflineView:
    """``update(**values) -> (text, figure)`` of the roofline explorer: one figure, built at the first call (and
    again when the models change), then changed in place: the roof, the ridge, the model markers and the
    numbers are animated (blitted over the cached frame, legend and ticks); limits change only with the device."""

    _CACHE = 256  # counted models kept per view (name, convention)

    def __init__(self, devices=None):
        self.devices = rl.DEVICES if devices is None else devices
        self._counted = {}
        self.fig = None
        self._names = None
        self._stamps = _Stamps()

    def _model(self, name, conv):
        key = (name, conv)
        m = self._counted.get(key)
        if m is None:
            base = _base_model(name).with_convention(conv)
            m = _Counted(**{f.name: getattr(base, f.name) for f in fields(base)})
            if len(self._counted) >= self._CACHE:
                self._counted.pop(next(iter(self._counted)))
            self._counted[key] = m
        return m

    def __call__(self, device="GTX 1080 Ti", peak_flops=11.3e12, bandwidth=484e9, models=("VGG16", "MobileNetV1"),
                 batch=1, mac_flops=2, outputs="conv_linear", dtype="float32"):
        devices = self.devices
        conv = rl.Convention(mac_flops=mac_flops, outputs=outputs, dtype=dtype, batch=batch)
        ridge = rl.ridge_point(peak_flops, bandwidth)
        if isinstance(models, str):
            models = (models,)
        ms = [self._model(name, conv) for name in models]
        lines = [say("device: {label}", label=_device_label(device, peak_flops, bandwidth, dtype, devices)),
                 say("roof: peak {peak:.3f} TFLOP/s, bandwidth {bw:.1f} GB/s, ridge {ridge:.2f} FLOP/B",
                     peak=peak_flops / 1e12, bw=bandwidth / 1e9, ridge=ridge),
                 say("counting: {conv}", conv=conv.describe())]
        if not ms:
            lines.append(say("select at least one model"))
        else:
            lines.append(say("model        I (FLOP/B)    bound   TFLOP/s  time (ms)  per layer   images/s"))
        for m in ms:
            r = rl.analyze(m, peak_flops, bandwidth)
            lines.append(f"{m.name:<12s} {r.intensity:10.2f} {say(r.bound):>8s} {r.attainable / 1e12:9.3f} "
                         f"{r.time_model * 1e3:10.3f} {r.time_layers * 1e3:10.3f} {batch / r.time_layers:10,.0f}")
        if ms:
            lines.append(say("time = max(F/peak, Q/bandwidth) per batch; per layer = sum of the layers' bounds; "
                             "images/s from the latter"))
        title = f"batch {batch}", f", {dtype}, 1 MAC = {mac_flops} FLOP{'s' if mac_flops == 2 else ''}"
        ylim = _y_range(devices[device], peak_flops, bandwidth)
        names = tuple(m.name for m in ms)
        if self.fig is None or names != self._names:
            self._build(peak_flops, bandwidth, ms, ylim)
        self._move(peak_flops, bandwidth, ridge, ms, title, ylim)
        return "\n".join(lines), self.fig

    def _build(self, peak_flops, bandwidth, ms, ylim):
        """Draw the roof, ridge and markers with plots.plot_roofline; the legend keeps room for its longest labels
        (invisible), and the labels shown are animated texts in the legend's places."""
        first = self.fig is None
        if first:
            self.fig, self.ax = new_figure(width=7.2, height=4.4)
        else:  # every artist of the axes is animated: the frame drawn last (limits, ticks, labels) stays valid
            clear_content(self.ax)
        ax = self.ax
        plots.plot_roofline(peak_flops, bandwidth, models=ms, ax=ax, intensity_range=_X_RANGE)
        for axis in (ax.xaxis, ax.yaxis):  # many decades each way: minor ticks only slow the redraw down
            axis.set_minor_locator(NullLocator())
        ax.set_ylim(*ylim)
        self.roof, self.ridge_line = ax.lines[0], ax.lines[1]
        self.ridge_text = ax.texts[0]
        self.markers = list(ax.collections)
        self.roof.set_label(_ROOF_ROOM)
        for m, c in zip(ms, self.markers):
            c.set_label(f"{m.name} (I = {_I_ROOM})")
        leg = ax.legend(loc="lower right", fontsize=8)
        # Each label is its fixed start ("VGG16 (I =", drawn with the frame) and its number (animated), which
        # starts where the fixed part ends: the same pixels as the whole label, at a fifth of the cost per move.
        self.labels, fixed_parts = [], []
        prefixes = ["roof:"] + [f"{m.name} (I =" for m in ms]
        for t, prefix in zip(leg.get_texts(), prefixes):
            t.set_visible(False)  # laid out (room kept for the longest numbers), not drawn
            style = dict(fontproperties=t.get_fontproperties(), color=t.get_color())
            fixed = Text(0, 0, prefix, transform=t.get_transform(), va=t.get_va(), ha=t.get_ha(), clip_on=False,
                         **style)  # placed where the legend placed its text
            ax.add_artist(fixed)
            fixed_parts.append(fixed)
            self.labels.append(ax.annotate("", xy=(1, 0), xycoords=fixed, va="bottom", ha="left",
                                           annotation_clip=False, zorder=leg.get_zorder() + 1, **style))
        for a in (leg, *fixed_parts):
            a.set_animated(True)
        self._stamps.attach_block(leg, fixed_parts)  # drawn before the numbers (zorder), which it places
        # The title likewise: "batch N" (animated) ends where ", dtype, 1 MAC = k FLOPs" (the axes' title, animated,
        # changing with dtype and counting only) starts; together centred for batch 1.
        title = ax.title
        ax.set_title("-")  # the title's style as ax.set_title gives it (the rcParams of the moment, as before)
        wl, wr = (text_to_path.get_text_width_height_descent(s, title.get_fontproperties(), ismath=False)[0]
                  for s in ("batch 1", ", float32, 1 MAC = 2 FLOPs"))
        title.set_ha("left")
        title.set_transform(ax.transAxes + ax.titleOffsetTrans
                            + ScaledTranslation((wl - wr) / 2 / 72, 0, self.fig.dpi_scale_trans))
        self.batch_text = ax.annotate("", xy=(0, 0), xycoords=title, va="bottom", ha="right", annotation_clip=False,
                                      fontproperties=title.get_fontproperties(), color=title.get_color())
        moving = (self.ridge_text, *self.labels, title, self.batch_text)
        for a in (self.roof, self.ridge_line, *self.markers, *moving):
            a.set_animated(True)
        for t in moving:
            self._stamps.attach(t)
        self._names = tuple(m.name for m in ms)
        self._roof = (peak_flops, bandwidth)  # as plot_roofline drew it
        if first:
            redraw_all(self.fig)

    def _move(self, peak_flops, bandwidth, ridge, ms, title, ylim):
        ax = self.ax
        if self._roof != (peak_flops, bandwidth):  # a new ydata costs the line a recache at its next draw
            self._roof = (peak_flops, bandwidth)
            self.roof.set_ydata(rl.attainable(self.roof.get_xdata(), peak_flops, bandwidth) / _GF)
            self.ridge_line.set_xdata([ridge, ridge])
        self.ridge_text.xy = (ridge, peak_flops / _GF)
        self.ridge_text.set_text(f"ridge {ridge:.1f}")
        texts = [f" {peak_flops / 1e12:.3g} TFLOP/s, {bandwidth / 1e9:.4g} GB/s"]
        for m, c in zip(ms, self.markers):
            i = m.intensity
            c.set_offsets([[i, rl.attainable(i, peak_flops, bandwidth) / _GF]])
            texts.append(f" {i:.1f})")
        for t, s in zip(self.labels, texts):
            t.set_text(s)
        self.batch_text.set_text(title[0])
        ax.title.set_text(title[1])
        if tuple(ax.get_ylim()) != ylim:
            ax.set_ylim(*ylim)
            redraw_all(self.fig)


def roofline_update(device="GTX 1080 Ti", peak_flops=11.3e12, bandwidth=484e9, models=("VGG16", "MobileNetV1"),
                    batch=1, mac_flops=2, outputs="conv_linear", dtype="float32", *, devices=None):
    """Text and figure for one setting of the roofline explorer (pure: same inputs, same outputs).

    Every model named in ``models`` (keys of :data:`evallib.roofline.MODELS`) is counted under the convention
    (``mac_flops``, ``outputs``, ``dtype``, ``batch``) and placed on the roof (``peak_flops``, ``bandwidth``)
    through :func:`evallib.roofline.analyze`; the text gives each one's intensity, bound and time bounds.
    """
    return _RooflineView(devices)(device, peak_flops, bandwidth, models, batch, mac_flops, outputs, dtype)
class RooflineExplorer(Explorer):
    """An :class:`Explorer` whose device (and dtype) menu moves the peak and bandwidth sliders to the preset,
    redrawing once."""

    def __init__(self, title, controls, update, devices, **kwargs):
        self.devices = dict(devices)
        self._syncing = False
        super().__init__(title, controls, update, **kwargs)

    def _on_change(self, change):
        if self._syncing:
            return
        if change.owner is self.controls["device"] or change.owner is self.controls["dtype"]:
            dev = self.devices[self.controls["device"].value]
            self._syncing = True
            try:
                self.controls["peak_flops"].value = dev.peak(self.controls["dtype"].value)
                self.controls["bandwidth"].value = dev.bandwidth
            finally:
                self._syncing = False
        super()._on_change(change)


def roofline_explorer(measurement=None, *, models=("VGG16", "MobileNetV1"), device="GTX 1080 Ti"):
    """Device presets, log sliders for peak and bandwidth, a multi-select of models, batch size and the
    counting conventions; the models move on the roofline. ``measurement`` (from
    :func:`evallib.roofline.measure_machine`) adds "this machine" to the presets."""
    devices = dict(rl.DEVICES)
    if measurement is not None:
        devices["this machine"] = rl.machine_device(measurement)
    if device not in devices:
        raise ValueError(f"device must be one of {list(devices)}, got {device!r}")
    models = (models,) if isinstance(models, str) else tuple(models)
    bad = [m for m in models if m not in rl.MODELS]
    if bad:
        raise ValueError(f"models must be among {list(rl.MODELS)}, got {bad}")
    dev = devices[device]
    style = {"description_width": "initial"}
    # peak and bandwidth update on release: a preset's value lies between the slider's steps, and a slider with
    # continuous_update=True sends its step-rounded value back as soon as the browser draws it (noUiSlider's
    # 'update' event), which would turn every preset into "custom" before the learner touches anything.
    controls = {
        "device": widgets.Dropdown(options=list(devices), value=device, description="device", style=style),
        "peak_flops": widgets.FloatLogSlider(value=dev.peak("float32"), base=10, min=9, max=16, step=0.01,
                                             description="peak FLOP/s", readout_format=".3g",
                                             continuous_update=False, style=style),
        "bandwidth": widgets.FloatLogSlider(value=dev.bandwidth, base=10, min=9, max=13, step=0.01,
                                            description="bandwidth B/s", readout_format=".3g",
                                            continuous_update=False, style=style),
        "models": widgets.SelectMultiple(options=list(rl.MODELS), value=models, rows=6, description="models",
                                         style=style),
        "batch": widgets.SelectionSlider(options=[2**k for k in range(11)], value=1, description="batch size",
                                         continuous_update=True, style=style),
        "mac_flops": widgets.ToggleButtons(options=[("1 MAC = 1 FLOP", 1), ("1 MAC = 2 FLOPs", 2)], value=2,
                                           description="counting", style=style),
        "outputs": widgets.Dropdown(options=_OUTPUT_LABELS, value="conv_linear", description="traffic",
                                    style=style),
        "dtype": widgets.Dropdown(options=_DTYPES, value="float32", description="dtype", style=style),
    }
    return RooflineExplorer("Roofline explorer: models on a device's roof", controls,
                            _RooflineView(devices), devices)
