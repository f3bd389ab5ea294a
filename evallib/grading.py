"""Instant feedback for the graded exercise sets (``exercises/NN_*.ipynb``), learntools style.

In an exercise notebook::

    from evallib.grading import exercise_set
    ex = exercise_set("02")
    q1 = ...                # your answer
    ex.check("q1", q1)      # -> correct / incorrect (with what is wrong) / not attempted
    ex.hint("q1")           # a nudge
    ex.solution("q1")       # the worked solution (self-study)

Every check has three outcomes: ``correct``, ``incorrect`` with a message about the failing case, and
``not attempted`` (the answer is still ``...``/``None``, or a function still returns ``None``).
The checks use evallib itself as the oracle; the instructor's hidden tests live only in
``exercises/source/`` and are run by ``scripts/autograde.py`` (see README, "Exercises").
The problem definitions (checks, hints, solutions) of every set follow the framework, one section per set.
"""
from __future__ import annotations

import copy
import math
import numbers
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

__all__ = [
    "CORRECT", "INCORRECT", "NOT_ATTEMPTED",
    "Incorrect", "NotAttempted", "Outcome", "Problem", "ExerciseSet",
    "exercise_set", "available_sets",
    "require", "expect_number", "expect_int", "expect_choice", "expect_reason", "expect_function",
    "expect_array",
]

CORRECT, INCORRECT, NOT_ATTEMPTED = "correct", "incorrect", "not attempted"


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
    """The result of ``ExerciseSet.check``: ``status`` is correct / incorrect / not attempted."""

    problem: str
    status: str
    message: str = ""

    def __bool__(self):
        return self.status == CORRECT

    def __str__(self):
        mark = {CORRECT: "✔", INCORRECT: "✘", NOT_ATTEMPTED: "…"}[self.status]
        text = f"{mark} {self.problem}: {self.status}"
        return f"{text}. {self.message}" if self.message else text

    def __repr__(self):
        return str(self)

    def _repr_markdown_(self):
        colour = {CORRECT: "#009E73", INCORRECT: "#D55E00", NOT_ATTEMPTED: "#666666"}[self.status]
        msg = f" {self.message}" if self.message else ""
        return f"<span style='color:{colour}'>**{self.problem}: {self.status}.**</span>{msg}"


@dataclass(frozen=True)
class Problem:
    """One exercise: ``check(*answers)`` raises :class:`NotAttempted` or :class:`Incorrect`, or returns."""

    name: str
    title: str
    points: int
    answers: tuple[str, ...]
    check: Callable[..., Any]
    hint: str
    solution: str
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
            p.check(*answers)
        except NotAttempted as exc:
            return Outcome(name, NOT_ATTEMPTED, str(exc) or f"Replace the `...` with your answer for "
                                                          f"{', '.join(p.answers)} and run the cell.")
        except Incorrect as exc:
            return Outcome(name, INCORRECT, str(exc))
        except Exception as exc:  # the learner's function raised: say which error and where
            return Outcome(name, INCORRECT, f"your code raised {type(exc).__name__}: {exc}")
        return Outcome(name, CORRECT, "")

    def check(self, name, *answers) -> Outcome:
        """Check an answer: correct / incorrect (with what is wrong) / not attempted."""
        return self.outcome(name, *answers)

    def assert_correct(self, name, *answers) -> None:
        """For (hidden) tests: raise ``AssertionError`` with the check's message unless correct."""
        out = self.outcome(name, *answers)
        if out.status != CORRECT:
            raise Incorrect(f"{out.status}: {out.message}")

    def hint(self, name) -> _Text:
        """A nudge for problem ``name``."""
        return _Text(f"**Hint ({name}):** {self._problem(name).hint}")

    def solution(self, name) -> _Text:
        """The worked solution of problem ``name`` (disabled in classroom releases)."""
        if not self.solutions_enabled:
            return _Text("Solutions are not available in this (classroom) release.")
        code = textwrap.dedent(self._problem(name).solution).strip("\n")
        return _Text(f"**Solution ({name}):**\n\n```python\n{code}\n```")

    def summary(self) -> str:
        """One line per problem: name, points, kind, title."""
        return "\n".join(f"{p.name} ({p.points} pt, {p.kind}{', book ' + p.book if p.book else ''}): {p.title}"
                         for p in self.problems.values())

    def __repr__(self):
        return f"ExerciseSet({self.key!r}, {len(self.problems)} problems: {', '.join(self.problems)})"


# ----------------------------------------------------------------------------------------- checkers
def _is_placeholder(value) -> bool:
    return value is Ellipsis or value is None


def require(value, name="your answer"):
    """Raise :class:`NotAttempted` while ``value`` is the placeholder ``...`` (or None)."""
    if _is_placeholder(value):
        raise NotAttempted(f"{name} is still `...`: replace it with your answer and run the cell.")
    return value


def _as_float(value, name):
    require(value, name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.ndarray)):
        raise Incorrect(f"{name} should be a number, got {type(value).__name__} {value!r:.60}")
    arr = np.asarray(value, dtype=float)
    if arr.ndim != 0:
        raise Incorrect(f"{name} should be one number, got an array of shape {arr.shape}")
    x = float(arr)
    if not math.isfinite(x):
        raise Incorrect(f"{name} is {x}: a finite number is expected")
    return x


def expect_number(value, expected, *, rtol=1e-6, atol=1e-9, name="your answer", mistakes=None,
                  show_expected=False):
    """Check a number against ``expected`` (relative tolerance ``rtol``).

    ``mistakes`` maps (value, message) pairs for known wrong answers, so the message says what went wrong.
    """
    x = _as_float(value, name)
    if math.isclose(x, expected, rel_tol=rtol, abs_tol=atol):
        return
    for wrong, message in (mistakes or []):
        if math.isclose(x, wrong, rel_tol=rtol, abs_tol=atol):
            raise Incorrect(message)
    direction = "too large" if x > expected else "too small"
    extra = f" (expected {expected:.6g})" if show_expected else ""
    raise Incorrect(f"{name} = {x:.6g} is {direction}{extra}.")


def expect_int(value, expected, *, name="your answer", mistakes=None):
    """Check an exact integer answer (Python int or integer NumPy scalar)."""
    require(value, name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, numbers.Real) and float(value).is_integer() and abs(float(value)) < 2 ** 53:
            value = int(value)
        else:
            raise Incorrect(f"{name} should be an exact integer (use math.comb/int arithmetic, not floats), "
                            f"got {type(value).__name__}")
    value = int(value)
    if value == expected:
        return
    for wrong, message in (mistakes or []):
        if value == wrong:
            raise Incorrect(message)
    raise Incorrect(f"{name} = {value} is too {'large' if value > expected else 'small'}.")


def expect_choice(value, correct, options, *, name="your answer", explanations=None):
    """Check a choice among ``options`` (strings, compared case-insensitively, stripped)."""
    require(value, name)
    if not isinstance(value, str):
        raise Incorrect(f"{name} should be one of {', '.join(map(repr, options))} (a string), got {value!r:.60}")
    v = value.strip().lower()
    opts = [o.lower() for o in options]
    if v not in opts:
        raise Incorrect(f"{name} = {value!r} is not one of the options {', '.join(map(repr, options))}.")
    if v == correct.lower():
        return
    raise Incorrect((explanations or {}).get(options[opts.index(v)], f"{name} = {value!r} is not the best choice."))


def expect_reason(value, *, name="your justification", min_words=6, keywords=None):
    """A justification must be a sentence (at least ``min_words`` words); with ``keywords``, one of them must
    appear (a light check: the instructor reads the reasons in the CSV)."""
    require(value, name)
    if not isinstance(value, str) or len(value.split()) < min_words:
        raise Incorrect(f"{name} should be a sentence of at least {min_words} words.")
    if keywords and not any(k.lower() in value.lower() for k in keywords):
        raise Incorrect(f"{name} does not mention the deciding idea (for example: {', '.join(keywords[:3])}).")


def expect_array(value, expected, *, rtol=1e-6, atol=1e-9, name="your answer"):
    """Check an array (shape and values)."""
    require(value, name)
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise Incorrect(f"{name} should be an array of numbers, got {type(value).__name__}") from None
    exp = np.asarray(expected, dtype=float)
    if arr.shape != exp.shape:
        raise Incorrect(f"{name} has shape {arr.shape}, expected {exp.shape}.")
    if not np.allclose(arr, exp, rtol=rtol, atol=atol, equal_nan=False):
        bad = int(np.argmax(~np.isclose(arr, exp, rtol=rtol, atol=atol)))
        raise Incorrect(f"{name} differs first at index {bad}: {arr.flat[bad]:.6g} instead of {exp.flat[bad]:.6g}.")


def _short(x):
    s = repr(np.asarray(x).tolist()) if isinstance(x, (list, tuple, np.ndarray)) else repr(x)
    return s if len(s) <= 70 else s[:67] + "..."


def expect_function(func, reference, cases, *, name=None, rtol=1e-9, atol=1e-12, raises=(), compare=None):
    """Call ``func`` on each case (a tuple of arguments, or ``(label, args)``) and compare with ``reference``.

    A function whose body is still ``...`` (returns None) or raises ``NotImplementedError`` is not attempted.
    ``raises`` lists cases on which both must raise ``ValueError`` (bad input).
    The message names the first failing case, so a learner sees which situation (ties, one class, ...) is wrong.
    """
    require(func, "your function")
    if not callable(func):
        raise Incorrect(f"{name or 'your answer'} should be a function, got {type(func).__name__}")
    name = name or getattr(func, "__name__", "your function")
    for i, case in enumerate(cases):
        label, args = (case if isinstance(case, tuple) and len(case) == 2 and isinstance(case[0], str)
                       else (None, case))
        args = tuple(args)
        try:
            got = func(*copy.deepcopy(args))        # a learner's function may modify its inputs
        except NotImplementedError:
            raise NotAttempted(f"{name} still raises NotImplementedError.") from None
        except Exception as exc:
            where = f" ({label})" if label else ""
            raise Incorrect(f"{name}{_short(args)}{where} raised {type(exc).__name__}: {exc}") from None
        if i == 0 and _is_placeholder(got):
            raise NotAttempted(f"{name} returns None: write its body (replace the `...`).")
        want = reference(*args)
        try:
            ok = compare(got, want) if compare else np.allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=rtol, atol=atol) \
                and np.shape(got) == np.shape(want)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            where = f" [{label}]" if label else ""
            raise Incorrect(f"{name}{_short(args)}{where} returned {_short(got)}, expected {_short(want)}.")
    for args in raises:
        try:
            func(*args)
        except ValueError:
            continue
        except Exception as exc:
            raise Incorrect(f"{name}{_short(args)} should raise ValueError (bad input), raised "
                            f"{type(exc).__name__}") from None
        raise Incorrect(f"{name}{_short(args)} should raise ValueError (bad input) but returned.")


# ----------------------------------------------------------------------------------------- registry
_BUILDERS: dict[str, Callable[[], ExerciseSet]] = {}


def _register(key):
    def deco(fn):
        _BUILDERS[key] = fn
        return fn
    return deco


def available_sets() -> list[str]:
    """Keys of the exercise sets ("01", "02", ...)."""
    return sorted(_BUILDERS)


def exercise_set(key, *, solutions=True) -> ExerciseSet:
    """The exercise set for chapter notebook ``key`` ("02" or "02_evaluation_methods").

    ``solutions=False`` (classroom releases) makes ``solution()`` decline.
    """
    k = str(key)[:2]
    if k not in _BUILDERS:
        raise ValueError(f"key: no exercise set {key!r}; available: {', '.join(available_sets())}")
    ex = _BUILDERS[k]()
    ex.solutions_enabled = bool(solutions)
    return ex


def _set(key, title, problems):
    return ExerciseSet(key, title, {p.name: p for p in problems})



# ----------------------------------------------------------------------------------------- autograder side
# scripts/autograde.py appends cells that call these two functions in the student's kernel; each writes one
# JSON line to the results file, so a cell that is interrupted or kills the kernel simply leaves no line.
def _write_result(path, row):
    import json
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")


def _autograde_attempt(namespace, path, tag, key, name):
    """Record whether problem ``name`` was attempted (its answer names exist and are not placeholders)."""
    try:
        p = exercise_set(key)._problem(name)
        missing = [a for a in p.answers if a not in namespace]
        if missing:
            status, msg = "missing", (f"{', '.join(missing)} is not defined: its cell was deleted, raised an "
                                      f"error, or ran before the cells it needs")
        else:
            out = exercise_set(key).outcome(name, *[namespace[a] for a in p.answers])
            status = NOT_ATTEMPTED if out.status == NOT_ATTEMPTED else "attempted"
            msg = out.message if out.status == NOT_ATTEMPTED else ""
    except BaseException as exc:  # noqa: BLE001  (a learner's object may raise anything, even on repr)
        status, msg = "attempted", f"({type(exc).__name__} while checking)"
    texts = {}
    try:  # free-text answers (choices, justifications) go to the feedback table for the instructor to read
        texts = {a: namespace[a][:500] for a in exercise_set(key)._problem(name).answers
                 if type(namespace.get(a)) is str}
    except BaseException:  # noqa: BLE001
        pass
    _write_result(path, {"tag": tag, "kind": "attempt", "problem": name, "status": status, "message": msg,
                         "texts": texts})


def _autograde_test(namespace, path, tag, name, index, source):
    """Run one hidden test (otter style: code that passes when it raises nothing) on a copy of the namespace."""
    ns = dict(namespace)
    try:
        exec(compile(source, f"<hidden test {name}.{index + 1}>", "exec"), ns)
        passed, msg = True, ""
    except KeyboardInterrupt:
        passed, msg = False, "stopped: the time limit was reached"
    except AssertionError as exc:
        passed, msg = False, str(exc) or "a check failed"
    except BaseException as exc:  # noqa: BLE001
        passed, msg = False, f"{type(exc).__name__}: {str(exc)[:300]}"
    _write_result(path, {"tag": tag, "kind": "test", "problem": name, "test": index, "passed": passed,
                         "message": msg[:1000]})


# =========================================================================================== the sets
# Each set lists its problems: the check (evallib is the oracle), a hint and a worked solution. The answer
# cells, the figures and the hidden tests are in the instructor notebooks exercises/source/NN_*.ipynb.

_CACHE: dict = {}


def _cached(key, compute):
    """Expected values are computed once per process (checks run again and again while grading)."""
    if key not in _CACHE:
        _CACHE[key] = compute()
    return _CACHE[key]


def _breast_cancer_holdout():
    import evallib as el
    X, y = el.data.load_bundled("breast_cancer")
    train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
    return X, y, train, test


# ------------------------------------------------------------------------------- 01 error and fitting
@_register("01")
def _set_01():
    import evallib as el

    def _q1():
        from sklearn.tree import DecisionTreeClassifier
        X, y, train, test = _breast_cancer_holdout()
        tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[train], y[train])
        return (el.metrics.error_rate(y[test], tree.predict(X[test])),
                el.metrics.error_rate(y[train], tree.predict(X[train])), len(test))

    def q1(answer):
        expected, train_err, m = _cached("01q1", _q1)
        expect_number(answer, expected, name="q1", mistakes=[
            (train_err, "that is the error on the training set; evaluate on the test indices."),
            (1 - expected, "that is the accuracy; the error rate is 1 − accuracy."),
            (expected * m, "that is the number of mistakes a; divide by m.")])

    def q2(func):
        cases = [("integer labels", ([1, 0, 1, 1], [1, 1, 1, 0])),
                 ("all correct", ([0, 1, 2], [0, 1, 2])),
                 ("string labels", (["good", "bad", "good"], ["bad", "bad", "good"]))]
        expect_function(func, el.metrics.error_rate, cases, name="error_rate",
                        raises=[([], []), ([1, 0], [1])])

    def q3(answer):
        exp = _cached("01q3", lambda: el.fitting.polynomial_experiment(20, noise_std=0.25, random_state=0))
        expect_int(answer, int(exp.best_degree), name="q3", mistakes=[
            (int(np.argmin(exp.train_mse)), "that is where the *training* error is lowest; read the test curve."),
            (len(exp.train_mse) - 1, "that is where the *training* error is lowest; read the test curve.")])

    def q4(choice, reason):
        expect_choice(choice, "B", ["A", "B"], name="q4", explanations={
            "A": "A's zero training error came with the higher test error: it memorised the training data."})
        expect_reason(reason, name="q4_reason", keywords=["test", "generali", "over", "unseen", "new"])

    return _set("01", "Error and over-fitting", [
        Problem("q1", "Hold-out error of a depth-3 tree on the breast-cancer data", 2, ("q1",), q1,
                "Fit on `X[train]`, predict `X[test]`, and compare with `y[test]` through `el.metrics.error_rate`.",
                """
                from sklearn.tree import DecisionTreeClassifier
                X, y = el.data.load_bundled("breast_cancer")
                train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
                tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[train], y[train])
                q1 = el.metrics.error_rate(y[test], tree.predict(X[test]))
                """),
        Problem("q2", "Implement the error rate E = a/m", 3, ("error_rate",), q2,
                "Compare the two arrays elementwise, count the mismatches, divide by m; check the inputs first.",
                """
                def error_rate(y_true, y_pred):
                    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
                    if y_true.size == 0:
                        raise ValueError("y_true is empty")
                    if y_true.shape != y_pred.shape:
                        raise ValueError("y_true and y_pred have different lengths")
                    return float(np.mean(y_true != y_pred))
                """, kind="implement",
                stub="def error_rate(y_true, y_pred):\n    '''E = a/m for any labels; ValueError on empty input or a length mismatch.'''\n    ..."),
        Problem("q3", "Read the best polynomial degree off the figure", 1, ("q3",), q3,
                "Find the lowest point of the *test* curve, not the training curve.",
                "q3 = el.fitting.polynomial_experiment(20, noise_std=0.25, random_state=0).best_degree",
                kind="plot"),
        Problem("q4", "Which model would you deploy?", 2, ("q4", "q4_reason"), q4,
                "The quantity we care about is the error on data the model has not seen.",
                """
                q4 = "B"
                q4_reason = "B has the lower test error; A's zero training error with a higher test error is over-fitting."
                """, kind="choose"),
    ])


# ------------------------------------------------------------------------------- 02 evaluation methods
@_register("02")
def _set_02():
    import math
    import evallib as el

    def q1(answer):
        expect_int(answer, math.comb(500, 150) ** 2, name="q1", mistakes=[
            (math.comb(1000, 300), "that counts every 300-sample test set; stratification fixes 150 of each class."),
            (math.comb(500, 150), "that counts the choices for one class only; both classes are chosen independently."),
            (2 * math.comb(500, 150), "the two choices are independent: multiply the counts, do not add them.")])

    def _q2():
        from sklearn.dummy import DummyClassifier
        Xt, yt = el.data.make_majority_trap(100)
        maj = DummyClassifier(strategy="most_frequent")
        return (el.evaluation.evaluate(maj, Xt, yt, el.splits.KFold(10, random_state=0)).mean(),
                el.evaluation.evaluate(maj, Xt, yt, el.splits.LeaveOneOut()).mean())

    def q2(cv_error, loo_error):
        cv, loo = _cached("02q2", _q2)
        expect_number(cv_error, cv, name="q2_cv", mistakes=[
            (loo, "with stratified folds every training set has 45 of each class; what does a tie predict?")])
        expect_number(loo_error, loo, name="q2_loo", mistakes=[
            (cv, "leave one out: the training set has 49 of the left-out sample's class and 50 of the other.")])

    def _fold_sizes(m, k):
        from sklearn.model_selection import KFold as SKFold
        if not (isinstance(k, (int, np.integer)) and 2 <= k <= m):
            raise ValueError("k must be an integer with 2 <= k <= m")
        return np.array([len(t) for _, t in SKFold(k).split(np.zeros((m, 1)))])

    def q3(func):
        cases = [("m divisible by k", (100, 10)), ("remainder", (10, 3)), ("leave-one-out, k = m", (17, 17)),
                 ("remainder 4", (17, 5))]
        expect_function(func, _fold_sizes, cases, name="fold_sizes", raises=[(5, 6), (5, 1)])

    def _q4():
        from sklearn.naive_bayes import GaussianNB
        X, y = el.data.load_bundled("breast_cancer")
        return el.evaluation.evaluate(GaussianNB(), X, y, el.splits.KFold(10, n_repeats=10, random_state=0))

    def q4(answer):
        errs = _cached("02q4", _q4)
        expect_number(answer, errs.mean(), name="q4", mistakes=[
            (1 - errs.mean(), "that is the accuracy; report the error rate."),
            (errs[:10].mean(), "that is the first repeat only; average all 10 × 10 folds.")])

    def q5(choice, reason):
        expect_choice(choice, "stratified", ["stratified", "plain"], name="q5", explanations={
            "plain": "with 5 % positives, unstratified folds can get very few or no positives: the estimates vary "
                     "needlessly and recall may be undefined in a fold."})
        expect_reason(reason, name="q5_reason", keywords=["class", "proportion", "positive", "ratio", "distribution"])

    def q6(answer):
        expect_number(answer, el.splits.out_of_bag_fraction(5), rtol=0, atol=0.012, name="q6", mistakes=[
            (float(np.exp(-1)), "0.368 is the limit for large m (the dashed line); read the curve at m = 5.")])

    return _set("02", "Evaluation methods", [
        Problem("q1", "Exercise 2.1: how many stratified 70/30 splits of 1000 samples?", 2, ("q1",), q1,
                "Stratified: the test set takes 150 of the 500 positives *and* 150 of the 500 negatives; "
                "`math.comb(n, k)` counts one choice.",
                "from math import comb\nq1 = comb(500, 150) * comb(500, 150)", book="2.1"),
        Problem("q2", "Exercise 2.2: the majority learner under 10-fold CV and leave-one-out", 2,
                ("q2_cv", "q2_loo"), q2,
                "Count the classes in each training set. In stratified 10-fold CV: 45 + 45 (a tie). "
                "In leave-one-out: 49 of the left-out sample's class, 50 of the other.",
                """
                from sklearn.dummy import DummyClassifier
                Xt, yt = el.data.make_majority_trap(100)
                majority = DummyClassifier(strategy="most_frequent")
                q2_cv = el.evaluation.evaluate(majority, Xt, yt, el.splits.KFold(10, random_state=0)).mean()
                q2_loo = el.evaluation.evaluate(majority, Xt, yt, el.splits.LeaveOneOut()).mean()
                """, book="2.2", stub="q2_cv = ...\nq2_loo = ..."),
        Problem("q3", "Implement k-fold test-fold sizes", 3, ("fold_sizes",), q3,
                "m // k samples per fold, and the first m % k folds get one more. Check k first.",
                """
                def fold_sizes(m, k):
                    if not isinstance(k, (int, np.integer)) or not 2 <= k <= m:
                        raise ValueError(f"k must be an integer with 2 <= k <= m, got {k!r}")
                    sizes = np.full(k, m // k)
                    sizes[: m % k] += 1
                    return sizes
                """, kind="implement",
                stub="def fold_sizes(m, k):\n    '''Sizes of the k test folds of m samples (differing by at most 1, larger ones first);\n    ValueError unless 2 <= k <= m.'''\n    ..."),
        Problem("q4", "10 × 10-fold CV error of naive Bayes on the breast-cancer data", 2, ("q4",), q4,
                "`el.evaluation.evaluate(GaussianNB(), X, y, splitter)` returns one error per fold; average them.",
                """
                from sklearn.naive_bayes import GaussianNB
                X, y = el.data.load_bundled("breast_cancer")
                q4 = el.evaluation.evaluate(GaussianNB(), X, y, el.splits.KFold(10, n_repeats=10, random_state=0)).mean()
                """),
        Problem("q5", "Stratified or plain folds for a 95:5 data set?", 2, ("q5", "q5_reason"), q5,
                "How many positives can a fold of 400 samples end up with if nobody controls it?",
                """
                q5 = "stratified"
                q5_reason = "Stratified folds keep the 5 % positive class proportion in every fold, so no fold lacks positives."
                """, kind="choose"),
        Problem("q6", "Read the out-of-bag fraction at m = 5 off the figure", 1, ("q6",), q6,
                "Find m = 5 on the logarithmic x axis and read the solid curve (two decimals are enough).",
                "q6 = 0.33   # (1 - 1/5)**5 = 0.328", kind="plot"),
    ])


# ------------------------------------------------------------------------------- shared data of 04-06
def _tumours():
    """Notebooks 04-06: malignant = 1, three weak features, HoldOut(0.3, random_state=0), logistic regression."""
    def make():
        import evallib as el
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        X, target = el.data.load_bundled("breast_cancer")
        y = 1 - target
        X = X[:, [1, 4, 9]]
        train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
        clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[train], y[train])
        return y[test], clf.predict_proba(X[test])[:, 1]
    return _cached("tumours", make)


_TUMOURS_CODE = """
X, target = el.data.load_bundled("breast_cancer")
y = 1 - target                                   # malignant = 1 = positive
X = X[:, [1, 4, 9]]                              # three weak features, as in notebooks 04-06
train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[train], y[train])
y_test, proba = y[test], clf.predict_proba(X[test])[:, 1]
"""


# ------------------------------------------------------------------------------- 03 tuning and final model
@_register("03")
def _set_03():
    import evallib as el

    def _q1():
        from sklearn.tree import DecisionTreeClassifier
        X, y = el.data.load_bundled("breast_cancer")
        dev, test = next(el.splits.HoldOut(0.25, random_state=0).split(X, y))
        tr, va = next(el.splits.HoldOut(1 / 3, random_state=0).split(X[dev], y[dev]))
        val = [DecisionTreeClassifier(max_depth=d, random_state=0).fit(X[dev[tr]], y[dev[tr]])
               .score(X[dev[va]], y[dev[va]]) for d in (1, 2, 3, 4, 5)]
        best = (1, 2, 3, 4, 5)[int(np.argmax(val))]
        final = DecisionTreeClassifier(max_depth=best, random_state=0).fit(X[dev], y[dev])
        no_refit = DecisionTreeClassifier(max_depth=best, random_state=0).fit(X[dev[tr]], y[dev[tr]])
        return best, final.score(X[test], y[test]), max(val), no_refit.score(X[test], y[test])

    def q1(depth, test_acc):
        best, acc, val, no_refit = _cached("03q1", _q1)
        expect_int(depth, best, name="q1_depth")
        expect_number(test_acc, acc, name="q1_test", mistakes=[
            (val, "that is the validation accuracy of the winner: optimistic, it was used to choose."),
            (1 - acc, "report the accuracy, not the error rate."),
            (no_refit, "refit the winner on the whole development set (training + validation) before testing.")])

    def _minmax(train, new, lo=0.0, hi=1.0):
        train, new = np.asarray(train, dtype=float), np.asarray(new, dtype=float)
        mn, mx = train.min(axis=0), train.max(axis=0)
        if np.any(mx == mn):
            raise ValueError("a constant feature cannot be min-max scaled")
        return lo + (new - mn) / (mx - mn) * (hi - lo)

    def q2(func):
        rng = np.random.default_rng(3)
        tr = rng.normal(size=(8, 3))
        cases = [("1-D, [0, 1]", ([2.0, 4.0, 6.0], [3.0, 6.0])),
                 ("columns scaled separately", (tr, tr[:3])),
                 ("new value outside the training range", ([0.0, 10.0], [12.0, -5.0])),
                 ("target range [-1, 1]", ([1.0, 2.0, 3.0], [2.0], -1.0, 1.0))]
        expect_function(func, _minmax, cases, name="minmax", raises=[([5.0, 5.0], [5.0])])

    def q3(choice, reason):
        expect_choice(choice, "min-max", ["min-max", "z-score"], name="q3", explanations={
            "z-score": "an outlier shifts the mean and inflates σ, but min-max divides by the range, which the "
                       "outlier *is*: the other values are squeezed into a sliver of [0, 1]."})
        expect_reason(reason, name="q3_reason", keywords=["range", "max", "min", "outlier", "extreme"])

    def q4(answer):
        expected = el.biasvar.expected_best_accuracy(25, 142, 0.9) - 0.9
        expect_number(answer, expected, rtol=0, atol=0.006, name="q4", mistakes=[
            (expected + 0.9, "read the *optimism*: the expected best accuracy minus the true 0.90.")])

    return _set("03", "Tuning and the final model", [
        Problem("q1", "Tune the depth on a validation set, refit, test once", 3, ("q1_depth", "q1_test"), q1,
                "Choose by validation accuracy (first best on ties), then fit the chosen depth on train + validation "
                "(= dev) and score it on the test set.",
                """
                from sklearn.tree import DecisionTreeClassifier
                X, y = el.data.load_bundled("breast_cancer")
                dev, test = next(el.splits.HoldOut(0.25, random_state=0).split(X, y))
                tr, va = next(el.splits.HoldOut(1 / 3, random_state=0).split(X[dev], y[dev]))
                depths = [1, 2, 3, 4, 5]
                val = [DecisionTreeClassifier(max_depth=d, random_state=0).fit(X[dev[tr]], y[dev[tr]])
                       .score(X[dev[va]], y[dev[va]]) for d in depths]
                q1_depth = depths[int(np.argmax(val))]
                final = DecisionTreeClassifier(max_depth=q1_depth, random_state=0).fit(X[dev], y[dev])
                q1_test = final.score(X[test], y[test])
                """, stub="q1_depth = ...\nq1_test = ..."),
        Problem("q2", "Exercise 2.8: implement min-max normalisation", 3, ("minmax",), q2,
                "x' = lo + (x − x_min)(hi − lo)/(x_max − x_min), with x_min, x_max per column of the *training* "
                "data (`axis=0`), applied to `new`.",
                """
                def minmax(train, new, lo=0.0, hi=1.0):
                    train, new = np.asarray(train, dtype=float), np.asarray(new, dtype=float)
                    mn, mx = train.min(axis=0), train.max(axis=0)
                    if np.any(mx == mn):
                        raise ValueError("a constant feature cannot be min-max scaled")
                    return lo + (new - mn) / (mx - mn) * (hi - lo)
                """, kind="implement", book="2.8",
                stub="def minmax(train, new, lo=0.0, hi=1.0):\n    '''Scale `new` with the per-column min and max of `train` to [lo, hi]\n    (式: x' = lo + (x - x_min)(hi - lo)/(x_max - x_min)); ValueError for a constant column.'''\n    ..."),
        Problem("q3", "Exercise 2.8: which normalisation does one outlier hurt most?", 2, ("q3", "q3_reason"), q3,
                "Add one value of 1000 to data between 0 and 10 and normalise both ways.",
                """
                q3 = "min-max"
                q3_reason = "Min-max divides by the range, so one extreme max squeezes all other values near 0; z-score uses the mean and standard deviation of all values."
                """, kind="choose", book="2.8"),
        Problem("q4", "Read the winner's optimism at k = 25 off the figure", 1, ("q4",), q4,
                "Optimism = expected validation accuracy of the best of k − the true accuracy 0.90.",
                "q4 = 0.046   # read off the figure: the curve is at about 0.946 at k = 25, the truth is 0.90",
                kind="plot"),
    ])


# ------------------------------------------------------------------------------- 04 classification metrics
@_register("04")
def _set_04():
    import evallib as el

    def q1(p, r, f1):
        y_test, proba = _tumours()
        y_pred = (proba >= 0.5).astype(int)
        P, R = el.metrics.precision(y_test, y_pred), el.metrics.recall(y_test, y_pred)
        expect_number(p, P, name="q1_precision", mistakes=[(R, "that is the recall: TP / (TP + FN).")])
        expect_number(r, R, name="q1_recall", mistakes=[(P, "that is the precision: TP / (TP + FP).")])
        expect_number(f1, el.metrics.f1_score(y_test, y_pred), name="q1_f1", mistakes=[
            ((P + R) / 2, "F1 is the harmonic mean 2PR/(P + R), not the arithmetic mean.")])

    def q2(func):
        cases = [("beta = 1", ([1, 0, 1, 1, 0], [1, 1, 0, 1, 0], 1.0)),
                 ("beta = 2 weighs recall", ([1, 0, 1, 1, 0, 1], [1, 1, 0, 0, 0, 1], 2.0)),
                 ("beta = 0.5 weighs precision", ([1, 0, 1, 1, 0, 1], [1, 1, 0, 0, 0, 1], 0.5))]
        expect_function(func, el.metrics.fbeta_score, cases, name="fbeta")

    def q3(choice, reason):
        expect_choice(choice, "TPR = recall", ["TPR = recall", "TPR = precision", "FPR = 1 - precision",
                                               "FPR = 1 - recall"], name="q3", explanations={
            "TPR = precision": "precision divides by the predicted positives TP + FP; TPR divides by the actual positives.",
            "FPR = 1 - precision": "1 − precision = FP/(TP + FP); FPR = FP/(FP + TN) divides by the actual negatives.",
            "FPR = 1 - recall": "1 − recall = FN/(TP + FN) is the false *negative* rate."})
        expect_reason(reason, name="q3_reason", keywords=["TP", "FN", "positive", "denominator"])

    def _q4():
        from sklearn.naive_bayes import GaussianNB
        Xw, yw = el.data.load_bundled("wine")
        tr, te = next(el.splits.HoldOut(0.5, random_state=1).split(Xw, yw))
        pred = GaussianNB().fit(Xw[tr], yw[tr]).predict(Xw[te])
        cms = np.array([el.metrics.confusion_matrix(yw[te] == c, pred == c, pos_label=True) for c in range(3)])
        f1s = [el.metrics.f1_score(yw[te] == c, pred == c, pos_label=True) for c in range(3)]
        return el.metrics.macro_average(cms).f1, el.metrics.micro_average(cms).f1, float(np.mean(f1s))

    def q4(answer):
        macro, micro, mean_f1 = _cached("04q4", _q4)
        expect_number(answer, macro, name="q4", mistakes=[
            (mean_f1, "that is scikit-learn's macro-F1 (the mean of the per-class F1). The book's macro-F1 "
                      "(式(2.14)) is the harmonic mean of macro-P and macro-R."),
            (micro, "that is the micro-F1: average TP, FP, FN first.")])

    def q5(answer):
        y_test, proba = _tumours()
        cm = el.metrics.confusion_matrix(y_test, (proba >= 0.5).astype(int))
        expect_int(answer, int(cm[0, 1]), name="q5", mistakes=[
            (int(cm[1, 0]), "that cell is FP (a benign tumour flagged); FN is a true positive predicted negative."),
            (int(cm[0, 0]), "that is TP; FN sits in the positive row, negative column.")])

    return _set("04", "Classification metrics", [
        Problem("q1", "Precision, recall and F1 of the tumour classifier", 2, ("q1_precision", "q1_recall", "q1_f1"),
                q1, "Predict malignant where the probability is ≥ 0.5, then `el.metrics.precision/recall/f1_score`.",
                "from sklearn.pipeline import make_pipeline\nfrom sklearn.preprocessing import StandardScaler\n"
                "from sklearn.linear_model import LogisticRegression\n" + _TUMOURS_CODE.strip() + """
y_pred = (proba >= 0.5).astype(int)
q1_precision = el.metrics.precision(y_test, y_pred)
q1_recall = el.metrics.recall(y_test, y_pred)
q1_f1 = el.metrics.f1_score(y_test, y_pred)""", stub="q1_precision = ...\nq1_recall = ...\nq1_f1 = ..."),
        Problem("q2", "Implement F-beta from its formula", 3, ("fbeta",), q2,
                "Count TP, FP, FN; P = TP/(TP+FP), R = TP/(TP+FN); F_β = (1+β²)PR/(β²P + R) (式(2.11)). "
                "Both P and R undefined (0/0) or P + R = 0: raise ValueError.",
                """
                def fbeta(y_true, y_pred, beta):
                    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
                    if y_true.shape != y_pred.shape or y_true.size == 0:
                        raise ValueError("y_true and y_pred must be non-empty and of equal length")
                    tp = np.sum((y_true == 1) & (y_pred == 1))
                    fp = np.sum((y_true == 0) & (y_pred == 1))
                    fn = np.sum((y_true == 1) & (y_pred == 0))
                    if tp == 0:
                        raise ValueError("F-beta is undefined without true positives")
                    p, r = tp / (tp + fp), tp / (tp + fn)
                    return float((1 + beta**2) * p * r / (beta**2 * p + r))
                """, kind="implement",
                stub="def fbeta(y_true, y_pred, beta):\n    '''F_beta of 式(2.11) for labels {0, 1}; ValueError when it is undefined (no true positives).'''\n    ..."),
        Problem("q3", "Exercise 2.4: TPR, FPR, precision and recall", 2, ("q3", "q3_reason"), q3,
                "Write each as a fraction of confusion-matrix cells and compare the denominators.",
                """
                q3 = "TPR = recall"
                q3_reason = "Both are TP / (TP + FN): the share of actual positives found; FPR = FP/(FP + TN) has no counterpart among P and R."
                """, kind="choose", book="2.4"),
        Problem("q4", "The book's macro-F1 on the wine data", 2, ("q4",), q4,
                "`el.metrics.macro_average(confusion_matrices).f1`, with one-vs-rest matrices per class.",
                """
                from sklearn.naive_bayes import GaussianNB
                Xw, yw = el.data.load_bundled("wine")
                tr, te = next(el.splits.HoldOut(0.5, random_state=1).split(Xw, yw))
                pred = GaussianNB().fit(Xw[tr], yw[tr]).predict(Xw[te])
                cms = [el.metrics.confusion_matrix(yw[te] == c, pred == c, pos_label=True) for c in range(3)]
                q4 = el.metrics.macro_average(cms).f1
                """),
        Problem("q5", "Read the missed cancers off the confusion-matrix figure", 1, ("q5",), q5,
                "The book's layout: rows = true class (+, −), columns = predicted class (+, −).",
                "q5 = 25   # the cell in row 'true +', column 'predicted −'", kind="plot"),
    ])


# ------------------------------------------------------------------------------- 05 ROC and P-R curves
@_register("05")
def _set_05():
    import evallib as el

    def q1(func):
        cases = [("no ties", ([1, 0, 1, 0, 1], [0.9, 0.8, 0.7, 0.3, 0.2])),
                 ("a tied positive-negative pair counts 1/2", ([1, 0, 1, 0], [0.7, 0.7, 0.2, 0.1])),
                 ("perfect ranking", ([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]))]
        expect_function(func, el.curves.rank_loss, cases, name="rank_loss", raises=[([1, 1, 1], [0.2, 0.3, 0.4])])

    def q2(auc, loss):
        y_test, proba = _tumours()
        a = el.curves.roc_auc(y_test, proba)
        expect_number(auc, a, name="q2_auc", mistakes=[(1 - a, "that is ℓ_rank; AUC = 1 − ℓ_rank.")])
        expect_number(loss, 1 - a, name="q2_rank_loss", mistakes=[(a, "that is the AUC; ℓ_rank = 1 − AUC.")])

    def q3(y, a, b):
        for nm, v in (("q3_y", y), ("q3_a", a), ("q3_b", b)):
            require(v, nm)
        try:
            y, a, b = np.asarray(y), np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        except (TypeError, ValueError):
            raise Incorrect("q3_y, q3_a, q3_b should be arrays of labels and scores") from None
        if not (y.ndim == a.ndim == b.ndim == 1 and len(y) == len(a) == len(b) >= 2):
            raise Incorrect("q3_y, q3_a and q3_b must be 1-D and of the same length")
        if set(np.unique(y).tolist()) != {0, 1}:
            raise Incorrect("q3_y must contain both labels 0 and 1")
        f = [el.metrics.f1_score(y, (s >= 0.5).astype(int), zero_division=0.0) for s in (a, b)]
        bep = [el.curves.break_even_point(y, s) for s in (a, b)]
        if not f[0] > f[1]:
            raise Incorrect(f"F1 at threshold 0.5: A {f[0]:.3f}, B {f[1]:.3f}; A's must be higher.")
        if not bep[0] < bep[1]:
            raise Incorrect(f"F1 is right (A {f[0]:.3f} > B {f[1]:.3f}), but BEP: A {bep[0]:.3f}, B {bep[1]:.3f}; "
                            f"A's must be lower.")

    def q4(answer):
        y_test, proba = _tumours()
        fpr, tpr, _ = el.curves.roc_curve(y_test, proba)
        m_pos, m_neg = y_test.sum(), len(y_test) - y_test.sum()
        errs = (fpr * m_neg + (1 - tpr) * m_pos) / len(y_test)
        expect_number(answer, float(errs.min()), name="q4", mistakes=[
            (el.metrics.error_rate(y_test, (proba >= 0.5).astype(int)),
             "that is the error at threshold 0.5; some other ROC point has a lower error rate."),
            (float(np.min(fpr + 1 - tpr)), "weight the rates by the class sizes: E = (FPR·m⁻ + FNR·m⁺)/m.")])

    def q5(choice):
        y_test, proba = _tumours()
        expect_choice(choice, "A", ["A", "B"], name="q5", explanations={
            "B": "B is the curve closer to the diagonal (a shuffled copy of A's scores); it has the smaller area."})

    return _set("05", "ROC and P-R curves", [
        Problem("q1", "Exercise 2.5: implement the ranking loss ℓ_rank", 3, ("rank_loss",), q1,
                "Compare every positive score with every negative score (broadcasting: `pos[:, None] < neg[None, :]`); "
                "a misordered pair counts 1, a tie 1/2; divide by m⁺·m⁻ (式(2.21)).",
                """
                def rank_loss(y_true, scores):
                    y_true, scores = np.asarray(y_true), np.asarray(scores, dtype=float)
                    pos, neg = scores[y_true == 1], scores[y_true == 0]
                    if len(pos) == 0 or len(neg) == 0:
                        raise ValueError("rank_loss needs both classes")
                    wrong = (pos[:, None] < neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
                    return float(wrong / (len(pos) * len(neg)))
                """, kind="implement", book="2.5",
                stub="def rank_loss(y_true, scores):\n    '''l_rank of 式(2.21): misordered (positive, negative) pairs, ties counting 1/2, over m+ m-;\n    ValueError unless both classes occur.'''\n    ..."),
        Problem("q2", "Exercise 2.5: AUC = 1 − ℓ_rank on the tumour data", 2, ("q2_auc", "q2_rank_loss"), q2,
                "`el.curves.roc_auc` and `el.curves.rank_loss` on the test labels and probabilities.",
                "from sklearn.pipeline import make_pipeline\nfrom sklearn.preprocessing import StandardScaler\n"
                "from sklearn.linear_model import LogisticRegression\n" + _TUMOURS_CODE.strip() + """
q2_auc = el.curves.roc_auc(y_test, proba)
q2_rank_loss = el.curves.rank_loss(y_test, proba)
assert np.isclose(q2_auc, 1 - q2_rank_loss)""", book="2.5", stub="q2_auc = ...\nq2_rank_loss = ..."),
        Problem("q3", "Exercise 2.3: higher F1 but lower BEP", 3, ("q3_y", "q3_a", "q3_b"), q3,
                "F1 looks at one threshold (0.5), BEP at the point where P = R (cut after the m⁺ top scores). "
                "Try 4 samples, 2 positive: make A right at 0.5 but misorder its top two, make B rank perfectly "
                "but put every score below 0.5 except one.",
                """
                q3_y = np.array([1, 1, 0, 0])
                q3_a = np.array([0.8, 0.6, 0.9, 0.1])   # threshold 0.5: TP 2, FP 1 -> F1 0.8; top 2 hold one positive: BEP 0.5
                q3_b = np.array([0.6, 0.4, 0.3, 0.2])   # threshold 0.5: TP 1, FP 0 -> F1 0.667; perfect ranking: BEP 1
                """, kind="choose", book="2.3", stub="q3_y = ...   # labels, 0/1\nq3_a = ...   # scores of A\nq3_b = ...   # scores of B"),
        Problem("q4", "Exercise 2.6: the lowest error rate on the ROC curve", 2, ("q4",), q4,
                "Each ROC point is one threshold; its error rate is (FP + FN)/m = (FPR·m⁻ + (1 − TPR)·m⁺)/m.",
                "from sklearn.pipeline import make_pipeline\nfrom sklearn.preprocessing import StandardScaler\n"
                "from sklearn.linear_model import LogisticRegression\n" + _TUMOURS_CODE.strip() + """
fpr, tpr, thresholds = el.curves.roc_curve(y_test, proba)
m_pos, m_neg = y_test.sum(), len(y_test) - y_test.sum()
q4 = float(np.min((fpr * m_neg + (1 - tpr) * m_pos) / len(y_test)))""", book="2.6"),
        Problem("q5", "Read the figure: which ROC curve has the larger AUC?", 1, ("q5",), q5,
                "The larger area is under the curve that bends further towards the top-left corner.",
                'q5 = "A"', kind="plot"),
    ])


# ------------------------------------------------------------------------------- 06 cost-sensitive
@_register("06")
def _set_06():
    import evallib as el

    def q1(answer):
        y_test, proba = _tumours()
        pred = (proba >= 0.5).astype(int)
        expect_number(answer, el.metrics.cost_sensitive_error(y_test, pred, cost_fn=5, cost_fp=1), name="q1",
                      mistakes=[(el.metrics.cost_sensitive_error(y_test, pred, cost_fn=1, cost_fp=5),
                                 "the costs are swapped: a missed cancer (a false negative) costs 5."),
                                (el.metrics.error_rate(y_test, pred), "that is the plain error rate (both costs 1).")])

    def q2(threshold, cost):
        y_test, proba = _tumours()
        ts = np.unique(proba)
        costs = np.array([el.metrics.cost_sensitive_error(y_test, (proba >= t).astype(int), cost_fn=5, cost_fp=1)
                          for t in ts])
        expect_number(cost, float(costs.min()), name="q2_cost")
        t = _as_float(threshold, "q2_threshold")
        at_t = el.metrics.cost_sensitive_error(y_test, (proba >= t).astype(int), cost_fn=5, cost_fp=1)
        if not math.isclose(at_t, costs.min(), rel_tol=1e-9):
            raise Incorrect(f"predicting malignant where proba >= {t:.4g} costs {at_t:.4f}, not the minimum.")

    def q3(func):
        cases = [("p = 0.5, equal costs", (0.2, 0.4, 0.5, 1.0, 1.0)),
                 ("costly misses", (0.1, 0.3, 0.4, 5.0, 1.0)),
                 ("arrays of ROC points", (np.array([0.0, 0.25, 1.0]), np.array([1.0, 0.5, 0.0]), 0.3, 2.0, 3.0))]
        expect_function(func, el.curves.normalized_cost, cases, name="normalized_cost",
                        raises=[(0.2, 0.4, 1.5, 1.0, 1.0)])

    def q4(fpr, tpr):
        expect_number(fpr, 0.2, rtol=0, atol=0.011, name="q4_fpr", mistakes=[
            (0.4, "the line starts at (0, FPR): read its height at x = 0.")])
        expect_number(tpr, 0.6, rtol=0, atol=0.011, name="q4_tpr", mistakes=[
            (0.4, "the height at x = 1 is FNR = 1 − TPR."),
            (0.8, "the height at x = 0 is FPR; TPR comes from the other end: TPR = 1 − FNR.")])

    def q5(choice, reason):
        expect_choice(choice, "(50, 10)", ["(50, 10)", "(6, 2)", "(14, 10)"], name="q5", explanations={
            "(6, 2)": "(6, 2) has the same *difference* as (5, 1) but the ratio 3, not 5.",
            "(14, 10)": "(14, 10) has a ratio of 1.4: far cheaper misses than (5, 1)."})
        expect_reason(reason, name="q5_reason", keywords=["ratio", "proportion", "scale", "multipl"])

    return _set("06", "Cost-sensitive evaluation", [
        Problem("q1", "Cost-sensitive error of the tumour classifier", 1, ("q1",), q1,
                "式(2.23): (FN·cost_fn + FP·cost_fp)/m, with a missed cancer (FN) costing 5 and a false alarm 1.",
                "from sklearn.pipeline import make_pipeline\nfrom sklearn.preprocessing import StandardScaler\n"
                "from sklearn.linear_model import LogisticRegression\n" + _TUMOURS_CODE.strip() + """
q1 = el.metrics.cost_sensitive_error(y_test, (proba >= 0.5).astype(int), cost_fn=5, cost_fp=1)"""),
        Problem("q2", "The cheapest threshold", 2, ("q2_threshold", "q2_cost"), q2,
                "Try every distinct probability as the threshold (`np.unique(proba)`), compute the cost of each, "
                "take the smallest.",
                """
                ts = np.unique(proba)
                costs = [el.metrics.cost_sensitive_error(y_test, (proba >= t).astype(int), cost_fn=5, cost_fp=1) for t in ts]
                q2_threshold = float(ts[int(np.argmin(costs))])
                q2_cost = float(min(costs))
                """, stub="q2_threshold = ...\nq2_cost = ..."),
        Problem("q3", "Implement the normalised cost 式(2.25)", 3, ("normalized_cost",), q3,
                "cost_norm = (FNR·p·cost_fn + FPR·(1 − p)·cost_fp) / (p·cost_fn + (1 − p)·cost_fp); "
                "`np.asarray` makes it work for arrays too. Check p first.",
                """
                def normalized_cost(fpr, fnr, p, cost_fn, cost_fp):
                    if not 0 <= p <= 1:
                        raise ValueError("p must be a probability")
                    fpr, fnr = np.asarray(fpr, dtype=float), np.asarray(fnr, dtype=float)
                    return (fnr * p * cost_fn + fpr * (1 - p) * cost_fp) / (p * cost_fn + (1 - p) * cost_fp)
                """, kind="implement",
                stub="def normalized_cost(fpr, fnr, p, cost_fn, cost_fp):\n    '''cost_norm of 式(2.25) for one ROC point or arrays of them; ValueError if p is not in [0, 1].'''\n    ..."),
        Problem("q4", "Exercise 2.7: from a cost line back to its ROC point", 2, ("q4_fpr", "q4_tpr"), q4,
                "A cost line runs from (0, FPR) to (1, FNR), and FNR = 1 − TPR.",
                "q4_fpr = 0.2   # height at x = 0\nq4_tpr = 0.6   # 1 - (height at x = 1, 0.4)",
                kind="plot", book="2.7", stub="q4_fpr = ...\nq4_tpr = ..."),
        Problem("q5", "Costs: the ratio or the difference?", 2, ("q5", "q5_reason"), q5,
                "Multiply both costs by 10: does the best threshold move? Compare with adding 1 to both.",
                """
                q5 = "(50, 10)"
                q5_reason = "Only the ratio cost_fn/cost_fp matters: multiplying both costs by 10 scales every cost by 10 and keeps the best threshold."
                """, kind="choose"),
    ])


# ------------------------------------------------------------------------------- 07 regression and ranking
_RELEVANCE_07 = [0, 0, 2, 0, 1, 3, 0, 1]      # the result list drawn in exercise set 07, q5

@_register("07")
def _set_07():
    import evallib as el

    def _q1():
        from sklearn.linear_model import LinearRegression
        Xd, yd = el.data.load_bundled("diabetes")
        tr, te = next(el.splits.HoldOut(0.3, stratify=False, random_state=0).split(Xd, yd))
        pred = LinearRegression().fit(Xd[tr], yd[tr]).predict(Xd[te])
        return yd[te], pred

    def q1(mae, rmse):
        t, p = _cached("07q1", _q1)
        expect_number(mae, el.metrics.mae(t, p), name="q1_mae")
        expect_number(rmse, el.metrics.rmse(t, p), name="q1_rmse", mistakes=[
            (el.metrics.mse(t, p), "that is the MSE; RMSE is its square root."),
            (float(np.sqrt(np.sum((p - t) ** 2)) / len(t)),
             "that is the notes' slip (1/N)·√Σ(ŷ − y)²: the root must cover the mean, √((1/N)·Σ(ŷ − y)²).")])

    def q2(func):
        cases = [("the notes' example", ([5, 3, 2, 1, 2], 5)), ("cut at k = 3", ([5, 3, 2, 1, 2], 3)),
                 ("zeros", ([0, 0, 1], 3))]
        expect_function(func, lambda r, k: el.metrics.dcg(r, k), cases, name="dcg", raises=[([3, 2], 3), ([3, 2], 0)])

    def q3(answer):
        expected = el.metrics.mean_average_precision([[1, 3, 4], [2, 5]], [3, 4])
        expect_number(answer, expected, name="q3", mistakes=[
            ((el.metrics.average_precision([1, 3, 4], 3) + (1 / 2 + 2 / 5) / 2) / 2,
             "query 2 has 4 relevant documents: the two never retrieved count as precision 0, so divide by 4.")])

    def q4(choice, reason):
        expect_choice(choice, "MdAPE", ["MAE", "RMSE", "MdAPE", "R2"], name="q4", explanations={
            "MAE": "MAE averages the errors: one error of 400 moves it by 400/m.",
            "RMSE": "RMSE squares the errors: one big error dominates it.",
            "R2": "R² = 1 − SSE/SST: the squared error of the outlier enters SSE."})
        expect_reason(reason, name="q4_reason", keywords=["median", "middle", "robust"])

    def q5(answer):
        first = int(np.flatnonzero(np.asarray(_RELEVANCE_07) > 0)[0]) + 1
        expect_number(answer, 1 / first, rtol=0, atol=0.005, name="q5", mistakes=[
            (first, "that is the rank of the first relevant result; the reciprocal rank is 1 / rank."),
            (1 / (first - 1), "ranks start at 1: the first bar is rank 1, not 0.")])

    return _set("07", "Regression and ranking metrics", [
        Problem("q1", "MAE and RMSE of linear regression on the diabetes data", 2, ("q1_mae", "q1_rmse"), q1,
                "`el.metrics.mae` and `el.metrics.rmse` on the test targets and predictions.",
                """
                from sklearn.linear_model import LinearRegression
                Xd, yd = el.data.load_bundled("diabetes")
                tr, te = next(el.splits.HoldOut(0.3, stratify=False, random_state=0).split(Xd, yd))
                pred = LinearRegression().fit(Xd[tr], yd[tr]).predict(Xd[te])
                q1_mae = el.metrics.mae(yd[te], pred)
                q1_rmse = el.metrics.rmse(yd[te], pred)
                """, stub="q1_mae = ...\nq1_rmse = ..."),
        Problem("q2", "Implement DCG@k", 3, ("dcg",), q2,
                "Take the first k relevances, gains 2^rel − 1, discounts log2(i + 1) for positions i = 1..k; sum.",
                """
                def dcg(relevances, k):
                    rel = np.asarray(relevances, dtype=float)
                    if not isinstance(k, (int, np.integer)) or not 1 <= k <= len(rel):
                        raise ValueError(f"k must be an integer in 1..{len(rel)}")
                    top = rel[:k]
                    return float(np.sum((2.0 ** top - 1) / np.log2(np.arange(2, k + 2))))
                """, kind="implement",
                stub="def dcg(relevances, k):\n    '''DCG of the first k items shown: sum of (2**rel - 1) / log2(i + 1), i = 1..k;\n    ValueError unless 1 <= k <= len(relevances).'''\n    ..."),
        Problem("q3", "Mean average precision of two queries", 2, ("q3",), q3,
                "AP of one query: the mean of the precision at each relevant rank, over *all* relevant documents "
                "(unretrieved ones count 0). MAP: the mean of the APs.",
                "q3 = el.metrics.mean_average_precision([[1, 3, 4], [2, 5]], [3, 4])"),
        Problem("q4", "Which measure ignores one wild prediction?", 2, ("q4", "q4_reason"), q4,
                "Spoil one prediction by +400 and recompute all four (the chapter does exactly this).",
                """
                q4 = "MdAPE"
                q4_reason = "MdAPE is a median of the relative errors, so one outlier moves it at most one rank position; the others average or square all errors."
                """, kind="choose"),
        Problem("q5", "Read the reciprocal rank off the figure", 1, ("q5",), q5,
                "Find the first bar with a relevance above 0; its rank r gives the reciprocal rank 1/r.",
                "q5 = 1 / 3   # the first relevant result is at rank 3", kind="plot"),
    ])


# ------------------------------------------------------------------------------- 08 hypothesis tests
@_register("08")
def _set_08():
    import evallib as el
    cmp = el.compare

    def q1(critical, reject):
        r = cmp.binomial_test(20, 50, 0.3, alpha=0.05)
        expect_number(critical, r.critical_value, name="q1_critical", mistakes=[
            (r.critical_count, "that is the critical count C; the critical error rate is C/m.")])
        require(reject, "q1_reject")
        if not isinstance(reject, (bool, np.bool_)):
            raise Incorrect("q1_reject should be True or False")
        if bool(reject) != r.reject:
            raise Incorrect("reject H0 when the observed error rate exceeds the critical error rate "
                            "(equivalently when the p-value is below α).")

    def q2(func):
        ref = lambda e01, e10: cmp.mcnemar([[0, e01], [e10, 0]]).statistic  # noqa: E731
        cases = [("the chapter's example", (12, 3)), ("B worse", (4, 15)), ("large counts", (120, 80))]
        expect_function(func, ref, cases, name="mcnemar_statistic")

    def _q3():
        from sklearn.naive_bayes import GaussianNB
        from sklearn.tree import DecisionTreeClassifier
        X, y = el.data.load_bundled("breast_cancer")
        train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
        pa = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[train], y[train]).predict(X[test])
        pb = GaussianNB().fit(X[train], y[train]).predict(X[test])
        return cmp.mcnemar(cmp.mcnemar_table(y[test], pa, pb))

    def q3(stat, pvalue, reject):
        r = _cached("08q3", _q3)
        expect_number(stat, r.statistic, name="q3_statistic", mistakes=[
            (cmp.mcnemar([[0, r.e01], [r.e10, 0]], correction=False).statistic,
             "that is without the continuity correction; 式(2.33) subtracts 1 from |e01 − e10|.")])
        from scipy import stats
        expect_number(pvalue, r.pvalue, name="q3_pvalue", mistakes=[
            (float(stats.chi2.cdf(r.statistic, 1)), "that is the lower tail; the p-value is P(χ²₁ ≥ τ)."),
            (float(stats.chi2.sf(r.statistic, 2)), "McNemar's χ² has 1 degree of freedom (k = 2 algorithms).")])
        require(reject, "q3_reject")
        if bool(reject) != r.reject:
            raise Incorrect("compare the p-value with α = 0.05.")

    def q4(choice, reason):
        expect_choice(choice, "Friedman + Nemenyi",
                      ["binomial test", "paired t-test", "McNemar", "Friedman + Nemenyi"], name="q4", explanations={
                          "binomial test": "the binomial test checks one learner's error rate against a hypothesis ε0.",
                          "paired t-test": "a paired t-test compares two learners; with four, the pairwise tests "
                                           "multiply the chance of a false alarm.",
                          "McNemar": "McNemar compares two learners on one test set."})
        expect_reason(reason, name="q4_reason", keywords=["rank", "several", "multiple", "many", "four", "data sets"])

    def q5(answer):
        r = cmp.binomial_test(20, 50, 0.3, alpha=0.05)
        expect_int(answer, int(r.critical_count) + 1, name="q5", mistakes=[
            (int(r.critical_count), "with C errors H0 still stands: the test rejects when the count *exceeds* C.")])

    return _set("08", "Hypothesis tests", [
        Problem("q1", "Binomial test: the critical error rate", 2, ("q1_critical", "q1_reject"), q1,
                "`el.compare.binomial_test(n_errors, m, eps0, alpha)` returns `critical_value` and `reject`.",
                """
                r = el.compare.binomial_test(20, 50, 0.3, alpha=0.05)
                q1_critical = r.critical_value
                q1_reject = r.reject
                """, stub="q1_critical = ...\nq1_reject = ..."),
        Problem("q2", "Implement McNemar's statistic 式(2.33)", 2, ("mcnemar_statistic",), q2,
                "τ = (|e01 − e10| − 1)² / (e01 + e10); never let |e01 − e10| − 1 go below 0; "
                "no discordant pairs: 0.",
                """
                def mcnemar_statistic(e01, e10):
                    n = e01 + e10
                    if n == 0:
                        return 0.0
                    return max(abs(e01 - e10) - 1, 0) ** 2 / n
                """, kind="implement",
                stub="def mcnemar_statistic(e01, e10):\n    '''tau_chi2 of 式(2.33) with the continuity correction (|e01 - e10| - 1 never below 0); 0 without discordant pairs.'''\n    ..."),
        Problem("q3", "Exercise 2.9: a χ² test from start to finish", 3, ("q3_statistic", "q3_pvalue", "q3_reject"), q3,
                "Table → statistic τ (式(2.33)) → its distribution under H0 (χ² with 1 degree of freedom) → "
                "p-value `scipy.stats.chi2.sf(tau, 1)` → compare with α.",
                """
                from sklearn.naive_bayes import GaussianNB
                from sklearn.tree import DecisionTreeClassifier
                from scipy import stats
                X, y = el.data.load_bundled("breast_cancer")
                train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
                pa = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[train], y[train]).predict(X[test])
                pb = GaussianNB().fit(X[train], y[train]).predict(X[test])
                table = el.compare.mcnemar_table(y[test], pa, pb)
                e01, e10 = table[0, 1], table[1, 0]
                q3_statistic = max(abs(e01 - e10) - 1, 0) ** 2 / (e01 + e10)
                q3_pvalue = stats.chi2.sf(q3_statistic, 1)
                q3_reject = bool(q3_pvalue < 0.05)
                """, book="2.9", stub="q3_statistic = ...\nq3_pvalue = ...\nq3_reject = ..."),
        Problem("q4", "Which test?", 2, ("q4", "q4_reason"), q4,
                "How many learners, how many data sets?",
                """
                q4 = "Friedman + Nemenyi"
                q4_reason = "Four learners on several data sets: Friedman tests whether all are equal using their ranks, then Nemenyi says which pairs differ."
                """, kind="choose"),
        Problem("q5", "Read the rejection region off the figure", 1, ("q5",), q5,
                "The red bars are the counts for which H0 is rejected; find the leftmost one.",
                "q5 = 21   # the leftmost red bar: C + 1, C = el.compare.binomial_test(20, 50, 0.3).critical_count",
                kind="plot"),
    ])


# ------------------------------------------------------------------------------- 09 Friedman and Nemenyi
_ERRORS_09 = [[0.21, 0.18, 0.25, 0.24],
              [0.15, 0.13, 0.17, 0.19],
              [0.30, 0.26, 0.29, 0.33],
              [0.09, 0.08, 0.12, 0.10],
              [0.22, 0.20, 0.20, 0.27],
              [0.12, 0.11, 0.15, 0.14]]


def _friedman_forms(mean_ranks, n):
    """式(2.34)-(2.35) written out (independent of evallib.compare, which works from the score table)."""
    r = np.asarray(mean_ranks, dtype=float)
    k = len(r)
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r ** 2) - k * (k + 1) ** 2 / 4)
    den = n * (k - 1) - chi2
    f = np.inf if np.isclose(den, 0) else (n - 1) * chi2 / den
    return np.array([chi2, f])


@_register("09")
def _set_09():
    import evallib as el
    cmp = el.compare

    def q1(chi2, f):
        fr = cmp.friedman(_ERRORS_09)
        corrected = cmp.friedman(_ERRORS_09, tie_correction=True)
        expect_number(chi2, fr.chi2, name="q1_chi2", mistakes=[
            (corrected.chi2, "that is SciPy's tie-corrected statistic; the book's 式(2.34) uses no correction.")])
        expect_number(f, fr.F, name="q1_F", mistakes=[
            (fr.chi2, "that is τ_χ²; τ_F = (N − 1)τ_χ² / (N(k − 1) − τ_χ²) (式(2.35)).")])

    def q2(func):
        cases = [("the chapter's example", ([1.0, 2.125, 2.875], 4)), ("k = 4", ([1.5, 2.0, 3.0, 3.5], 10)),
                 ("no differences", ([2.0, 2.0, 2.0], 7))]
        expect_function(func, _friedman_forms, cases, name="friedman_statistics")

    def q3(answer):
        expect_number(answer, cmp.critical_difference(5, 10, 0.05), name="q3", mistakes=[
            (cmp.critical_difference(5, 10, 0.1), "that is the CD for α = 0.1."),
            (cmp.q_alpha(5, 0.05), "that is q_α alone; CD = q_α·√(k(k + 1)/(6N)) (式(2.36)).")])

    ranks = np.array([1.5, 2.2, 3.1, 3.9, 4.3])

    def q4(answer):
        cd = cmp.critical_difference(5, 10)
        n_sig = int(np.sum(np.triu(np.abs(ranks[:, None] - ranks[None, :]) > cd, 1)))
        expect_int(answer, n_sig, name="q4", mistakes=[
            (10 - n_sig, "count the pairs that are NOT joined by a bar: those differ significantly.")])

    def q5(choice, reason):
        expect_choice(choice, "no", ["yes", "no"], name="q5", explanations={
            "yes": "not rejecting H0 is not evidence for H0: with few data sets the test may simply lack power."})
        expect_reason(reason, name="q5_reason", keywords=["power", "evidence", "prove", "data sets", "not reject",
                                                          "fail"])

    return _set("09", "Friedman and Nemenyi tests", [
        Problem("q1", "Exercise 2.10: both Friedman statistics of a table", 2, ("q1_chi2", "q1_F"), q1,
                "`el.compare.friedman(errors)` gives `chi2` and `F`; by hand: rank each row (ties share ranks), "
                "average the columns, then 式(2.34) and 式(2.35).",
                """
                fr = el.compare.friedman(errors)
                q1_chi2, q1_F = fr.chi2, fr.F
                """, book="2.10", stub="q1_chi2 = ...\nq1_F = ..."),
        Problem("q2", "Exercise 2.10: implement τ_χ² and τ_F from the mean ranks", 3, ("friedman_statistics",), q2,
                "τ_χ² = 12N/(k(k+1)) · (Σ r_i² − k(k+1)²/4); τ_F = (N−1)τ_χ² / (N(k−1) − τ_χ²); "
                "when the denominator is 0 (every data set ranks the same way) τ_F is infinite.",
                """
                def friedman_statistics(mean_ranks, n_datasets):
                    r = np.asarray(mean_ranks, dtype=float)
                    k, n = len(r), n_datasets
                    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
                    den = n * (k - 1) - chi2
                    f = np.inf if np.isclose(den, 0) else (n - 1) * chi2 / den
                    return np.array([chi2, f])
                """, kind="implement", book="2.10",
                stub="def friedman_statistics(mean_ranks, n_datasets):\n    '''np.array([tau_chi2, tau_F]) of 式(2.34)-(2.35); tau_F = inf when every data set ranks the algorithms alike.'''\n    ..."),
        Problem("q3", "The Nemenyi critical difference", 1, ("q3",), q3,
                "`el.compare.critical_difference(k, n_datasets, alpha)`, or q_α·√(k(k+1)/(6N)) with "
                "`el.compare.q_alpha`.",
                "q3 = el.compare.critical_difference(5, 10, 0.05)"),
        Problem("q4", "Read the CD diagram: how many pairs differ?", 2, ("q4",), q4,
                "Two algorithms differ significantly when no bar joins them (their mean ranks are more than CD apart).",
                "q4 = 3   # A-D, A-E and B-E are not joined by a bar", kind="plot"),
        Problem("q5", "Friedman does not reject: are the algorithms equal?", 2, ("q5", "q5_reason"), q5,
                "What does a test conclude when its statistic stays below the critical value?",
                """
                q5 = "no"
                q5_reason = "Failing to reject H0 is not evidence that the algorithms are equal; with few data sets the test has little power."
                """, kind="choose"),
    ])


# ------------------------------------------------------------------------------- 10 bias and variance
def _sine(x):
    return np.sin(2 * np.pi * np.asarray(x))


def _bias2_variance(predictions, f_true):
    p = np.asarray(predictions, dtype=float)
    f = np.asarray(f_true, dtype=float)
    mean = p.mean(axis=0)
    return np.array([np.mean((mean - f) ** 2), np.mean(p.var(axis=0))])


@_register("10")
def _set_10():
    import evallib as el

    def _q1():
        r = el.biasvar.bias_variance(el.fitting.PolynomialRegression(3), _sine, noise_std=0.3, n_train=30,
                                     n_datasets=200, random_state=0)
        return r.bias2, r.variance

    def q1(bias2, variance):
        b, v = _cached("10q1", _q1)
        expect_number(bias2, b, rtol=1e-6, name="q1_bias2", mistakes=[(v, "that is the variance.")])
        expect_number(variance, v, rtol=1e-6, name="q1_variance", mistakes=[(b, "that is bias².")])

    def q2(func):
        rng = np.random.default_rng(0)
        cases = [("three data sets, two points", ([[0.0, 1.0], [0.5, 1.5], [1.0, 0.5]], [0.2, 1.0])),
                 ("random", (rng.normal(size=(6, 4)), rng.normal(size=4)))]
        expect_function(func, _bias2_variance, cases, name="bias2_variance")

    def q3(choice, reason):
        expect_choice(choice, "variance", ["bias2", "variance", "noise"], name="q3", explanations={
            "bias2": "a richer model can follow the sine better: its bias² falls.",
            "noise": "the noise belongs to the data (ε), not to the model: it does not change with the degree."})
        expect_reason(reason, name="q3_reason", keywords=["data set", "training set", "flexib", "fluctuat",
                                                          "sensitiv", "noise", "spread"])

    def _curve():
        return el.biasvar.bias_variance_curve(el.fitting.PolynomialRegression(), "degree", range(13), _sine,
                                              noise_std=0.3, n_train=30, n_datasets=200, random_state=0)

    def q4(answer):
        c = _cached("10curve", _curve)
        expect_int(answer, int(c.best), name="q4", mistakes=[
            (int(np.asarray(c.values)[int(np.argmin(c.bias2))]), "that minimises bias² alone; read the total."),
            (int(np.asarray(c.values)[int(np.argmin(c.variance))]), "that minimises the variance alone; read the total.")])

    return _set("10", "Bias and variance", [
        Problem("q1", "Bias² and variance of a cubic fit by simulation", 2, ("q1_bias2", "q1_variance"), q1,
                "`el.biasvar.bias_variance(model, target, noise_std=..., n_train=..., n_datasets=..., random_state=...)` "
                "returns a result with `bias2` and `variance`.",
                """
                def f(x):
                    return np.sin(2 * np.pi * x)

                r = el.biasvar.bias_variance(el.fitting.PolynomialRegression(3), f, noise_std=0.3, n_train=30,
                                             n_datasets=200, random_state=0)
                q1_bias2, q1_variance = r.bias2, r.variance
                """, stub="q1_bias2 = ...\nq1_variance = ..."),
        Problem("q2", "Implement the decomposition 式(2.37)-(2.40) from predictions", 3, ("bias2_variance",), q2,
                "f̄(x) = mean over data sets (axis 0); variance = mean over data sets of (f(x; D) − f̄(x))²; "
                "bias² = (f̄(x) − y(x))²; average both over the points.",
                """
                def bias2_variance(predictions, f_true):
                    p = np.asarray(predictions, dtype=float)
                    mean = p.mean(axis=0)
                    bias2 = np.mean((mean - np.asarray(f_true, dtype=float)) ** 2)
                    variance = np.mean(p.var(axis=0))
                    return np.array([bias2, variance])
                """, kind="implement",
                stub="def bias2_variance(predictions, f_true):\n    '''predictions: shape (n_datasets, n_points); f_true: the true function at the points.\n    Returns np.array([bias2, variance]), each averaged over the points.'''\n    ..."),
        Problem("q3", "Which term grows with the degree?", 2, ("q3", "q3_reason"), q3,
                "Compare the fans of fitted curves for degree 1 and degree 12 in the chapter.",
                """
                q3 = "variance"
                q3_reason = "A flexible degree-12 polynomial follows the noise of each training set, so its fits fluctuate from data set to data set."
                """, kind="choose"),
        Problem("q4", "Read the best degree off the U-curve", 1, ("q4",), q4,
                "Find the lowest point of the expected-error curve (not of bias² or variance).",
                "q4 = 3   # the bottom of the expected-error curve", kind="plot"),
    ])


# ------------------------------------------------------------------------------- 11 roofline
@_register("11")
def _set_11():
    import evallib as el
    rl = el.roofline

    def q1(params, gmacs):
        m = rl.resnet18()
        expect_int(params, int(m.params), name="q1_params")
        expect_number(gmacs, m.macs / 1e9, rtol=1e-3, name="q1_gmacs", mistakes=[
            (m.flops / 1e9, "that is GFLOPs (2 FLOPs per MAC); the question asks for multiply-accumulates."),
            (m.macs, "give the count in billions (G-MACs): divide by 1e9.")])

    def q2(func):
        cases = [("memory-bound", (2.0, 10e12, 500e9)), ("compute-bound", (100.0, 10e12, 500e9)),
                 ("array of intensities", (np.array([0.5, 20.0, 1000.0]), 11.3e12, 484e9))]
        expect_function(func, rl.attainable, cases, name="attainable", raises=[(-1.0, 1e12, 1e11)])

    def q3(ridge, bound):
        d = rl.get_device("GTX 1080 Ti")
        r = rl.ridge_point(d.peak(), d.bandwidth)
        expect_number(ridge, r, rtol=1e-6, name="q3_ridge", mistakes=[
            (d.bandwidth / d.peak(), "the ridge point is peak / bandwidth (FLOP per byte), not the inverse.")])
        expect_choice(bound, "memory", ["memory", "compute"], name="q3_bound", explanations={
            "compute": f"intensity 10 FLOP/B is left of the ridge ({r:.1f} FLOP/B): bandwidth × intensity < peak."})

    def q4(choice):
        d = rl.get_device("GTX 1080 Ti")
        ridge = rl.ridge_point(d.peak(), d.bandwidth)
        models = {"VGG16": rl.vgg16(rl.ARTICLE), "MobileNetV2": rl.mobilenet_v2(rl.ARTICLE)}
        mem = [n for n, m in models.items() if m.intensity < ridge]
        expect_choice(choice, mem[0], list(models), name="q4", explanations={
            n: f"{n} sits right of the ridge point: compute-bound." for n in models if n not in mem})

    def q5(choice, reason):
        expect_choice(choice, "count", ["count", "rate"], name="q5", explanations={
            "rate": "FLOPs (lower-case s) counts operations; FLOPS or FLOP/s is the rate a device achieves."})
        expect_reason(reason, name="q5_reason", keywords=["second", "per", "operations", "rate", "count"])

    return _set("11", "Model compute and the roofline", [
        Problem("q1", "Parameters and multiply-accumulates of ResNet-18", 2, ("q1_params", "q1_gmacs"), q1,
                "`el.roofline.resnet18()` has `params` and `macs`.",
                """
                m = el.roofline.resnet18()
                q1_params = m.params
                q1_gmacs = m.macs / 1e9
                """, stub="q1_params = ...\nq1_gmacs = ..."),
        Problem("q2", "Implement the roofline bound", 2, ("attainable",), q2,
                "attainable = min(peak, intensity × bandwidth), elementwise (`np.minimum`); negative intensity: ValueError.",
                """
                def attainable(intensity, peak_flops, bandwidth):
                    intensity = np.asarray(intensity, dtype=float)
                    if np.any(intensity < 0):
                        raise ValueError("intensity must be >= 0")
                    out = np.minimum(peak_flops, intensity * bandwidth)
                    return float(out) if out.ndim == 0 else out
                """, kind="implement",
                stub="def attainable(intensity, peak_flops, bandwidth):\n    '''Attainable FLOP/s = min(peak, intensity * bandwidth), for a number or an array; ValueError if intensity < 0.'''\n    ..."),
        Problem("q3", "Ridge point of a GTX 1080 Ti", 2, ("q3_ridge", "q3_bound"), q3,
                "Ridge point = peak / bandwidth; a kernel left of it is limited by memory.",
                """
                d = el.roofline.get_device("GTX 1080 Ti")
                q3_ridge = el.roofline.ridge_point(d.peak(), d.bandwidth)
                q3_bound = "memory"   # 10 FLOP/B < ridge point
                """, stub="q3_ridge = ...\nq3_bound = ..."),
        Problem("q4", "Read the roofline: which model is memory-bound?", 1, ("q4",), q4,
                "A model left of the ridge point (on the slanted roof) is memory-bound.",
                'q4 = "MobileNetV2"', kind="plot"),
        Problem("q5", "FLOPs or FLOPS?", 2, ("q5", "q5_reason"), q5,
                "One is operations, the other operations per second.",
                """
                q5 = "count"
                q5_reason = "A model's 计算量 is a count of floating-point operations (FLOPs); FLOPS is a rate per second of a device."
                """, kind="choose"),
    ])
