"""The exercise sets, the in-notebook checker (evallib.grading), the releases, the classroom bundle and the
sandboxed autograder.

Kernel-backed tests go through the real `make autograde` on real files, in two runs (fixtures, only when
selected): run A grades set 01 submissions that misbehave (tests/fixtures/grading/robustness.json), attack the
grader (ATTACKS below) or use per-student variants, with a short cell time limit and an instructor seed file;
run B (`graded`) grades, for every set, the instructor's solution (full marks, no cell raises: the release's cells
with the answers filled in) and a notebook whose every answer is wrong (tests/fixtures/grading/wrong_answers.json:
no problem scores full marks), beside set 01 attacks on the grader itself (decoding, links, identity, injected
names). The untouched release's answers are "not attempted" (checked without a kernel for every set, and through
the sandbox for set 01 in run A).
"""

import csv
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
from evallib import grading  # noqa: E402
from evallib.grading import (  # noqa: E402
    CORRECT,
    INCORRECT,
    NOT_ATTEMPTED,
    RECEIVED,
    Incorrect,
    exercise_set,
    expect_choice,
    expect_function,
    expect_int,
    expect_number,
    expect_reason,
)
from scripts import autograde  # noqa: E402
from scripts import release_exercises as rel  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "grading"
SOURCES = rel.source_files()
SET_KEYS = [p.stem[:2] for p in SOURCES]
WRONG = json.loads((FIXTURES / "wrong_answers.json").read_text(encoding="utf-8"))
HAVE_BWRAP = autograde.sandbox_problem() is None
needs_sandbox = pytest.mark.skipif(
    not HAVE_BWRAP and not os.environ.get("CI"), reason=f"no sandbox: {autograde.sandbox_problem()}"
)


# ------------------------------------------------------------------------------- checker, no kernel
def test_three_outcomes_and_specific_messages():
    ex = exercise_set("02")
    assert ex.check("q1", ...).status == NOT_ATTEMPTED
    assert ex.check("q1", None).status == NOT_ATTEMPTED
    wrong = ex.check("q1", math.comb(1000, 300))
    assert wrong.status == INCORRECT and "stratification" in wrong.message
    assert ex.check("q1", math.comb(500, 150) ** 2).status == CORRECT
    assert not ex.check("q1", 3) and ex.check("q1", math.comb(500, 150) ** 2)
    assert "q1: incorrect" in repr(ex.check("q1", 3))


def test_function_checks_name_the_failing_case():
    def stub(m, k): ...

    def no_validation(m, k):
        sizes = np.full(k, m // k)
        sizes[: m % k] += 1
        return sizes

    def equal_sizes(m, k):
        return np.full(k, m // k)

    ex = exercise_set("02")
    assert ex.check("q3", stub).status == NOT_ATTEMPTED
    out = ex.check("q3", equal_sizes)
    assert out.status == INCORRECT and "remainder" in out.message
    out = ex.check("q3", no_validation)
    assert out.status == INCORRECT and "ValueError" in out.message


def test_checkers_against_hand_values():
    expect_number(0.1 + 0.2, 0.3)
    with pytest.raises(Incorrect, match="too large"):
        expect_number(0.5, 0.3)
    with pytest.raises(Incorrect, match="known slip"):
        expect_number(0.7, 0.3, mistakes=[(0.7, "known slip")])
    with pytest.raises(Incorrect, match="number"):
        expect_number("0.3", 0.3)
    with pytest.raises(Incorrect, match="integer"):
        expect_int(2.5, 2)
    expect_int(np.int64(7), 7)
    with pytest.raises(Incorrect, match="not one of"):
        expect_choice("c", "a", ["a", "b"])
    expect_choice(" A ", "a", ["a", "b"])
    with pytest.raises(Incorrect, match="sentence"):
        expect_reason("because")
    with pytest.raises(grading.NotAttempted):
        expect_function(lambda x: None, abs, [(1,)])
    with pytest.raises(Incorrect, match=r"\[negative\]"):
        expect_function(lambda x: x, abs, [("positive", (2,)), ("negative", (-2,))])


def test_hint_solution_and_variants():
    ex = exercise_set("01")
    assert "error_rate" in ex.solution("q2") and "Hint" in ex.hint("q2")
    assert "not part of" in exercise_set("01", solutions=False).solution("q2")
    with pytest.raises(ValueError, match="key"):
        exercise_set("99")
    with pytest.raises(ValueError, match="name"):
        ex.check("q42", 1)
    with pytest.raises(TypeError, match="answers"):
        ex.check("q4", "B")
    # set 01's q1 computes on the split of HoldOut(0.3, random_state=variant): another variant, another answer
    from sklearn.tree import DecisionTreeClassifier

    import evallib as el

    X, y = el.data.load_bundled("breast_cancer")
    answers = {}
    for v in (0, 17):
        tr, te = next(el.splits.HoldOut(0.3, random_state=v).split(X, y))
        answers[v] = el.metrics.error_rate(
            y[te], DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[tr], y[tr]).predict(X[te])
        )
    assert answers[0] != answers[17]
    assert exercise_set("01", variant=17).check("q1", answers[17]) and not exercise_set("01").check("q1", answers[17])
    assert exercise_set("01").check("q1", answers[0])


def test_classroom_checks_say_received_and_have_no_solution(tmp_path, monkeypatch):
    data = grading.public_checks(exercise_set("02"))
    (tmp_path / "02_evaluation_methods.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("EVALLIB_EXERCISES", str(tmp_path))
    ex = exercise_set("02")
    assert ex.check("q1", ...).status == NOT_ATTEMPTED
    assert ex.check("q1", 3).status == RECEIVED and ex.check("q1", math.comb(500, 150) ** 2).status == RECEIVED
    assert ex.check("q3", 3).status == INCORRECT  # an implement problem needs a function
    assert "Hint" in ex.hint("q1")
    assert not hasattr(ex, "solution")
    assert set(json.dumps(data)) and "solution" not in json.dumps(data)


def test_plain_data_round_trip_and_nothing_else():
    values = [
        1,
        2.5,
        float("inf"),
        "x",
        True,
        None,
        ...,
        (1, [2, 3]),
        np.arange(6).reshape(2, 3),
        np.array(["a", "b"]),
        {"k": 1.0},
    ]
    for v in values:
        back = grading.from_data(json.loads(json.dumps(grading.to_data(v))))
        if isinstance(v, np.ndarray):
            assert back.dtype == v.dtype and np.array_equal(back, v)
        else:
            assert back == v or (v is ... and back is ...)
    # untrusted input: object arrays, unknown tags and pickles become inert Opaque values
    for evil in (
        {"__nd__": [1], "dtype": "O"},
        {"__reduce__": "os.system"},
        {"__type__": "X"},
        {"__nd__": "cos\nsystem\n(S'id'\ntR.", "dtype": "<f8"},
    ):
        assert isinstance(grading.from_data(evil), grading.Opaque)
    assert isinstance(grading.to_data(object()), dict)


def test_runner_reads_its_one_marker_line_across_split_stream_messages():
    """A busy kernel flushed `__GRADER_BLOCK__ True 2` as two stream messages; the runner read no line and failed
    every call of an honest answer as delegation (CI, set 12 q2). Oracle: the line as printed."""
    from scripts import sandbox_run

    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="__GRADER_BLOCK__ Tr"),
        nbformat.v4.new_output("stream", name="stderr", text="a warning\n"),
        nbformat.v4.new_output("stream", name="stdout", text="ue 2\n"),
    ]
    assert sandbox_run._marked(cell, "__GRADER_BLOCK__ ", str.split) == ["True", "2"]
    cell.outputs = [nbformat.v4.new_output("stream", name="stderr", text="__GRADER_BLOCK__ True 2\n")]
    assert sandbox_run._marked(cell, "__GRADER_BLOCK__ ", str.split) is None
    # a forged line beside the runner's (a submission's thread printing into the runner's cell): void, not the first
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="__GRADER_BLOCK__ True 9\n"),
        nbformat.v4.new_output("stream", name="stdout", text="__GRADER_BLOCK__ False 0\n"),
    ]
    assert sandbox_run._marked(cell, "__GRADER_BLOCK__ ", str.split) is None


def test_block_targets_are_functions_or_methods(capsys):
    """The delegation block's targets (a source's `forbid:` list) are found by the runner's warm-up code: a module's
    function, decorated (followed to the innermost function, here through evallib's validate_params), a class's
    method (the longest importable prefix is the module); an unknown name is None (every call of its answer then
    fails safe). Oracle: the functions' own code objects."""
    import inspect

    from evallib.metrics import error_rate
    from evallib.splits import KFold
    from scripts import sandbox_run

    names = ["evallib.metrics.error_rate", "evallib.splits.KFold.split"]
    exec(sandbox_run.TARGETS % {"names": [*names, "evallib.no_such_module.f", "evallib.metrics.no_such_f"]}, {})
    out = json.loads(capsys.readouterr().out.split("__GRADER_TARGETS__", 1)[1])
    assert inspect.unwrap(error_rate) is not error_rate
    for name, f in zip(names, (error_rate, KFold.split)):
        c = inspect.unwrap(f).__code__
        assert out[name] == [c.co_filename, c.co_qualname, c.co_firstlineno], name
    assert out["evallib.no_such_module.f"] is None and out["evallib.metrics.no_such_f"] is None


def test_hidden_cases_name_the_case_and_the_kind_of_mistake():
    """In the grader (hidden_feedback) a wrong function's message names the failing case and the kind of mistake,
    never the expected value; self-study keeps the full message (the call, the value returned, the expected one)."""
    accuracy = lambda y, p: float(np.mean(np.asarray(y) == np.asarray(p)))  # noqa: E731  (1 - the error rate)
    ex = exercise_set("01")
    own = ex.check("q2", accuracy).message
    assert "all correct" in own and "returned 1.0, expected 0.0" in own
    with grading.hidden_feedback():
        hidden = ex.check("q2", accuracy).message
        with pytest.raises(Incorrect) as number:
            expect_number(0.5, 0.3, show_expected=True)
    assert hidden == "on all correct, your function returned a wrong value (too large)"
    assert "0.3" not in str(number.value) and "expected" not in str(number.value)
    with pytest.raises(Incorrect, match=r"expected 0\.3"):
        expect_number(0.5, 0.3, show_expected=True)


def test_hidden_inputs_are_drawn_anew_in_every_run():
    """The calls the grader makes to a student's function: the fixed edge cases in every run, the random ones new
    in every run (a per-run secret, autograde's set_run_seed), the same within one run (recorded, then replayed)."""
    grader = autograde.Grader(cell_timeout=5)
    calls = []
    try:
        for seed in (11, 12, 11):
            grading.set_run_seed(seed)
            grader._sets.clear()
            _, functions, _ = grader.set_for("01_error_and_fitting", 0)
            calls.append({key for key, _ in functions["error_rate"]})
    finally:
        grading.set_run_seed(None)
        grader.close()
    first, other, again = calls
    assert first == again and first != other and first & other  # new random cases, the same fixed ones


def test_otter_markers_are_stripped():
    src = (
        '""" # BEGIN PROMPT\nx = ...\n""" # END PROMPT\n# BEGIN SOLUTION NO PROMPT\nx = 41 + 1\n# END SOLUTION\n'
        "def f(a):\n    '''doc'''\n    # BEGIN SOLUTION\n    return a\n    # END SOLUTION\n"
        "y = 3  # SOLUTION\nprint('kept')"
    )
    out = rel.strip_solutions(src)
    assert out == "x = ...\ndef f(a):\n    '''doc'''\n    ...\ny = ...\nprint('kept')"
    with pytest.raises(ValueError, match="unterminated"):
        rel.strip_solutions("# BEGIN SOLUTION\nx = 1")


# ------------------------------------------------------------------------------- sources and releases
def test_one_source_per_chapter_and_no_generator():
    chapters = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    released = sorted(p.stem for p in (ROOT / "exercises").glob("[0-9][0-9]_*.ipynb"))
    assert [p.stem for p in SOURCES] == released
    assert set(chapters) <= set(released) or set(released) <= set(chapters)
    assert [p.stem[:2] for p in SOURCES] == grading.available_sets()
    leftovers = [p.name for p in (ROOT / "exercises" / "source").iterdir() if p.suffix != ".md"]
    assert not leftovers, f"the sources are the .md files only: {leftovers}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_source_is_complete(path):
    spec = rel.parse_source(path)
    ex = exercise_set(path.stem[:2])
    assert [q.name for q in spec.questions] == list(ex.problems)
    assert [q.points for q in spec.questions] == [p.points for p in ex.problems.values()]
    assert len(spec.questions) >= 4, "at least four problems per set"
    assert {p.kind for p in ex.problems.values()} == {"compute", "implement", "choose", "plot"}, "all four kinds"
    assert all(t.hidden for q in spec.questions for t in q.tests)
    assert all(p.solution and p.hint for p in ex.problems.values())
    assert spec.config.get("name") == path.stem


def test_book_exercises_2_1_to_2_10_are_covered():
    books = {p.book for k in grading.available_sets() for p in exercise_set(k).problems.values() if p.book}
    assert books >= {f"2.{i}" for i in range(1, 11)}


def test_committed_releases_equal_release_command():
    assert rel.main(["--check"]) == 0, "a committed release is out of date: run `make release`"


# The library's own implementation of a concept and the chapters are public material (a learner reads
# evallib/splits.py and notebooks/02_*): a line of a worked solution that is also a line of them (e.g.
# `sizes[: m % k] += 1`, `X, y = el.data.load_bundled("breast_cancer")`) is not counted as a secret.
LIBRARY_LINES = {
    ln.strip()
    for p in (ROOT / "evallib").rglob("*.py")
    if not p.name.startswith("grading") and "grading" not in p.parts
    for ln in p.read_text(encoding="utf-8").split("\n")
}
LIBRARY_LINES |= {
    ln.strip()
    for p in (ROOT / "notebooks").glob("*.ipynb")
    for c in nbformat.read(p, as_version=4).cells
    for ln in c.source.split("\n")
}
# Code another set hands out is public too (set 12 gives the fitted tree of set 01's q1); a set's own release is
# never counted, so its own leaks are caught.
RELEASE_LINES = {
    p.stem: {ln.strip() for c in nbformat.read(p, as_version=4).cells for ln in c.source.split("\n")}
    for p in (ROOT / "exercises").glob("[0-9][0-9]_*.ipynb")
}


def _secret_lines(path):
    """Lines of worked solutions, hidden tests and checks cells that appear nowhere in the student's view."""
    _, cells = grading.read_myst(path.read_text(encoding="utf-8"))
    secret = set()
    public = set(LIBRARY_LINES).union(*[lines for stem, lines in RELEASE_LINES.items() if stem != path.stem])
    in_tests = False
    for cell in cells:
        mark = grading._marker(cell)
        if mark in ("# BEGIN TESTS", "# END TESTS"):
            in_tests = mark == "# BEGIN TESTS"
            continue
        if cell.cell_type != "code":
            public |= {ln.strip() for ln in cell.source.split("\n")}
            continue
        if in_tests or "checks" in cell.tags:
            secret |= {ln.strip() for ln in cell.source.split("\n")}
            continue
        student = rel.strip_solutions(cell.source)
        public |= {ln.strip() for ln in student.split("\n")}
        secret |= {ln.strip() for ln in cell.source.split("\n")} - {ln.strip() for ln in student.split("\n")}
    generic = re.compile(
        r'^(#|"""|\'\'\'|from |import |def \w+\(|return\b|\)|\]|\}|else:|try:|except\b|pass$|'
        r"hidden:|points:|failure_message:)"
    )
    return {s for s in secret - public if len(s) > 12 and not generic.match(s)}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_release_has_no_solution_and_no_hidden_test(path):
    text = (ROOT / "exercises" / f"{path.stem}.ipynb").read_text(encoding="utf-8")
    release = nbformat.reads(text, as_version=4)
    lines = {ln.strip() for c in release.cells for ln in c.source.split("\n")}
    secrets = _secret_lines(path)
    assert len(secrets) > 10
    leaked = sorted(secrets & lines)
    assert not leaked, f"solution/test/check lines in the release: {leaked[:5]}"
    for marker in (
        "BEGIN SOLUTION",
        "END SOLUTION",
        "BEGIN TESTS",
        "TEST CONFIG",
        "BEGIN QUESTION",
        "ASSIGNMENT CONFIG",
        "assert_correct",
        "hidden: true",
        "BEGIN PROMPT",
    ):
        assert marker not in text
    assert all(
        c.get("outputs", []) == [] and c.get("execution_count") is None for c in release.cells if c.cell_type == "code"
    )
    assert release.metadata["exercise_set"] == path.stem
    code = "\n".join(c.source for c in release.cells if c.cell_type == "code")
    for q in exercise_set(path.stem[:2]).problems.values():
        assert any(f'ex.check("{q.name}"' in c.source for c in release.cells)
        for name in q.answers:
            assert re.search(rf"^(def )?{name}\b.*(\.\.\.|\()", code, re.M), f"no placeholder for {name}"


def test_library_holds_no_solution_and_no_hidden_test():
    library = "\n".join(
        p.read_text(encoding="utf-8")
        for p in [*(ROOT / "evallib").glob("grading*.py"), *(ROOT / "evallib" / "grading").glob("*.py")]
    )
    lib_lines = {ln.strip() for ln in library.split("\n")}
    for path in SOURCES:
        leaked = sorted(_secret_lines(path) & lib_lines)
        assert not leaked, f"{path.name}: lines of its solutions/tests/checks in evallib: {leaked[:5]}"


def test_classroom_without_a_seed_says_every_student_gets_variant_0(tmp_path, monkeypatch, capsys):
    """`make classroom OUT=dir` without a seed says so before it writes anything (what make runs, stopped right
    after the message: the bundle itself is test_classroom_bundle_has_no_solution_no_test_no_seed's)."""

    class Stop(Exception):
        pass

    def stop(*a, **k):
        raise Stop

    monkeypatch.setattr(rel, "load_source", stop)
    with pytest.raises(Stop):
        rel.main(["--classroom", str(tmp_path / "bundle")])
    said = capsys.readouterr().err
    assert "no seed given, so every student gets variant 0" in said
    assert "--seed-file" in said and "make classroom OUT=dir CLASSROOM_ARGS=" in said
    (tmp_path / "ids.txt").write_text("alice\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="--roster needs"):  # per-student folders without a seed: refused
        rel.main(["--classroom", str(tmp_path / "bundle2"), "--roster", str(tmp_path / "ids.txt")])


def test_classroom_bundle_has_no_solution_no_test_no_seed(tmp_path):
    seed_file = tmp_path / "instructor" / "seed"
    seed_file.parent.mkdir()
    seed_file.write_text("correct horse battery staple 7f3a\n", encoding="utf-8")
    roster = tmp_path / "instructor" / "roster.txt"
    roster.write_text("alice\nbob\n", encoding="utf-8")
    out = tmp_path / "bundle"
    proc = subprocess.run(
        [
            "make",
            "-s",
            "-C",
            str(ROOT),
            "classroom",
            f"OUT={out}",
            f"CLASSROOM_ARGS=--roster {roster} --seed-file {seed_file}",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "variant 0" not in proc.stderr  # the no-seed warning is for runs without a seed only
    files = [p for p in out.rglob("*") if p.is_file()]
    assert any(p.parts[-3:-1] == ("students", "alice") for p in files)
    assert (out / "evallib" / "grading" / "__init__.py").exists() and (out / "notebooks").is_dir()
    texts = {p: p.read_text(encoding="utf-8", errors="replace") for p in files}
    lines = {ln.strip() for t in texts.values() for ln in t.replace("\\n", "\n").split("\n")}
    lines |= {ln.strip().strip('",') for ln in lines}
    for path in SOURCES:
        leaked = sorted(_secret_lines(path) & lines)
        assert not leaked, f"{path.name}: solution/test/check lines in the bundle: {leaked[:5]}"
    for p, t in texts.items():
        assert "correct horse" not in t, p
        if p.suffix in (".ipynb", ".json") and ("exercises" in p.parts or "students" in p.parts):
            assert (
                "BEGIN SOLUTION" not in t
                and "BEGIN TESTS" not in t
                and "ex.solution" not in t
                and "solution" not in t.lower().replace("solutions are not", "")
            ), p
    # each student's notebooks carry their own variant, derived from the seed
    variants = {}
    for who in ("alice", "bob"):
        nb = nbformat.read(out / "students" / who / "01_error_and_fitting.ipynb", as_version=4)
        variants[who] = re.search(r"^variant = (\d+)", nb.cells[1].source, re.M).group(1)
    assert variants["alice"] != variants["bob"] and "0" not in variants.values()
    seed = rel.read_seed(seed_file=str(seed_file))
    assert variants["alice"] == str(rel.variant_for(seed, "alice", "01"))


# ------------------------------------------------------------------------------- make autograde
def _make_autograde(subs, out, *args, timeout=2400):
    return subprocess.run(
        [
            "make",
            "-s",
            "-C",
            str(ROOT),
            "autograde",
            f"SUBMISSIONS={subs}",
            "AUTOGRADE_ARGS=" + " ".join(["--out", str(out), *map(str, args)]),
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _tables(out):
    with open(out / "feedback.csv", encoding="utf-8") as fh:
        feedback = list(csv.DictReader(fh))
    with open(out / "grades.csv", encoding="utf-8") as fh:
        table = list(csv.DictReader(fh))
    return feedback, table


def _tree(folder):
    """{relative path: sha256} of every file under ``folder``."""
    folder = Path(folder)
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


def _write_nb(path, cells, set_name="01_error_and_fitting"):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["exercise_set"] = set_name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


MARK = "PWNED-h2-" + hashlib.sha256(str(time.time()).encode()).hexdigest()[:8]
WRONG_01 = [WRONG["01"][q] for q in ("q1", "q2", "q3", "q4")]
# An attack leaves q2 (a function) out: naming no blocked function, its sandbox resolves no delegation targets
# (scripts/sandbox_run.py), which spares it importing scikit-learn.
WRONG_01_NO_FUNCTION = [WRONG["01"][q] for q in ("q1", "q3", "q4")]
# Each attack is a set 01 submission whose answers are otherwise wrong (WRONG_01_NO_FUNCTION comes first);
# {ROOT}, {SUBS}, {OUT}, {SEED}, {MARK} are filled in. What an attack found goes into q4_reason (and q4: two
# reports in one sandbox), which feedback.csv shows.
ATTACKS = {
    "patch_grading": """
import evallib.grading as g
ok = g.Outcome
g.ExerciseSet.outcome = lambda self, name, *a: ok(name, "correct")
g.ExerciseSet.assert_correct = lambda self, *a: None
for f in ("expect_number", "expect_int", "expect_choice", "expect_reason", "expect_function", "expect_array"):
    setattr(g, f, lambda *a, **k: None)
import builtins
builtins.AssertionError = type("Never", (BaseException,), {})
""",
    "forge_results_and_exit": """
import json, os, glob
row = json.dumps({"tag": "", "kind": "attempt", "problem": "q1", "status": "correct", "passed": True})
fake = json.dumps({"values": {"q1": 0.0}, "verdict": {"q1": "correct", "q2": "correct", "q3": "correct",
                  "q4": "correct"}, "notes": [], "unreached": None, "calls": {}})
for path in glob.glob("/tmp/**", recursive=True) + glob.glob(".*") + ["{OUT}/grades.csv", "{OUT}/feedback.csv"]:
    try:
        with open(path, "a") as fh:
            fh.write(row + "\\n")
    except OSError:
        pass
for fd in range(0, 64):
    try:
        os.write(fd, ("\\n" + fake + "\\n").encode())
    except OSError:
        pass
for pid in os.listdir("/proc"):
    if pid.isdigit():
        for fd in ("1", "2"):
            try:
                with open(f"/proc/{pid}/fd/{fd}", "w") as fh:
                    fh.write("\\n" + fake + "\\n")
            except OSError:
                pass
os._exit(0)
""",
    "writes_everywhere": """
import os
found = []
targets = ["{ROOT}", "{ROOT}/exercises", "{ROOT}/exercises/source", "{SUBS}", "{OUT}", "/tmp", "/work"]
for pid in os.listdir("/proc"):
    if pid.isdigit():
        for link in ("cwd", "root"):
            targets.append(f"/proc/{pid}/{link}")
            targets.append(f"/proc/{pid}/{link}{SUBS}")
            targets.append(f"/proc/{pid}/{link}{OUT}")
            targets.append(f"/proc/{pid}/{link}{ROOT}")
for t in targets:
    try:
        with open(os.path.join(t, "{MARK}"), "w") as fh:
            fh.write("x")
        found.append(t)
        with open(os.path.join(t, "grades.csv"), "w") as fh:
            fh.write("student,total\\nwrite_through_proc_cwd,100\\n")
    except OSError:
        pass
q4_reason = "wrote into: " + repr(sorted(found)) + " end of the list of places written"
res = []
for path in ("/tmp/big", "big"):
    try:
        with open(path, "wb") as fh:
            for _ in range(400):
                fh.write(b"x" * 2**20)
        res.append(f"{path}: wrote 400 MB")
    except OSError as exc:
        res.append(f"{path}: {type(exc).__name__} {exc.errno}")
q4 = "huge file attempts: " + " ; ".join(res)
""",
    "background_rewrites_grades": """
import subprocess, sys
code = '''
import time, os
for _ in range(240):
    for d in ("{OUT}", "{SUBS}", "/tmp"):
        try:
            with open(os.path.join(d, "grades.csv"), "w") as fh:
                fh.write("student,total\\\\nbackground_rewrites_grades,100\\\\n")
        except OSError:
            pass
    time.sleep(0.25)
'''
subprocess.Popen([sys.executable, "-c", code, "{MARK}"], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
""",
    "reads_and_dials": """
import glob, os
seen = []
for p in ["{ROOT}/exercises/source/01_error_and_fitting.md", "{SEED}", "{ROOT}/.git/HEAD", "{OUT}", "{SUBS}"]:
    try:
        seen.append((p, open(p).read()[:200] if os.path.isfile(p) else sorted(os.listdir(p))))
    except OSError as exc:
        seen.append((p, type(exc).__name__))
seen.append(("md files", glob.glob("{ROOT}/exercises/source/*")))
q4_reason = "found: " + repr(seen)
import socket
res = []
for host, port in (("pypi.org", 443), ("1.1.1.1", 53), ("8.8.8.8", 53)):
    try:
        socket.create_connection((host, port), timeout=3).close()
        res.append(f"{host} CONNECTED")
    except OSError as exc:
        res.append(f"{host} {type(exc).__name__}")
q4 = "network attempts: " + " ; ".join(res)
""",
    "fork_bomb": """
import os, subprocess, time
subprocess.Popen(["sh", "-c", "i=0; while [ $i -lt 3000 ]; do sleep 60 & i=$((i+1)); done; wait", "{MARK}"],
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
time.sleep(2)
n = sum(1 for p in os.listdir("/proc") if p.isdigit())
try:
    os.fork() or os._exit(0)
    stop = "none"
except OSError as exc:
    stop = type(exc).__name__
q4_reason = f"{n} processes in the sandbox; one more fork: {stop} {'{MARK}'}"
""",
}


@pytest.fixture(scope="module")
def run_a(tmp_path_factory):
    """Set 01: robustness cases, attacks, per-student variants, the solution and the untouched release."""
    if not HAVE_BWRAP:
        pytest.skip(f"no sandbox: {autograde.sandbox_problem()}")
    base = tmp_path_factory.mktemp("run_a")
    subs, out, instructor = base / "submissions", base / "grades", base / "instructor"
    for d in (subs, out, instructor):
        d.mkdir()
    seed_file = instructor / "seed"
    seed_file.write_text("an instructor secret 91c2\n", encoding="utf-8")
    seed = rel.read_seed(seed_file=str(seed_file))
    robust = json.loads((FIXTURES / "robustness.json").read_text(encoding="utf-8"))
    for case, spec in robust["cases"].items():
        path = subs / case / f"{robust['set']}.ipynb"
        path.parent.mkdir()
        if "raw" in spec:
            path.write_text(spec["raw"], encoding="utf-8")
        else:
            _write_nb(path, [robust["cells"].get(c, c) for c in spec["cells"]])
    (subs / "non_utf8").mkdir()
    (subs / "non_utf8" / "01_error_and_fitting.ipynb").write_bytes(b'{"cells": [\xff\xfe\x80 "q1 = 1"]}')
    fill = {"{ROOT}": str(ROOT), "{SUBS}": str(subs), "{OUT}": str(out), "{SEED}": str(seed_file), "{MARK}": MARK}
    setup = robust["cells"]["SETUP"]
    for case, code in ATTACKS.items():
        for k, v in fill.items():
            code = code.replace(k, v)
        _write_nb(subs / case / "01_error_and_fitting.ipynb", [setup, *WRONG_01_NO_FUNCTION, code.strip("\n")])
    src = ROOT / "exercises" / "source" / "01_error_and_fitting.md"
    untouched = subs / "untouched" / "01_error_and_fitting.ipynb"
    untouched.parent.mkdir()
    shutil.copy(ROOT / "exercises" / "01_error_and_fitting.ipynb", untouched)
    for who, variant_of in (("alice", "alice"), ("bob", "alice"), ("carol", None)):
        nb = rel.solution_notebook(src, variant=rel.variant_for(seed, variant_of, "01") if variant_of else 0)
        (subs / who).mkdir()
        nbformat.write(nb, subs / who / "01_error_and_fitting.ipynb")
    before = {"subs": _tree(subs), "instructor": _tree(instructor), "grades": _tree(out)}
    # 10 s a cell: a notebook that leaves q2 out no longer has scikit-learn imported in its untimed warm-up (the
    # delegation block's targets), so its first cell that needs it pays the import, on a machine at load 4.
    proc = _make_autograde(
        subs, out, "--cell-timeout", 10, "--total-timeout", 120, "--jobs", 2, "--seed-file", seed_file
    )
    finished = time.time()
    grades_after = (out / "grades.csv").read_bytes() if (out / "grades.csv").exists() else b""
    time.sleep(3)  # a background process would rewrite grades.csv by now
    after = {
        "subs": _tree(subs),
        "instructor": _tree(instructor),
        "grades": {k: v for k, v in _tree(out).items() if k not in ("grades.csv", "feedback.csv")},
    }
    feedback, table = _tables(out)
    return dict(
        proc=proc,
        feedback=feedback,
        table=table,
        before=before,
        after=after,
        out=out,
        subs=subs,
        grades_after=grades_after,
        finished=finished,
        robust=robust,
    )


def _rows(run, student):
    return {r["problem"]: r for r in run["feedback"] if r["student"] == student}


def _total(run, student):
    row = next(r for r in run["table"] if r["student"] == student)
    return float(row["total"]), float(row["max_points"]), row["notes"]


@needs_sandbox
def test_run_a_completes(run_a):
    assert run_a["proc"].returncode == 0, run_a["proc"].stdout[-3000:] + run_a["proc"].stderr[-3000:]
    expected = set(run_a["robust"]["cases"]) | set(ATTACKS) | {"non_utf8", "untouched", "alice", "bob", "carol"}
    assert {row["student"] for row in run_a["table"]} == expected
    assert "UNSAFE" not in run_a["proc"].stdout + run_a["proc"].stderr


@needs_sandbox
def test_submissions_and_course_unchanged(run_a):
    """Nothing a submission did appears outside the sandbox: the submissions, instructor and grades folders hold the
    same files with the same bytes (plus the two tables), and no file an attack writes (its marker file, a
    grades.csv) exists in the course, the test's folders, /tmp or /work. (Other work changes the course tree
    meanwhile, so the course is searched for the attacks' files rather than compared as a whole.)"""
    assert run_a["after"] == run_a["before"]
    assert set(os.listdir(run_a["out"])) == {"grades.csv", "feedback.csv"}
    hits = [
        str(p)
        for top in (ROOT, run_a["subs"].parent, Path("/tmp"), Path("/work"))
        for p in _walk(top)
        if p.name == MARK
        or p.name.startswith("PWNED-h2")
        or (p.name == "grades.csv" and re.search(rb"(proc_cwd|rewrites_grades),100", p.read_bytes()[:500]))
    ]
    assert not hits, hits


def _walk(top, depth=6):
    top = Path(top)
    for dirpath, dirnames, filenames in os.walk(top):
        rel_depth = len(Path(dirpath).relative_to(top).parts)
        dirnames[:] = [d for d in dirnames if d not in (".venv", ".git", "node_modules", "proc") and rel_depth < depth]
        for f in filenames:
            yield Path(dirpath) / f


@needs_sandbox
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_attack_scores_zero(run_a, attack):
    total, max_points, notes = _total(run_a, attack)
    assert total == 0 and max_points > 0, (attack, notes, _rows(run_a, attack))
    for r in _rows(run_a, attack).values():
        assert r["status"] != "correct" and r["message"], r


@needs_sandbox
def test_grades_written_after_the_sandbox_and_not_rewritten(run_a):
    assert (run_a["out"] / "grades.csv").read_bytes() == run_a["grades_after"]
    text = run_a["grades_after"].decode("utf-8")
    assert text.startswith("student,exercise_set,file,") and ",100\n" not in text
    alive = []
    for pid in os.listdir("/proc"):
        try:
            if MARK.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                alive.append(pid)
        except OSError:
            pass
    assert not alive, f"processes left by submissions: {alive}"


@needs_sandbox
def test_what_attacks_saw_inside(run_a):
    """The sandbox hides the instructor's material, has no network, stops a process bomb and a huge file."""

    def said(attack, answer="q4_reason"):
        q4, reason = _rows(run_a, attack)["q4"]["text_answers"].split(" | q4_reason: ")
        return reason if answer == "q4_reason" else q4.removeprefix("q4: ")

    seen = said("reads_and_dials")
    for secret in ("an instructor secret", "BEGIN TESTS", "assert_correct", "BEGIN SOLUTION", "ref: refs/"):
        assert secret not in seen, secret
    assert "01_error_and_fitting.md', 'FileNotFoundError')" in seen and "('md files', [])" in seen
    for hidden in (run_a["subs"], run_a["out"]):  # absent from the allow-list sandbox (was: empty)
        assert f"{hidden}', 'FileNotFoundError')" in seen or f"{hidden}', [])" in seen, seen
    net = said("reads_and_dials", "q4")
    assert "CONNECTED" not in net and net.count(" ; ") == 2 and "pypi.org" in net, net
    bomb = said("fork_bomb")
    n = int(re.search(r"(\d+) processes in the sandbox; one more fork: (\w+)", bomb).group(1))
    assert 100 < n <= 260 and "BlockingIOError" in bomb, bomb
    huge = said("writes_everywhere", "q4")
    assert "wrote 400 MB" not in huge and "OSError 27" in huge
    wrote = said("writes_everywhere")  # only the sandbox's own private /tmp is writable
    places = re.search(r"wrote into: (\[.*?\]) end", wrote).group(1)
    for outside in (str(ROOT), str(run_a["subs"]), str(run_a["out"]), "/work"):
        assert outside not in places, wrote


@needs_sandbox
@pytest.mark.parametrize(
    "case",
    [
        "raises",
        "infinite_loop",
        "loop_ignoring_interrupts",
        "syntax_error",
        "deleted_cells",
        "reordered_cells",
        "megabytes_of_output",
        "kernel_dies",
        "function_loops_on_hidden_cases",
        "wrong_types",
        "not_a_notebook",
    ],
)
def test_robustness_case(run_a, case):
    """Each case of tests/fixtures/grading/robustness.json gets its statuses and its note. infinite_loop spins as a
    runaway cell does; the loop that ignores interrupts and the function that never returns sleep in their loops:
    the same limits stop them (the kill, the call's timer), without burning seconds of CPU in the test run."""
    expected = run_a["robust"]["cases"][case]
    got = _rows(run_a, case)
    assert {p: r["status"] for p, r in got.items()} == expected["status"], got
    for r in got.values():
        assert float(r["points"]) == (float(r["max_points"]) if r["status"] == "correct" else 0.0)
        if r["status"] != "correct":
            assert r["message"], f"{case} {r['problem']}: a zero needs a message"
    _, _, notes = _total(run_a, case)
    assert expected["note"] in notes + " ".join(r["message"] for r in got.values())


@needs_sandbox
def test_non_utf8_file_is_a_reason_not_a_crash(run_a):
    got = _rows(run_a, "non_utf8")
    assert {r["status"] for r in got.values()} == {"not graded"}
    assert all("could not read" in r["message"] for r in got.values())


@needs_sandbox
def test_variants_and_untouched(run_a):
    """alice's own variant: full marks. bob hands in alice's notebook, carol the public self-study answer:
    the data problem (q1) fails for both, the grader recomputing each student's expected value."""
    total, max_points, _ = _total(run_a, "alice")
    assert total == max_points > 0
    for who in ("bob", "carol"):
        got = _rows(run_a, who)
        assert got["q1"]["status"] == "incorrect", got["q1"]
        assert {got[q]["status"] for q in ("q2", "q3", "q4")} == {"correct"}
    assert _total(run_a, "untouched")[0] == 0
    assert {r["status"] for r in _rows(run_a, "untouched").values()} == {"not attempted"}
    q4 = _rows(run_a, "alice")["q4"]
    assert q4["text_answers"].startswith("q4: B | q4_reason: ")  # justifications reach the instructor


def test_refuses_without_sandbox_unless_unsafe(tmp_path):
    subs = tmp_path / "subs"
    nb = rel.solution_notebook(ROOT / "exercises" / "source" / "01_error_and_fitting.md")
    (subs / "dana").mkdir(parents=True)
    nbformat.write(nb, subs / "dana" / "01_error_and_fitting.ipynb")
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}  # no bwrap on this PATH
    cmd = [sys.executable, "-m", "scripts.autograde", str(subs), "--out", str(tmp_path / "out")]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600, cwd=ROOT)
    assert proc.returncode == 2 and "apt-get install -y bubblewrap" in proc.stderr
    assert not (tmp_path / "out" / "grades.csv").exists()
    # Unsandboxed, the runner shares the host's processes: before the hidden calls it may end only its own
    # (it once ended every process it could see, the test run and CI among them). A bystander must survive.
    bystander = subprocess.Popen(["sleep", "600"])
    try:
        proc = subprocess.run(
            [*cmd, "--unsafe-no-sandbox"], capture_output=True, text=True, env=env, timeout=600, cwd=ROOT
        )
        assert bystander.poll() is None, "the unsandboxed runner killed a process that is not its own"
    finally:
        bystander.kill()
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "UNSAFE" in proc.stderr and "UNSAFE" in proc.stdout
    _, table = _tables(tmp_path / "out")
    assert table[0]["total"] == table[0]["max_points"] and "UNSAFE" in table[0]["notes"]


# ------------------------------------------------------------------------------- every set: run B
@pytest.fixture(scope="module")
def run_b(graded):
    """Run B is the one honest-and-hostile run below (`graded`): every set's solution, wrong answers and partial
    answers are graded there, beside the attacks on the grader."""
    assert graded["returncode"] == 0, graded["stdout"][-3000:] + graded["stderr"][-3000:]
    return graded


@needs_sandbox
@pytest.mark.parametrize("key", SET_KEYS)
def test_solution_scores_full_marks(run_b, key):
    spec = rel.parse_source(SOURCES[SET_KEYS.index(key)])
    got = {r["problem"]: r for r in run_b["feedback"] if r["student"] == f"solution_{key}"}
    assert {p: r["status"] for p, r in got.items()} == {q.name: "correct" for q in spec.questions}, got
    row = next(r for r in run_b["table"] if r["student"] == f"solution_{key}")
    assert float(row["total"]) == spec.max_points and not row["notes"], row


@needs_sandbox
@pytest.mark.parametrize("key", SET_KEYS)
def test_every_wrong_answer_fails(run_b, key):
    spec = rel.parse_source(SOURCES[SET_KEYS.index(key)])
    assert set(WRONG[key]) == {q.name for q in spec.questions}, "one wrong-answer fixture per problem"
    got = {r["problem"]: r for r in run_b["feedback"] if r["student"] == f"wrong_{key}"}
    for q in spec.questions:
        assert got[q.name]["status"] in ("incorrect", "partial"), (q.name, got[q.name])
        assert float(got[q.name]["points"]) < q.points and got[q.name]["message"]


@needs_sandbox
@pytest.mark.parametrize("key", sorted(WRONG["_partial"]))
def test_hidden_cases_give_partial_credit(run_b, key):
    """An answer that passes the learner's check but not a hidden edge case gets partial credit."""
    for q, partial in WRONG["_partial"][key].items():
        ns = {"np": np}
        exec(partial["code"], ns)
        assert exercise_set(key).check(q, ns[exercise_set(key).problems[q].answers[0]])
        got = {r["problem"]: r for r in run_b["feedback"] if r["student"] == f"partial_{key}_{q}"}
        assert got[q]["status"] == "partial" and float(got[q]["points"]) == partial["points"], got[q]
        assert partial["message"] in got[q]["message"]
        assert {r["status"] for name, r in got.items() if name != q} == {"correct"}


@pytest.mark.parametrize("key", SET_KEYS)
def test_untouched_release_answers_are_not_attempted(key):
    """The release's answer cells as a learner gets them (placeholders, stub functions), each run alone: every
    problem is "not attempted", with a message saying what to replace. (Set 01's untouched release also goes
    through the sandbox in run A; every other cell of a release runs in the sandbox as part of its solution.)"""
    path = SOURCES[SET_KEYS.index(key)]
    nb = nbformat.read(ROOT / "exercises" / f"{path.stem}.ipynb", as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    ex = exercise_set(key)
    checked = set()
    for before, cell in zip(code, code[1:]):
        m = re.match(r'ex\.check\("(q\d+)"', cell)
        if m:
            ns = {"np": np}
            exec(before, ns)
            answers = [ns[a] for a in ex.problems[m.group(1)].answers]
            out = ex.outcome(m.group(1), *answers)
            assert out.status == "not attempted" and out.message, (key, m.group(1), out)
            checked.add(m.group(1))
    assert checked == set(ex.problems), (key, checked)


# ------------------------------------------------------------------------------- variants of every set
VARIANT_PROBLEMS = {
    "01": ["q1"],
    "02": ["q4"],
    "03": ["q1"],
    "04": ["q1", "q5"],
    "05": ["q2", "q4"],
    "06": ["q1", "q2"],
    "07": ["q1"],
    "08": ["q3"],
}


@pytest.mark.parametrize("key", sorted(VARIANT_PROBLEMS))
def test_variants_change_exactly_the_data_problems(key):
    """The worked solution run with variant 7 passes variant 7's checks (plot readings aside: a student reads
    their own figure); the self-study (variant 0) answers fail exactly the data problems of variant 7."""
    import contextlib
    import io

    src = SOURCES[SET_KEYS.index(key)]
    answers = {}
    for v in (0, 7):
        ns = {}
        with contextlib.redirect_stdout(io.StringIO()):
            for c in rel.solution_notebook(src, variant=v).cells:
                if c.cell_type == "code" and "ex.check" not in c.source:
                    exec(c.source, ns)
        ex = exercise_set(key, variant=v)
        answers[v] = {q: [ns.get(a) for a in p.answers] for q, p in ex.problems.items()}
        if v == 7:
            wrong = [q for q, p in ex.problems.items() if ex.check(q, *answers[7][q]).status != CORRECT]
            assert wrong == [q for q in VARIANT_PROBLEMS[key] if ex.problems[q].kind == "plot"]
    ex7 = exercise_set(key, variant=7)
    assert [q for q in ex7.problems if ex7.check(q, *answers[0][q]).status != CORRECT] == VARIANT_PROBLEMS[key]


def test_malformed_or_missing_sandbox_output_scores_zero_with_reason(monkeypatch):
    """Whatever the sandbox prints is data: a failure, a non-object, answers of the wrong shape or unknown note
    keys give zero for what they affect, with the reason, and never raise."""
    grader = autograde.Grader(cell_timeout=5)
    try:
        spec = grader.specs["02_evaluation_methods"]
        outputs = [
            (None, ("malformed_output", {"detail": "not JSON"})),
            ({"values": "not a dict", "calls": [], "notes": [["no_such_key", {}], "junk", ["cell_raised", 3]]}, None),
            (
                {
                    "values": {
                        "q1": {"__nd__": [1], "dtype": "O"},
                        "q2_cv": {"__reduce__": "os.system"},
                        "q4": [0.1] * 3,
                        "fold_sizes": {"__callable__": True},
                    },
                    "calls": {"fold_sizes": {"garbage": {"value": 1}}},
                    "notes": [],
                    "unreached": None,
                },
                None,
            ),
        ]
        results = []
        for out in outputs:
            monkeypatch.setattr(grader, "run_sandboxed", lambda *a, out=out: out)
            results.append(grader.grade(["q1 = 1"], spec))
        (g0, n0), (g1, n1), (g2, n2) = results
        assert {g.status for g in g0} == {"not graded"} and "malformed" in n0[0] and all(g.message for g in g0)
        assert {g.status for g in g1} == {"not graded"} and any("malformed" in n for n in n1)
        by = {g.problem: g for g in g2}
        assert by["q1"].status == "incorrect" and by["q4"].status == "incorrect"
        assert by["q2"].status == "missing" and by["q3"].status == "incorrect"  # q2_loo missing; no results
        assert sum(g.points for g in g0 + g1 + g2) == 0
    finally:
        grader.close()


# ------------------------------------------------------------------------------- the reader and the caps
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_reader_equals_jupytext(path):
    """The one reader of the sources is jupytext: same cells, types, sources and tags; every config is YAML."""
    import jupytext
    import yaml

    _, cells = grading.read_myst(path.read_text(encoding="utf-8"))
    nb = jupytext.read(path)
    assert [(c.cell_type, c.source, c.tags) for c in cells] == [
        (c.cell_type, c.source, tuple(c.metadata.get("tags", ()))) for c in nb.cells
    ]
    for c in cells:
        if grading._marker(c) in ("# BEGIN QUESTION", "# ASSIGNMENT CONFIG"):
            assert grading._config(c) == yaml.safe_load(c.source.split("\n", 1)[1])


def test_decoding_caps_cost_little_memory():
    """The 168-byte dtype answer and its relatives decode to Opaque values; the decoding process's peak RSS grows
    by a few MB at most (measured in a fresh subprocess with resource.getrusage)."""
    code = r"""
import json, resource
from evallib.grading import from_data, decode_result, Opaque
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
hostile = [{"__nd__": [""], "dtype": "<U200000000", "shape": [1]}] * 30
out = [from_data(hostile),
       from_data({"__nd__": [1], "dtype": "(1000000000,)f8"}),
       from_data({"__nd__": [0] * 10, "dtype": "<f8", "shape": [10 ** 9]}),
       from_data({"__nd__": [1.0] * 10, "dtype": "<f8", "shape": [2, 5]}),
       decode_result(b"[" * 500000 + b"]" * 500000),
       decode_result(b'{"values": ' + b"[" * 100000 + b"]" * 100000 + b"}")]
nested = []
for _ in range(100000):
    nested = [nested]
out.append(from_data(nested))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"kb": after - before, "kinds": [type(o).__name__ for o in out],
                  "inner": [type(x).__name__ for x in out[0]]}))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["inner"] == ["Opaque"] * 30
    assert got["kinds"][1:3] == ["Opaque", "Opaque"] and got["kinds"][3] == "ndarray"
    assert got["kinds"][4:7] == ["NoneType", "NoneType", "list"]  # depth 26 and below: Opaque
    assert got["kb"] < 20_000, got


def test_names_and_cells_are_neutralised():
    for raw, want in (
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("a\x1b[31mb", "a?[31mb"),
        ("x\u202ey", "x?y"),
    ):
        assert autograde.safe_cell(raw) == want
    assert autograde.normalise_name("  ａｌｉｃｅ\u200b ") == "alice"
    notes = autograde.lookalike_notes({"alice", "\u0430lice", "bob"})
    assert set(notes) == {"\u0430lice"} and "U+0430" in notes["\u0430lice"]


# ------------------------------------------------------------------------------- one run, every attack on G2's side
G2_ATTACKS = (
    "dtype_bomb",
    "frank_links_bob",
    "seed_link",
    "shadow_link",
    "linked_folder",
    *[f"delegates_{key}" for key in ("01", "04", "05", "06", "07", "08", "11", "12", "13", "14")],
    "memoises",
    "two_notebooks",
    "erin",
    "lookalike_alice",
)
# Implement-problems answered by the library (issue 28: one-line aliases scored full marks on 01 q2, 05 q1, 06 q3,
# 07 q2, 08 q2, 11 q2, 12 q2, 14 q2), one per set with a `forbid:` list, each alias the learner's check accepts.
DELEGATE = {
    "01": ("q2", "error_rate = el.metrics.error_rate"),
    "04": ("q2", "fbeta = lambda y_true, y_pred, beta: el.metrics.fbeta_score(y_true, y_pred, beta=beta)"),
    "05": ("q1", "rank_loss = el.curves.rank_loss"),
    "06": ("q3", "normalized_cost = el.curves.normalized_cost"),
    "07": ("q2", "dcg = el.metrics.dcg"),
    "08": ("q2", "mcnemar_statistic = lambda e01, e10: el.compare.mcnemar([[0, e01], [e10, 0]]).statistic"),
    "11": ("q2", "attainable = el.roofline.attainable"),
    "12": ("q2", "delong_variance = lambda y_true, scores: el.uncertainty.roc_auc_interval(y_true, scores).variance"),
    "13": ("q3", "holm_adjust = lambda pvalues: el.compare.holm(pvalues).adjusted_pvalue"),  # q2 stays honest
    "14": ("q2", "mcc = el.metrics.matthews_corrcoef"),
}
DELEGATE_ON_SOLUTION = {"13"}
INJECTED = ('=HYPERLINK("x")', "+cmd", "-2+3", "@SUM(A1)", "esc\x1b[31mred")


@pytest.fixture(scope="session")
def graded(tmp_path_factory):
    """One `make autograde` over honest and hostile submissions: every set's solution, wrong answers and partial
    answers (run B's tests), set 01 attacks on the grader (decoding, links, identity,
    injection, delegation, memoisation); the grader's peak RSS is sampled.
    No seed: every student has variant 0 (the per-student variants are run_a's); the instructor's secret file
    exists only as the target of a link."""
    if not HAVE_BWRAP:
        pytest.skip(f"no sandbox: {autograde.sandbox_problem()}")
    import psutil

    base = tmp_path_factory.mktemp("graded")
    subs, out, instructor = base / "submissions", base / "grades", base / "instructor"
    for d in (subs, out, instructor):
        d.mkdir()
    secret = "attack-test-secret-7f3e"
    (instructor / "seed").write_text(secret + "\n", encoding="utf-8")
    s01 = SOURCES[0]
    for path in SOURCES:
        key = path.stem[:2]
        (subs / f"solution_{key}").mkdir()
        nbformat.write(rel.solution_notebook(path), subs / f"solution_{key}" / f"{path.stem}.ipynb")
        wrong = rel.solution_notebook(path)  # (wrong answers may use what the solution computed)
        wrong.cells += [nbformat.v4.new_code_cell(WRONG[key][q]) for q in WRONG[key]]
        (subs / f"wrong_{key}").mkdir()
        nbformat.write(wrong, subs / f"wrong_{key}" / f"{path.stem}.ipynb")
        for q, partial in WRONG["_partial"].get(key, {}).items():
            part = rel.solution_notebook(path)
            part.cells.append(nbformat.v4.new_code_cell(partial["code"]))
            (subs / f"partial_{key}_{q}").mkdir()
            nbformat.write(part, subs / f"partial_{key}_{q}" / f"{path.stem}.ipynb")

    def sol01(*extra):
        nb = rel.solution_notebook(s01)
        nb.cells += [nbformat.v4.new_code_cell(c) for c in extra]
        return nb

    (subs / "dtype_bomb").mkdir()
    nbformat.write(sol01("q3 = [np.empty(1, dtype='<U200000000')] * 3"), subs / "dtype_bomb" / f"{s01.stem}.ipynb")
    for who, target in (
        ("frank_links_bob", "../solution_01/" + f"{s01.stem}.ipynb"),  # another student's notebook
        ("seed_link", instructor / "seed"),
        ("shadow_link", "/etc/shadow"),
    ):
        (subs / who).mkdir()
        os.symlink(target, subs / who / f"{s01.stem}.ipynb")
    os.symlink(subs / "solution_01", subs / "linked_folder")
    for key, (q, alias) in DELEGATE.items():  # the release, then its implement-problem answered by the library
        src = SOURCES[SET_KEYS.index(key)]
        # Set 13 starts from the solution: its honest sign test (q2, blocked too) must still score beside the
        # delegated Holm correction. The others need no solution run: only the delegated problem is judged.
        nb = rel.solution_notebook(src) if key in DELEGATE_ON_SOLUTION else rel.make_release(src)
        nb.cells.append(nbformat.v4.new_code_cell(alias))
        (subs / f"delegates_{key}").mkdir()
        nbformat.write(nb, subs / f"delegates_{key}" / f"{src.stem}.ipynb")
    memo = (
        "_cases = [([1], [0]), ([0, 0, 1, 1], [1, 1, 0, 0]), ([2, 1, 0, 2, 2], [2, 0, 0, 1, 2]),\n"
        "          ([True, False, True], [True, True, True]), ([1, 0], [1, 0]), ([1, 0, 1, 1], [1, 1, 1, 0]),\n"
        "          ([0, 1, 2], [0, 1, 2]), (['good', 'bad', 'good'], ['bad', 'bad', 'good'])]\n"
        "_memo = {repr((list(a), list(b))): el.metrics.error_rate(a, b) for a, b in _cases}\n"
        "def error_rate(y, p):\n"
        "    if len(y) == 0 or len(y) != len(p):\n"
        "        raise ValueError('bad input')\n"
        "    return _memo.get(repr((list(y), list(p))), 0.5)"
    )
    (subs / "memoises").mkdir()
    nbformat.write(sol01(memo), subs / "memoises" / f"{s01.stem}.ipynb")
    (subs / "two_notebooks").mkdir()
    wrong = sol01(*WRONG_01)
    nbformat.write(wrong, subs / "two_notebooks" / "01_first_try.ipynb")
    nbformat.write(sol01(), subs / "two_notebooks" / "01_final.ipynb")
    os.utime(subs / "two_notebooks" / "01_first_try.ipynb", (time.time() - 3600, time.time() - 3600))
    nbformat.write(wrong, subs / "erin.ipynb")
    os.utime(subs / "erin.ipynb", (time.time() - 3600, time.time() - 3600))
    (subs / "erin").mkdir()
    nbformat.write(sol01(), subs / "erin" / f"{s01.stem}.ipynb")
    (subs / "alice").mkdir()  # a name is a name: hers needs no sandbox for the look-alike to be flagged
    (subs / "alice" / f"{s01.stem}.ipynb").write_text("not a notebook", encoding="utf-8")
    (subs / "\u0430lice").mkdir()
    nbformat.write(sol01(), subs / "\u0430lice" / f"{s01.stem}.ipynb")
    for who in INJECTED:  # a name is a name, graded or refused: these cost no sandbox
        (subs / who).mkdir()
        (subs / who / f"{s01.stem}.ipynb").write_text("not a notebook", encoding="utf-8")
    cmd = [
        "make",
        "-s",
        "-C",
        str(ROOT),
        "autograde",
        f"SUBMISSIONS={subs}",
        "AUTOGRADE_ARGS=" + " ".join(["--out", str(out), "--cell-timeout", "300", "--jobs", "2"]),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = {"rss": 0}

    def sample():
        me = psutil.Process(proc.pid)
        while proc.poll() is None:
            try:
                for c in me.children(recursive=True):
                    if any(a.endswith("autograde.py") or a == "scripts.autograde" for a in c.cmdline()):
                        peak["rss"] = max(peak["rss"], c.memory_info().rss)
            except psutil.Error:
                pass
            time.sleep(0.05)

    import threading

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    stdout, stderr = proc.communicate(timeout=3000)
    t.join()
    feedback, table = _tables(out)
    raw = (out / "grades.csv").read_bytes() + (out / "feedback.csv").read_bytes()
    return dict(
        returncode=proc.returncode,
        stdout=stdout,
        stderr=stderr,
        feedback=feedback,
        table=table,
        raw=raw,
        peak=peak["rss"],
        secret=secret,
        subs=subs,
    )


def _g_rows(run, student):
    return [r for r in run["table"] if r["student"] == student]


def _g_fb(run, student):
    return {r["problem"]: r for r in run["feedback"] if r["student"] == student}


@needs_sandbox
def test_graded_run_completes(graded):
    assert graded["returncode"] == 0, graded["stdout"][-3000:] + graded["stderr"][-3000:]


@needs_sandbox
def test_dtype_bomb_costs_the_grader_little(graded):
    """q3 = [np.empty(1, dtype='<U200000000')] * 3: zero for q3, the honest score elsewhere; grader peak < 400 MB."""
    fb = _g_fb(graded, "dtype_bomb")
    assert fb["q3"]["points"] == "0" and all(fb[q]["status"] == "correct" for q in ("q1", "q2", "q4")), fb
    assert 0 < graded["peak"] < 400 * 2**20, graded["peak"]
    print(f"grader peak RSS over the run: {graded['peak'] / 2**20:.0f} MB")


@needs_sandbox
@pytest.mark.parametrize("who", ["frank_links_bob", "seed_link", "shadow_link", "linked_folder"])
def test_links_are_refused_and_never_quoted(graded, who):
    rows = _g_rows(graded, who)
    assert rows and all(float(r["total"]) == 0 for r in rows), rows
    assert all("symbolic link" in r["notes"] for r in rows), rows
    assert graded["secret"].encode() not in graded["raw"] and b"root:" not in graded["raw"]
    assert b"BEGIN SOLUTION" not in graded["raw"]


@pytest.mark.parametrize("key", sorted(DELEGATE))
def test_each_delegating_alias_passes_the_learners_check(key):
    """Each alias of DELEGATE is a real answer outside the grader (so its zero below is the block's doing)."""
    import evallib as el

    q, alias = DELEGATE[key]
    ns = {"el": el, "np": np}
    exec(alias, ns)
    ex = exercise_set(key)
    assert ex.check(q, ns[ex.problems[q].answers[0]]).status == CORRECT


@needs_sandbox
@pytest.mark.parametrize("key", sorted(DELEGATE))
def test_delegation_to_the_library_scores_zero(graded, key):
    """The release with its implement-problem answered by an alias to the library: that problem 0 with
    "implement it yourself", the untouched others not attempted. Set 13 starts from the solution: two blocks in
    one kernel, and the honest sign test (q2, itself blocked) still scores beside the delegated Holm correction."""
    q, _ = DELEGATE[key]
    fb = _g_fb(graded, f"delegates_{key}")
    assert float(fb[q]["points"]) == 0 and "implement it yourself" in fb[q]["message"], fb[q]
    others = {"correct"} if key in DELEGATE_ON_SOLUTION else {"not attempted"}
    assert {r["status"] for name, r in fb.items() if name != q} <= others, fb


@needs_sandbox
def test_memoisation_loses_the_points(graded):
    """A function that memoises the fixed inputs (the public check's and the edge cases') fails the case drawn
    anew in every run; the message names the case, not the expected value."""
    memo = _g_fb(graded, "memoises")
    assert float(memo["q2"]["points"]) < 3 and "random labels" in memo["q2"]["message"], memo["q2"]
    assert "expected" not in memo["q2"]["message"] and "instead of" not in memo["q2"]["message"], memo["q2"]


@needs_sandbox
def test_feedback_never_shows_an_expected_value(graded):
    """No message of the run (every set's wrong and partial answers, the delegating and memoising ones) shows an
    expected value: hidden cases are named with the kind of mistake (self-study keeps the values)."""
    shown = [
        (r["student"], r["problem"], r["message"])
        for r in graded["feedback"]
        if re.search(r"expected -?[\d.]|expected \[|instead of", r["message"])
    ]
    assert not shown, shown[:5]
    wrong = [r["message"] for r in graded["feedback"] if r["student"].startswith("wrong_") and r["message"]]
    assert len(wrong) > 40 and any("hidden" in m for m in wrong)


@needs_sandbox
def test_one_row_per_student_and_set(graded):
    for who in ("two_notebooks", "erin"):
        rows = _g_rows(graded, who)
        assert len(rows) == 1 and float(rows[0]["total"]) == float(rows[0]["max_points"]), rows
        assert "graded the newest" in rows[0]["notes"], rows


@needs_sandbox
def test_injected_and_lookalike_names(graded):
    names = {r["student"] for r in graded["table"]}
    for raw in INJECTED:
        shown = autograde.safe_cell(autograde.normalise_name(raw), newlines=False)
        assert shown in names and shown in {r["student"] for r in graded["feedback"]}, (shown, names)
        assert shown[0] not in "=+-@"
    assert "\x1b" not in graded["stdout"] and b"\x1b" not in graded["raw"]
    (row,) = _g_rows(graded, "\u0430lice")
    assert "look-alike" in row["notes"] and float(row["total"]) == float(row["max_points"])
