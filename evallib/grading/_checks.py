"""The learner's checks: outcomes, problems, exercise sets and the ``expect_*`` checkers (evallib.grading's facade
re-exports them). No exercise, solution or hidden test lives here: those are in ``exercises/source/NN_topic.md``."""

from __future__ import annotations

import contextvars
import copy
import math
import numbers
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._results import Result
from .._validation import Interval, validate_params
from ..grading_messages import text as _t
from ..i18n import translate as _tr
from ._protocol import CaseRecorder, _short

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


@dataclass(frozen=True, repr=False)
class Outcome(Result):
    """The result of ``ExerciseSet.check``: ``status`` is correct / incorrect / not attempted / received.

    Its repr is its outcome line (``✔ q1: correct``) in the learner's language."""

    problem: str
    status: str
    message: str = ""
    _repr_format = "{line}"

    def _repr_values(self):
        return {"line": str(self)}

    def __bool__(self):
        return self.status == CORRECT

    def __str__(self):
        mark = {CORRECT: "✔", INCORRECT: "✘", NOT_ATTEMPTED: "…", RECEIVED: "•"}[self.status]
        word = _t(f"status.{self.status}")
        if self.message:
            return _t("status_line_message", mark=mark, problem=self.problem, word=word, message=self.message)
        return _t("status_line", mark=mark, problem=self.problem, word=word)

    def _repr_markdown_(self):
        colour = {CORRECT: "#009E73", INCORRECT: "#D55E00", NOT_ATTEMPTED: "#666666", RECEIVED: "#0072B2"}
        head = _t("status_head", problem=self.problem, word=_t("status." + self.status))
        head = f"<span style='color:{colour[self.status]}'>**{head}**</span>"
        return _t("status_head_message", head=head, message=self.message) if self.message else head


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
    kind: str = "compute"  # compute | implement | choose | plot
    book: str = ""  # the book exercise it adapts, e.g. "2.1"
    stub: str = ""  # what the release shows in the answer cell (default: "name = ...")
    forbid: tuple[str, ...] = ()  # library functions that solve an implement problem (blocked on hidden cases)

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
    namespace: dict = field(default_factory=dict, repr=False)  # the checks cell's names (hidden tests see them)

    def _problem(self, name) -> Problem:
        if name not in self.problems:
            raise ValueError(
                f"name: no problem {name!r} in exercise set {self.key}; there are {', '.join(self.problems)}"
            )
        return self.problems[name]

    def outcome(self, name, *answers) -> Outcome:
        """Run the check of problem ``name`` on ``answers`` and return the :class:`Outcome`."""
        p = self._problem(name)
        if len(answers) != len(p.answers):
            raise TypeError(
                f"answers: {name} takes {len(p.answers)} answer(s) ({', '.join(p.answers)}), got {len(answers)}"
            )
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
        return "\n".join(
            f"{p.name} ({p.points:g} pt, {p.kind}{', book ' + p.book if p.book else ''}): {p.title}"
            for p in self.problems.values()
        )

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


def expect_number(value, expected, *, rtol=1e-6, atol=1e-9, name="your answer", mistakes=None, show_expected=False):
    """Check a number against ``expected`` (relative tolerance ``rtol``).

    ``mistakes`` lists (value, message) pairs for known wrong answers, so the message says what went wrong.
    """
    x = _as_float(value, name)
    if math.isclose(x, expected, rel_tol=rtol, abs_tol=atol):
        return
    for wrong, message in mistakes or []:
        if math.isclose(x, wrong, rel_tol=rtol, abs_tol=atol):
            raise Incorrect(_tr(message, "check"))
    key = ("too_large" if x > expected else "too_small") + ("_expected" if show_expected and not _HIDDEN.get() else "")
    raise Incorrect(_t(key, name=name, value=f"{x:.6g}", expected=f"{expected:.6g}"))


def expect_int(value, expected, *, name="your answer", mistakes=None):
    """Check an exact integer answer (Python int or integer NumPy scalar)."""
    require(value, name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, numbers.Real) and float(value).is_integer() and abs(float(value)) < 2**53:
            value = int(value)
        else:
            raise Incorrect(_t("int_type", name=name, type=type(value).__name__))
    value = int(value)
    if value == expected:
        return
    for wrong, message in mistakes or []:
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
        keywords, examples = [*keywords, *own], [*own, *keywords]  # examples in the learner's language first
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
        if _HIDDEN.get():
            raise Incorrect(_t("array_differs_hidden", name=name, index=bad))
        raise Incorrect(
            _t("array_differs", name=name, index=bad, value=f"{arr.flat[bad]:.6g}", expected=f"{exp.flat[bad]:.6g}")
        )


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
        label, args = case if isinstance(case, tuple) and len(case) == 2 and isinstance(case[0], str) else (None, case)
        args = tuple(args)
        call = f"{name}{_short(args)}"
        try:
            got = func(*copy.deepcopy(args))  # a learner's function may modify its inputs
        except NotImplementedError:
            raise NotAttempted(_t("function_not_implemented", name=name)) from None
        except Exception as exc:
            if _HIDDEN.get():
                raise Incorrect(
                    _t(
                        "hidden_case_raised",
                        case=_case_name(label, i),
                        error=getattr(exc, "error_name", type(exc).__name__),
                    )
                ) from None
            where = f" ({_tr(label, 'check')})" if label else ""
            raise Incorrect(
                _t("function_raised", call=call, where=where, error=type(exc).__name__, detail=exc)
            ) from None
        if i == 0 and _is_placeholder(got):
            raise NotAttempted(_t("function_none", name=name))
        want = reference(*args)
        try:
            ok = (
                compare(got, want)
                if compare
                else np.allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=rtol, atol=atol)
                and np.shape(got) == np.shape(want)
            )
        except (TypeError, ValueError):
            ok = False
        if not ok:
            if _HIDDEN.get():
                raise Incorrect(_t("hidden_case_wrong", case=_case_name(label, i), kind=_mistake_kind(got, want)))
            where = f" [{_tr(label, 'check')}]" if label else ""
            raise Incorrect(_t("function_returned", call=call, where=where, got=_short(got), expected=_short(want)))
    for j, args in enumerate(raises):
        call = f"{name}{_short(args)}" if not _HIDDEN.get() else _t("hidden_bad_input", name=name, j=j + 1)
        try:
            func(*args)
        except ValueError:
            continue
        except Exception as exc:
            raise Incorrect(_t("function_should_raise", call=call, error=type(exc).__name__)) from None
        raise Incorrect(_t("function_should_raise_returned", call=call))


def _case_name(label, i):
    return _tr(label, "check") if label else _t("hidden_case_number", i=i + 1)


def _mistake_kind(got, want):
    """What kind of mistake a returned value is, without the expected value: type, shape, not finite, sign,
    too large / too small."""
    try:
        g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    except (TypeError, ValueError):
        return _t("kind.type", type=type(got).__name__)
    if g.shape != w.shape:
        return _t("kind.shape", shape=g.shape)
    if not np.all(np.isfinite(g)) and np.all(np.isfinite(w)):
        return _t("kind.finite")
    d = g - w
    if np.all(d >= 0):
        return _t("kind.too_large")
    if np.all(d <= 0):
        return _t("kind.too_small")
    return _t("kind.differs")


# ----------------------------------------------------------------------------------------- hidden cases
_HIDDEN: contextvars.ContextVar[bool] = contextvars.ContextVar("evallib_grading_hidden", default=False)
_RUN_SEED: list = [None]  # one per process: the grader's threads share it


class hidden_feedback:
    """``with hidden_feedback():`` the checkers name the failing case and the kind of mistake, never the expected
    value or the hidden input (the autograder's hidden tests; self-study keeps the full messages)."""

    def __enter__(self):
        self._token = _HIDDEN.set(True)
        return self

    def __exit__(self, *exc):
        _HIDDEN.reset(self._token)
        return False


def set_run_seed(seed) -> None:
    """The autograder's per-run secret for :func:`hidden_rng` (None: self-study, derived from the variant)."""
    _RUN_SEED[0] = None if seed is None else int(seed)


@validate_params(
    {
        "stream": [Interval(numbers.Integral, 0, None, closed="left")],
        "variant": [Interval(numbers.Integral, 0, None, closed="left")],
    }
)
def hidden_rng(stream=0, variant=0):
    """A generator for hidden test inputs: the same within one grading run (the calls recorded before the sandbox
    and replayed after it match), new in every run of the autograder (remembering them from an earlier run is
    useless); in self-study it depends on ``variant`` only."""
    seed = _RUN_SEED[0]
    return np.random.default_rng(
        [int(stream), int(variant)] if seed is None else [int(seed), int(stream), int(variant)]
    )


def tr(template, *args, context="check"):
    """A learner-facing sentence with values: ``template`` (``"costs {0}, not {1}"``) in the learner's language
    (looked up as it stands in the set's catalog, exercises/zh/NN_topic.po), then formatted with ``args``."""
    return _tr(template, context).format(*args)
