"""Roofline plots and the roofline explorer, tested without a browser.

Oracles: the roofline's definition min(π, β·I), hand-worked model counts (VGG16's traffic under the article's
convention, I(N) = N·F/(W + N·A)) and the documented device figures.
"""

import re

import numpy as np
import pytest
from matplotlib.figure import Figure

import evallib as el
from evallib import roofline as rl
from evallib.plots import plot_batch_intensity, plot_layer_times, plot_roofline
from evallib.widgets.roofline import roofline_data, roofline_explorer, roofline_update, roofline_values

VGG16_PARAMS = 138_357_544
VGG16_MACS = 15_470_264_320
VGG16_OUTPUTS = (
    2 * 224**2 * 64 + 2 * 112**2 * 128 + 3 * 56**2 * 256 + 3 * 28**2 * 512 + 3 * 14**2 * 512 + 4096 + 4096 + 1000
)
VGG16_ARTICLE_I = VGG16_MACS / (4 * (VGG16_PARAMS + VGG16_OUTPUTS))  # ≈ 25.46


def new_ax():
    return Figure().subplots()


ROW = re.compile(r"^(\S+)\s+([\d.]+)\s+(memory|compute)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d,]+)$", re.M)


def rows(text):
    """model name -> (intensity, bound, TFLOP/s, time ms, per-layer time ms, images/s) from the explorer's table."""
    return {
        m.group(1): (
            float(m.group(2)),
            m.group(3),
            float(m.group(4)),
            float(m.group(5)),
            float(m.group(6)),
            int(m.group(7).replace(",", "")),
        )
        for m in ROW.finditer(text)
    }


def intensities(text):
    return {name: r[0] for name, r in rows(text).items()}


# --------------------------------------------------------------------------- plots
def test_plot_roofline_draws_the_definition():
    ax = new_ax()
    peak, bw = 11.3e12, 484e9
    m = rl.vgg16(rl.ARTICLE)
    out = plot_roofline(peak, bw, models=[m], ax=ax, intensity_range=(0.1, 1000))
    assert out is ax
    x, y = ax.lines[0].get_data()
    assert x[0] == pytest.approx(0.1) and x[-1] == pytest.approx(1000)
    assert np.allclose(y, np.minimum(peak, bw * x) / 1e9, rtol=1e-12)
    assert ax.lines[1].get_xdata()[0] == pytest.approx(peak / bw)  # the ridge line
    (pt,) = ax.collections[0].get_offsets()
    assert pt[0] == pytest.approx(VGG16_ARTICLE_I, rel=1e-12) and pt[1] == pytest.approx(peak / 1e9)
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert "intensity" in ax.get_xlabel()


def test_plot_roofline_layers_points_ceilings():
    ax = new_ax()
    k = rl.KernelMeasurement("dot", 1000, 2000, 16000, 1e-6)
    plot_roofline(1e11, 1e10, layers=rl.alexnet(), points=[k, ("mine", 2.0, 5e9)], ceilings={"1 thread": 5e10}, ax=ax)
    offsets = [c.get_offsets() for c in ax.collections]
    conv, lin = offsets[0], offsets[1]
    assert len(conv) == 5 and len(lin) == 3
    assert np.allclose(offsets[2][0], [1 / 8, 2000 / 1e-6 / 1e9])  # measured kernel at its own speed
    assert np.allclose(offsets[3][0], [2.0, 5.0])
    ceiling = ax.lines[2].get_ydata()
    assert ceiling.max() == pytest.approx(50.0)


def test_plot_batch_intensity_matches_formula():
    ax = new_ax()
    m = rl.resnet18()
    plot_batch_intensity(m, [1, 4, 16], peak_flops=1e12, bandwidth=1e11, ax=ax)
    f, w = 2 * m.macs, 4 * m.params
    a = m.memory_bytes - w
    assert np.allclose(ax.lines[0].get_ydata(), [n * f / (w + n * a) for n in (1, 4, 16)], rtol=1e-12)
    assert ax.lines[1].get_ydata()[0] == pytest.approx(f / a)
    assert ax.lines[2].get_ydata()[0] == pytest.approx(10.0)


def test_plot_layer_times_bars():
    ax = new_ax()
    m = rl.alexnet()
    plot_layer_times(m, 1e12, 1e11, ax=ax, top=3)
    heights = sorted(p.get_height() for p in ax.patches)
    t = [
        max(2 * layer.macs / 1e12, 4 * (layer.params + layer.out_elements) / 1e11)
        for layer in m.layers
        if layer.is_compute
    ]
    assert heights == pytest.approx([x * 1e3 for x in sorted(t)[-3:]], rel=1e-12)


@pytest.mark.parametrize(
    "call,word",
    [
        (lambda ax: plot_roofline(0, 1e9, ax=ax), "peak_flops"),
        (lambda ax: plot_roofline(1e12, -1, ax=ax), "bandwidth"),
        (lambda ax: plot_roofline(1e12, 1e9, models=["vgg16"], ax=ax), "models"),
        (lambda ax: plot_roofline(1e12, 1e9, layers="vgg16", ax=ax), "layers"),
        (lambda ax: plot_roofline(1e12, 1e9, points=[("x", -1, 1)], ax=ax), "points"),
        (lambda ax: plot_roofline(1e12, 1e9, points=[1], ax=ax), "points"),
        (lambda ax: plot_roofline(1e12, 1e9, ceilings={"x": 0}, ax=ax), "ceilings"),
        (lambda ax: plot_roofline(1e12, 1e9, intensity_range=(10, 1), ax=ax), "intensity_range"),
        (lambda ax: plot_roofline(1e12, 1e9, ax="axes"), "ax"),
        (lambda ax: plot_batch_intensity("vgg16", ax=ax), "model"),
        (lambda ax: plot_batch_intensity(rl.vgg16(), [0, 1], ax=ax), "batches"),
        (lambda ax: plot_batch_intensity(rl.vgg16(), [1.5], ax=ax), "batches"),
        (lambda ax: plot_batch_intensity(rl.vgg16(), [1], peak_flops=1e12, ax=ax), "bandwidth"),
        (lambda ax: plot_layer_times(None, 1e12, 1e9, ax=ax), "model"),
        (lambda ax: plot_layer_times(rl.vgg16(), 1e12, 1e9, top=0, ax=ax), "top"),
        (lambda ax: plot_layer_times(rl.vgg16(), 1e12, 0, ax=ax), "bandwidth"),
    ],
)
def test_plots_bad_input(call, word):
    with pytest.raises((ValueError, TypeError), match=word):
        call(new_ax())


def test_plots_exported():
    assert el.plots.plot_roofline is plot_roofline
    assert el.widgets.roofline_explorer is roofline_explorer


# --------------------------------------------------------------------------- the pure update
def test_update_reproduces_article_case():
    text, fig = roofline_update("GTX 1080 Ti", 11.3e12, 484e9, ("VGG16", "MobileNetV1"), 1, 1, "conv_linear", "float32")
    assert isinstance(fig, Figure) and len(fig.axes) == 1
    i = intensities(text)
    assert i["VGG16"] == pytest.approx(VGG16_ARTICLE_I, abs=0.005)
    assert "ridge 23.35" in text
    r = rows(text)
    assert r["VGG16"][1] == "compute" and r["MobileNetV1"][1] == "memory"
    # time bound of the whole model: F/π since VGG16 is compute-bound
    assert r["VGG16"][3] == pytest.approx(VGG16_MACS / 11.3e12 * 1e3, abs=0.0005)
    assert r["VGG16"][2] == pytest.approx(11.3, abs=0.0005)
    # MobileNetV1 is memory-bound: attainable = bandwidth x intensity
    assert r["MobileNetV1"][2] == pytest.approx(484e9 * r["MobileNetV1"][0] / 1e12, abs=0.005)
    assert r["VGG16"][4] >= r["VGG16"][3]
    offs = np.vstack([c.get_offsets() for c in fig.axes[0].collections])
    assert offs[0][0] == pytest.approx(VGG16_ARTICLE_I)


def test_update_conventions_flip_and_batch_moves_points():
    base = dict(
        device="GTX 1080 Ti",
        peak_flops=11.3e12,
        bandwidth=484e9,
        models=("VGG16",),
        batch=1,
        mac_flops=1,
        outputs="conv_linear",
        dtype="float32",
    )
    t_all, _ = roofline_update(**{**base, "outputs": "all"})
    assert rows(t_all)["VGG16"][1] == "memory"
    t2, _ = roofline_update(**{**base, "mac_flops": 2})
    assert intensities(t2)["VGG16"] == pytest.approx(2 * VGG16_ARTICLE_I, abs=0.01)
    w, a = 4 * VGG16_PARAMS, 4 * VGG16_OUTPUTS
    prev = 0
    for n in (1, 8, 64, 512):
        t, _ = roofline_update(**{**base, "batch": n})
        i = intensities(t)["VGG16"]
        assert i == pytest.approx(n * VGG16_MACS / (w + n * a), abs=0.005)
        assert prev < i < VGG16_MACS / a
        prev = i
    t16, _ = roofline_update(**{**base, "dtype": "float16"})
    assert intensities(t16)["VGG16"] == pytest.approx(2 * VGG16_ARTICLE_I, abs=0.01)


def test_update_labels_custom_and_missing_dtype():
    t, _ = roofline_update("GTX 1080 Ti", 5e12, 484e9, ("AlexNet",), 1, 2, "all", "float32")
    assert t.startswith("device: custom")
    t, _ = roofline_update("GTX 1080 Ti", 11.3e12, 484e9, ("AlexNet",), 1, 2, "all", "int8")
    assert "no documented int8 peak" in t
    t, fig = roofline_update("GTX 1080 Ti", 11.3e12, 484e9, (), 1, 2, "all", "float32")
    assert "select at least one model" in t and len(fig.axes[0].collections) == 0


@pytest.mark.parametrize(
    "kw,word",
    [
        ({"device": "TPU"}, "device"),
        ({"models": ("LeNet",)}, "name"),
        ({"batch": 0}, "batch"),
        ({"mac_flops": 3}, "mac_flops"),
        ({"outputs": "none"}, "outputs"),
        ({"dtype": "float8"}, "dtype"),
        ({"peak_flops": 0.0}, "peak_flops"),
        ({"bandwidth": float("nan")}, "bandwidth"),
    ],
)
def test_update_bad_input(kw, word):
    with pytest.raises((ValueError, TypeError), match=word):
        roofline_update(**kw)


# --------------------------------------------------------------------------- the explorer
@pytest.mark.parametrize("name", list(rl.MODELS))
def test_the_charts_arithmetic_equals_analyze(name):
    data = roofline_data()
    for dev in ("GTX 1080 Ti", "H100 SXM"):
        for conv in (
            rl.Convention(mac_flops=1, batch=1),
            rl.Convention(outputs="io", dtype="int8", batch=64),
            rl.Convention(outputs="all", dtype="float16", batch=1024),
        ):
            peak, bw = rl.DEVICES[dev].peak(conv.dtype) * 10**0.35, rl.DEVICES[dev].bandwidth * 10**-1.2
            ref = rl.analyze(rl.get_model(name).with_convention(conv), peak, bw)  # the oracle: evallib
            got = roofline_values(data, name, peak, bw, conv.batch, conv.mac_flops, conv.outputs, conv.dtype)
            assert (got["flops"], got["memory_bytes"], got["bound"]) == (ref.flops, ref.memory_bytes, ref.bound)
            for k in ("intensity", "attainable", "time_model", "time_layers"):
                assert got[k] == pytest.approx(getattr(ref, k), rel=1e-12), k


def test_the_devices_data_are_the_presets():
    d = roofline_data()["devices"]
    for row in d.itertuples():
        dev = rl.DEVICES[row.device]
        assert (row.peak, row.used, row.bandwidth) == (dev.peak(row.dtype), dev.peak_dtype(row.dtype), dev.bandwidth)


def test_explorer_text_spec_and_size():
    e = roofline_explorer(models=("VGG16", "MobileNetV1", "MobileNetV2"))
    assert e.text == roofline_update("GTX 1080 Ti", 11.3e12, 484e9, ("VGG16", "MobileNetV1", "MobileNetV2"))[0]
    assert e.text.startswith("device: GTX 1080 Ti") and "ridge 23.35" in e.text
    spec = e.spec()  # validated against the Vega-Lite 5 schema
    bound = {p["name"] for p in spec["params"] if "bind" in p}
    assert {"device", "peak_shift", "bandwidth_shift", "batch", "mac_flops", "outputs", "dtype"} <= bound
    assert {"show_VGG16", "show_MobileNetV1"} <= bound
    assert e.nbytes() < 100_000


def fake_measurement(peak=5e10, bw=1e10):
    return rl.MachineMeasurement(peak, bw, 1, 64, 8 * 2**20, (0.1,), (0.1,), 1, "openblas", {}, "cpu")


def test_explorer_this_machine():
    e = roofline_explorer(fake_measurement(), device="this machine")
    assert e.values["device"] == "this machine"
    assert "this machine" in e.text and "no documented float32 peak" in e.text
    assert "ridge 5.00" in e.text
    d = e.data["devices"]
    assert d[d.device == "this machine"].peak.iloc[0] == pytest.approx(5e10)


@pytest.mark.parametrize(
    "kw,word",
    [
        ({"device": "TPU"}, "device"),
        ({"device": "this machine"}, "device"),
        ({"models": ("VGG19",)}, "models"),
        ({"measurement": 3.0}, "measurement"),
    ],
)
def test_explorer_bad_input(kw, word):
    with pytest.raises((ValueError, TypeError), match=word):
        roofline_explorer(**kw)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_charts_counting_line_is_describe_in_vega(lang):
    """The readout's counting line, written in Vega from Convention.describe's catalog template, equals
    describe() in Python for each menu setting, in both languages (the zh edition had it in English)."""
    import vega_eval

    states = [{}, dict(mac_flops=1, outputs="all", dtype="float16", batch=8), dict(outputs="io", batch=32)]
    with el.i18n.language(lang):
        e = roofline_explorer(models=("VGG16",))
        want = []
        for st in states:
            a = dict(mac_flops=2, outputs="conv_linear", dtype="float32", batch=1) | st
            want.append(el.i18n.say("counting: {conv}", conv=rl.Convention(**a).describe()))
    outs = vega_eval.run(e.spec(), states)
    for w, out in zip(want, outs):
        lines = [ln.replace("\xa0", " ") for t in out["texts"] for ln in t.split("\n")]
        assert w in lines, (w, lines[:4])
    if lang == "zh":
        assert "访存量" in want[0] and "traffic" not in want[0]
