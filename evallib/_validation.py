"""Input validation shared by every public function.

Each checker raises ``ValueError`` (or ``TypeError``) whose message starts with the argument's name,
so a learner sees which input is wrong and why, never a silent NaN or a bare NumPy warning.
"""

from __future__ import annotations

import functools
import inspect
import math
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
        raise TypeError(f"{name} must be None, an int or a numpy.random.Generator, got {type(random_state).__name__}")
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
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}; use .ravel() if it is one column or row")
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
    if hasattr(x, "shape") and len(x.shape) > 0:
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
        kinds = {
            "string"
            if isinstance(v, (str, bytes))
            else "number"
            if isinstance(v, (numbers.Real, np.bool_))
            else type(v).__name__
            for v in a.tolist()
        }
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
        raise ValueError(f"{name} contains one class only ({labels.tolist()}); both positives and negatives are needed")
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


# ----------------------------------------------------------------------------------------------------
# Declared constraints (in the spirit of scikit-learn's ``validate_params``)
# ----------------------------------------------------------------------------------------------------
# A public function states the constraints of its scalar and option arguments next to its signature:
#
#     @validate_params({"beta": [Interval(numbers.Real, 0, None, closed="neither")]})
#     def fbeta_score(y_true, y_pred, beta, *, pos_label=None, zero_division="raise"): ...
#
# A call that satisfies none of an argument's constraints raises, in one message form,
# "The 'beta' parameter of fbeta_score must be a float in (0, inf); got -1." (TypeError when the value has
# none of the accepted types, ValueError otherwise). Array arguments keep their checkers (as_1d_array, ...),
# which look at shapes and values; they are declared as "array-like" so the sweep in tests/test_validation.py
# knows what to spoil. ``func.__evallib_params__`` holds the declarations.
__all__ += ["Interval", "Options", "validate_params"]


class Interval:
    """Numbers of ``type_`` (numbers.Integral or numbers.Real) between ``left`` and ``right`` (None: unbounded);
    ``closed`` is "left", "right", "both" or "neither". NaN, ±inf and bools are refused; with ``allow_inf=True``
    (a float interval) -inf is accepted when ``left`` is None and +inf when ``right`` is None (a threshold of
    +inf predicts nothing positive)."""

    def __init__(self, type_, left, right, *, closed="both", allow_inf=False):
        if type_ not in (numbers.Integral, numbers.Real) or closed not in ("left", "right", "both", "neither"):
            raise ValueError(f"bad Interval({type_}, {left}, {right}, closed={closed!r})")
        if allow_inf and type_ is not numbers.Real:
            raise ValueError("allow_inf=True needs a float interval")
        self.type, self.left, self.right, self.closed = type_, left, right, closed
        self.allow_inf = allow_inf

    def accepts_type(self, v) -> bool:
        return not isinstance(v, (bool, np.bool_)) and isinstance(v, self.type)

    def __contains__(self, v) -> bool:
        if not self.accepts_type(v):
            return False
        if isinstance(v, numbers.Integral):
            x = int(v)  # exact: an int beyond a double (10**400) is compared as it is, never overflows
        else:
            x = float(v)
            if np.isnan(x):
                return False
            if np.isinf(x):
                return self.allow_inf and (self.left if x < 0 else self.right) is None
        lo_ok = self.left is None or (x >= self.left if self.closed in ("left", "both") else x > self.left)
        hi_ok = self.right is None or (x <= self.right if self.closed in ("right", "both") else x < self.right)
        return lo_ok and hi_ok

    def __str__(self) -> str:
        kind = "an int" if self.type is numbers.Integral else "a float"
        lo = "(-inf" if self.left is None else ("[" if self.closed in ("left", "both") else "(") + f"{self.left}"
        hi = "inf)" if self.right is None else f"{self.right}" + ("]" if self.closed in ("right", "both") else ")")
        if self.allow_inf:
            lo, hi = lo.replace("(-inf", "[-inf"), hi.replace("inf)", "inf]")
        return f"{kind} in {lo}, {hi}"

    def bad_values(self) -> list:
        """Values the sweep tries: outside each finite end, NaN, inf, a bool, a string (and 2.5 for an int)."""
        out = ["3", True] + ([] if self.allow_inf and self.right is None else [math.inf])
        if self.type is numbers.Real:
            out.append(math.nan)
        else:
            out.append(2.5)
        step = 1 if self.type is numbers.Integral else 0.5
        if self.left is not None:
            out.append(self.left if self.closed in ("right", "neither") else self.left - step)
        if self.right is not None:
            out.append(self.right if self.closed in ("left", "neither") else self.right + step)
        return out


class Options:
    """One of a fixed set of values (strings, or numbers such as 0.0 and 1.0)."""

    def __init__(self, *values):
        self.values = values

    def accepts_type(self, v) -> bool:
        return any(
            type(v) is type(x)
            or (isinstance(x, str) and isinstance(v, str))  # numpy.str_ too
            or (isinstance(x, numbers.Real) and isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)))
            for x in self.values
        )

    def __contains__(self, v) -> bool:
        return self.accepts_type(v) and any(v == x for x in self.values)

    def __str__(self) -> str:
        return "one of " + ", ".join(repr(x) for x in self.values) if len(self.values) > 1 else repr(self.values[0])

    def bad_values(self) -> list:
        return ["no-such-option", 3.25, True]


class _Named:
    """A constraint given by name: "array-like", "boolean", "random_state", "callable", "label", "str", "range",
    None."""

    TEXT = {
        "array-like": "an array-like",
        "boolean": "True or False",
        "random_state": "None, an int >= 0 or a numpy.random.Generator",
        "callable": "a callable",
        None: "None",
        "label": "a label (a number or a string)",
        "str": "a string",
        "range": "a pair (low, high) of finite numbers with low < high",
    }

    def __init__(self, name):
        if name not in self.TEXT:
            raise ValueError(f"unknown constraint {name!r}")
        self.name = name

    def accepts_type(self, v) -> bool:
        if self.name == "range":
            return True  # a bad pair is a ValueError, as check_range raised
        if self.name == "random_state" and isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)):
            return True  # a negative seed is a ValueError, as check_random_state raised
        return v in self

    def __contains__(self, v) -> bool:
        n = self.name
        if n is None:
            return v is None
        if n == "range":
            try:
                check_range(v, "range")
            except (TypeError, ValueError):
                return False
            return not isinstance(v, (str, bytes))
        if n == "boolean":
            return isinstance(v, (bool, np.bool_))
        if n == "callable":
            return callable(v)
        if n == "str":
            return isinstance(v, str)
        if n == "label":
            return isinstance(v, (str, bytes, numbers.Real, np.bool_)) and not (
                isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_, numbers.Integral)) and np.isnan(v)
            )
        if n == "random_state":
            return (
                v is None
                or isinstance(v, (np.random.Generator, np.random.SeedSequence, np.random.RandomState))
                or (isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)) and v >= 0)
            )
        return (
            v is not None
            and not isinstance(v, (str, bytes, dict, set))
            and (hasattr(v, "__len__") or hasattr(v, "__array__"))
        )  # array-like: the checkers look inside

    def __str__(self) -> str:
        return self.TEXT[self.name]

    def bad_values(self) -> list:
        return {
            None: [],
            "boolean": ["no", 1],
            "random_state": [-1, 1.5, "0"],
            "callable": ["not-callable"],
            "label": [[1, 2]],
            "str": [3],
            "array-like": [None, "text", 3.5],
            "range": [(1.0, 0.0), (0.0, math.nan), 3, None],
        }[self.name]


class _InstanceOf:
    """An instance of a class (a result object, a splitter): the class itself is given as the constraint."""

    def __init__(self, cls):
        self.cls = cls

    def accepts_type(self, v) -> bool:
        return isinstance(v, self.cls)

    __contains__ = accepts_type

    def __str__(self) -> str:
        return f"an instance of {self.cls.__name__}"

    def bad_values(self) -> list:
        return ["not-an-object"]


def _constraint(c):
    if isinstance(c, (Interval, Options)):
        return c
    return _InstanceOf(c) if isinstance(c, type) else _Named(c)


def _refuse(fname, name, kinds, v):
    allowed = " or ".join(str(k) for k in kinds)
    err = ValueError if any(k.accepts_type(v) for k in kinds) else TypeError
    shown = repr(v) if isinstance(v, str) or not hasattr(v, "__len__") else type(v).__name__
    raise err(f"The {name!r} parameter of {fname} must be {allowed}; got {shown}.")


def validate_params(constraints: dict):
    """Declare the constraints of a public function's arguments (name -> list of accepted kinds).

    Each kind is an :class:`Interval`, :class:`Options` or one of "array-like", "boolean", "random_state",
    "callable", "label", "str", "range" (a pair low < high, finite: what :func:`check_range` accepts), None,
    or a class (an instance of it: a result object the function draws, a splitter).
    Checked on every call before the body runs; the message names the
    argument and the function: "The 'beta' parameter of fbeta_score must be a float in (0, inf); got -1."
    """

    def decorate(func):
        sig = inspect.signature(func)
        unknown = set(constraints) - set(sig.parameters)
        if unknown:
            raise ValueError(f"validate_params on {func.__qualname__}: no parameter(s) {sorted(unknown)}")
        declared = {name: [_constraint(c) for c in kinds] for name, kinds in constraints.items()}
        fname = func.__name__
        # Where each declared argument is found in a call: its position (None: keyword-only) or its keyword.
        # Cheaper than Signature.bind on every call (metrics run inside bootstrap and simulation loops); a call
        # that does not bind is left to the function itself, which raises Python's usual TypeError.
        params = list(sig.parameters.values())
        where = []
        for name, kinds in declared.items():
            p = sig.parameters[name]
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise ValueError(f"validate_params on {func.__qualname__}: *{name} cannot be declared")
            positional = p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            where.append((name, params.index(p) if positional else None, p.kind is p.POSITIONAL_ONLY, tuple(kinds)))

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            n = len(args)
            for name, pos, pos_only, kinds in where:
                if pos is not None and pos < n:
                    v = args[pos]
                elif not pos_only and name in kwargs:
                    v = kwargs[name]
                else:
                    continue  # the default: the library's own value
                for k in kinds:
                    if v in k:
                        break
                else:
                    _refuse(fname, name, kinds, v)
            return func(*args, **kwargs)

        wrapper.__evallib_params__ = declared
        return wrapper

    return decorate
