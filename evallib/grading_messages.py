"""Every learner-facing sentence of the grading framework and the autograder, in one table.

``evallib.grading`` (check outcomes) and ``scripts/autograde.py`` (the reasons in ``feedback.csv``) look their
sentences up here by key; the language is :mod:`evallib.i18n`'s (``el.setup_notebook(lang="zh")``), and each
English template is a msgid of evallib's gettext catalog (evallib/locale/zh/LC_MESSAGES/evallib.po), marked
with ``N_`` for Babel. Hints and problem statements live in the exercise sources (exercises/source/*.md).
"""

from __future__ import annotations

from .i18n import N_

MESSAGES = {
    # outcome words (Outcome.status is always the English key; these are what is shown)
    "status.correct": N_("correct"),
    "status.incorrect": N_("incorrect"),
    "status.not attempted": N_("not attempted"),
    "status.received": N_("received"),
    # one outcome line; the separators are the language's ("✘ q1: incorrect. Why…" / "✘ q1：不正确。为什么…")
    "status_line": N_("{mark} {problem}: {word}"),
    "status_line_message": N_("{mark} {problem}: {word}. {message}"),
    "status_head": N_("{problem}: {word}."),
    "status_head_message": N_("{head} {message}"),
    # evallib.grading: checks
    "placeholder": N_("{name} is still `...`: replace it with your answer and run the cell."),
    "replace_placeholder": N_("Replace the `...` with your answer for {names} and run the cell."),
    "raised": N_("your code raised {error}: {detail}"),
    "received": N_(
        "{names}: recorded. This classroom release does not say whether it is right: it is graded "
        "after you hand in the notebook."
    ),
    "received_function": N_("{name} is not callable."),
    "number_type": N_("{name} should be a number, got {type} {value}"),
    "number_shape": N_("{name} should be one number, got an array of shape {shape}"),
    "number_finite": N_("{name} is {value}: a finite number is expected"),
    "too_large": N_("{name} = {value} is too large."),
    "too_small": N_("{name} = {value} is too small."),
    "too_large_expected": N_("{name} = {value} is too large (expected {expected})."),
    "too_small_expected": N_("{name} = {value} is too small (expected {expected})."),
    "int_type": N_("{name} should be an exact integer (use math.comb/int arithmetic, not floats), got {type}"),
    "choice_type": N_("{name} should be one of {options} (a string), got {value}"),
    "choice_unknown": N_("{name} = {value} is not one of the options {options}."),
    "choice_wrong": N_("{name} = {value} is not the best choice."),
    "reason_short": N_("{name} should be a sentence of at least {min_words} words."),
    "reason_keyword": N_("{name} does not mention the deciding idea (for example: {examples})."),
    "array_type": N_("{name} should be an array of numbers, got {type}"),
    "array_shape": N_("{name} has shape {shape}, expected {expected}."),
    "array_differs": N_("{name} differs first at index {index}: {value} instead of {expected}."),
    "function_type": N_("{name} should be a function, got {type}"),
    "function_not_implemented": N_("{name} still raises NotImplementedError."),
    "function_raised": N_("{call}{where} raised {error}: {detail}"),
    "function_none": N_("{name} returns None: write its body (replace the `...`)."),
    "function_returned": N_("{call}{where} returned {got}, expected {expected}."),
    "function_should_raise": N_("{call} should raise ValueError (bad input), raised {error}"),
    "function_should_raise_returned": N_("{call} should raise ValueError (bad input) but returned."),
    "function_timeout": N_("{call} did not return within {seconds:g} s (time limit)"),
    "function_no_result": N_("{call}: no result (the grading of this function stopped before this call)"),
    "no_solution_classroom": N_("Solutions are not part of this classroom release."),
    "hidden_case_number": N_("hidden case {i}"),
    "hidden_case_raised": N_("on {case}, your function raised {error}"),
    "hidden_case_wrong": N_("on {case}, your function returned a wrong value ({kind})"),
    "hidden_bad_input": N_("{name} on bad input {j}"),
    "array_differs_hidden": N_("{name} differs first at index {index}."),
    "kind.type": N_("a {type}, not numbers"),
    "kind.shape": N_("shape {shape} is not the expected shape"),
    "kind.finite": N_("not a finite number"),
    "kind.too_large": N_("too large"),
    "kind.too_small": N_("too small"),
    "kind.differs": N_("some values too large, some too small"),
    "forbidden": N_(
        "implement it yourself: the library functions that solve this problem ({call}) are blocked while "
        "your function runs on the hidden cases"
    ),
    "hint": N_("**Hint ({name}):** {text}"),
    "solution": N_("**Solution ({name}):**\n\n```python\n{code}\n```"),
    # scripts/autograde.py: reasons in grades.csv / feedback.csv
    "missing": N_("{names} is not defined: its cell was deleted, raised an error, or ran before the cells it needs"),
    "hidden_test_failed": N_("hidden test {i}: {failure}{message}"),
    "not_graded_unreached": N_("not graded: the check of this problem did not finish (time limit or crash)"),
    "kernel_died": N_("not graded: the kernel died during {where} (os._exit, crash or out of memory)"),
    "kernel_stuck": N_(
        "not graded: the kernel stopped responding in {where} and was stopped (an endless loop that "
        "ignores interrupts?)"
    ),
    "total_time": N_("not graded: the submission used up its total time ({seconds:g} s)"),
    "cell_raised": N_("code cell {index} raised {error}"),
    "cell_time_limit": N_("code cell {index} was stopped after {seconds:g} s (time limit)"),
    "output_dropped": N_("code cell {index}: output over {cap} characters was dropped"),
    "unreadable": N_("could not read the file: {error}"),
    "not_a_notebook": N_("not a readable notebook ({error}; its content is not quoted)"),
    "unknown_set": N_("cannot tell which exercise set this is (no exercise_set metadata, no NN_ prefix)"),
    "malformed_output": N_("not graded: the sandbox's output was malformed ({detail})"),
    "sandbox_failed": N_("not graded: the sandbox did not start or ended abnormally ({detail})"),
    "sandbox_timeout": N_("not graded: the sandbox exceeded its wall-clock limit ({seconds:g} s) and was killed"),
    "grader_error": N_("grader error: {error}"),
    "symlink": N_(
        "not graded: the submission is a symbolic link or lies in a linked folder (links are never "
        "followed; hand in the notebook file itself)"
    ),
    "outside": N_("not graded: the submission is not a regular file inside the submissions folder"),
    "too_big": N_("not graded: the file is larger than {mb} MB"),
    "more_notebooks": N_(
        "{n} notebooks for this set in the folder: graded the newest by modification time ({chosen}); "
        "not graded: {others}"
    ),
    "lookalike": N_(
        "the name {name!s} uses look-alike characters ({chars}) of another student's name: check the identity"
    ),
    "unsafe": N_(
        "UNSAFE: graded WITHOUT a sandbox (--unsafe-no-sandbox): the submissions' code ran with the grader's "
        "rights, so these grades can be forged"
    ),
}


def set_language(code: str) -> None:
    """Switch the learner's language (``"en"`` or ``"zh"``): the same as :func:`evallib.i18n.set_language`."""
    from .i18n import set_language as _set

    _set(code)


def text(key: str, **fields) -> str:
    """The sentence ``key`` in the learner's language (:mod:`evallib.i18n`: the English template of ``MESSAGES``
    is the msgid of evallib's gettext catalog), formatted with ``fields`` (English when the catalog has no entry)."""
    from .i18n import gettext

    return gettext(MESSAGES[key]).format(**fields)
