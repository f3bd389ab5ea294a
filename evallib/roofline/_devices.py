"""Devices: peak FLOP/s and memory bandwidth of a few machines."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .._results import Result
from .._validation import validate_params
from ._bound import _positive, ridge_point
from ._layers import dtype_bytes

# --------------------------------------------------------------------------------------------------
# Devices
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Device(Result):
    """A computing platform: documented peak FLOP/s per dtype, memory bandwidth (bytes/s) and their source."""

    name: str
    peaks: Mapping
    bandwidth: float
    source: str
    note: str = ""

    def __post_init__(self):
        if not self.peaks:
            raise ValueError("peaks must name at least one dtype")
        for k, v in self.peaks.items():
            dtype_bytes(k)
            _positive(v, f"peaks[{k!r}]")
        _positive(self.bandwidth, "bandwidth")
        for arg in ("name", "source", "note"):
            if not isinstance(getattr(self, arg), str):
                raise TypeError(
                    f"{arg}: must be a str; got {type(getattr(self, arg)).__name__} ({getattr(self, arg)!r})"
                )

    def peak(self, dtype="float32") -> float:
        """Peak FLOP/s for ``dtype``; if none is documented, the float32 peak (or the only one given)."""
        if isinstance(dtype, str):
            dtype_bytes(dtype)
        if dtype in self.peaks:
            return float(self.peaks[dtype])
        fallback = "float32" if "float32" in self.peaks else next(iter(self.peaks))
        return float(self.peaks[fallback])

    def peak_dtype(self, dtype="float32") -> str:
        """The dtype whose documented peak :meth:`peak` returns for ``dtype``."""
        if dtype in self.peaks:
            return dtype
        return "float32" if "float32" in self.peaks else next(iter(self.peaks))

    def ridge(self, dtype="float32") -> float:
        return ridge_point(self.peak(dtype), self.bandwidth)

    _repr_format = "Device({name!r}: peak TFLOP/s {peaks_text}; bandwidth {gbs:g} GB/s)"

    def _repr_values(self) -> dict:
        return {
            "peaks_text": ", ".join(f"{k} {v / 1e12:g}" for k, v in self.peaks.items()),
            "gbs": self.bandwidth / 1e9,
        }


#: Documented figures. Peaks are dense (no sparsity); FMA = 2 FLOPs.

DEVICES = {
    "GTX 1080 Ti": Device(
        "GTX 1080 Ti",
        # 3584 CUDA cores x 1.582 GHz boost x 2 = 11.34 TFLOP/s; the article rounds to 11.3.
        # GP102 runs float64 at 1/32 and float16 at 1/64 of the float32 rate.
        {"float32": 11.3e12, "float64": 11.34e12 / 32, "float16": 11.34e12 / 64},
        484e9,
        "NVIDIA GeForce GTX 1080 Ti specifications (3584 CUDA cores, 1582 MHz boost, 11 Gbps GDDR5X on a "
        "352-bit bus = 484 GB/s); figures as used by the Zhihu article zhuanlan 34204282",
    ),
    "H100 SXM": Device(
        "H100 SXM",
        {
            "float64": 34e12,
            "float32": 67e12,
            "tf32": 494.7e12,
            "bfloat16": 989.4e12,
            "float16": 989.4e12,
            "int8": 1978.9e12,
        },
        3.35e12,
        "NVIDIA H100 Tensor Core GPU datasheet, SXM5 column (FP64 34, FP32 67 TFLOP/s; TF32/BF16/FP16/INT8 "
        "tensor-core figures without sparsity; HBM3 3.35 TB/s)",
        "16-bit and int8 peaks need tensor cores",
    ),
    "Ryzen 7 7840U (laptop)": Device(
        "Ryzen 7 7840U (laptop)",
        # 8 Zen 4 cores x 3.3 GHz base x (2 FMA pipes x 256 bit) = 32 float32 / 16 float64 FLOPs per cycle.
        {"float32": 8 * 3.3e9 * 32, "float64": 8 * 3.3e9 * 16},
        7500e6 * 16,
        "AMD product page for the Ryzen 7 7840U (8 cores, 3.3 GHz base clock, LPDDR5x-7500 on a 128-bit bus "
        "= 120 GB/s) and AMD's Zen 4 core (two 256-bit FMA pipes); peak derived at base clock",
        "peak derived from the vendor's core count, clock and vector width, not a published FLOP/s figure",
    ),
}


@validate_params({"name": ["str", Device]})
def get_device(name) -> Device:
    """A preset from :data:`DEVICES` by name."""
    if isinstance(name, Device):
        return name
    if name not in DEVICES:
        raise ValueError(f"name must be one of {list(DEVICES)}, got {name!r}")
    return DEVICES[name]
