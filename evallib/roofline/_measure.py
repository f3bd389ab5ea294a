"""Measuring this machine: matmul and stream rates, and kernel timings."""

from __future__ import annotations

import math
import numbers
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .._results import Result
from .._validation import Interval, check_positive_int, validate_params
from ._bound import _positive
from ._devices import Device

# --------------------------------------------------------------------------------------------------
# Measuring this machine
# --------------------------------------------------------------------------------------------------

_BLAS_ENV_PREFIXES = ("OPENBLAS_", "OMP_", "MKL_", "BLIS_", "GOTO", "VECLIB_", "NVPL_", "NUMEXPR_")


@dataclass(frozen=True, repr=False)
class MachineMeasurement(Result):
    """Measured peak (float64 matmul, FLOP/s) and bandwidth (triad, bytes/s), each the best of ``repeats``.

    ``threads`` is the BLAS thread count (None when threadpoolctl is missing, see ``note``); ``blas`` the
    BLAS library; ``env`` the BLAS/OpenMP environment variables the measurement ran under.
    """

    peak_flops: float
    bandwidth: float
    repeats: int
    matmul_size: int
    stream_bytes: int
    matmul_times: tuple
    triad_times: tuple
    threads: object
    blas: str
    env: dict
    cpu: str
    note: str = ""
    llc_bytes: object = None

    @property
    def ridge(self) -> float:
        return self.peak_flops / self.bandwidth

    _repr_format = "MachineMeasurement(peak {gflops:.1f} GFLOP/s (float64 matmul n={matmul_size}), bandwidth {gbs:.1f} GB/s (triad, {mib:.0f} MiB per array), ridge {ridge:.2f} FLOP/B, best of {repeats}, BLAS threads {threads}, {blas})"

    def _repr_values(self) -> dict:
        return {"gflops": self.peak_flops / 1e9, "gbs": self.bandwidth / 1e9, "mib": self.stream_bytes / 2**20}


def _blas_info():
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None, "unknown BLAS", "threadpoolctl is not installed: BLAS thread count unknown"
    blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    if not blas:
        return None, "no BLAS found by threadpoolctl", ""
    i = blas[0]
    desc = f"{i.get('internal_api', '?')} {i.get('version', '')} ({i.get('architecture', '?')})".replace("  ", " ")
    return int(i.get("num_threads", 0)) or None, desc, ""


def _llc_bytes():
    """Size of the last-level cache the OS reports (None if unknown). On a virtual machine this is often the
    host's whole shared cache, of which the guest gets only a part."""
    best = None
    try:
        import glob

        for d in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*"):
            with open(os.path.join(d, "type")) as fh:
                if fh.read().strip() == "Instruction":
                    continue
            with open(os.path.join(d, "level")) as fh:
                level = int(fh.read())
            with open(os.path.join(d, "size")) as fh:
                txt = fh.read().strip()
            mult = {"K": 2**10, "M": 2**20, "G": 2**30}.get(txt[-1:], 1)
            size = int(txt.rstrip("KMG")) * mult
            if best is None or level > best[0]:
                best = (level, size)
    except (OSError, ValueError):
        best = None
    return best[1] if best else None


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@validate_params(
    {
        "repeats": [Interval(numbers.Integral, 1, None, closed="left")],
        "matmul_size": [Interval(numbers.Integral, 16, None, closed="left")],
        "stream_mib": [Interval(numbers.Integral, 1, None, closed="left")],
    }
)
def measure_machine(repeats=5, *, matmul_size=2048, stream_mib=256) -> MachineMeasurement:
    """Measure this machine's peak FLOP/s and memory bandwidth from Python (best of ``repeats`` after a warm-up).

    Peak: ``np.matmul(A, B, out=C)`` on float64 ``matmul_size``² matrices, 2n³ FLOPs. Bandwidth: the
    STREAM triad a = b + s·c on three float64 arrays of ``stream_mib`` MiB each (far beyond the caches),
    written with ``out=`` in two passes (``multiply(c, s, out=a)``, ``add(a, b, out=a)``) so no temporary is
    made; the bytes counted are those the passes move: 5 arrays (read c, write a; read a and b, write a).
    Runs under whatever BLAS threads and environment the process has; both are reported, never changed.
    Measured numbers vary from run to run: never assert them.
    """
    repeats = check_positive_int(repeats, "repeats")
    n = check_positive_int(matmul_size, "matmul_size", minimum=16)
    mib = check_positive_int(stream_mib, "stream_mib")
    rng = np.random.default_rng(0)
    a, b_ = rng.random((n, n)), rng.random((n, n))
    c = np.empty((n, n))
    np.matmul(a, b_, out=c)  # warm-up: thread start, page faults
    mm = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        np.matmul(a, b_, out=c)
        mm.append(time.perf_counter() - t0)
    del a, b_, c
    m = mib * 2**20 // 8
    x, y, z = np.zeros(m), np.full(m, 1.0), np.full(m, 2.0)
    tri = []
    for r in range(repeats + 1):
        t0 = time.perf_counter()
        np.multiply(z, 3.0, out=x)
        np.add(x, y, out=x)
        dt = time.perf_counter() - t0
        if r:  # the first pass is the warm-up
            tri.append(dt)
    del x, y, z
    threads, blas, note = _blas_info()
    env = {k: v for k, v in sorted(os.environ.items()) if k.startswith(_BLAS_ENV_PREFIXES)}
    llc = _llc_bytes()
    if llc is not None and 3 * 8 * m < 4 * llc:
        note = "; ".join(
            filter(
                None,
                [
                    note,
                    (
                        f"the triad's arrays ({3 * 8 * m / 2**20:.0f} MiB) are not far beyond the reported last-level cache "
                        f"({llc / 2**20:.0f} MiB; on a virtual machine often the host's whole cache): raise stream_mib to check"
                    ),
                ],
            )
        )
    return MachineMeasurement(
        2 * n**3 / min(mm),
        5 * 8 * m / min(tri),
        repeats,
        n,
        8 * m,
        tuple(mm),
        tuple(tri),
        threads,
        blas,
        env,
        _cpu_name(),
        note,
        llc,
    )


@validate_params({"measurement": [MachineMeasurement], "name": ["str"]})
def machine_device(measurement, name="this machine") -> Device:
    """A :class:`Device` for this machine from :func:`measure_machine` (float64 peak only)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty str, got {name!r}")
    return Device(
        name,
        {"float64": measurement.peak_flops},
        measurement.bandwidth,
        f"measured: {measurement!r}",
        "float64 matmul peak; other dtypes use it too",
    )


@dataclass(frozen=True, repr=False)
class KernelMeasurement(Result):
    """One NumPy kernel timed on this machine: its FLOPs, compulsory bytes, best time and the FLOP/s reached."""

    kernel: str
    size: int
    flops: int
    memory_bytes: int
    seconds: float

    @property
    def intensity(self) -> float:
        return self.flops / self.memory_bytes

    @property
    def flop_rate(self) -> float:
        return self.flops / self.seconds

    @property
    def label(self) -> str:
        return f"{self.kernel} n={self.size}"


#: FLOPs and compulsory float64 traffic of the kernels :func:`measure_kernels` times (n = vector length or
#: matrix side). Intensities: dot 1/8, add 1/24, matvec ≈ 1/4, matmul n/12 FLOP/byte.
_KERNELS = {
    "dot": (lambda n: 2 * n, lambda n: 16 * n),
    "add": (lambda n: n, lambda n: 24 * n),
    "matvec": (lambda n: 2 * n * n, lambda n: 8 * (n * n + 2 * n)),
    "matmul": (lambda n: 2 * n**3, lambda n: 8 * 3 * n * n),
}


@validate_params(
    {
        "kernels": [None, "array-like"],
        "repeats": [Interval(numbers.Integral, 1, None, closed="left")],
        "min_time": [Interval(numbers.Real, 0, None, closed="neither")],
    }
)
def measure_kernels(kernels=None, *, repeats=5, min_time=0.02) -> list:
    """Time NumPy kernels (float64) and return :class:`KernelMeasurement`s to place on a roofline.

    ``kernels`` is a list of (name, n) with name in "dot" (``x @ y``), "add" (``np.add(x, y, out=z)``),
    "matvec" (``A @ x``), "matmul" (``np.matmul(A, B, out=C)``); the default covers small (cache-resident)
    and large sizes. Each time is the best of ``repeats``; a repeat runs the kernel in a loop lasting about
    ``min_time`` seconds (at least one call).
    Traffic is the compulsory minimum (every operand read once, the result written once).
    """
    if kernels is None:
        kernels = [
            ("add", 2**12),
            ("add", 2**23),
            ("dot", 2**12),
            ("dot", 2**23),
            ("matvec", 256),
            ("matvec", 3072),
            ("matmul", 64),
            ("matmul", 256),
            ("matmul", 1024),
        ]
    repeats = check_positive_int(repeats, "repeats")
    min_time = _positive(min_time, "min_time")
    if isinstance(kernels, (str, bytes)) or not isinstance(kernels, Sequence) or not kernels:
        raise ValueError("kernels must be a non-empty list of (name, n) pairs")
    out = []
    for item in kernels:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ValueError(f"kernels must hold (name, n) pairs, got {item!r}")
        name, n = item
        if name not in _KERNELS:
            raise ValueError(f"kernel name must be one of {list(_KERNELS)}, got {name!r}")
        n = check_positive_int(n, "n")
        # constant operands: their values do not change the speed, and filling is cheaper than random numbers
        if name in ("dot", "add"):
            x, y, z = np.full(n, 1.5), np.full(n, 0.5), np.empty(n)
            fn = (lambda: x @ y) if name == "dot" else (lambda: np.add(x, y, out=z))
        elif name == "matvec":
            a, x = np.full((n, n), 1.5), np.full(n, 0.5)
            fn = lambda: a @ x  # noqa: E731
        else:
            a, b_, c = np.full((n, n), 1.5), np.full((n, n), 0.5), np.empty((n, n))
            fn = lambda: np.matmul(a, b_, out=c)  # noqa: E731
        fn()  # warm-up
        t0 = time.perf_counter()
        fn()
        per_call = time.perf_counter() - t0
        loops = max(1, int(min_time / max(per_call, 1e-9)))  # each repeat lasts about min_time (at least one call)
        best = math.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(loops):
                fn()
            best = min(best, (time.perf_counter() - t0) / loops)
        f, q = _KERNELS[name]
        out.append(KernelMeasurement(name, n, f(n), q(n), best))
    return out
