"""Instant feedback for the graded exercise sets (``exercises/NN_*.ipynb``), learntools style: the framework.

In an exercise notebook::

    from evallib.grading import exercise_set
    ex = exercise_set("02")
    q1 = ...                # your answer
    ex.check("q1", q1)      # -> correct / incorrect (with what is wrong) / not attempted
    ex.hint("q1")           # a nudge
    ex.solution("q1")       # the worked solution (self-study edition only)

Every check has three outcomes: ``correct``, ``incorrect`` with a message about the failing case, and
``not attempted`` (the answer is still ``...``/``None``, or a function still returns ``None``).

This module holds no exercise, no solution and no hidden test. The problems, checks, hints, worked solutions and
hidden tests of a set live in one text source, ``exercises/source/NN_topic.md`` (jupytext MyST, see
CONTRIBUTING.md); :func:`exercise_set` loads it when the course repository is at hand (self-study). A classroom
bundle (``make classroom``) carries only ``exercises/checks/NN_topic.json`` (titles, hints, answer names): its
checks say ``not attempted`` or ``received`` and never reveal an answer. Grading is done by
``scripts/autograde.py`` outside the student's kernel (README, "Exercises").
"""
from __future__ import annotations

import copy
import json
import math
import numbers
import os
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ._validation import check_bool, check_positive_int
from .grading_messages import text as _t
from .i18n import translate as _tr

__all__ = [
    "CORRECT", "INCORRECT", "NOT_ATTEMPTED", "RECEIVED",
    "Incorrect", "NotAttempted", "Outcome", "Problem", "ExerciseSet",
    "exercise_set", "available_sets", "load_source", "read_myst",
    "require", "expect_number", "expect_int", "expect_choice", "expect_reason", "expect_function",
    "expect_array", "as_float", "cached", "to_data", "from_data", "data_key", "CaseRecorder", "Replay",
]

CORRECT, INCORRECT, NOT_ATTEMPTED, RECEIVED = "correct", "incorrect", "not attempted", "received"


class Incorrect(AssertionError):
    """Raised by a check (or a hidden test) with a message that says what is wrong."""


class NotAttempted(Exception):
    """Raised by a check when the answer is still the placeholder."""


class _Text(str):
    """A string that displays as itself (markdown in JupyterLab, plain text elsewhere)."""

    def __repr__(self):
        return str(self)

    def _repr_markdown_(self):
        return str(self)


@dataclass(frozen=True)
class Outcome:
    """The result of ``ExerciseSet.check``: ``status`` is correct / incorrect / not attempted / received."""

    problem: str
    status: str
    message: str = ""

    def __bool__(self):
        return self.status == CORRECT

    def __str__(self):
        mark = {CORRECT: "✔", INCORRECT: "✘", NOT_ATTEMPTED: "…", RECEIVED: "•"}[self.status]
        word = _t(f"status.{self.status}")
        text = f"{mark} {self.problem}: {word}"
        return f"{text}{_t('status_end')} {self.message}" if self.message else text

    def __repr__(self):
        return str(self)

    def _repr_markdown_(self):
        colour = {CORRECT: "#009E73", INCORRECT: "#D55E00", NOT_ATTEMPTED: "#666666", RECEIVED: "#0072B2"}
        msg = f" {self.message}" if self.message else ""
        return (f"<span style='color:{colour[self.status]}'>**{self.problem}: "
                f"{_t('status.' + self.status)}{_t('status_end')}**</span>{msg}")


@dataclass(frozen=True)
class Problem:
    """One exercise: ``check(*answers)`` raises :class:`NotAttempted` or :class:`Incorrect`, or returns.

    ``check`` is None in a classroom bundle: the outcome is then ``received`` for a well-formed answer.
    """

    name: str
    title: str
    points: float
    answers: tuple[str, ...]
    check: Callable[..., Any] | None
    hint: str
    solution: str = ""
    kind: str = "compute"           # compute | implement | choose | plot
    book: str = ""                  # the book exercise it adapts, e.g. "2.1"
    stub: str = ""                  # what the release shows in the answer cell (default: "name = ...")

    @property
    def prompt(self) -> str:
        return self.stub or "\n".join(f"{a} = ..." for a in self.answers)


@dataclass
class ExerciseSet:
    """The problems of one exercise notebook, by name (``q1``, ``q2``, ...)."""

    key: str
    title: str
    problems: dict[str, Problem] = field(default_factory=dict)
    solutions_enabled: bool = True
    variant: int = 0
    namespace: dict = field(default_factory=dict, repr=False)   # the checks cell's names (hidden tests see them)

    def _problem(self, name) -> Problem:
        if name not in self.problems:
            raise ValueError(f"name: no problem {name!r} in exercise set {self.key}; "
                             f"there are {', '.join(self.problems)}")
        return self.problems[name]

    def outcome(self, name, *answers) -> Outcome:
        """Run the check of problem ``name`` on ``answers`` and return the :class:`Outcome`."""
        p = self._problem(name)
        if len(answers) != len(p.answers):
            raise TypeError(f"answers: {name} takes {len(p.answers)} answer(s) ({', '.join(p.answers)}), "
                            f"got {len(answers)}")
        try:
            for a, answer_name in zip(answers, p.answers):
                require(a, answer_name)
            if p.check is None:
                if p.kind == "implement" and not callable(answers[0]):
                    raise Incorrect(_t("received_function", name=p.answers[0]))
                return Outcome(name, RECEIVED, _t("received", names=", ".join(p.answers)))
            p.check(*answers)
        except NotAttempted as exc:
            return Outcome(name, NOT_ATTEMPTED, str(exc) or _t("replace_placeholder", names=", ".join(p.answers)))
        except Incorrect as exc:
            return Outcome(name, INCORRECT, _tr(str(exc), "check"))  # a check's own message, in the catalog
        except Exception as exc:  # the learner's function raised: say which error and where
            return Outcome(name, INCORRECT, _t("raised", error=type(exc).__name__, detail=exc))
        return Outcome(name, CORRECT, "")

    def check(self, name, *answers) -> Outcome:
        """Check an answer: correct / incorrect (with what is wrong) / not attempted."""
        return self.outcome(name, *answers)

    def assert_correct(self, name, *answers) -> None:
        """For hidden tests: raise :class:`Incorrect` with the check's message unless correct."""
        out = self.outcome(name, *answers)
        if out.status == NOT_ATTEMPTED:
            raise NotAttempted(out.message)
        if out.status != CORRECT:
            raise Incorrect(out.message)

    def hint(self, name) -> _Text:
        """A nudge for problem ``name``."""
        return _Text(_t("hint", name=name, text=_tr(self._problem(name).hint, "hint")))

    def solution(self, name) -> _Text:
        """The worked solution of problem ``name`` (absent from classroom releases)."""
        p = self._problem(name)
        if not self.solutions_enabled or not p.solution:
            return _Text(_t("no_solution_classroom"))
        return _Text(_t("solution", name=name, code=textwrap.dedent(p.solution).strip("\n")))

    def summary(self) -> str:
        """One line per problem: name, points, kind, title."""
        return "\n".join(f"{p.name} ({p.points:g} pt, {p.kind}{', book ' + p.book if p.book else ''}): {p.title}"
                         for p in self.problems.values())

    def __repr__(self):
        return f"ExerciseSet({self.key!r}, {len(self.problems)} problems: {', '.join(self.problems)})"


# ----------------------------------------------------------------------------------------- checkers
def _is_placeholder(value) -> bool:
    return value is Ellipsis or value is None


def require(value, name="your answer"):
    """Raise :class:`NotAttempted` while ``value`` is the placeholder ``...`` (or None)."""
    if _is_placeholder(value):
        raise NotAttempted(_t("placeholder", name=name))
    return value


def _as_float(value, name):
    require(value, name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.ndarray)):
        raise Incorrect(_t("number_type", name=name, type=type(value).__name__, value=f"{value!r:.60}"))
    arr = np.asarray(value, dtype=float)
    if arr.ndim != 0:
        raise Incorrect(_t("number_shape", name=name, shape=arr.shape))
    x = float(arr)
    if not math.isfinite(x):
        raise Incorrect(_t("number_finite", name=name, value=x))
    return x


as_float = _as_float

_CACHE: dict = {}


def cached(key, compute):
    """``compute()`` once per key (expected values of a set; the loader gives each variant its own cache)."""
    if key not in _CACHE:
        _CACHE[key] = compute()
    return _CACHE[key]


def expect_number(value, expected, *, rtol=1e-6, atol=1e-9, name="your answer", mistakes=None,
                  show_expected=False):
    """Check a number against ``expected`` (relative tolerance ``rtol``).

    ``mistakes`` lists (value, message) pairs for known wrong answers, so the message says what went wrong.
    """
    x = _as_float(value, name)
    if math.isclose(x, expected, rel_tol=rtol, abs_tol=atol):
        return
    for wrong, message in (mistakes or []):
        if math.isclose(x, wrong, rel_tol=rtol, abs_tol=atol):
            raise Incorrect(_tr(message, "check"))
    key = ("too_large" if x > expected else "too_small") + ("_expected" if show_expected else "")
    raise Incorrect(_t(key, name=name, value=f"{x:.6g}", expected=f"{expected:.6g}"))


def expect_int(value, expected, *, name="your answer", mistakes=None):
    """Check an exact integer answer (Python int or integer NumPy scalar)."""
    require(value, name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, numbers.Real) and float(value).is_integer() and abs(float(value)) < 2 ** 53:
            value = int(value)
        else:
            raise Incorrect(_t("int_type", name=name, type=type(value).__name__))
    value = int(value)
    if value == expected:
        return
    for wrong, message in (mistakes or []):
        if value == wrong:
            raise Incorrect(_tr(message, "check"))
    raise Incorrect(_t("too_large" if value > expected else "too_small", name=name, value=value))


def expect_choice(value, correct, options, *, name="your answer", explanations=None):
    """Check a choice among ``options`` (strings, compared case-insensitively, stripped)."""
    require(value, name)
    shown = ", ".join(map(repr, options))
    if not isinstance(value, str):
        raise Incorrect(_t("choice_type", name=name, options=shown, value=f"{value!r:.60}"))
    v = value.strip().lower()
    opts = [o.lower() for o in options]
    if v not in opts:
        raise Incorrect(_t("choice_unknown", name=name, value=repr(value), options=shown))
    if v == correct.lower():
        return
    explained = (explanations or {}).get(options[opts.index(v)])
    raise Incorrect(_tr(explained, "check") if explained else _t("choice_wrong", name=name, value=repr(value)))


def expect_reason(value, *, name="your justification", min_words=6, keywords=None):
    """A justification must be a sentence (at least ``min_words`` words); with ``keywords``, one of them must
    appear (a light check: the instructor reads the reasons in the CSV)."""
    require(value, name)
    if not isinstance(value, str) or _n_words(value) < min_words:
        raise Incorrect(_t("reason_short", name=name, min_words=min_words))
    examples = keywords
    if keywords:  # the set's catalog may add the keywords of the learner's language ("test|over" -> "测试|过拟合")
        own = [k for k in _tr("|".join(keywords), "keywords").split("|") if k not in keywords]
        keywords, examples = [*keywords, *own], [*own, *keywords]   # examples in the learner's language first
    if keywords and not any(k.lower() in value.lower() for k in keywords):
        raise Incorrect(_t("reason_keyword", name=name, examples=", ".join(examples[:3])))


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_NOT_WORD = re.compile(r"[\s\u3000-\u303f\uff00-\uffef\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def _n_words(text: str) -> int:
    """Words of a sentence in any of the course's languages: runs of Latin letters/digits, plus Chinese
    characters two to a word (Chinese writes no spaces)."""
    return len([w for w in _NOT_WORD.split(text) if w]) + len(_CJK.findall(text)) // 2


def expect_array(value, expected, *, rtol=1e-6, atol=1e-9, name="your answer"):
    """Check an array (shape and values)."""
    require(value, name)
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise Incorrect(_t("array_type", name=name, type=type(value).__name__)) from None
    exp = np.asarray(expected, dtype=float)
    if arr.shape != exp.shape:
        raise Incorrect(_t("array_shape", name=name, shape=arr.shape, expected=exp.shape))
    if not np.allclose(arr, exp, rtol=rtol, atol=atol, equal_nan=False):
        bad = int(np.argmax(~np.isclose(arr, exp, rtol=rtol, atol=atol)))
        raise Incorrect(_t("array_differs", name=name, index=bad, value=f"{arr.flat[bad]:.6g}",
                           expected=f"{exp.flat[bad]:.6g}"))


def _short(x):
    try:
        s = repr(np.asarray(x).tolist()) if isinstance(x, (list, tuple, np.ndarray)) else repr(x)
    except (ValueError, TypeError):      # ragged arguments, e.g. ([0, 1, 1], [0, 1])
        s = repr(x)
    return s if len(s) <= 70 else s[:67] + "..."


def expect_function(func, reference, cases, *, name=None, rtol=1e-9, atol=1e-12, raises=(), compare=None):
    """Call ``func`` on each case (a tuple of arguments, or ``(label, args)``) and compare with ``reference``.

    A function whose body is still ``...`` (returns None) or raises ``NotImplementedError`` is not attempted.
    ``raises`` lists cases on which both must raise ``ValueError`` (bad input).
    The message names the first failing case, so a learner sees which situation (ties, one class, ...) is wrong.
    The autograder passes a :class:`CaseRecorder` first (to learn the calls) and a :class:`Replay` of the
    submission's recorded results second.
    """
    require(func, "your function")
    if isinstance(func, CaseRecorder):
        func.record(cases, raises)
        return
    if not callable(func):
        raise Incorrect(_t("function_type", name=name or "your answer", type=type(func).__name__))
    name = name or getattr(func, "__name__", "your function")
    for i, case in enumerate(cases):
        label, args = (case if isinstance(case, tuple) and len(case) == 2 and isinstance(case[0], str)
                       else (None, case))
        args = tuple(args)
        call = f"{name}{_short(args)}"
        try:
            got = func(*copy.deepcopy(args))        # a learner's function may modify its inputs
        except NotImplementedError:
            raise NotAttempted(_t("function_not_implemented", name=name)) from None
        except Exception as exc:
            where = f" ({_tr(label, 'check')})" if label else ""
            raise Incorrect(_t("function_raised", call=call, where=where, error=type(exc).__name__,
                               detail=exc)) from None
        if i == 0 and _is_placeholder(got):
            raise NotAttempted(_t("function_none", name=name))
        want = reference(*args)
        try:
            ok = compare(got, want) if compare else np.allclose(np.asarray(got, dtype=float),
                                                                np.asarray(want, dtype=float), rtol=rtol, atol=atol) \
                and np.shape(got) == np.shape(want)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            where = f" [{_tr(label, 'check')}]" if label else ""
            raise Incorrect(_t("function_returned", call=call, where=where, got=_short(got), expected=_short(want)))
    for args in raises:
        call = f"{name}{_short(args)}"
        try:
            func(*args)
        except ValueError:
            continue
        except Exception as exc:
            raise Incorrect(_t("function_should_raise", call=call, error=type(exc).__name__)) from None
        raise Incorrect(_t("function_should_raise_returned", call=call))


# ----------------------------------------------------------------------------------------- plain data
# What crosses the sandbox wall (scripts/autograde.py): JSON numbers, strings, lists and tagged arrays only.
_DTYPE_KINDS = "biufU"
MAX_ELEMENTS = 1_000_000


class Opaque:
    """Stands for a value the sandbox could not express as data (an object of type ``type_name``)."""

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
        if value.dtype.kind not in _DTYPE_KINDS or value.size > MAX_ELEMENTS:
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


def from_data(obj, _depth=0):
    """Inverse of :func:`to_data` for untrusted input: builds only numbers, strings, lists, tuples, dicts and
    NumPy arrays of plain dtypes (never calls, imports or unpickles anything)."""
    if _depth > 25:
        return Opaque("too deeply nested")
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, list):
        return [from_data(v, _depth + 1) for v in obj]
    if isinstance(obj, dict):
        if obj.get("__ellipsis__") is True:
            return Ellipsis
        if "__nd__" in obj:
            dtype = np.dtype(str(obj.get("dtype", "<f8")))
            if dtype.kind not in _DTYPE_KINDS:
                return Opaque(f"ndarray of {dtype}")
            try:
                arr = np.array(obj["__nd__"], dtype=dtype)
                return arr.reshape([int(s) for s in obj.get("shape", arr.shape)])
            except (TypeError, ValueError, OverflowError):
                return Opaque("malformed array")
        if "__tuple__" in obj and isinstance(obj["__tuple__"], list):
            return tuple(from_data(v, _depth + 1) for v in obj["__tuple__"])
        if "__dict__" in obj and isinstance(obj["__dict__"], dict):
            return {str(k): from_data(v, _depth + 1) for k, v in obj["__dict__"].items()}
        return Opaque(obj.get("__type__", "object"))
    return Opaque(type(obj).__name__)


def data_key(args) -> str:
    """The key under which a call's arguments travel to the sandbox and its result comes back."""
    return json.dumps(to_data(tuple(args)), sort_keys=True)


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
        raise NotAttempted("recording")


class _RaisedInSandbox(Exception):
    pass


class Replay:
    """A learner's function as recorded in the sandbox: returns what it returned there, raises what it raised."""

    def __init__(self, name, results, call_timeout=10.0):
        self.__name__ = name
        self._results = results
        self._timeout = call_timeout

    def __call__(self, *args):
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
        raise _RaisedInSandbox(f"{error}: {msg}")


# ----------------------------------------------------------------------------------------- sources
@dataclass
class Cell:
    cell_type: str               # "markdown" | "code" | "raw"
    source: str
    tags: tuple[str, ...] = ()


_CELL_START = re.compile(r"^```\{(code-cell|raw-cell)\}")


def read_myst(text: str) -> tuple[dict, list[Cell]]:
    """Parse a jupytext MyST notebook (``.md``): (front-matter lines as a dict of top-level keys, cells).

    Enough of the format for the exercise sources: code cells (``:tags: [a, b]`` option), raw cells, and
    markdown cells separated by ``+++``.
    """
    lines = text.split("\n")
    front, i = {}, 0
    if lines and lines[0].strip() == "---":
        j = lines.index("---", 1)
        front = {"_raw": "\n".join(lines[1:j])}
        i = j + 1
    cells, md = [], []

    def flush():
        body = "\n".join(md).strip("\n")
        if body.strip():
            cells.append(Cell("markdown", body))
        md.clear()

    while i < len(lines):
        line = lines[i]
        m = _CELL_START.match(line)
        if m:
            flush()
            kind = "code" if m.group(1) == "code-cell" else "raw"
            i += 1
            tags: tuple[str, ...] = ()
            if kind == "code" and i < len(lines) and lines[i].strip() == "---":       # YAML options block
                j = lines.index("---", i + 1)
                for opt in lines[i + 1:j]:
                    if opt.startswith("tags:"):
                        tags = tuple(t.strip().strip("'\"") for t in opt[5:].strip().strip("[]").split(",") if t.strip())
                i = j + 1
            while kind == "code" and i < len(lines) and lines[i].startswith(":"):
                opt = lines[i]
                if opt.startswith(":tags:"):
                    tags = tuple(t.strip().strip("'\"") for t in opt[6:].strip().strip("[]").split(",") if t.strip())
                i += 1
            body = []
            while i < len(lines) and lines[i] != "```":
                body.append(lines[i])
                i += 1
            i += 1
            cells.append(Cell(kind, "\n".join(body).strip("\n"), tags))
            continue
        if line.startswith("+++"):
            flush()
        else:
            md.append(line)
        i += 1
    flush()
    return front, cells


def parse_config_text(text: str) -> dict:
    """The small YAML subset of the otter-style config cells: ``key: value`` lines (int, float, bool, string)."""
    out = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#") or ":" not in line:
            continue
        key, value = line.split(":", 1)
        value = value.strip()
        if value.lower() in ("true", "false"):
            v: Any = value.lower() == "true"
        else:
            try:
                v = int(value)
            except ValueError:
                try:
                    v = float(value)
                except ValueError:
                    v = value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"" else value
        out[key.strip()] = v
    return out


def _marker(cell: Cell) -> str:
    src = cell.source.lstrip()
    return src.splitlines()[0].strip().upper() if (cell.cell_type == "raw" and src) else ""


def _config(cell: Cell) -> dict:
    return parse_config_text(cell.source.split("\n", 1)[1] if "\n" in cell.source else "")


_SOLUTION_BLOCK = re.compile(r"^[ \t]*#\s*BEGIN SOLUTION(?: NO PROMPT)?[ \t]*\n(.*?)^[ \t]*#\s*END SOLUTION[ \t]*$",
                             re.S | re.M)
_PROMPT_BLOCK = re.compile(r'^[ \t]*"""\s*#\s*BEGIN PROMPT[ \t]*\n(.*?)^[ \t]*"""\s*#\s*END PROMPT[ \t]*$', re.S | re.M)


def source_questions(cells: list[Cell]) -> list[dict]:
    """The questions of a source: config (name, points, title, kind, answers, hint, book), solution code, stub."""
    questions, current = [], None
    for cell in cells:
        mark = _marker(cell)
        if mark == "# BEGIN QUESTION":
            current = {"config": _config(cell), "solution": [], "stub": ""}
            questions.append(current)
        elif mark == "# END QUESTION":
            current = None
        elif current is not None and cell.cell_type == "code" and "BEGIN SOLUTION" in cell.source:
            current["solution"] += [textwrap.dedent(b).strip("\n") for b in _SOLUTION_BLOCK.findall(cell.source)]
            prompt = _PROMPT_BLOCK.search(cell.source)
            if prompt:
                current["stub"] = prompt.group(1).strip("\n")
    return questions


def _checks_code(cells: list[Cell]) -> str:
    return "\n\n".join(c.source for c in cells if c.cell_type == "code" and "checks" in c.tags)


def load_source(path, *, variant=0, solutions=True) -> ExerciseSet:
    """Build the :class:`ExerciseSet` of an exercise source ``exercises/source/NN_topic.md`` for ``variant``.

    Runs the source's ``checks`` cells (trusted course code) with ``variant`` defined; each question's check is
    the function of its name there (``def q1(answer): ...``).
    """
    variant = check_positive_int(variant, "variant", minimum=0)
    solutions = check_bool(solutions, "solutions")
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: must be a str or a path to an exercise source; got {type(path).__name__} ({path!r})")
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path: no exercise source at {str(path)!r}")
    front, cells = read_myst(path.read_text(encoding="utf-8"))
    cache: dict = {}

    def cached(key, compute):
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    ns = {"__name__": f"exercise_checks_{path.stem}", "variant": int(variant), "cached": cached,
          **{name: globals()[name] for name in __all__ if name in globals()}}
    exec(compile(_checks_code(cells), f"{path}:checks", "exec"), ns)
    ns["cached"], ns["variant"] = cached, int(variant)      # the star import of the cell replaced them
    ex = ExerciseSet(path.stem[:2], ns.get("TITLE", path.stem), variant=int(variant), solutions_enabled=solutions,
                     namespace=ns)
    for q in source_questions(cells):
        cfg = q["config"]
        name = str(cfg["name"])
        answers = tuple(a.strip() for a in str(cfg.get("answers", name)).split(",") if a.strip())
        ex.problems[name] = Problem(name, str(cfg.get("title", name)), float(cfg.get("points", 1)), answers,
                                    ns.get(name), str(cfg.get("hint", "")), "\n\n".join(q["solution"]),
                                    str(cfg.get("kind", "compute")), str(cfg.get("book", "")), q["stub"])
        if ex.problems[name].check is None:
            raise ValueError(f"{path.name}: the checks cell defines no function {name}(...)")
    return ex


def public_checks(ex: ExerciseSet) -> dict:
    """What a classroom bundle carries for a set: titles, points, kinds, answer names, hints. No check code,
    no solution, no hidden test."""
    return {"key": ex.key, "title": ex.title,
            "problems": [{"name": p.name, "title": p.title, "points": p.points, "answers": list(p.answers),
                          "kind": p.kind, "book": p.book, "hint": p.hint} for p in ex.problems.values()]}


class ClassroomSet(ExerciseSet):
    """A set loaded from a classroom bundle: checks say "not attempted" or "received"; no ``solution``."""

    @property
    def solution(self):
        raise AttributeError(_t("no_solution_classroom"))


def _from_public(data: dict) -> ExerciseSet:
    ex = ClassroomSet(str(data["key"]), str(data["title"]), solutions_enabled=False)
    for p in data["problems"]:
        ex.problems[p["name"]] = Problem(p["name"], p["title"], float(p["points"]), tuple(p["answers"]), None,
                                         p.get("hint", ""), "", p.get("kind", "compute"), p.get("book", ""))
    return ex


def _search_dirs() -> list[Path]:
    dirs = [Path(d) for d in os.environ.get("EVALLIB_EXERCISES", "").split(os.pathsep) if d]
    here = Path.cwd()
    dirs += [here / "checks", here / "exercises" / "checks", here.parent / "exercises" / "checks",
             here / "exercises" / "source", here.parent / "exercises" / "source",
             Path(__file__).resolve().parent.parent / "exercises" / "source"]
    return dirs


def _find(key: str):
    for d in _search_dirs():
        for pattern in (f"{key}_*.md", f"{key}_*.json"):
            hits = sorted(d.glob(pattern)) if d.is_dir() else []
            if hits:
                return hits[0]
    return None


def available_sets() -> list[str]:
    """Keys of the exercise sets that :func:`exercise_set` can find ("01", "02", ...)."""
    keys = set()
    for d in _search_dirs():
        if d.is_dir():
            keys |= {p.name[:2] for p in d.glob("[0-9][0-9]_*") if p.suffix in (".md", ".json")}
    return sorted(keys)


_LOADED: dict = {}


def exercise_set(key, *, solutions=True, variant=0) -> ExerciseSet:
    """The exercise set for chapter notebook ``key`` ("02" or "02_evaluation_methods").

    In this repository it is built from ``exercises/source/NN_topic.md`` (checks and solutions); in a classroom
    bundle from ``exercises/checks/NN_topic.json`` (no checks, no solutions: outcomes are "not attempted" or
    "received"). ``solutions=False`` makes ``solution()`` decline; ``variant`` is the classroom variant number
    (0 in the self-study edition).
    """
    variant = check_positive_int(variant, "variant", minimum=0)
    solutions = check_bool(solutions, "solutions")
    k = str(key)[:2]
    path = _find(k)
    if path is None:
        raise ValueError(f"key: no exercise set {key!r}; available: {', '.join(available_sets()) or 'none'}")
    if path.suffix == ".json":
        return _from_public(json.loads(path.read_text(encoding="utf-8")))
    cache_key = (str(path), int(variant), path.stat().st_mtime)
    if cache_key not in _LOADED:
        _LOADED[cache_key] = load_source(path, variant=variant)
    ex = copy.copy(_LOADED[cache_key])
    ex.solutions_enabled = bool(solutions)
    return ex
