"""The roofline explorer (notebooks/11_roofline.ipynb; notes 004 §5): pick a device or move its peak and
bandwidth, choose models, batch size and counting conventions, and watch the models move on the roofline."""
from __future__ import annotations

import math
from functools import lru_cache

import ipywidgets as widgets
from matplotlib.ticker import NullLocator

from .. import plots
from .. import roofline as rl
from ..style import new_figure
from ._base import Explorer, figure_once
from ..i18n import say

__all__ = ["roofline_update", "roofline_explorer", "RooflineExplorer"]

_DTYPES = ("float32", "float16", "bfloat16", "int8", "float64")
_OUTPUT_LABELS = (("weights + conv/linear outputs (article)", "conv_linear"),
                  ("weights + every layer's output", "all"),
                  ("weights + every layer's inputs and output", "io"))
_X_RANGE = (0.05, 5000.0)  # fixed axes, so a model's move is visible


@lru_cache(maxsize=16)
def _base_model(name):
    return rl.get_model(name)


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


def roofline_update(device="GTX 1080 Ti", peak_flops=11.3e12, bandwidth=484e9, models=("VGG16", "MobileNetV1"),
                    batch=1, mac_flops=2, outputs="conv_linear", dtype="float32", *, devices=None,
                    _figure=None):
    """Text and figure for one setting of the roofline explorer (pure: same inputs, same outputs).

    Every model named in ``models`` (keys of :data:`evallib.roofline.MODELS`) is counted under the convention
    (``mac_flops``, ``outputs``, ``dtype``, ``batch``) and placed on the roof (``peak_flops``, ``bandwidth``)
    through :func:`evallib.roofline.analyze`; the text gives each one's intensity, bound and time bounds.
    """
    devices = rl.DEVICES if devices is None else devices
    conv = rl.Convention(mac_flops=mac_flops, outputs=outputs, dtype=dtype, batch=batch)
    ridge = rl.ridge_point(peak_flops, bandwidth)
    if isinstance(models, str):
        models = (models,)
    ms = [_base_model(name).with_convention(conv) for name in models]
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
    fig, ax = figure_once(_figure, width=7.2, height=4.4) if _figure is not None else new_figure(width=7.2, height=4.4)
    plots.plot_roofline(peak_flops, bandwidth, models=ms, ax=ax, intensity_range=_X_RANGE)
    ax.set_ylim(peak_flops / 1e9 * 1e-4, peak_flops / 1e9 * 4)
    for axis in (ax.xaxis, ax.yaxis):  # five decades each way: minor ticks only slow the redraw down
        axis.set_minor_locator(NullLocator())
    ax.set_title(f"batch {batch}, {dtype}, 1 MAC = {mac_flops} FLOP{'s' if mac_flops == 2 else ''}")
    ax.legend(loc="lower right", fontsize=8)
    return "\n".join(lines), fig


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
    held = {}  # one figure, drawn again on each change (figure_once)
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
                            lambda **v: roofline_update(**v, devices=devices, _figure=held), devices)
