#!/usr/bin/env python
"""Timings for evallib.roofline (never asserted in tests):

    .venv/bin/python bench/bench_roofline.py [--quick]

- building the six model specs and one explorer update (text + figure rendered to PNG): the explorer's latency;
- measure_machine at its defaults, and the triad bandwidth against the array size (where the caches end);
- the NumPy kernels of notebook 11 against this machine's roof.
"""

import io
import os
import sys
import time

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402

from evallib import roofline as rl  # noqa: E402
from evallib.widgets import roofline_update  # noqa: E402


def best(fn, repeats=5):
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out)


def main(quick=False):
    print(f"BLAS/OpenMP environment: { {k: v for k, v in os.environ.items() if 'THREADS' in k} }")
    t = best(lambda: [f() for f in rl.MODELS.values()])
    print(f"build all six model specs: {t * 1e3:.1f} ms")

    def update():
        _, fig = roofline_update(models=tuple(rl.MODELS), batch=8)
        fig.savefig(io.BytesIO(), format="png")

    update()
    print(f"explorer update, six models, rendered to PNG: {best(update) * 1e3:.0f} ms")

    m = rl.measure_machine()
    print(m)
    if m.note:
        print("note:", m.note)
    sizes = (1, 4, 16, 64, 256) if quick else (1, 4, 16, 64, 256, 1024)
    for mib in sizes:
        r = rl.measure_machine(repeats=3, matmul_size=64, stream_mib=mib)
        print(f"  triad with {mib:5d} MiB per array: {r.bandwidth / 1e9:7.1f} GB/s")
    for k in rl.measure_kernels():
        roof = rl.attainable(k.intensity, m.peak_flops, m.bandwidth)
        print(
            f"  {k.label:16s} I = {k.intensity:8.3f} FLOP/B  {k.flop_rate / 1e9:8.2f} GFLOP/s "
            f"({k.flop_rate / roof:5.0%} of the roof)"
        )
    print(f"numpy {np.__version__}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
