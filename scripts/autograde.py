#!/usr/bin/env python
"""Autograde a folder of submitted exercise notebooks with the hidden tests of exercises/source/.

    make autograde SUBMISSIONS=path/to/folder
    python scripts/autograde.py FOLDER [--source exercises/source] [--out FOLDER] [--cell-timeout 60] [--jobs 2]

Submissions are found recursively (``*.ipynb``). The student is the first folder below FOLDER
(``FOLDER/alice/02_evaluation_methods.ipynb``) or, for files directly in FOLDER, the file name
(``FOLDER/alice.ipynb``). The exercise set comes from the notebook metadata written by the release
(``exercise_set``), else from the file name (``02_...``).

Writes two tables next to the submissions (or into --out):
- ``grades.csv``: one row per submission: student, exercise_set, file, one column per problem (points),
  total, max_points, notes;
- ``feedback.csv``: one row per submission and problem: points, max_points, status
  (correct / partial / incorrect / not attempted / missing / not graded), the message, and the learner's
  free-text answers (choices and justifications, for the instructor to read).

Every submission runs in its own kernel (nbclient) in a fresh temporary working directory; each cell has a time
limit (an endless loop is interrupted, a kernel that ignores the interrupt is killed), outputs beyond a cap are
dropped, errors do not stop the run, a broken submission gets partial or zero credit with a message and grading
goes on with the next one. The submitted files are only read, never written.
Not a sandbox: student code runs with your user's rights (as in otter run and nbgrader's autograde).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbsettings import ENV  # noqa: E402
from release_exercises import SOURCE_DIR, SourceSpec, parse_source, source_notebooks  # noqa: E402

OUTPUT_CAP = 200_000          # characters of output kept per cell; the rest is dropped
TIMEOUT_NAME = "CellTimeoutError"
STATUSES = ("correct", "partial", "incorrect", "not attempted", "missing", "not graded")


@dataclass
class ProblemGrade:
    problem: str
    points: float
    max_points: float
    status: str
    message: str = ""
    text_answers: str = ""      # the learner's free-text answers (choices, justifications)


@dataclass
class SubmissionGrade:
    student: str
    exercise_set: str
    file: str
    problems: list[ProblemGrade] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self):
        return sum(p.points for p in self.problems)

    @property
    def max_points(self):
        return sum(p.max_points for p in self.problems)


class _CappedClient(NotebookClient):
    """NotebookClient that keeps at most OUTPUT_CAP characters of output per cell (error outputs always)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.output_chars = {}
        self.truncated = set()
        self.timed_out = False

    async def _async_handle_timeout(self, timeout, cell=None):
        self.timed_out = True
        return await super()._async_handle_timeout(timeout, cell)

    def output(self, outs, msg, display_id, cell_index):
        out = super().output(outs, msg, display_id, cell_index)
        if out is None or out.get("output_type") == "error":
            return out
        size = len(out.get("text", "")) + sum(len(str(v)) for v in out.get("data", {}).values())
        used = self.output_chars.get(cell_index, 0) + size
        self.output_chars[cell_index] = used
        if used > OUTPUT_CAP and outs and outs[-1] is out:
            outs.pop()
            self.truncated.add(cell_index)
            return None
        return out


# ----------------------------------------------------------------------------------------- kernel side
def _call(func, *args):
    """A grading cell: one call into evallib.grading with literal arguments."""
    return (f"import evallib.grading as __evallib_grading__\n"
            f"__evallib_grading__.{func}(globals(), {', '.join(repr(a) for a in args)})")


def grading_cells(spec: SourceSpec, results_path: str, tag: str = ""):
    """Cells appended after the student's code: per problem, the attempt check, then each hidden test."""
    key = spec.name[:2]
    cells = []
    for q in spec.questions:
        cells.append(("attempt", q.name, None, _call("_autograde_attempt", results_path, tag, key, q.name)))
        for i, t in enumerate(q.tests):
            cells.append(("test", q.name, i, _call("_autograde_test", results_path, tag, q.name, i, t.source)))
    return cells


def _read_results(path):
    rows = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
    return rows


def _score(spec: SourceSpec, rows, tag, unreached_message):
    """Turn the result lines of one tag into ProblemGrades."""
    attempt = {r["problem"]: r for r in rows if r["tag"] == tag and r["kind"] == "attempt"}
    tests = {(r["problem"], r["test"]): r for r in rows if r["tag"] == tag and r["kind"] == "test"}
    grades = []
    for q in spec.questions:
        a = attempt.get(q.name)
        if a is None:
            msg = unreached_message if unreached_message != "not graded" else \
                "not graded: the check of this problem did not finish (time limit or crash)"
            grades.append(ProblemGrade(q.name, 0.0, q.points, "not graded", msg))
            continue
        texts = " | ".join(f"{k}: {v}" for k, v in (a.get("texts") or {}).items())
        if a["status"] in ("not attempted", "missing"):
            grades.append(ProblemGrade(q.name, 0.0, q.points, a["status"], a["message"]))
            continue
        points, messages = 0.0, []
        for i, t in enumerate(q.tests):
            r = tests.get((q.name, i))
            if r is None:
                messages.append(f"hidden test {i + 1}: did not finish (time limit or crashed kernel)")
            elif r["passed"]:
                points += t.points
            else:
                messages.append(f"hidden test {i + 1}: {t.failure_message + ': ' if t.failure_message else ''}"
                                f"{r['message']}")
        status = "correct" if points == q.points else ("partial" if points > 0 else "incorrect")
        grades.append(ProblemGrade(q.name, points, q.points, status, " | ".join(messages), texts))
    return grades


def _error_text(cell):
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error":
            return f"{o.get('ename', 'Error')}: {str(o.get('evalue', ''))[:200]}"
    return None


def run_and_grade(student_cells, spec: SourceSpec, *, cell_timeout=60, total_timeout=None, variants=(),
                  startup_timeout=120):
    """Run ``student_cells`` (list of code strings) then the hidden tests of ``spec`` in one new kernel.

    ``variants`` (used by the course's own tests to share a kernel): (tag, code_before, code_after) triples;
    after the plain grading, each variant's ``code_before`` runs, the hidden tests run again under ``tag``,
    then ``code_after`` restores the state. Returns ({tag: [ProblemGrade]}, notes).
    """
    total_timeout = total_timeout or max(600, 20 * cell_timeout)
    notes = []
    with tempfile.TemporaryDirectory(prefix="autograde-") as work:
        results = os.path.join(work, ".grading-results.jsonl")
        # Warm-up (trusted, generous time limit): import the library once, so that the learner's first cell
        # and the grading cells are not charged for it.
        plan = [("warmup", None, None, "import evallib.grading\nimport matplotlib.pyplot")]
        plan += [("student", None, None, src) for src in student_cells]
        for tag, before, after in [("", None, None), *variants]:
            for src in ([before] if isinstance(before, str) else before or []):
                plan.append(("variant", tag, None, src))
            plan += [(kind, q, i, src) for kind, q, i, src in grading_cells(spec, results, tag)]
            for src in ([after] if isinstance(after, str) else after or []):
                plan.append(("variant", tag, None, src))
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(src) for *_, src in plan]
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        client = _CappedClient(
            nb, timeout=cell_timeout, startup_timeout=startup_timeout, kernel_name="python3",
            allow_errors=True, interrupt_on_timeout=True, record_timing=False, shutdown_kernel="immediate",
            error_on_timeout={"ename": TIMEOUT_NAME, "evalue": f"the cell ran longer than {cell_timeout} s",
                              "traceback": []},
            resources={"metadata": {"path": work}})
        unreached = "not graded"
        start = time.monotonic()
        env = {**os.environ, **ENV, "MPLBACKEND": "Agg"}
        try:
            with client.setup_kernel(env=env):
                for index, (kind, q, i, src) in enumerate(plan):
                    cell = nb.cells[index]
                    if time.monotonic() - start > total_timeout:
                        unreached = f"not graded: the submission used up its total time ({total_timeout} s)"
                        notes.append(unreached)
                        break
                    client.timed_out = False
                    try:
                        if kind == "warmup":
                            client.timeout = max(cell_timeout, startup_timeout)
                        client.execute_cell(cell, index)
                    except DeadKernelError:
                        where = f"code cell {index}" if kind == "student" else f"grading of {q}"
                        unreached = f"not graded: the kernel died during {where} (os._exit, crash or out of memory)"
                        notes.append(unreached)
                        break
                    finally:
                        client.timeout = cell_timeout
                    err = _error_text(cell)
                    if kind == "student" and err and not client.timed_out:
                        notes.append(f"code cell {index} raised {err}")
                    elif kind == "variant" and err:
                        notes.append(f"variant {q}: a cell raised {err}")
                    elif kind == "warmup" and err:
                        notes.append(f"could not import evallib in the kernel: {err}")
                    if index in client.truncated:
                        notes.append(f"code cell {index}: output over {OUTPUT_CAP} characters was dropped")
                    if client.timed_out or (err and err.startswith(TIMEOUT_NAME)):
                        if kind != "student":
                            notes.append(f"grading of {q} hit the time limit ({cell_timeout} s)")
                        # Is the kernel back after the interrupt? If not (the code ignores SIGINT), stop.
                        probe = nbformat.v4.new_code_cell("pass")
                        client.timeout, saved = min(10, cell_timeout), client.timeout
                        client.interrupt_on_timeout = False
                        client.timed_out = False
                        try:
                            client.execute_cell(probe, index)
                            alive = not client.timed_out
                        except Exception:
                            alive = False
                        finally:
                            client.timeout, client.interrupt_on_timeout = saved, True
                        if not alive:
                            unreached = (f"not graded: the kernel stopped responding in "
                                         f"{'code cell ' + str(index) if kind == 'student' else 'the grading of ' + q}"
                                         f" and was stopped (an endless loop that ignores interrupts?)")
                            notes.append(unreached)
                            break
                        if kind == "student":
                            notes.append(f"code cell {index} was stopped after {cell_timeout:g} s (time limit)")
        except Exception as exc:  # kernel failed to start, etc.: never stop the whole run
            unreached = f"not graded: {type(exc).__name__}: {str(exc)[:300]}"
            notes.append(unreached)
        rows = _read_results(results)
    grades = {tag: _score(spec, rows, tag, unreached) for tag, *_ in [("",), *variants]}
    return grades, notes


# ----------------------------------------------------------------------------------------- submissions
def read_submission(path):
    """(notebook or None, code cell sources, problem message) without touching the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [], f"could not read the file: {exc}"
    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception as exc:
        return None, [], f"not a readable notebook ({type(exc).__name__}: {str(exc)[:200]})"
    cells = []
    for c in nb.get("cells", []):
        if c.get("cell_type") == "code":
            src = c.get("source", "")
            cells.append("".join(src) if isinstance(src, list) else str(src))
    return nb, cells, None


def identify_set(path, nb, specs: dict[str, SourceSpec]):
    name = (nb or {}).get("metadata", {}).get("exercise_set") if nb else None
    if name in specs:
        return name
    stem = Path(path).stem
    for key in specs:
        if key in stem:
            return key
    for part in [stem, *reversed(Path(path).parts[:-1])]:
        prefix = part[:2]
        matches = [k for k in specs if k[:2] == prefix]
        if prefix.isdigit() and len(matches) == 1:
            return matches[0]
    return None


def student_name(path, root):
    rel = Path(path).relative_to(root)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def grade_file(path, root, specs, *, cell_timeout=60, total_timeout=None):
    """Grade one submitted notebook. Never raises: problems become zero-credit rows with a message."""
    path = Path(path)
    student = student_name(path, root)
    nb, cells, problem = read_submission(path)
    key = identify_set(path, nb, specs) if problem is None else identify_set(path, None, specs)
    if key is None:
        g = SubmissionGrade(student, "?", str(path.relative_to(root)))
        g.notes.append(problem or "cannot tell which exercise set this is (no exercise_set metadata, no NN_ prefix)")
        return g
    spec = specs[key]
    g = SubmissionGrade(student, key, str(path.relative_to(root)))
    if problem is not None:
        g.problems = [ProblemGrade(q.name, 0.0, q.points, "not graded", problem) for q in spec.questions]
        g.notes.append(problem)
        return g
    try:
        grades, notes = run_and_grade(cells, spec, cell_timeout=cell_timeout, total_timeout=total_timeout)
        g.problems, g.notes = grades[""], notes
    except Exception as exc:  # a bug here must not stop the class's grading
        g.problems = [ProblemGrade(q.name, 0.0, q.points, "not graded", f"grader error: {exc}")
                      for q in spec.questions]
        g.notes.append(f"grader error: {type(exc).__name__}: {exc}")
    return g


def find_submissions(folder):
    folder = Path(folder)
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def load_specs(source_dir=SOURCE_DIR):
    return {p.stem: parse_source(p) for p in source_notebooks(source_dir)}


def write_tables(grades: list[SubmissionGrade], out_dir):
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    problems = []
    for g in grades:
        for p in g.problems:
            if p.problem not in problems:
                problems.append(p.problem)
    problems.sort(key=lambda s: (len(s), s))
    with open(out_dir / "grades.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["student", "exercise_set", "file", *problems, "total", "max_points", "notes"])
        for g in grades:
            by = {p.problem: p.points for p in g.problems}
            w.writerow([g.student, g.exercise_set, g.file, *[_fmt(by[p]) if p in by else "" for p in problems],
                        _fmt(g.total), _fmt(g.max_points), " | ".join(g.notes)[:2000]])
    with open(out_dir / "feedback.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["student", "exercise_set", "problem", "points", "max_points", "status", "message",
                    "text_answers"])
        for g in grades:
            for p in g.problems:
                w.writerow([g.student, g.exercise_set, p.problem, _fmt(p.points), _fmt(p.max_points), p.status,
                            p.message[:2000], p.text_answers])
    return out_dir / "grades.csv", out_dir / "feedback.csv"


def _fmt(x):
    return f"{x:g}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("submissions", help="folder of submitted notebooks")
    ap.add_argument("--source", default=str(SOURCE_DIR), help="folder of instructor notebooks (hidden tests)")
    ap.add_argument("--out", default=None, help="folder for grades.csv and feedback.csv (default: the submissions folder)")
    ap.add_argument("--cell-timeout", type=float, default=60, help="seconds per cell (default 60)")
    ap.add_argument("--total-timeout", type=float, default=None, help="seconds per submission (default 20 cells' worth)")
    ap.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default 2)")
    args = ap.parse_args(argv)
    root = Path(args.submissions)
    if not root.is_dir():
        ap.error(f"submissions: {root} is not a folder")
    specs = load_specs(args.source)
    files = find_submissions(root)
    if not files:
        print(f"no notebooks under {root}")
    def one(path):
        g = grade_file(path, root, specs, cell_timeout=args.cell_timeout, total_timeout=args.total_timeout)
        print(f"{g.student:>20s}  {g.exercise_set:<28s} {_fmt(g.total):>5s} / {_fmt(g.max_points):<5s}"
              f"{'  ' + g.notes[0][:80] if g.notes else ''}", flush=True)
        return g
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        grades = list(pool.map(one, files))
    grades_csv, feedback_csv = write_tables(grades, args.out or root)
    print(f"wrote {grades_csv} and {feedback_csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
