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

This package holds no exercise, no solution and no hidden test. The problems, checks, hints, worked solutions and
hidden tests of a set live in one text source, ``exercises/source/NN_topic.md`` (jupytext MyST, see
CONTRIBUTING.md); :func:`exercise_set` loads it when the course repository is at hand (self-study). A classroom
bundle (``make classroom``) carries only ``exercises/checks/NN_topic.json`` (titles, hints, answer names): its
checks say ``not attempted`` or ``received`` and never reveal an answer. Grading is done by
``scripts/autograde.py`` outside the student's kernel (README, "Exercises").

Modules by job (this facade re-exports their public names): ``_checks`` (the learner's checks and checkers),
``_protocol`` (the plain-data protocol with the sandbox, capped for untrusted input), ``_source`` (the
exercise-source reader: jupytext and ``yaml.safe_load``).
"""

from __future__ import annotations

from ._checks import (
    CORRECT,
    INCORRECT,
    NOT_ATTEMPTED,
    RECEIVED,
    ExerciseSet,
    Incorrect,
    NotAttempted,
    Outcome,
    Problem,
    as_float,
    cached,
    expect_array,
    expect_choice,
    expect_function,
    expect_int,
    expect_number,
    expect_reason,
    hidden_rng,
    require,
    tr,
)
from ._checks import (
    hidden_feedback as hidden_feedback,  # the grader's (not in __all__)
)
from ._checks import (
    set_run_seed as set_run_seed,
)
from ._protocol import CaseRecorder, Replay, data_key, from_data, to_data
from ._protocol import Opaque as Opaque  # the grader's (not in __all__)
from ._protocol import decode_result as decode_result
from ._source import (  # noqa: F401
    Cell,
    ClassroomSet,
    HiddenTest,
    Question,
    SourceSpec,
    _config,
    _marker,
    available_sets,
    exercise_set,
    load_source,
    parse_source,
    public_checks,
    read_config,
    read_myst,
    source_questions,
)

__all__ = [
    "CORRECT",
    "INCORRECT",
    "NOT_ATTEMPTED",
    "RECEIVED",
    "Incorrect",
    "NotAttempted",
    "Outcome",
    "Problem",
    "ExerciseSet",
    "exercise_set",
    "available_sets",
    "load_source",
    "read_myst",
    "require",
    "expect_number",
    "expect_int",
    "expect_choice",
    "expect_reason",
    "expect_function",
    "expect_array",
    "as_float",
    "cached",
    "to_data",
    "from_data",
    "data_key",
    "CaseRecorder",
    "Replay",
    "tr",
    "hidden_rng",
]
