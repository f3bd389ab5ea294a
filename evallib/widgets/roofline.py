"""The roofline explorer (notebooks/11_roofline.ipynb; notes 004 §5): pick a device or move its peak and
bandwidth, choose models, batch size and counting conventions, and watch the models move on the roofline.

evallib computes, the browser draws. The roofline is a closed formula: :func:`roofline_data` stores what evallib
counts (each model's layers: multiply-adds, weights, feature-map elements under each traffic convention; each
device's peak per dtype and bandwidth), and the chart evaluates the formulas of :mod:`evallib.roofline` on them
(F_l = batch · mac_flops · MACs_l, Q_l = bytes · (weights_l + batch · elements_l), I = ΣF/ΣQ, min(π, β·I),
max(F/π, Q/β), Σ_l max(F_l/π, Q_l/β)); :func:`roofline_values` is the same arithmetic in Python, tested against
:func:`evallib.roofline.analyze`.
"""

from __future__ import annotations

import json
import math
import re

import altair as alt
import numpy as np
import pandas as pd

from .. import roofline as rl
from .._validation import Options, validate_params
from ..i18n import N_, gettext, say, ui
from ..roofline import _layers
from ..style import COLORS
from ._chart import POSITIVE, WIDTH, Explorer, at_least, inline, menu, slider

__all__ = ["roofline_data", "roofline_values", "roofline_update", "roofline_explorer"]

_DTYPES = ("float32", "float16", "bfloat16", "int8", "float64")
_OUTPUTS = ("conv_linear", "all", "io")
_OUTPUT_LABELS = (
    N_("weights + conv/linear outputs (article)"),
    N_("weights + every layer's output"),
    N_("weights + every layer's inputs and output"),
)
_BATCHES = tuple(2**k for k in range(11))
_X_RANGE = (0.05, 5000.0)  # fixed axes, so a model's move is visible
_GF = 1e9  # the chart plots GFLOP/s
_LINE = 15  # px per readout line


def _device_label(device, peak_flops, bandwidth, dtype, devices):
    dev = devices.get(device)
    if dev is None:
        raise ValueError(f"device must be one of {list(devices)}, got {device!r}")
    same = math.isclose(peak_flops, dev.peak(dtype), rel_tol=1e-6) and math.isclose(
        bandwidth, dev.bandwidth, rel_tol=1e-6
    )
    if not same:
        return say("custom (moved from {device})", device=device)
    used = dev.peak_dtype(dtype)
    return device + (
        "" if used == dtype else say(" (no documented {dtype} peak: its {used} peak is used)", dtype=dtype, used=used)
    )


def _model_line(name, r, batch):
    return (
        f"{name:<12s} {r.intensity:10.2f} {say(r.bound):>8s} {r.attainable / 1e12:9.3f} "
        f"{r.time_model * 1e3:10.3f} {r.time_layers * 1e3:10.3f} {batch / r.time_layers:10,.0f}"
    )


def _text(device, peak_flops, bandwidth, models, batch, mac_flops, outputs, dtype, devices):
    conv = rl.Convention(mac_flops=mac_flops, outputs=outputs, dtype=dtype, batch=batch)
    ridge = rl.ridge_point(peak_flops, bandwidth)
    models = (models,) if isinstance(models, str) else tuple(models)
    ms = [rl.get_model(name).with_convention(conv) for name in models]
    lines = [
        say("device: {label}", label=_device_label(device, peak_flops, bandwidth, dtype, devices)),
        say(
            "roof: peak {peak:.3f} TFLOP/s, bandwidth {bw:.1f} GB/s, ridge {ridge:.2f} FLOP/B",
            peak=peak_flops / 1e12,
            bw=bandwidth / 1e9,
            ridge=ridge,
        ),
        say("counting: {conv}", conv=conv.describe()),
    ]
    if not ms:
        lines.append(say("select at least one model"))
    else:
        lines.append(say("model        I (FLOP/B)    bound   TFLOP/s  time (ms)  per layer   images/s"))
    for m in ms:
        lines.append(_model_line(m.name, rl.analyze(m, peak_flops, bandwidth), batch))
    if ms:
        lines.append(
            say(
                "time = max(F/peak, Q/bandwidth) per batch; per layer = sum of the layers' bounds; "
                "images/s from the latter"
            )
        )
    return "\n".join(lines), ms


@validate_params(
    {
        "device": ["str"],
        "peak_flops": POSITIVE,
        "bandwidth": POSITIVE,
        "models": ["str", "array-like"],
        "batch": at_least(1),
        "mac_flops": [Options(1, 2)],
        "outputs": [Options(*_OUTPUTS)],
        "devices": [None, dict],
    }
)  # device among the presets, dtype (a name or a number of bytes): inline, as evallib.roofline.Convention's
def roofline_update(
    device="GTX 1080 Ti",
    peak_flops=11.3e12,
    bandwidth=484e9,
    models=("VGG16", "MobileNetV1"),
    batch=1,
    mac_flops=2,
    outputs="conv_linear",
    dtype="float32",
    *,
    devices=None,
):
    """Text and figure for one setting of the roofline explorer (pure: same inputs, same outputs).

    Every model named in ``models`` (keys of :data:`evallib.roofline.MODELS`) is counted under the convention
    (``mac_flops``, ``outputs``, ``dtype``, ``batch``) and placed on the roof (``peak_flops``, ``bandwidth``)
    through :func:`evallib.roofline.analyze`; the text gives each one's intensity, bound and time bounds; the
    figure is :func:`evallib.plots.plot_roofline`.
    """
    from .. import plots
    from ..style import new_figure

    devices = rl.DEVICES if devices is None else devices
    text, ms = _text(device, peak_flops, bandwidth, models, batch, mac_flops, outputs, dtype, devices)
    fig, ax = new_figure(width=7.2, height=4.4)
    plots.plot_roofline(peak_flops, bandwidth, models=ms, ax=ax, intensity_range=_X_RANGE)
    ax.set_title(f"batch {batch}, {dtype}, 1 MAC = {mac_flops} FLOP{'s' if mac_flops == 2 else ''}")
    return text, fig


def _elements(layer, outputs):
    if layer.kind == "flatten":  # a view: no data moves (Layer.memory_bytes)
        return 0
    if outputs == "conv_linear":
        return layer.out_elements if layer.is_compute else 0
    if outputs == "all":
        return layer.out_elements
    return layer.in_elements + layer.out_elements


@validate_params({"devices": [None, dict], "models": [None, "array-like"]})
def roofline_data(devices=None, models=None) -> dict:
    """What the roofline chart evaluates its formulas on: ``{"layers", "devices"}`` DataFrames.

    ``layers``: model and, per layer (lists), macs, params and the feature-map elements moved per sample under
    each traffic convention (el_conv_linear, el_all, el_io), as :class:`evallib.roofline.Layer` counts them;
    ``devices``: device, dtype, peak (FLOP/s; the float32 one where none is documented), used (the dtype whose
    peak that is), bandwidth (B/s), label (the readout's device label).
    """
    devices = rl.DEVICES if devices is None else devices
    names = list(rl.MODELS) if models is None else list(models)
    rows = []
    for name in names:
        layers = rl.get_model(name).layers
        row = {"model": name, "macs": [int(la.macs) for la in layers], "params": [int(la.params) for la in layers]}
        for o in _OUTPUTS:
            row[f"el_{o}"] = [int(_elements(la, o)) for la in layers]
        rows.append(row)
    devs = [
        {
            "device": d,
            "dtype": t,
            "peak": float(dev.peak(t)),
            "used": dev.peak_dtype(t),
            "bandwidth": float(dev.bandwidth),
            "label": _device_label(d, dev.peak(t), dev.bandwidth, t, devices),
        }
        for d, dev in devices.items()
        for t in _DTYPES
    ]
    return {"layers": pd.DataFrame(rows), "devices": pd.DataFrame(devs)}


@validate_params(
    {
        "data": [dict],
        "model": ["str"],
        "peak_flops": POSITIVE,
        "bandwidth": POSITIVE,
        "batch": at_least(1),
        "mac_flops": [Options(1, 2)],
        "outputs": [Options(*_OUTPUTS)],
        "dtype": [Options(*rl.DTYPE_BYTES)],
    }
)
def roofline_values(data, model, peak_flops, bandwidth, batch, mac_flops, outputs, dtype) -> dict:
    """The chart's arithmetic in Python (the same operations as its Vega expressions): flops, memory_bytes,
    intensity, attainable, bound, time_model, time_layers of one model of ``data`` (from :func:`roofline_data`)."""
    row = data["layers"].set_index("model").loc[model]
    bpe = rl.DTYPE_BYTES[dtype]
    f = [batch * mac_flops * m for m in row["macs"]]
    q = [bpe * (p + batch * e) for p, e in zip(row["params"], row[f"el_{outputs}"])]
    F, Q = float(sum(f)), float(sum(q))
    i = F / Q
    t_layers = 0.0
    for fl, ql in zip(f, q):
        t_layers += max(fl / peak_flops, ql / bandwidth)
    return {
        "flops": F,
        "memory_bytes": Q,
        "intensity": i,
        "attainable": min(peak_flops, bandwidth * i),
        "bound": N_("compute") if i >= peak_flops / bandwidth else N_("memory"),
        "time_model": max(F / peak_flops, Q / bandwidth),
        "time_layers": t_layers,
    }


def _pname(model):
    return "show_" + re.sub(r"\W", "_", model)


def _chart(data, devices, device, models, peak_k, bw_k):
    j = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    dev_p = menu(device, list(devices), "device", name="device", radio=False)
    pk = slider(peak_k, -2.0, 2.0, 0.05, "peak FLOP/s: log₁₀ shift from the preset", name="peak_shift")
    bk = slider(bw_k, -2.0, 2.0, 0.05, "bandwidth B/s: log₁₀ shift from the preset", name="bandwidth_shift")
    shows = [
        alt.param(name=_pname(m), value=m in models, bind=alt.binding_checkbox(name=m + " "))
        for m in data["layers"]["model"]
    ]
    batch = menu(1, list(_BATCHES), "batch size", name="batch", radio=False)
    mac = menu(2, [1, 2], N_("counting"), name="mac_flops", labels=[N_("1 MAC = 1 FLOP"), N_("1 MAC = 2 FLOPs")])
    outp = menu("conv_linear", list(_OUTPUTS), "traffic", name="outputs", labels=list(_OUTPUT_LABELS), radio=False)
    dt = menu("float32", list(_DTYPES), "dtype", name="dtype")
    d = data["devices"]
    peaks = {dv: {r.dtype: r.peak for r in d[d.device == dv].itertuples()} for dv in devices}
    bws = {dv: float(devices[dv].bandwidth) for dv in devices}
    # the roof of the moment: the preset's peak and bandwidth, times 10 ** the sliders' shifts
    peak = alt.param(name="peak", expr=f"{j(peaks)}[device][dtype] * pow(10, peak_shift)")
    bw = alt.param(name="bw", expr=f"{j(bws)}[device] * pow(10, bandwidth_shift)")
    # y: whole decades holding every dtype's roof of the device (and the roof of the moment)
    lo = f"min(min({j({k: min(v.values()) for k, v in peaks.items()})}[device] * 0.01, peak), bw * {_X_RANGE[0]})"
    hi = f"max({j({k: max(v.values()) for k, v in peaks.items()})}[device], peak) * 4"
    ydom = alt.ExprRef(f"[pow(10, floor(log({lo} / {_GF}) / LN10)), pow(10, ceil(log({hi} / {_GF}) / LN10))]")
    xs = alt.Scale(type="log", domain=list(_X_RANGE), nice=False)
    ys = alt.Scale(type="log", domain=ydom, nice=False)
    X = alt.X("i:Q", scale=xs, title=ui("arithmetic intensity (FLOP/byte)"))
    Y = alt.Y("gflops:Q", scale=ys, title=ui("attainable performance (GFLOP/s)"))
    grid = np.round(np.geomspace(*_X_RANGE, 121), 6)
    roof = (
        alt.Chart(inline(pd.DataFrame({"i": grid})))
        .transform_calculate(gflops=f"min(peak, bw * datum.i) / {_GF}")
        .mark_line(color="black", strokeWidth=2, clip=True)
        .encode(X, Y)
    )
    one = inline(pd.DataFrame({"o": [0]}))
    ridge = alt.Chart(one).transform_calculate(
        i="peak / bw", gflops=f"peak / {_GF}", label="'ridge ' + format(peak / bw, '.1f')"
    )
    ridge = ridge.mark_rule(strokeDash=[4, 3], color=COLORS["grey"]).encode(x="i:Q") + ridge.mark_text(
        align="left", dx=4, dy=-8
    ).encode(X, Y, text="label:N")
    shown = " || ".join(f"(datum.model == {j(m)} && {_pname(m)})" for m in data["layers"]["model"])
    pts = (
        alt.Chart(inline(data["layers"]))
        .transform_filter(shown)
        .transform_calculate(el="datum['el_' + outputs]")
        .transform_flatten(["macs", "params", "el"])
        .transform_calculate(bpe=f"{j(rl.DTYPE_BYTES)}[dtype]")
        .transform_calculate(f="batch * mac_flops * datum.macs", q="datum.bpe * (datum.params + batch * datum.el)")
        .transform_calculate(t="max(datum.f / peak, datum.q / bw)")
        .transform_aggregate(F="sum(f)", Q="sum(q)", T="sum(t)", groupby=["model"])
        .transform_calculate(
            i="datum.F / datum.Q",
            gflops=f"min(peak, bw * datum.F / datum.Q) / {_GF}",
            label="datum.model + ' (I = ' + format(datum.F / datum.Q, '.1f') + ')'",
        )
    )
    colors = alt.Color(
        "model:N",
        legend=None,
        scale=alt.Scale(
            domain=list(data["layers"]["model"]),
            range=["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"],
        ),
    )
    dots = pts.mark_point(filled=True, size=70).encode(X, Y, colors)
    names = pts.mark_text(align="left", dx=6, dy=4, fontSize=10).encode(X, Y, colors, text="label:N")
    title = "'batch ' + batch + ', ' + dtype + ', 1 MAC = ' + mac_flops + ' FLOP' + (mac_flops == 2 ? 's' : '')"
    head = (
        alt.Chart(one)
        .transform_calculate(t=title)
        .mark_text(fontWeight="bold", y=-10, x=(WIDTH - 120) / 2)
        .encode(text="t:N")
    )
    plot = alt.layer(roof, ridge, dots, names, head).properties(width=WIDTH - 120, height=320)
    # the readout: the device and roof lines, one line per model, the footnote (a monospace table)
    dev_line = (
        f"replace({j(say('device: {label}', label='@@'))}, '@@', (peak_shift != 0 || bandwidth_shift != 0)"
        f" ? replace({j(say('custom (moved from {device})', device='@@'))}, '@@', device) : datum.label)"
    )
    roof_expr = _roof_expr()
    # Convention.describe's template, filled in the browser (the same catalog entries, the same words)
    template = say(_layers.DESCRIBE, flops="@F@", traffic="@T@", dtype="@D@", batch="@B@")
    flops = j({k: gettext(v) for k, v in _layers.MAC_WORDS.items()})
    traffic = j({k: gettext(v) for k, v in _layers.TRAFFIC_WORDS.items()})
    conv = (
        f"replace(replace(replace(replace({j(template)}, '@F@', {flops}[mac_flops]), '@T@', {traffic}[outputs]), "
        "'@D@', dtype), '@B@', '' + batch)"
    )
    count_line = f"replace({j(say('counting: {conv}', conv='@@'))}, '@@', {conv})"
    header = j(say("model        I (FLOP/B)    bound   TFLOP/s  time (ms)  per layer   images/s"))
    lines = (
        alt.Chart(inline(d))
        .transform_filter("datum.device == device && datum.dtype == dtype")
        .transform_calculate(
            text=_keep_spaces(f"{dev_line} + '\\n' + {roof_expr} + '\\n' + {count_line} + '\\n' + {header}")
        )
    )
    mono = dict(align="left", baseline="top", lineBreak="\n", font="monospace", fontSize=10, lineHeight=_LINE)
    top = lines.mark_text(x=0, y=0, **mono).encode(text="text:N")
    b = {k: j(say(k)) for k in (N_("compute"), N_("memory"))}
    row = (
        f"pad(datum.model, 12) + ' ' + format(datum.F / datum.Q, '10.2f') + ' ' + "
        f"pad(datum.F / datum.Q >= peak / bw ? {b[N_('compute')]} : {b[N_('memory')]}, 8, ' ', 'left') + ' ' + "
        f"format(min(peak, bw * datum.F / datum.Q) / 1e12, '9.3f') + ' ' + "
        f"format(max(datum.F / peak, datum.Q / bw) * 1e3, '10.3f') + ' ' + format(datum.T * 1e3, '10.3f') + ' ' + "
        f"format(batch / datum.T, '10,.0f')"
    )
    given = [*models, *(m for m in data["layers"]["model"] if m not in models)]  # the table lists them so
    order = {m: k for k, m in enumerate(given)}
    table = (
        pts.transform_calculate(row=_keep_spaces(row), k=f"{j(order)}[datum.model]")
        .transform_window(r="rank()", sort=[alt.SortField("k")])
        .transform_calculate(y=f"{4 * _LINE} + (datum.r - 1) * {_LINE}")
        .mark_text(**mono)
        .encode(text="row:N", x=alt.value(0), y=alt.Y("y:Q", scale=None))
    )
    foot = (
        pts.transform_aggregate(n="count()")
        .transform_calculate(y=f"{4 * _LINE} + datum.n * {_LINE}")
        .mark_text(**mono)
        .encode(
            text=alt.value(
                say(
                    "time = max(F/peak, Q/bandwidth) per batch; per layer = sum "
                    "of the layers' bounds; images/s from the latter"
                )
            ),
            x=alt.value(0),
            y=alt.Y("y:Q", scale=None),
        )
    )
    readout = alt.layer(top, table, foot).properties(width=WIDTH - 100, height=(6 + len(order)) * _LINE)
    return alt.vconcat(plot, readout).add_params(dev_p, pk, bk, *shows, batch, mac, outp, dt, peak, bw)


def _keep_spaces(expr):
    """An expression's text with its spaces made no-break: SVG text would fold the table's runs of spaces."""
    return f"replace({expr}, regexp(' ', 'g'), '\\u00a0')"


def _roof_expr():
    j = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    tpl = say(
        "roof: peak {peak:.3f} TFLOP/s, bandwidth {bw:.1f} GB/s, ridge {ridge:.2f} FLOP/B", peak=1.0, bw=2.0, ridge=3.0
    )
    # the translated sentence with its three numbers replaced by Vega's formatting of the roof of the moment
    parts = tpl.split("1.000")
    rest = parts[1].split("2.0", 1)
    rest2 = rest[1].split("3.00", 1)
    return (
        f"{j(parts[0])} + format(peak / 1e12, '.3f') + {j(rest[0])} + format(bw / 1e9, '.1f') + {j(rest2[0])} + "
        f"format(peak / bw, '.2f') + {j(rest2[1])}"
    )


@validate_params({"measurement": [None, rl.MachineMeasurement], "models": ["str", "array-like"], "device": ["str"]})
def roofline_explorer(measurement=None, *, models=("VGG16", "MobileNetV1"), device="GTX 1080 Ti"):
    """Device presets (a menu), log₁₀ shifts of their peak and bandwidth (sliders), a check box per model, batch
    size and the counting conventions; the models move on the roofline. ``measurement`` (from
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
    data = roofline_data(devices)
    dev = devices[device]
    text, _ = _text(device, dev.peak("float32"), dev.bandwidth, models, 1, 2, "conv_linear", "float32", devices)
    return Explorer(
        _chart(data, devices, device, models, 0.0, 0.0),
        data=data,
        text=text,
        title=ui("Roofline explorer: models on a device's roof"),
        values={
            "device": device,
            "peak_shift": 0.0,
            "bandwidth_shift": 0.0,
            N_("models"): models,
            "batch": 1,
            "mac_flops": 2,
            "outputs": "conv_linear",
            "dtype": "float32",
        },
    )
