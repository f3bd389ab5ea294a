"""The one timing rule of the benchmarks: the median wall-clock time of ``repeats`` calls."""

import statistics
import time


def median_time(f, repeats, *, warmup=False):
    """Median wall-clock seconds of ``repeats`` calls of ``f`` (after one untimed call if ``warmup``)."""
    if warmup:
        f()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)
