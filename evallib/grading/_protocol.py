"""The data protocol between the sandbox and the grader: what crosses the sandbox wall is JSON of plain data.

``to_data`` runs inside the sandbox (in the learner's kernel); ``from_data`` and ``decode_result`` run in the
trusted grader on untrusted input, so they are capped: a hostile answer costs the grader at most
``MAX_DECODED_BYTES`` of decoded values (plus the raw line, at most ``MAX_RESULT_BYTES``).

This module imports only the standard library and NumPy at load time (no package-relative import), so the
sandbox's kernel may load it by path without importing the rest of evallib (no matplotlib, no ipywidgets).
"""

from __future__ import annotations

import json
import re

import numpy as np

__all__ = [
    "Opaque",
    "to_data",
    "from_data",
    "data_key",
    "decode_result",
    "CaseRecorder",
    "Replay",
    "MAX_ELEMENTS",
    "MAX_ITEMSIZE",
    "MAX_DECODED_BYTES",
    "MAX_DEPTH",
    "MAX_RESULT_BYTES",
    "MAX_CONTAINERS",
]

_DTYPE_KINDS = "biufU"
_DTYPE = re.compile(r"^[<>|=]?[biufU][1-9][0-9]{0,5}$")
MAX_ELEMENTS = 1_000_000  # elements of one array or list (both sides)
MAX_ITEMSIZE = 4096  # bytes per array element: '<U1024' at most (the attack used '<U200000000')
MAX_DECODED_BYTES = 32 * 2**20  # what one from_data call may build, all arrays and strings together
MAX_DEPTH = 25  # nesting of lists, tuples and dicts
MAX_RESULT_BYTES = 8 * 2**20  # the sandbox's result line (JSON)
MAX_CONTAINERS = 200_000  # '[' and '{' in that line: bounds the Python objects json.loads builds


class Opaque:
    """Stands for a value the sandbox could not express as data, or that the grader refused to decode."""

    def __init__(self, type_name):
        self.type_name = str(type_name)[:80]

    def __repr__(self):
        return f"<{self.type_name} object>"


def to_data(value, _depth=0):
    """A JSON-ready form of ``value``: numbers, strings, bools, None, lists, dicts with str keys and arrays
    (``{"__nd__": [...], "dtype": "float64"}``); anything else becomes ``{"__type__": name}``."""
    if _depth > 20:
        return {"__type__": "too deeply nested"}
    if value is Ellipsis:
        return {"__ellipsis__": True}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in _DTYPE_KINDS or value.size > MAX_ELEMENTS or value.dtype.itemsize > MAX_ITEMSIZE:
            return {"__type__": f"ndarray of {value.dtype} ({value.size} elements)"}
        return {"__nd__": value.tolist(), "dtype": value.dtype.str, "shape": list(value.shape)}
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_ELEMENTS:
            return {"__type__": f"{type(value).__name__} of {len(value)} items"}
        items = [to_data(v, _depth + 1) for v in value]
        return {"__tuple__": items} if isinstance(value, tuple) else items
    if isinstance(value, dict) and all(isinstance(k, str) for k in value) and len(value) < 10_000:
        return {"__dict__": {k: to_data(v, _depth + 1) for k, v in value.items()}}
    return {"__type__": type(value).__name__}


class _Budget:
    def __init__(self, n):
        self.left = n

    def spend(self, n):
        self.left -= n
        return self.left >= 0


def _leaves(nested, depth=0):
    """(number of leaves, every leaf a plain scalar) of a nested list, without building anything."""
    if depth > 32:
        return 0, False
    if isinstance(nested, list):
        n = 0
        for v in nested:
            k, ok = _leaves(v, depth + 1)
            if not ok:
                return 0, False
            n += k
        return n, True
    return 1, nested is None or isinstance(nested, (bool, int, float, str))


def from_data(obj, _depth=0, _budget=None):
    """Inverse of :func:`to_data` for untrusted input: builds only numbers, strings, lists, tuples, dicts and
    NumPy arrays of plain dtypes (never calls, imports or unpickles anything), within caps: arrays of at most
    ``MAX_ELEMENTS`` elements of at most ``MAX_ITEMSIZE`` bytes, ``MAX_DEPTH`` levels, ``MAX_DECODED_BYTES`` in
    all. What breaks a cap becomes an :class:`Opaque` value (an answer of the wrong kind), never an exception."""
    if _budget is None:
        budget = _Budget(MAX_DECODED_BYTES)
        try:
            out = _from_data(obj, 0, budget)
        except RecursionError:
            return Opaque("too deeply nested")
        return out if budget.left >= 0 else Opaque("too large")
    return _from_data(obj, _depth, _budget)


def _from_data(obj, depth, budget):
    if depth > MAX_DEPTH:
        return Opaque("too deeply nested")
    if budget.left < 0:
        return Opaque("too large")
    if obj is None or isinstance(obj, (bool, int, float)):
        budget.spend(32)
        return obj
    if isinstance(obj, str):
        return obj if budget.spend(len(obj) + 64) else Opaque("too large")
    if isinstance(obj, list):
        if len(obj) > MAX_ELEMENTS or not budget.spend(8 * len(obj) + 64):
            return Opaque("too large")
        return [_from_data(v, depth + 1, budget) for v in obj]
    if isinstance(obj, dict):
        if obj.get("__ellipsis__") is True:
            return Ellipsis
        if "__nd__" in obj:
            return _array(obj, budget)
        if "__tuple__" in obj and isinstance(obj["__tuple__"], list):
            items = obj["__tuple__"]
            if len(items) > MAX_ELEMENTS or not budget.spend(8 * len(items) + 64):
                return Opaque("too large")
            return tuple(_from_data(v, depth + 1, budget) for v in items)
        if "__dict__" in obj and isinstance(obj["__dict__"], dict):
            d = obj["__dict__"]
            if len(d) > 10_000 or not budget.spend(100 * len(d) + 64):
                return Opaque("too large")
            return {str(k)[:200]: _from_data(v, depth + 1, budget) for k, v in d.items()}
        return Opaque(obj.get("__type__", "object"))
    return Opaque(type(obj).__name__)


def _array(obj, budget):
    dtype_text = obj.get("dtype", "<f8")
    if not isinstance(dtype_text, str) or not _DTYPE.match(dtype_text):
        return Opaque("ndarray of an unsupported dtype")
    try:
        dtype = np.dtype(dtype_text)
    except TypeError:
        return Opaque("ndarray of an unsupported dtype")
    if dtype.kind not in _DTYPE_KINDS or dtype.itemsize > MAX_ITEMSIZE:
        return Opaque(f"ndarray of {dtype}")
    values, shape = obj["__nd__"], obj.get("shape")
    n, plain = _leaves(values)
    if not plain or n > MAX_ELEMENTS:
        return Opaque("malformed array")
    if shape is not None:
        if (
            not isinstance(shape, list)
            or len(shape) > 32
            or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= MAX_ELEMENTS for s in shape)
            or int(np.prod(shape, dtype=object)) != n
        ):
            return Opaque("malformed array")
    if not budget.spend(n * dtype.itemsize + 128):  # checked before anything is allocated
        return Opaque("too large")
    try:
        arr = np.array(values, dtype=dtype)
        return arr.reshape(shape) if shape is not None else arr
    except (TypeError, ValueError, OverflowError):
        return Opaque("malformed array")


def decode_result(raw):
    """The sandbox's result line (bytes or str) as a dict, or None: at most ``MAX_RESULT_BYTES``, at most
    ``MAX_CONTAINERS`` lists and objects (counted before parsing), any nesting (RecursionError is caught)."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_RESULT_BYTES:
            return None
        if raw.count(b"[") + raw.count(b"{") > MAX_CONTAINERS:
            return None
        raw = raw.decode("utf-8", errors="replace")
    elif len(raw) > MAX_RESULT_BYTES or raw.count("[") + raw.count("{") > MAX_CONTAINERS:
        return None
    try:
        data = json.loads(raw) if raw else None
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def data_key(args) -> str:
    """The key under which a call's arguments travel to the sandbox and its result comes back."""
    return json.dumps(to_data(tuple(args)), sort_keys=True)


class _Recording(Exception):
    """Raised by a :class:`CaseRecorder` called directly (the check stops there; the calls are recorded)."""


class CaseRecorder:
    """Stands in for a learner's function while the autograder learns which calls the checks make."""

    def __init__(self, name):
        self.__name__ = name
        self.calls: dict[str, tuple] = {}

    def record(self, cases, raises=()):
        for case in cases:
            args = case[1] if isinstance(case, tuple) and len(case) == 2 and isinstance(case[0], str) else case
            self.calls.setdefault(data_key(args), tuple(args))
        for args in raises:
            self.calls.setdefault(data_key(args), tuple(args))

    def __call__(self, *args):
        self.calls.setdefault(data_key(args), args)
        raise _Recording("recording")


class _RaisedInSandbox(Exception):
    pass


def _short(x):
    try:
        if isinstance(x, np.ndarray) and x.size > 20:
            return f"<array of shape {x.shape}>"
        s = repr(np.asarray(x).tolist()) if isinstance(x, (list, tuple, np.ndarray)) else repr(x)
    except (ValueError, TypeError):  # ragged arguments, e.g. ([0, 1, 1], [0, 1])
        s = repr(x)
    return s if len(s) <= 70 else s[:67] + "..."


class Replay:
    """A learner's function as recorded in the sandbox: returns what it returned there, raises what it raised."""

    def __init__(self, name, results, call_timeout=10.0):
        self.__name__ = name
        self._results = results
        self._timeout = call_timeout

    def __call__(self, *args):
        from ..grading_messages import text as _t

        call = f"{self.__name__}{_short(args)}"
        r = self._results.get(data_key(args))
        if not isinstance(r, dict):
            raise _RaisedInSandbox(_t("function_no_result", call=call))
        if "value" in r:
            return from_data(r["value"])
        if r.get("timeout"):
            raise TimeoutError(_t("function_timeout", call=call, seconds=self._timeout))
        error, msg = str(r.get("error", "Exception"))[:80], str(r.get("message", ""))[:300]
        if error == "NotImplementedError":
            raise NotImplementedError(msg)
        if r.get("value_error"):
            raise ValueError(msg)
        exc = _RaisedInSandbox(f"{error}: {msg}")
        exc.error_name = error
        raise exc
