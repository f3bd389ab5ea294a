"""Numbers an explorer sends to the browser, to the digits its chart or readout can show.

A notebook stores an explorer's data in its output, and nbval compares that output on every machine. Data
computed through BLAS or an SVD differ between CPUs in their last bits (OpenBLAS picks its kernels by CPU, and
a Sapphire Rapids Xeon sums in another order than a Zen or a Skylake), a polynomial that interpolates its points
leaves about 1e-31 of rounding where the training error is 0, and an ill-conditioned fit (degree 15 on 10
points) carries that noise into its seventh digit. Full precision would make the stored output depend on the
machine; so would a readout printing a value of 1e14 with four decimals. Here: values rounded to what can be
seen (plus a margin), noise-level values set to 0, and readouts that switch to four significant digits at
:data:`LARGE`, written the same way by Python (:class:`Shown`) and by Vega (:func:`shown_expr`).
"""

from __future__ import annotations

import math

import numpy as np

LARGE = 100.0  # from here on a readout prints 4 significant digits (1.235e+2): the course reaches it only where a
# fit explodes (degree 15 on 10 points), and there fixed decimals print digits that rounding noise decides


class Shown(float):
    """A nonnegative number as a readout prints it: ``format(Shown(x), ".4f")`` is ``x`` with four decimals below
    :data:`LARGE` and ``1.235e+4`` (four significant digits, the exponent as JavaScript writes it) from there on.

    >>> f"{Shown(0.25):.4f} {Shown(99.5):.4f} {Shown(734656397.33):.4f}"
    '0.2500 99.5000 7.347e+8'
    """

    def __format__(self, spec):
        x = float(self)
        if spec.endswith("f") and math.isfinite(x) and abs(x) >= LARGE:
            mantissa, exponent = format(x, ".3e").split("e")
            return f"{mantissa}e{int(exponent):+d}"
        return format(x, spec)


def shown_expr(expr: str, spec: str = ".4f") -> str:
    """The Vega expression printing the nonnegative value ``expr`` as ``format(Shown(value), spec)`` does.

    >>> shown_expr("datum.bias2")
    "(abs(datum.bias2) < 100 ? format(datum.bias2, '.4f') : format(datum.bias2, '.3e'))"
    """
    return f"(abs({expr}) < {LARGE:.0f} ? format({expr}, '{spec}') : format({expr}, '.3e'))"


def plotted(a, decimals: int = 3, digits: int = 4, clip: float = 1e5) -> list:
    """``a`` (array-like) as a list to draw: clipped to ±``clip``, rounded to ``decimals`` decimals, and to
    ``digits`` significant digits where that is coarser (a point far outside the axes needs no more).

    >>> plotted([0.123456, -5666.2045, 2e9])
    [0.123, -5666.0, 100000.0]
    """
    a = np.clip(np.asarray(a, dtype=float), -clip, clip)
    return _round_to(a, np.minimum(decimals, _decimals_for(a, digits))).tolist()


def significant(a, digits: int = 6, floor: float = 0.0) -> list:
    """``a`` (array-like) as a list rounded to ``digits`` significant digits; values below ``floor`` in magnitude
    (rounding noise where the exact value is 0) become 0.

    >>> significant([0.047770544151120815, 1.5e-31, 123456789.0], floor=1e-12)
    [0.0477705, 0.0, 123457000.0]
    """
    a = np.asarray(a, dtype=float)
    a = np.where(np.abs(a) < floor, 0.0, a)
    return _round_to(a, _decimals_for(a, digits)).tolist()


def quadratic(coef, grid, *, absolute: float = 1e-6, relative: float = 1e-4) -> np.ndarray:
    """Coefficients ``coef`` (n, 3) of X(s) = c0 + c1·s + c2·s², each rounded to the power of ten that keeps X(s)
    within ``absolute`` (below :data:`LARGE`, where readouts print four decimals) or ``relative`` · X(s) (from
    :data:`LARGE` on, four significant digits) at every ``s`` of the slider's ``grid``. A coefficient that moves
    no visible digit anywhere on the grid (a cross term of rounding noise beside a term of 1e14) becomes 0.
    The defaults: the bias–variance explorer's terms, computed on two CPUs whose BLAS kernels differ (their
    full-precision coefficients differed in 30 places, by up to 1e-8 where the readout prints four decimals),
    come out identical, and X(s) stays within 2e-7 of the exact value below :data:`LARGE`.

    >>> quadratic([[2.1e-15, 1.8367, 5.246355849e14]], [0.0, 0.05, 0.1]).tolist()
    [[0.0, 0.0, 524640000000000.0]]
    """
    c = np.asarray(coef, dtype=float)
    s = np.asarray(grid, dtype=float)
    x = np.abs(c[:, :1] + c[:, 1:2] * s + c[:, 2:3] * s**2)
    tol = np.where(x < LARGE, absolute, relative * x) / 3  # the three coefficients' errors add up
    pos = s > 0
    step = np.stack([tol.min(axis=1), (tol[:, pos] / s[pos]).min(axis=1), (tol[:, pos] / s[pos] ** 2).min(axis=1)], 1)
    return _round_to(c, -np.floor(np.log10(step)).astype(int))


def _decimals_for(a, digits):
    with np.errstate(divide="ignore"):
        mag = np.floor(np.log10(np.abs(a)))
    return np.minimum(np.where(np.isfinite(mag), digits - 1 - mag, digits), 300).astype(int)  # 1e-300: 0


def _round_to(a, decimals):
    """``a`` rounded to ``decimals`` (an array: per element; negative rounds to tens, hundreds, ...), as the
    nearest float to the decimal (the JSON then reads 0.123, not 0.12300000000000001)."""
    a, decimals = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(decimals))
    out = np.empty(a.shape)
    for d in np.unique(decimals):  # one pass per number of decimals (a handful), not per value
        m = decimals == d
        out[m] = np.round(a[m], int(d))
    return out + 0.0  # -0.0 (a noise value's sign) is 0.0
