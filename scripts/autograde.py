#!/usr/bin/env python
"""Autograde a folder of submitted exercise notebooks: the code runs in a sandbox, the verdict is computed outside.

    make autograde SUBMISSIONS=path/to/folder [AUTOGRADE_ARGS="--jobs 2 --seed-file ~/course-seed"]
    python scripts/autograde.py FOLDER [--out FOLDER] [--cell-timeout 60] [--jobs 2] [--seed S | --seed-file F]
                                       [--memory-mb 4096] [--unsafe-no-sandbox]

Submissions are found recursively (``*.ipynb``). The student is the first folder below FOLDER
(``FOLDER/alice/02_evaluation_methods.ipynb``) or, for files directly in FOLDER, the file name. The exercise set
comes from the notebook metadata (``exercise_set``), else from the ``NN_`` in the file name.

For each submission:
1. (trusted) the set's source ``exercises/source/NN_topic.md`` is loaded for the student's variant (derived from
   the instructor's seed and the student id; 0 without a seed) and the calls that the checks and hidden tests will
   make to each implement-a-function answer are collected as data;
2. (untrusted) ``scripts/sandbox_run.py`` runs inside bubblewrap (``bwrap``): the course and the virtual
   environment read-only; the exercise sources, .git, the submissions and grades folders, the seed file and the
   home folder hidden; an empty private /tmp as working folder; no network; its own PID namespace (every process
   the submission starts dies with it); limits on memory, processes, file size and CPU time; a wall-clock limit.
   It runs the student's cells in a kernel and prints the answers as JSON data (values; a function's return
   values or exception types on the collected calls, each call time-limited);
3. (trusted) the JSON is decoded as data only (never unpickled or executed); the learner-facing check and the
   hidden tests of each problem run in this process on those data, against expected values computed here.
A kernel that dies, a missing answer or malformed output scores zero for what it affects, with the reason.
``grades.csv`` and ``feedback.csv`` are written after every sandbox is gone. The submitted files are only read.
Without a working ``bwrap`` the grader refuses to run unless ``--unsafe-no-sandbox`` is given (every row then
says so).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sandbox import Sandbox, sandbox_problem  # noqa: E402,F401  (sandbox_problem: main and the tests)
from release_exercises import (ROOT, SOURCE_DIR, SourceSpec, parse_source, read_seed,  # noqa: E402
                               source_files, variant_for)

from evallib.grading import (NOT_ATTEMPTED, CaseRecorder, Replay, from_data, load_source,  # noqa: E402
                             public_checks)
from evallib.grading_messages import MESSAGES, text as _t  # noqa: E402
from evallib.i18n import get_language as _get_language, language as _language, translate as _tr  # noqa: E402

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


# ----------------------------------------------------------------------------------------- trusted: the set
class Grader:
    """Sources, expected values and collected calls, per (set, variant), shared by all submissions."""

    def __init__(self, source_dir=SOURCE_DIR, seed=None, cell_timeout=60, total_timeout=None, call_timeout=None,
                 sandbox=True, memory_mb=4096, hide=()):
        self.specs = {p.stem: parse_source(p) for p in source_files(source_dir)}
        self.seed = seed
        self.cell_timeout = cell_timeout
        self.total_timeout = total_timeout or max(600, 20 * cell_timeout)
        self.call_timeout = call_timeout or min(5.0, cell_timeout / 5)
        self.sandbox = sandbox
        self.memory_mb = memory_mb
        self.hide = [Path(h).resolve() for h in hide]
        self._sets, self._lock = {}, threading.Lock()
        self.tmp = Path(tempfile.mkdtemp(prefix="autograde-"))
        os.chmod(self.tmp, 0o711)
        self.checks_dir = self.tmp / "checks"
        self.checks_dir.mkdir()
        for name, spec in self.specs.items():
            (self.checks_dir / f"{name}.json").write_text(json.dumps(public_checks(load_source(spec.path))),
                                                          encoding="utf-8")
        os.chmod(self.checks_dir, 0o755)
        self.box = Sandbox(self.tmp, self.checks_dir, sandbox=sandbox, memory_mb=memory_mb,
                           total_timeout=self.total_timeout, hide=self.hide)

    def close(self):
        self.box.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def set_for(self, name, variant):
        """(ExerciseSet, {function name: [[key, args], ...]}) for this set and variant (cached)."""
        with self._lock:
            if (name, variant) in self._sets:
                return self._sets[(name, variant)]
        spec = self.specs[name]
        ex = load_source(spec.path, variant=variant)
        functions = {}
        for q in spec.questions:
            if q.kind != "implement":
                continue
            rec = CaseRecorder(q.answers[0])
            answers = [rec, *[None] * (len(q.answers) - 1)]
            try:
                ex.problems[q.name].check(*answers)
            except Exception:  # noqa: BLE001  (the recorder stops checks that call it directly)
                pass
            for t in q.tests:
                ns = {**ex.namespace, "ex": ex, "variant": variant, **dict(zip(q.answers, answers))}
                try:
                    exec(compile(t.source, f"<hidden test {q.name}>", "exec"), ns)
                except Exception:  # noqa: BLE001
                    pass
            from evallib.grading import to_data
            functions[q.answers[0]] = [[key, to_data(tuple(args))] for key, args in rec.calls.items()]
        with self._lock:
            self._sets[(name, variant)] = (ex, functions)
        return ex, functions

    # ------------------------------------------------------------------------------------- the sandbox
    def run_sandboxed(self, cells, names, functions):
        """Run the runner on one submission (scripts/sandbox.py); returns (parsed output or None, reason or None)."""
        job = {"cells": cells, "names": names, "functions": functions, "cell_timeout": self.cell_timeout,
               "total_timeout": self.total_timeout, "call_timeout": self.call_timeout}
        return self.box.run(job)

    # ------------------------------------------------------------------------------------- judging
    def grade(self, cells, spec: SourceSpec, variant=0):
        """Grade code cells (strings) of set ``spec``: [ProblemGrade], notes."""
        ex, functions = self.set_for(spec.name, variant)
        names = sorted({a for q in spec.questions for a in q.answers})
        data, failure = self.run_sandboxed(cells, names, functions)
        notes = [] if self.sandbox else [_t("unsafe")]
        if failure:
            reason = _t(failure[0], **failure[1])
            notes.append(reason)
            return [ProblemGrade(q.name, 0.0, q.points, "not graded", reason) for q in spec.questions], notes
        for note in (data.get("notes") or [])[:50]:
            msg = _note(note)
            if msg:
                notes.append(msg)
        unreached = _note(data.get("unreached")) if data.get("unreached") else None
        if unreached:
            notes.append(unreached)
        values = data.get("values")
        if not isinstance(values, dict):
            values = {}
            if not unreached:
                unreached = _t("malformed_output", detail="no answers")
                notes.append(unreached)
        calls = data.get("calls") if isinstance(data.get("calls"), dict) else {}
        grades = []
        for q in spec.questions:
            grades.append(self._grade_problem(ex, q, values, calls, functions, unreached, variant))
        return grades, notes

    def _grade_problem(self, ex, q, values, calls, functions, unreached, variant):
        answers, missing = {}, []
        for a in q.answers:
            v = values.get(a)
            if a in functions and isinstance(v, dict) and v.get("__callable__"):
                recorded = calls.get(a) if isinstance(calls.get(a), dict) else {}
                answers[a] = Replay(a, recorded, self.call_timeout)
            elif a in values:
                v = values[a]
                if isinstance(v, dict) and v.get("__missing__"):
                    missing.append(a)
                else:
                    answers[a] = from_data(v)
            else:
                missing.append(a)
        if missing:
            if unreached:
                return ProblemGrade(q.name, 0.0, q.points, "not graded", unreached)
            return ProblemGrade(q.name, 0.0, q.points, "missing", _t("missing", names=", ".join(missing)))
        texts = " | ".join(f"{a}: {v[:500]}" for a, v in answers.items() if type(v) is str)
        out = ex.outcome(q.name, *[answers[a] for a in q.answers])
        if out.status == NOT_ATTEMPTED:
            return ProblemGrade(q.name, 0.0, q.points, "not attempted", out.message, texts)
        points, messages = 0.0, []
        for i, t in enumerate(q.tests):
            ns = {**ex.namespace, "ex": ex, "variant": variant, **answers}
            try:
                exec(compile(t.source, f"<hidden test {q.name}.{i + 1}>", "exec"), ns)
                points += t.points
            except BaseException as exc:  # noqa: BLE001
                msg = str(exc) if isinstance(exc, AssertionError) else f"{type(exc).__name__}: {exc}"
                failure = f"{_tr(t.failure_message, 'test')}: " if t.failure_message else ""
                messages.append(_t("hidden_test_failed", i=i + 1, failure=failure, message=msg[:1000]))
        status = "correct" if points == q.points else ("partial" if points > 0 else "incorrect")
        return ProblemGrade(q.name, points, q.points, status, " | ".join(messages), texts)


def _where(w):
    zh = _get_language() == "zh"
    if isinstance(w, list) and len(w) == 2 and w[0] == "cell_in":
        n = int(w[1]) if isinstance(w[1], int) else '?'
        return f"运行第 {n} 个代码单元格" if zh else f"code cell {n}"
    if isinstance(w, list) and len(w) == 2:
        return f"读取答案（{str(w[1])[:40]}）" if zh else f"the reading of the answers ({str(w[1])[:40]})"
    return "?"


def _note(note):
    """A message from the sandbox's (untrusted) note: a known key and plain fields, else nothing."""
    if not (isinstance(note, list) and len(note) == 2 and note[0] in MESSAGES and isinstance(note[1], dict)):
        return None
    fields = {str(k)[:20]: (v if isinstance(v, (int, float)) else str(v)[:300]) for k, v in note[1].items()}
    if "where" in note[1]:
        fields["where"] = _where(note[1]["where"])
    try:
        return _t(note[0], **fields)
    except (KeyError, ValueError, IndexError):
        return None


# ----------------------------------------------------------------------------------------- submissions
def read_submission(path):
    """(notebook or None, code cell sources, problem message) without touching the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [], _t("unreadable", error=exc)
    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception as exc:
        return None, [], _t("not_a_notebook", error=f"{type(exc).__name__}: {str(exc)[:200]}")
    cells = []
    for c in nb.get("cells", []):
        if c.get("cell_type") == "code":
            src = c.get("source", "")
            cells.append("".join(src) if isinstance(src, list) else str(src))
    return nb, cells, None


def identify_set(path, nb, specs):
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


def submission_language(nb, cells=()):
    """The learner's language: the notebook's ``evallib.lang`` metadata (the Chinese edition, exercises/zh/, sets it)
    or a set-up call ``setup_notebook(..., lang="zh")``; English otherwise. It only chooses the feedback's language."""
    lang = ((nb or {}).get("metadata", {}).get("evallib") or {}).get("lang") if nb else None
    if lang not in ("en", "zh"):
        lang = "zh" if any(re.search(r"setup_notebook\([^)]*lang\s*=\s*[\"']zh", c) for c in cells[:3]) else "en"
    return lang


def grade_file(path, root, grader: Grader):
    """Grade one submitted notebook. Never raises: problems become zero-credit rows with a message. Messages are
    in the submission's language (:func:`submission_language`)."""
    nb, cells, _ = read_submission(path)
    with _language(submission_language(nb, cells)):
        return _grade_file(path, root, grader)


def _grade_file(path, root, grader: Grader):
    path = Path(path)
    student = student_name(path, root)
    nb, cells, problem = read_submission(path)
    key = identify_set(path, nb, grader.specs) if problem is None else identify_set(path, None, grader.specs)
    if key is None:
        g = SubmissionGrade(student, "?", str(path.relative_to(root)))
        g.notes.append(problem or _t("unknown_set"))
        return g
    spec = grader.specs[key]
    g = SubmissionGrade(student, key, str(path.relative_to(root)))
    if problem is not None:
        g.problems = [ProblemGrade(q.name, 0.0, q.points, "not graded", problem) for q in spec.questions]
        g.notes.append(problem)
        return g
    try:
        g.problems, g.notes = grader.grade(cells, spec, variant_for(grader.seed, student, key))
    except Exception as exc:  # a bug here must not stop the class's grading
        msg = _t("grader_error", error=f"{type(exc).__name__}: {exc}")
        g.problems = [ProblemGrade(q.name, 0.0, q.points, "not graded", msg) for q in spec.questions]
        g.notes.append(msg)
    return g


def find_submissions(folder):
    folder = Path(folder)
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


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
    ap.add_argument("--source", default=str(SOURCE_DIR), help="folder of exercise sources (hidden inside the sandbox)")
    ap.add_argument("--out", default=None, help="folder for grades.csv and feedback.csv (default: the submissions folder)")
    ap.add_argument("--cell-timeout", type=float, default=60, help="seconds per cell (default 60)")
    ap.add_argument("--total-timeout", type=float, default=None, help="seconds per submission (default 20 cells' worth)")
    ap.add_argument("--call-timeout", type=float, default=None, help="seconds per call of a submitted function "
                                                                     "(default min(5, cell timeout / 5))")
    ap.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default 2)")
    ap.add_argument("--memory-mb", type=int, default=4096, help="address-space limit of the sandbox (default 4096)")
    ap.add_argument("--seed", help="the instructor's secret for per-student variants")
    ap.add_argument("--seed-file", help="file holding that secret (outside the course; hidden from the sandbox)")
    ap.add_argument("--unsafe-no-sandbox", action="store_true",
                    help="run submissions WITHOUT bwrap (their code gets your rights; grades can be forged)")
    args = ap.parse_args(argv)
    root = Path(args.submissions).resolve()
    if not root.is_dir():
        ap.error(f"submissions: {root} is not a folder")
    out = Path(args.out or root).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.unsafe_no_sandbox:
        print(_t("unsafe"), file=sys.stderr)
    else:
        problem = sandbox_problem()
        if problem:
            print(f"autograde: refusing to grade without a sandbox: {problem}. "
                  f"(--unsafe-no-sandbox grades anyway, with forgeable results.)", file=sys.stderr)
            return 2
    seed = read_seed(args.seed, args.seed_file)
    hide = [root, out, Path(args.source)]
    if args.seed_file:
        hide.append(Path(args.seed_file).expanduser())
    grader = Grader(args.source, seed=seed, cell_timeout=args.cell_timeout, total_timeout=args.total_timeout,
                    call_timeout=args.call_timeout, sandbox=not args.unsafe_no_sandbox, memory_mb=args.memory_mb,
                    hide=hide)
    files = find_submissions(root)
    if not files:
        print(f"no notebooks under {root}")

    def one(path):
        g = grade_file(path, root, grader)
        print(f"{g.student:>20s}  {g.exercise_set:<28s} {_fmt(g.total):>5s} / {_fmt(g.max_points):<5s}"
              f"{'  ' + g.notes[-1][:80] if g.notes else ''}", flush=True)
        return g
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            grades = list(pool.map(one, files))
    finally:
        grader.close()
    grades_csv, feedback_csv = write_tables(grades, out)      # every sandbox has exited by now
    print(f"wrote {grades_csv} and {feedback_csv}" + (" (UNSAFE: no sandbox)" if args.unsafe_no_sandbox else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
