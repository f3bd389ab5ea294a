"""Every learner-facing sentence of the grading framework and the autograder, in one table.

``evallib.grading`` (check outcomes) and ``scripts/autograde.py`` (the reasons in ``feedback.csv``) look their
sentences up here by key, so a second language is one more table (``MESSAGES_ZH`` later, issue 16) and
``set_language("zh")``. Hints and problem statements live in the exercise sources (exercises/source/*.md).
"""
from __future__ import annotations

MESSAGES = {
    # outcome words (Outcome.status is always the English key; these are what is shown)
    "status.correct": "correct",
    "status.incorrect": "incorrect",
    "status.not attempted": "not attempted",
    "status.received": "received",
    # evallib.grading: checks
    "placeholder": "{name} is still `...`: replace it with your answer and run the cell.",
    "replace_placeholder": "Replace the `...` with your answer for {names} and run the cell.",
    "raised": "your code raised {error}: {detail}",
    "received": "{names}: recorded. This classroom release does not say whether it is right: it is graded "
                "after you hand in the notebook.",
    "received_function": "{name} is not callable.",
    "number_type": "{name} should be a number, got {type} {value}",
    "number_shape": "{name} should be one number, got an array of shape {shape}",
    "number_finite": "{name} is {value}: a finite number is expected",
    "too_large": "{name} = {value} is too large.",
    "too_small": "{name} = {value} is too small.",
    "too_large_expected": "{name} = {value} is too large (expected {expected}).",
    "too_small_expected": "{name} = {value} is too small (expected {expected}).",
    "int_type": "{name} should be an exact integer (use math.comb/int arithmetic, not floats), got {type}",
    "choice_type": "{name} should be one of {options} (a string), got {value}",
    "choice_unknown": "{name} = {value} is not one of the options {options}.",
    "choice_wrong": "{name} = {value} is not the best choice.",
    "reason_short": "{name} should be a sentence of at least {min_words} words.",
    "reason_keyword": "{name} does not mention the deciding idea (for example: {examples}).",
    "array_type": "{name} should be an array of numbers, got {type}",
    "array_shape": "{name} has shape {shape}, expected {expected}.",
    "array_differs": "{name} differs first at index {index}: {value} instead of {expected}.",
    "function_type": "{name} should be a function, got {type}",
    "function_not_implemented": "{name} still raises NotImplementedError.",
    "function_raised": "{call}{where} raised {error}: {detail}",
    "function_none": "{name} returns None: write its body (replace the `...`).",
    "function_returned": "{call}{where} returned {got}, expected {expected}.",
    "function_should_raise": "{call} should raise ValueError (bad input), raised {error}",
    "function_should_raise_returned": "{call} should raise ValueError (bad input) but returned.",
    "function_timeout": "{call} did not return within {seconds:g} s (time limit)",
    "function_no_result": "{call}: no result (the grading of this function stopped before this call)",
    "no_solution_classroom": "Solutions are not part of this classroom release.",
    "hint": "**Hint ({name}):** {text}",
    "solution": "**Solution ({name}):**\n\n```python\n{code}\n```",
    # scripts/autograde.py: reasons in grades.csv / feedback.csv
    "missing": "{names} is not defined: its cell was deleted, raised an error, or ran before the cells it needs",
    "hidden_test_failed": "hidden test {i}: {failure}{message}",
    "not_graded_unreached": "not graded: the check of this problem did not finish (time limit or crash)",
    "kernel_died": "not graded: the kernel died during {where} (os._exit, crash or out of memory)",
    "kernel_stuck": "not graded: the kernel stopped responding in {where} and was stopped (an endless loop that "
                    "ignores interrupts?)",
    "total_time": "not graded: the submission used up its total time ({seconds:g} s)",
    "cell_raised": "code cell {index} raised {error}",
    "cell_time_limit": "code cell {index} was stopped after {seconds:g} s (time limit)",
    "output_dropped": "code cell {index}: output over {cap} characters was dropped",
    "unreadable": "could not read the file: {error}",
    "not_a_notebook": "not a readable notebook ({error})",
    "unknown_set": "cannot tell which exercise set this is (no exercise_set metadata, no NN_ prefix)",
    "malformed_output": "not graded: the sandbox's output was malformed ({detail})",
    "sandbox_failed": "not graded: the sandbox did not start or ended abnormally ({detail})",
    "sandbox_timeout": "not graded: the sandbox exceeded its wall-clock limit ({seconds:g} s) and was killed",
    "grader_error": "grader error: {error}",
    "unsafe": "UNSAFE: graded WITHOUT a sandbox (--unsafe-no-sandbox): the submissions' code ran with the grader's "
              "rights, so these grades can be forged",
}

_LANGUAGE = {"en": MESSAGES}
_current = MESSAGES


def set_language(code: str) -> None:
    """Switch the table (``"en"``; a catalog registered in ``_LANGUAGE`` later)."""
    global _current
    if code not in _LANGUAGE:
        raise ValueError(f"code: no message catalog {code!r}; available: {', '.join(sorted(_LANGUAGE))}")
    _current = _LANGUAGE[code]


def text(key: str, **fields) -> str:
    """The sentence ``key`` of the current catalog, formatted with ``fields`` (English when missing)."""
    template = _current.get(key) or MESSAGES[key]
    return template.format(**fields)
