"""Input validation shared by every public function.

Each checker raises ``ValueError`` (or ``TypeError``) whose message starts with the argument's name,
so a learner sees which input is wrong and why, never a silent NaN or a bare NumPy warning.
"""
from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_random_state",
    "as_1d_array",
    "as_finite_array",
    "check_consistent_length",
    "check_binary_labels",
    "check_probability",
    "check_positive_int",
    "check_bool",
    "check_nonnegative",
    "num_samples",
    "check_range",
    "check_real",
    "check_label_types",
    "check_labels",
    "resolve_pos_label",
    "check_finite_result",
    "check_mean_ranks",
]


def check_random_state(random_state, name: str = "random_state") -> np.random.Generator:
    """Turn ``random_state`` (None, int, SeedSequence or Generator) into a ``numpy.random.Generator``;
    errors name the argument ``name``."""
    if random_state is None or isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        # scikit-learn style RandomState: derive a Generator from it, deterministically.
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, numbers.Integral):
        raise TypeError(
            f"{name} must be None, an int or a numpy.random.Generator, got {type(random_state).__name__}"
        )
    if random_state < 0:
        raise ValueError(f"{name} must be a non-negative int, got {random_state}")
    return np.random.default_rng(int(random_state))


def as_1d_array(x, name: str, *, allow_empty: bool = False, dtype=None) -> np.ndarray:
    """A 1-D NumPy array from an array-like, or a ValueError naming ``name``."""
    if x is None:
        raise ValueError(f"{name} must be an array-like, got None")
    try:
        arr = np.asarray(x, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} could not be converted to an array: {exc}") from None
    if arr.ndim == 2 and 1 in arr.shape and arr.size > 0:
        raise ValueError(
            f"{name} must be 1-D, got shape {arr.shape}; use .ravel() if it is one column or row"
        )
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    if not allow_empty and arr.size == 0:
        raise ValueError(f"{name} is empty: at least one value is needed")
    return arr


def as_finite_array(x, name: str, *, ndim: int | None = 1, allow_empty: bool = False) -> np.ndarray:
    """A float array with no NaN or inf; ``ndim`` (1 by default, None for any) is enforced."""
    if ndim == 1:
        arr = as_1d_array(x, name, allow_empty=allow_empty)
    else:
        try:
            arr = np.asarray(x)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} could not be converted to an array: {exc}") from None
        if ndim is not None and arr.ndim != ndim:
            raise ValueError(f"{name} must be {ndim}-D, got an array of shape {arr.shape}")
        if not allow_empty and arr.size == 0:
            raise ValueError(f"{name} is empty: at least one value is needed")
    if arr.dtype == bool:
        arr = arr.astype(float)
    if not np.issubdtype(arr.dtype, np.number):
        raise ValueError(f"{name} must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(float, copy=False)
    bad = ~np.isfinite(arr)
    if bad.any():
        where = np.flatnonzero(bad.ravel())
        kind = "NaN" if np.isnan(arr.ravel()[where[0]]) else "inf"
        raise ValueError(
            f"{name} contains {bad.sum()} non-finite value(s) ({kind} at flat index {where[0]}); "
            "remove or impute them first"
        )
    return arr


def check_consistent_length(**arrays) -> int:
    """All keyword arrays have the same length; return it. The message names every length."""
    lengths = {name: num_samples(a, name) for name, a in arrays.items() if a is not None}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"{n} has {k}" for n, k in lengths.items())
        raise ValueError(f"length mismatch: {desc} samples")
    return next(iter(lengths.values())) if lengths else 0


def num_samples(x, name: str = "X") -> int:
    """Number of samples (first dimension) of an array-like."""
    if x is None:
        raise ValueError(f"{name} must be an array-like, got None")
    if hasattr(x, "shape") and len(getattr(x, "shape")) > 0:
        return int(x.shape[0])
    if hasattr(x, "__len__"):
        return len(x)
    raise TypeError(f"{name} must be an array-like with a length, got {type(x).__name__}")


def _label_kind(a: np.ndarray, name: str) -> str:
    """'number' or 'string': the kind of a label array (mixed objects raise TypeError naming ``name``)."""
    if a.dtype.kind in "biuf":
        return "number"
    if a.dtype.kind in "US":
        return "string"
    if a.dtype.kind == "O":
        kinds = {"string" if isinstance(v, (str, bytes)) else "number"
                 if isinstance(v, (numbers.Real, np.bool_)) else type(v).__name__ for v in a.tolist()}
        if len(kinds) == 1 and kinds <= {"string", "number"}:
            return kinds.pop()
        raise TypeError(f"{name} mixes label types ({sorted(kinds)}); use one type (all numbers or all strings)")
    raise TypeError(f"{name}: labels must be numbers or strings; got dtype {a.dtype}")


def check_label_types(**arrays) -> None:
    """All label arrays hold one kind of label (numbers or strings): 1 and '1' are different labels."""
    kinds = {name: _label_kind(np.asarray(a), name) for name, a in arrays.items()}
    if len(set(kinds.values())) > 1:
        desc = ", ".join(f"{n} holds {k}s" for n, k in kinds.items())
        raise TypeError(f"labels of different types: {desc}; 1 and '1' are different labels, convert one of them")


def check_labels(y, name: str = "y") -> None:
    """One kind of label in ``y`` (numbers or strings): a list like ['0', 1, 1] is refused, not turned into strings."""
    if y is None:
        return
    a = np.asarray(y, dtype=object) if isinstance(y, (list, tuple)) else np.asarray(y)
    _label_kind(a, name)


def resolve_pos_label(labels, pos_label, name: str = "y_true"):
    """The positive label. ``pos_label=None`` (the default of every binary function) means the labels
    are {0, 1} (or booleans) and 1 is positive; any other labels need an explicit ``pos_label``."""
    if pos_label is not None:
        return pos_label
    labels = np.asarray(labels)
    if labels.dtype.kind == "b":
        return True
    values = labels.ravel().tolist()
    if labels.dtype.kind in "iufO" and all(isinstance(v, (numbers.Real, np.bool_)) and v in (0, 1) for v in values):
        return 1
    shown = values[:5]
    raise ValueError(
        f"pos_label: the labels of {name} are {shown}{'...' if labels.size > 5 else ''}, not {{0, 1}}; "
        f"say which label is positive, e.g. pos_label={shown[-1]!r}"
    )


def check_binary_labels(y_true, name: str = "y_true", *, pos_label=None, need_both: bool = True) -> np.ndarray:
    """Boolean mask of positives from binary labels; error if more than two labels, or one class only.
    ``pos_label=None``: labels must be {0, 1} (or booleans), 1 positive."""
    y = as_1d_array(y_true, name)
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError(f"{name} contains NaN or inf; labels must be finite")
    _label_kind(y, name)
    labels = np.unique(y)
    if len(labels) > 2:
        raise ValueError(
            f"{name} must be binary, got {len(labels)} distinct labels {labels[:5].tolist()}"
            + ("..." if len(labels) > 5 else "")
        )
    if need_both and len(labels) < 2:
        raise ValueError(
            f"{name} contains one class only ({labels.tolist()}); both positives and negatives are needed"
        )
    pos_label = resolve_pos_label(labels, pos_label, name)
    if len(labels) == 2 and pos_label not in labels:
        raise ValueError(f"pos_label={pos_label!r} is not among the labels of {name} ({labels.tolist()})")
    return y == pos_label


def check_probability(p, name: str, *, low_open: bool = False, high_open: bool = False) -> float:
    """A float in [0, 1] (ends open when asked), or a ValueError naming ``name``."""
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(p).__name__}")
    p = float(p)
    lo_ok = p > 0 if low_open else p >= 0
    hi_ok = p < 1 if high_open else p <= 1
    if not (np.isfinite(p) and lo_ok and hi_ok):
        lo = "(0" if low_open else "[0"
        hi = "1)" if high_open else "1]"
        raise ValueError(f"{name} must lie in {lo}, {hi}, got {p}")
    return p


def check_positive_int(n, name: str, *, minimum: int = 1) -> int:
    """An int >= ``minimum`` (bools rejected), or an error naming ``name``."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(n).__name__} ({n!r})")
    if n < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {n}")
    return int(n)


def check_bool(x, name: str) -> bool:
    """A bool (Python or NumPy; strings such as 'no' rejected, they are truthy), or a TypeError naming ``name``."""
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name}: must be True or False; got {type(x).__name__} ({x!r})")
    return bool(x)


def check_nonnegative(x, name: str) -> float:
    """A finite real number >= 0 (costs, noise levels), or an error naming ``name``."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(x).__name__}")
    x = float(x)
    if not np.isfinite(x) or x < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {x}")
    return x


def check_range(pair, name: str) -> tuple[float, float]:
    """A pair (low, high) of finite floats with low < high, or a ValueError naming ``name``."""
    try:
        lo, hi = (float(v) for v in pair)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair (low, high), got {pair!r}") from None
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"{name} must satisfy low < high with finite ends, got {pair!r}")
    return lo, hi


def check_real(x, name: str, *, low=None, high=None, low_open: bool = False, high_open: bool = False) -> float:
    """A finite real number (bools and strings rejected) within the given bounds, or an error naming ``name``."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(x).__name__} ({x!r})")
    x = float(x)
    ok = np.isfinite(x)
    if ok and low is not None:
        ok = x > low if low_open else x >= low
    if ok and high is not None:
        ok = x < high if high_open else x <= high
    if not ok:
        lo = "-inf" if low is None else f"{'(' if low_open else '['}{low}"
        hi = "inf" if high is None else f"{high}{')' if high_open else ']'}"
        lo = ("(" + lo) if low is None else lo
        hi = (hi + ")") if high is None else hi
        raise ValueError(f"{name} must be a finite number in {lo}, {hi}; got {x}")
    return x


def check_finite_result(value, what: str, cause: str):
    """``value`` if finite; otherwise a ValueError naming what overflowed and the input that caused it."""
    if not np.all(np.isfinite(value)):
        raise ValueError(f"{cause}: {what} is not finite ({value!r}); the inputs are too large for float64")
    return value


def check_mean_ranks(mean_ranks, name: str = "mean_ranks") -> np.ndarray:
    """Mean ranks of k algorithms: finite, 1-D, k >= 2, each in [1, k] (a mean of ranks 1..k)."""
    r = as_finite_array(mean_ranks, name)
    k = r.size
    if k < 2:
        raise ValueError(f"{name} must hold the mean ranks of at least 2 algorithms; got {k}")
    bad = (r < 1 - 1e-9) | (r > k + 1e-9)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}: mean ranks of {k} algorithms lie in [1, {k}]; got {float(r[i])!r} at index {i}")
    return r
