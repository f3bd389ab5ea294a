"""The exercise sets, the in-notebook checker (evallib.grading), the release and the autograder.

Kernel-backed checks share work: per exercise set ONE kernel runs the solution cells, grades them, then for each
problem runs a wrong answer from tests/fixtures/grading/wrong_answers.json, grades again and restores the
solution, and finally runs every cell of the untouched student release and grades that. The sets run two at a
time. The robustness cases (tests/fixtures/grading/robustness.json) go through the real command line in one run.
"""
import csv
import hashlib
import json
import math
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import autograde  # noqa: E402
import release_exercises as rel  # noqa: E402

from evallib import grading  # noqa: E402
from evallib.grading import (CORRECT, INCORRECT, NOT_ATTEMPTED, Incorrect, exercise_set,  # noqa: E402
                             expect_choice, expect_function, expect_int, expect_number, expect_reason)

FIXTURES = ROOT / "tests" / "fixtures" / "grading"
SOURCES = rel.source_notebooks()
SET_KEYS = [p.stem[:2] for p in SOURCES]
WRONG = json.loads((FIXTURES / "wrong_answers.json").read_text(encoding="utf-8"))


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
    def stub(m, k):
        ...

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


def test_hint_solution_and_classroom_mode():
    ex = exercise_set("01")
    assert "error_rate" in ex.solution("q2") and "Hint" in ex.hint("q2")
    assert "not available" in exercise_set("01", solutions=False).solution("q2")
    with pytest.raises(ValueError, match="key"):
        exercise_set("99")
    with pytest.raises(ValueError, match="name"):
        ex.check("q42", 1)
    with pytest.raises(TypeError, match="answers"):
        ex.check("q4", "B")


def test_otter_markers_are_stripped():
    src = ('""" # BEGIN PROMPT\nx = ...\n""" # END PROMPT\n# BEGIN SOLUTION NO PROMPT\nx = 41 + 1\n# END SOLUTION\n'
           "def f(a):\n    '''doc'''\n    # BEGIN SOLUTION\n    return a\n    # END SOLUTION\n"
           "y = 3  # SOLUTION\nprint('kept')")
    out = rel.strip_solutions(src)
    assert out == "x = ...\ndef f(a):\n    '''doc'''\n    ...\ny = ...\nprint('kept')"
    with pytest.raises(ValueError, match="unterminated"):
        rel.strip_solutions("# BEGIN SOLUTION\nx = 1")


# ------------------------------------------------------------------------------- sets and releases
def test_one_exercise_set_per_existing_chapter():
    chapters = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    released = sorted(p.stem for p in (ROOT / "exercises").glob("[0-9][0-9]_*.ipynb"))
    assert [p.stem for p in SOURCES] == released
    assert released == chapters, "one exercise set per chapter notebook, numbered and named like it"
    assert [p.stem[:2] for p in SOURCES] == grading.available_sets()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_source_matches_registry(path):
    spec = rel.parse_source(path)
    ex = exercise_set(path.stem[:2])
    assert [q.name for q in spec.questions] == list(ex.problems)
    assert [q.points for q in spec.questions] == [p.points for p in ex.problems.values()]
    assert len(spec.questions) >= 4, "at least four problems per set"
    assert {p.kind for p in ex.problems.values()} == {"compute", "implement", "choose", "plot"}, "all four kinds"
    assert all(t.hidden for q in spec.questions for t in q.tests)
    assert spec.config.get("name") == path.stem


def test_book_exercises_2_1_to_2_10_are_covered():
    books = {p.book for k in grading.available_sets() for p in exercise_set(k).problems.values() if p.book}
    assert {"2.1", "2.2"} <= books
    if len(SOURCES) == 11:
        assert books >= {f"2.{i}" for i in range(1, 11)}


def test_committed_releases_equal_release_command():
    assert rel.main(["--check"]) == 0, "a committed release is out of date: run `make release`"


def _solution_lines(source_nb):
    """Lines inside solution blocks that appear nowhere else in the source notebook."""
    inside, outside = set(), set()
    for cell in source_nb.cells:
        if cell.cell_type != "code":
            continue
        mode = False
        for line in cell.source.split("\n"):
            s = line.strip()
            if re.match(r"#\s*BEGIN SOLUTION", s):
                mode = True
            elif re.match(r"#\s*END SOLUTION", s):
                mode = False
            elif mode:
                inside.add(s)
            elif s.endswith("# SOLUTION"):
                inside.add(s)
            else:
                outside.add(s)
    return {s for s in inside - outside if len(s) > 8 and not s.startswith("#") and s != "..."}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_release_has_no_solution_and_no_hidden_test(path):
    source = nbformat.read(path, as_version=4)
    release_path = ROOT / "exercises" / path.name
    text = release_path.read_text(encoding="utf-8")
    release = nbformat.reads(text, as_version=4)
    code = "\n".join(c.source for c in release.cells if c.cell_type == "code")
    release_lines = {ln.strip() for ln in code.split("\n")}
    for line in _solution_lines(source):
        assert line not in release_lines, f"solution line in the release: {line}"
    for q in rel.parse_source(path).questions:
        for t in q.tests:
            body = [ln.strip() for ln in t.source.split("\n") if len(ln.strip()) > 8]
            assert not any(ln in code for ln in body if "import" not in ln), f"hidden test of {q.name} in release"
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN TESTS", "TEST CONFIG", "BEGIN QUESTION",
                   "ASSIGNMENT CONFIG", "assert_correct", "hidden: true", "BEGIN PROMPT"):
        assert marker not in text
    assert all(c.get("outputs", []) == [] and c.get("execution_count") is None
               for c in release.cells if c.cell_type == "code")
    assert release.metadata["exercise_set"] == path.stem
    # every problem keeps an answer cell with a placeholder and a check cell
    for q in exercise_set(path.stem[:2]).problems.values():
        assert any(f'ex.check("{q.name}"' in c.source for c in release.cells)
        for name in q.answers:
            assert re.search(rf"^(def )?{name}\b.*(\.\.\.|\()", code, re.M), f"no placeholder for {name}"


def test_classroom_release_disables_solutions(tmp_path):
    assert rel.main(["--classroom", "--out", str(tmp_path)]) == 0
    text = (tmp_path / SOURCES[0].name).read_text(encoding="utf-8")
    assert "solutions=False" in text


# ------------------------------------------------------------------------------- kernels: solutions,
# wrong answers, untouched releases
def _code_cells_outside_tests(nb):
    cells, in_tests = [], False
    for c in nb.cells:
        if c.cell_type == "raw" and c.source.strip().upper().startswith("# BEGIN TESTS"):
            in_tests = True
        elif c.cell_type == "raw" and c.source.strip().upper().startswith("# END TESTS"):
            in_tests = False
        elif c.cell_type == "code" and not in_tests:
            cells.append(c.source)
    return cells


def _grade_set(path):
    spec = rel.parse_source(path)
    source = nbformat.read(path, as_version=4)
    key = path.stem[:2]
    variants = []
    for q in spec.questions:
        restore = [source.cells[i].source for i in q.cells]
        variants.append((f"wrong {q.name}", WRONG[key][q.name], restore))
    for q, partial in WRONG["_partial"].get(key, {}).items():
        restore = [source.cells[i].source for i in next(x for x in spec.questions if x.name == q).cells]
        variants.append((f"partial {q}", partial["code"], restore))
    release = nbformat.read(ROOT / "exercises" / path.name, as_version=4)
    variants.append(("release", [c.source for c in release.cells if c.cell_type == "code"], None))
    grades, notes = autograde.run_and_grade(_code_cells_outside_tests(source), spec, cell_timeout=300,
                                            variants=variants)
    return spec, grades, notes


@pytest.fixture(scope="module")
def graded_sets(request):
    """Grade (two at a time) only the sets whose tests were selected."""
    wanted = {item.callspec.params["key"] for item in request.session.items
              if hasattr(item, "callspec") and "key" in item.callspec.params and item.module.__name__ == __name__}
    paths = [p for p in SOURCES if p.stem[:2] in wanted]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip([p.stem[:2] for p in paths], pool.map(_grade_set, paths)))
    return results


@pytest.mark.parametrize("key", SET_KEYS)
def test_solution_scores_full_marks(graded_sets, key):
    spec, grades, notes = graded_sets[key]
    full = grades[""]
    assert [(g.problem, g.status) for g in full] == [(q.name, "correct") for q in spec.questions], notes
    assert sum(g.points for g in full) == spec.max_points
    assert not [n for n in notes if not n.startswith("variant")], notes


@pytest.mark.parametrize("key", SET_KEYS)
def test_each_wrong_answer_fails_exactly_its_problem(graded_sets, key):
    spec, grades, notes = graded_sets[key]
    assert set(WRONG[key]) == {q.name for q in spec.questions}, "one wrong-answer fixture per problem"
    for q in spec.questions:
        got = {g.problem: g for g in grades[f"wrong {q.name}"]}
        assert got[q.name].status in ("incorrect", "partial"), (q.name, got[q.name])
        assert got[q.name].points < q.points and got[q.name].message
        others = {name: g.status for name, g in got.items() if name != q.name}
        assert set(others.values()) == {"correct"}, (q.name, others)


@pytest.mark.parametrize("key", sorted(WRONG["_partial"]))
def test_hidden_cases_give_partial_credit(graded_sets, key):
    """An answer that passes the learner's check but not a hidden edge case gets partial credit."""
    spec, grades, notes = graded_sets[key]
    for q, partial in WRONG["_partial"][key].items():
        assert exercise_set(key).check(q, _define(partial["code"], exercise_set(key).problems[q].answers[0]))
        got = {g.problem: g for g in grades[f"partial {q}"]}
        assert got[q].status == "partial" and got[q].points == partial["points"], got[q]
        assert partial["message"] in got[q].message
        assert {g.status for name, g in got.items() if name != q} == {"correct"}


def _define(code, name):
    ns = {"np": np}
    exec(code, ns)
    return ns[name]


@pytest.mark.parametrize("key", SET_KEYS)
def test_untouched_release_scores_zero_not_attempted(graded_sets, key):
    spec, grades, notes = graded_sets[key]
    rel_grades = grades["release"]
    assert [(g.status, g.points) for g in rel_grades] == [("not attempted", 0.0)] * len(spec.questions)
    assert all(g.message for g in rel_grades)
    assert not [n for n in notes if n.startswith("variant release")], notes   # no cell of the release raised


# ------------------------------------------------------------------------------- robustness, via the CLI
ROBUST = json.loads((FIXTURES / "robustness.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def robustness_run(tmp_path_factory):
    subs = tmp_path_factory.mktemp("submissions")
    named = ROBUST["cells"]
    hashes = {}
    for case, spec in ROBUST["cases"].items():
        folder = subs / case
        folder.mkdir()
        path = folder / f"{ROBUST['set']}.ipynb"
        if "raw" in spec:
            path.write_text(spec["raw"], encoding="utf-8")
        else:
            nb = nbformat.v4.new_notebook()
            nb.cells = [nbformat.v4.new_code_cell(named.get(c, c)) for c in spec["cells"]]
            nbformat.write(nb, path)
        hashes[path] = hashlib.sha256(path.read_bytes()).hexdigest()
    # the untouched release and the full solution of set 01 go through the same command
    for who, src in (("untouched", ROOT / "exercises" / f"{ROBUST['set']}.ipynb"),
                     ("solution", ROOT / "exercises" / "source" / f"{ROBUST['set']}.ipynb")):
        (subs / who).mkdir()
        (subs / who / src.name).write_bytes(src.read_bytes())
        hashes[subs / who / src.name] = hashlib.sha256(src.read_bytes()).hexdigest()
    out = tmp_path_factory.mktemp("grades")
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "autograde.py"), str(subs), "--out", str(out),
                           "--cell-timeout", "5", "--jobs", "2"], capture_output=True, text=True, timeout=900)
    with open(out / "feedback.csv", encoding="utf-8") as fh:
        feedback = list(csv.DictReader(fh))
    with open(out / "grades.csv", encoding="utf-8") as fh:
        table = list(csv.DictReader(fh))
    return proc, feedback, table, hashes


def test_autograde_command_completes(robustness_run):
    proc, feedback, table, hashes = robustness_run
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert {row["student"] for row in table} == set(ROBUST["cases"]) | {"untouched", "solution"}


def test_submitted_files_are_never_modified(robustness_run):
    *_, hashes = robustness_run
    for path, digest in hashes.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, path


@pytest.mark.parametrize("case", list(ROBUST["cases"]))
def test_robustness_case(robustness_run, case):
    proc, feedback, table, _ = robustness_run
    expected = ROBUST["cases"][case]
    got = {r["problem"]: r for r in feedback if r["student"] == case}
    assert {p: r["status"] for p, r in got.items()} == expected["status"], got
    for r in got.values():
        assert float(r["points"]) == (float(r["max_points"]) if r["status"] == "correct" else 0.0)
        if r["status"] != "correct":
            assert r["message"], f"{case} {r['problem']}: a zero needs a message"
    notes = next(row["notes"] for row in table if row["student"] == case)
    assert expected["note"] in notes + " ".join(r["message"] for r in got.values())


def test_cli_grades_solution_full_and_untouched_zero(robustness_run):
    proc, feedback, table, _ = robustness_run
    by = {row["student"]: row for row in table}
    assert by["solution"]["total"] == by["solution"]["max_points"] != "0"
    assert by["untouched"]["total"] == "0"
    q4 = next(r for r in feedback if r["student"] == "solution" and r["problem"] == "q4")
    assert q4["text_answers"].startswith("q4: B | q4_reason: ")     # justifications reach the instructor
    assert {r["status"] for r in feedback if r["student"] == "untouched"} == {"not attempted"}
