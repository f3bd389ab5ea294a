"""The one base of evallib's result objects: frozen dataclasses with named fields and one ``__repr__``.

A result class is ``@dataclass(frozen=True, repr=False)`` and derives from :class:`Result`. Its repr is
either the default, ``Name(field=value, ...)`` over the fields with ``repr=True`` and this precision rule
(stable text for nbval; NumPy 2 scalars shown as plain numbers):

* bool → ``True``/``False``; int → as is; real → 4 significant digits (``{:.4g}``), ``inf``/``-inf``;
* arrays → ``np.array2string`` with 4 decimals (integers and booleans exactly), on one line;
* tuples → their items by the same rule, strings quoted;

or, when the class declares ``_repr_format``, that ``str.format`` template filled from the object's
fields and properties (and from ``_repr_values()`` for values no attribute holds). Results with
``statistic`` and ``pvalue`` unpack like SciPy's: ``statistic, pvalue = result``.
"""

from __future__ import annotations

import numbers
from dataclasses import fields
from typing import ClassVar

import numpy as np

__all__ = ["Result", "TestStatisticResult", "format_value"]


def format_value(v) -> str:
    """One value as the default repr shows it (the precision rule above)."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        v = float(v)
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        return f"{v:.4g}"
    if isinstance(v, np.ndarray):
        if v.dtype == bool or v.dtype.kind in "iu":
            return np.array2string(v, separator=", ", max_line_width=10**6).replace("\n", "")
        return np.array2string(
            np.asarray(v, dtype=float), precision=4, separator=", ", suppress_small=True, max_line_width=10**6
        ).replace("\n", "")
    if isinstance(v, tuple):
        inner = ", ".join(format_value(x) if not isinstance(x, str) else repr(x) for x in v)
        return f"({inner}{',' if len(v) == 1 else ''})"
    return repr(v)


class _Fields(dict):
    """The names a ``_repr_format`` template may use: extra values first, then the object's attributes."""

    def __init__(self, obj, extra):
        super().__init__(extra)
        self.obj = obj

    def __missing__(self, key):
        return getattr(self.obj, key)


class Result:
    """Base of every evallib result object (see the module docstring)."""

    __slots__ = ()
    _repr_format: ClassVar[str | None] = None

    def _repr_values(self) -> dict:
        """Values for ``_repr_format`` that no field or property holds (none by default)."""
        return {}

    def __repr__(self) -> str:
        if self._repr_format is not None:
            return self._repr_format.format_map(_Fields(self, self._repr_values()))
        parts = [f"{f.name}={format_value(getattr(self, f.name))}" for f in fields(self) if f.repr]
        return f"{type(self).__name__}({', '.join(parts)})"


class TestStatisticResult(Result):
    """A result with ``statistic`` and ``pvalue``: unpacks as ``statistic, pvalue = result`` (SciPy's rule)."""

    __slots__ = ()
    __test__ = False  # not a pytest test class

    def __iter__(self):
        return iter((self.statistic, self.pvalue))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i):
        return (self.statistic, self.pvalue)[i]
