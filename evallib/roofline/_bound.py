"""The roofline bound P = min(π, β·I) (Williams, Waterman & Patterson 2009)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._results import Result
from .._validation import Interval, as_finite_array, validate_params

_POSITIVE = [Interval(numbers.Real, 0, None, closed="neither")]
_NONNEG = [Interval(numbers.Real, 0, None, closed="left")]

# --------------------------------------------------------------------------------------------------
# The roofline
# --------------------------------------------------------------------------------------------------


def _positive(x, name) -> float:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(x).__name__}")
    x = float(x)
    if not np.isfinite(x) or x <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {x}")
    return x


def _nonneg_array(x, name):
    scalar = np.ndim(x) == 0
    if scalar and isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name}: must be a number, not a bool; got {x!r}")
    arr = as_finite_array(np.atleast_1d(x) if scalar else x, name, ndim=None)
    if (arr < 0).any():
        raise ValueError(f"{name} must be >= 0, got {arr[arr < 0].ravel()[0]}")
    return arr, scalar


@validate_params({"peak_flops": _POSITIVE, "bandwidth": _POSITIVE})
def ridge_point(peak_flops, bandwidth) -> float:
    """The ridge point I* = π/β (FLOP/byte): below it a kernel is memory-bound, at or above compute-bound.

    >>> round(ridge_point(11.3e12, 484e9), 2)    # GTX 1080 Ti, as in the article
    23.35
    """
    return _positive(peak_flops, "peak_flops") / _positive(bandwidth, "bandwidth")


@validate_params({"intensity": ["array-like", _NONNEG[0]], "peak_flops": _POSITIVE, "bandwidth": _POSITIVE})
def attainable(intensity, peak_flops, bandwidth):
    """Attainable performance min(π, β·I) in FLOP/s (scalar in, float out; array in, array of the same shape out).

    >>> attainable([1.0, 100.0], 11.3e12, 484e9) / 1e12
    array([ 0.484, 11.3  ])
    """
    i, scalar = _nonneg_array(intensity, "intensity")
    p, b = _positive(peak_flops, "peak_flops"), _positive(bandwidth, "bandwidth")
    out = np.minimum(p, b * i)
    return float(out[0]) if scalar else out


@validate_params(
    {
        "flops": ["array-like", _NONNEG[0]],
        "memory_bytes": ["array-like", _NONNEG[0]],
        "peak_flops": _POSITIVE,
        "bandwidth": _POSITIVE,
    }
)
def time_bound(flops, memory_bytes, peak_flops, bandwidth):
    """Lower bound on run time max(F/π, Q/β) in seconds (vectorised over ``flops`` and ``memory_bytes``).

    >>> time_bound(2e9, 1e6, 1e11, 1e10)     # compute-bound: 2e9 / 1e11
    0.02
    """
    f, s1 = _nonneg_array(flops, "flops")
    q, s2 = _nonneg_array(memory_bytes, "memory_bytes")
    if f.shape != q.shape and not (s1 or s2):
        raise ValueError(f"flops and memory_bytes must have the same shape, got {f.shape} and {q.shape}")
    p, b = _positive(peak_flops, "peak_flops"), _positive(bandwidth, "bandwidth")
    out = np.maximum(f / p, q / b)
    return float(out[0]) if (s1 and s2) else out


@dataclass(frozen=True, repr=False)
class RooflineResult(Result):
    """A model on a device's roofline: intensity, attainable FLOP/s, which roof bounds it, and time bounds.

    ``time_model`` = max(F/π, Q/β) for the whole pass; ``time_layers`` = the sum of the per-layer bounds
    (≥ time_model); ``memory_bound_layers`` is the share of the per-layer time spent in memory-bound layers.
    """

    model: str
    flops: float
    memory_bytes: float
    intensity: float
    ridge: float
    attainable: float
    bound: str
    time_model: float
    time_layers: float
    memory_bound_share: float

    _repr_format = "RooflineResult({model}: I={intensity:.2f} FLOP/B vs ridge {ridge:.2f} -> {bound}-bound, attainable {tflops:.3f} TFLOP/s, time >= {ms_model:.3f} ms (per layer {ms_layers:.3f} ms))"

    def _repr_values(self) -> dict:
        return {
            "tflops": self.attainable / 1e12,
            "ms_model": self.time_model * 1e3,
            "ms_layers": self.time_layers * 1e3,
        }


@validate_params(
    {"peak_flops": _POSITIVE, "bandwidth": _POSITIVE}
)  # model: checked inline (Model is defined in _models, which imports this module)
def analyze(model, peak_flops, bandwidth) -> RooflineResult:
    """Place ``model`` (a :class:`Model`, under its convention) on the roofline of (π, β).

    >>> from evallib.roofline import ARTICLE, vgg16
    >>> r = analyze(vgg16(ARTICLE), 11.3e12, 484e9)
    >>> r.bound, round(r.intensity, 1)
    ('compute', 25.5)
    """
    from ._models import Model  # _models imports time_bound from here

    if not isinstance(model, Model):
        raise TypeError(f"model must be an evallib.roofline.Model, got {type(model).__name__}")
    p, b = _positive(peak_flops, "peak_flops"), _positive(bandwidth, "bandwidth")
    i = model.intensity
    lt = model.layer_time_bounds(p, b)
    mem = model.layer_bytes / b > model.layer_flops / p
    share = float(lt[mem].sum() / lt.sum()) if lt.sum() > 0 else 0.0
    return RooflineResult(
        model.name,
        float(model.flops),
        float(model.memory_bytes),
        i,
        p / b,
        attainable(i, p, b),
        "compute" if i >= p / b else "memory",
        model.time_bound(p, b),
        float(lt.sum()),
        share,
    )
