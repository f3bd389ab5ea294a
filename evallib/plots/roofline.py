"""Roofline figures for evallib.roofline (taught in notebooks/11_roofline.ipynb; notes 004 §5)."""

from __future__ import annotations

import numbers

import numpy as np

from .. import roofline as _rl
from .._validation import Interval, check_bool, check_positive_int, validate_params
from ..style import COLORS
from ._base import AX, POSITIVE_INT, get_ax

_POSITIVE = [Interval(numbers.Real, 0, None, closed="neither")]

__all__ = ["plot_roofline", "plot_batch_intensity", "plot_layer_times"]

_MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*")
_PALETTE = [COLORS[c] for c in ("blue", "orange", "green", "red", "purple", "sky", "black")]


def _points(points):
    """Normalise measured points: KernelMeasurement objects or (label, intensity, flop_rate) triples."""
    out = []
    for p in points:
        if isinstance(p, _rl.KernelMeasurement):
            out.append((p.label, p.intensity, p.flop_rate))
        elif isinstance(p, (tuple, list)) and len(p) == 3:
            label, i, f = p
            i, f = float(i), float(f)
            if not (np.isfinite(i) and np.isfinite(f) and i > 0 and f > 0):
                raise ValueError(f"points: intensity and FLOP/s must be finite and > 0, got {p!r}")
            out.append((str(label), i, f))
        else:
            raise ValueError(f"points must hold KernelMeasurement objects or (label, intensity, flop_rate), got {p!r}")
    return out


@validate_params(
    {
        "peak_flops": _POSITIVE,
        "bandwidth": _POSITIVE,
        "layers": [None, _rl.Model],
        "ax": AX,
        "annotate": ["boolean"],
    }
)
def plot_roofline(
    peak_flops,
    bandwidth,
    *,
    models=(),
    layers=None,
    points=(),
    ceilings=None,
    ax=None,
    label=None,
    intensity_range=None,
    annotate=True,
    color=None,
):
    """Draw the roofline min(π, β·I) on log-log axes and place models, layers and measured kernels on it.

    ``models``: :class:`~evallib.roofline.Model` objects, each drawn at (its intensity, the attainable FLOP/s)
    under its own convention. ``layers``: one Model whose layers (those with FLOPs and bytes) are drawn as
    small dots, conv and linear in different colours. ``points``: measured kernels
    (:class:`~evallib.roofline.KernelMeasurement` or (label, intensity, FLOP/s)) drawn at the speed they
    reached. ``ceilings``: {label: FLOP/s} extra horizontal roofs (e.g. one thread). Returns the Axes.
    """
    annotate = check_bool(annotate, "annotate")
    ridge = _rl.ridge_point(peak_flops, bandwidth)
    ax = get_ax(ax)
    models = list(models)
    for m in models:
        if not isinstance(m, _rl.Model):
            raise TypeError(f"models must be evallib.roofline.Model objects, got {type(m).__name__}")
    pts = _points(points)
    ceil = {} if ceilings is None else dict(ceilings)
    ceil = {str(k): _rl._positive(v, f"ceilings[{k!r}]") for k, v in ceil.items()}
    xs = [ridge] + [m.intensity for m in models] + [p[1] for p in pts]
    lay = []
    if layers is not None:
        f, q = layers.layer_flops, layers.layer_bytes
        keep = (f > 0) & (q > 0)
        lay = [(layer.kind, fi / qi) for layer, fi, qi, k in zip(layers.layers, f, q, keep) if k]
        xs += [x for _, x in lay]
    if intensity_range is None:
        lo, hi = min(xs) / 4, max(xs) * 4
    else:
        lo, hi = (float(v) for v in intensity_range)
        if not (0 < lo < hi and np.isfinite(hi)):
            raise ValueError(f"intensity_range must be (low, high) with 0 < low < high, got {intensity_range!r}")
    grid = np.geomspace(lo, hi, 400)
    gf = 1e9  # plot in GFLOP/s
    c = color or COLORS["black"]
    ax.plot(
        grid,
        _rl.attainable(grid, peak_flops, bandwidth) / gf,
        color=c,
        lw=2.2,
        label=label or f"roof: {peak_flops / 1e12:.3g} TFLOP/s, {bandwidth / 1e9:.4g} GB/s",
    )
    ax.axvline(ridge, color=c, ls=":", lw=1)
    if annotate:
        ax.annotate(
            f"ridge {ridge:.1f}",
            (ridge, peak_flops / gf),
            textcoords="offset points",
            xytext=(4, -14),
            fontsize=8,
            color=c,
        )
    for (name, v), col in zip(ceil.items(), _PALETTE[3:] + _PALETTE):
        ax.plot(grid, _rl.attainable(grid, v, bandwidth) / gf, color=col, lw=1.2, ls="--", label=name)
    if lay:
        for kind, col in (("conv", COLORS["sky"]), ("linear", COLORS["purple"])):
            li = np.array([x for k, x in lay if k == kind])
            if li.size:
                ax.scatter(
                    li,
                    _rl.attainable(li, peak_flops, bandwidth) / gf,
                    s=14,
                    color=col,
                    alpha=0.7,
                    zorder=3,
                    label=f"{layers.name} {kind} layers",
                )
        other = np.array([x for k, x in lay if k not in ("conv", "linear")])
        if other.size:
            ax.scatter(
                other,
                _rl.attainable(other, peak_flops, bandwidth) / gf,
                s=10,
                color=COLORS["grey"],
                alpha=0.7,
                zorder=3,
                label=f"{layers.name} other layers",
            )
    for j, m in enumerate(models):
        i = m.intensity
        col = _PALETTE[j % len(_PALETTE)]
        ax.scatter(
            [i],
            [_rl.attainable(i, peak_flops, bandwidth) / gf],
            s=60,
            marker=_MARKERS[j % len(_MARKERS)],
            color=col,
            edgecolor="white",
            zorder=5,
            label=f"{m.name} (I = {i:.1f})",
        )
    for j, (name, i, fr) in enumerate(pts):
        ax.scatter(
            [i],
            [fr / gf],
            s=36,
            marker=_MARKERS[(j // len(_PALETTE)) % len(_MARKERS)],
            color=_PALETTE[j % len(_PALETTE)],
            edgecolor="black",
            linewidth=0.5,
            zorder=6,
            label=name,
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_xlabel("arithmetic intensity (FLOP/byte)")
    ax.set_ylabel("performance (GFLOP/s)")
    return ax


@validate_params(
    {
        "model": [_rl.Model],
        "batches": [None, "array-like"],
        "peak_flops": [None, *_POSITIVE],
        "bandwidth": [None, *_POSITIVE],
        "ax": AX,
    }
)
def plot_batch_intensity(model, batches=None, *, peak_flops=None, bandwidth=None, ax=None):
    """Intensity I(N) = N·F/(W + N·A) of ``model`` against batch size N, with its limit F/A (and the ridge
    of (``peak_flops``, ``bandwidth``) if given). Returns the Axes."""
    if batches is None:
        batches = 2 ** np.arange(0, 11)
    b = np.asarray(batches)
    if b.ndim != 1 or b.size == 0 or not np.issubdtype(b.dtype, np.integer) or (b < 1).any():
        raise ValueError(f"batches must be a non-empty 1-D list of ints >= 1, got {batches!r}")
    ax = get_ax(ax)
    vals = [model.with_convention(batch=int(n)).intensity for n in b]
    one = model.with_convention(batch=1)
    limit = one.flops / (one.memory_bytes - one.weight_bytes)
    ax.plot(b, vals, marker="o", label=f"{model.name}: I(N)")
    ax.axhline(limit, color=COLORS["grey"], ls="--", lw=1, label=f"limit F/A = {limit:.1f}")
    if peak_flops is not None or bandwidth is not None:
        r = _rl.ridge_point(peak_flops, bandwidth)
        ax.axhline(r, color=COLORS["red"], ls=":", lw=1.2, label=f"ridge {r:.1f}")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("batch size N")
    ax.set_ylabel("arithmetic intensity (FLOP/byte)")
    return ax


@validate_params(
    {"model": [_rl.Model], "peak_flops": _POSITIVE, "bandwidth": _POSITIVE, "ax": AX, "top": [None, *POSITIVE_INT]}
)
def plot_layer_times(model, peak_flops, bandwidth, *, ax=None, top=None):
    """Per-layer time bounds max(F/π, Q/β) as bars, coloured by which roof bounds each layer. Returns the Axes."""
    t = model.layer_time_bounds(peak_flops, bandwidth)
    mem = model.layer_bytes / bandwidth > model.layer_flops / peak_flops
    idx = np.flatnonzero(t > 0)
    if top is not None:
        top = check_positive_int(top, "top")
        idx = np.sort(idx[np.argsort(-t[idx], kind="stable")[:top]])
    ax = get_ax(ax)
    x = np.arange(len(idx))
    cols = [COLORS["orange"] if mem[i] else COLORS["blue"] for i in idx]
    ax.bar(x, t[idx] * 1e3, color=cols)
    ax.set_xticks(x, [model.layers[i].name for i in idx], rotation=90, fontsize=7)
    ax.set_ylabel("time bound (ms)")
    from matplotlib.patches import Patch

    ax.legend(
        handles=[
            Patch(color=COLORS["blue"], label="compute-bound"),
            Patch(color=COLORS["orange"], label="memory-bound"),
        ]
    )
    return ax
