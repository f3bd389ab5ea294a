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
2. (untrusted) ``scripts/sandbox_run.py`` runs inside bubblewrap (``bwrap``) on an allow-list (scripts/sandbox.py):
   an empty root holding only /usr, a few /etc files, the interpreter, the virtual environment and the course's
   public parts (evallib, the released exercises), read-only; sized tmpfs for /tmp, /var/tmp, /dev/shm; no
   network; its own PID namespace (every process the submission starts dies with it); one uid per job from a
   block held for this run; memory and processes bounded per sandbox by a cgroup where the machine allows one
   (else per process: the grader says which when it starts); a wall-clock limit enforced from outside. The job
   (hidden calls included) reaches the runner on a pipe; the runner is not dumpable. It runs the student's cells
   in a kernel and prints the answers as JSON data (values; a function's return values or exception types on the
   collected calls, each call time-limited, the library functions that solve the problem blocked);
3. (trusted) the JSON is decoded as data only, with caps (never unpickled or executed); the learner-facing check
   and the hidden tests of each problem run in this process on those data, against expected values computed here.
A kernel that dies, a missing answer or malformed output scores zero for what it affects, with the reason.
Submissions are opened without following links; one notebook per student and set is graded (the newest, said in
the notes). ``grades.csv`` and ``feedback.csv`` get each submission's rows as soon as it is graded (a crash loses
nothing graded) and are rewritten sorted at the end, after every sandbox is gone. The submitted files are only
read. What is and is not promised: docs/design/sandbox.md.
Without a working ``bwrap`` the grader refuses to run unless ``--unsafe-no-sandbox`` is given (every row then
says so).
"""

from __future__ import annotations

import argparse
import csv
import errno
import json
import os
import re
import secrets
import shutil
import stat
import sys
import tempfile
import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from evallib.grading import (  # noqa: E402
    NOT_ATTEMPTED,
    CaseRecorder,
    Replay,
    from_data,
    hidden_feedback,
    load_source,
    public_checks,
    set_run_seed,
    to_data,
)
from evallib.grading_messages import MESSAGES  # noqa: E402
from evallib.grading_messages import text as _t
from evallib.i18n import get_language as _get_language  # noqa: E402
from evallib.i18n import language as _language
from evallib.i18n import translate as _tr
from scripts.release_exercises import SOURCE_DIR, SourceSpec, parse_source, read_seed, source_files, variant_for  # noqa: E402
from scripts.sandbox import Sandbox, sandbox_problem  # noqa: E402,F401  (sandbox_problem: main and the tests)

STATUSES = ("correct", "partial", "incorrect", "not attempted", "missing", "not graded")


@dataclass
class ProblemGrade:
    problem: str
    points: float
    max_points: float
    status: str
    message: str = ""
    text_answers: str = ""  # the learner's free-text answers (choices, justifications)


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

    def __init__(
        self,
        source_dir=SOURCE_DIR,
        seed=None,
        cell_timeout=60,
        total_timeout=None,
        call_timeout=None,
        sandbox=True,
        memory_mb=4096,
        hide=(),
    ):
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
        self.checks_dir.mkdir()  # each set's public checks are written when a submission of that set comes
        os.chmod(self.checks_dir, 0o755)
        self.box = Sandbox(
            self.tmp,
            self.checks_dir,
            sandbox=sandbox,
            memory_mb=memory_mb,
            total_timeout=self.total_timeout,
            hide=self.hide,
        )

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
        if not (self.checks_dir / f"{name}.json").exists():  # once per set: each student's variant needs none
            self._write_checks(name, ex if variant == 0 else load_source(spec.path))
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
            functions[q.answers[0]] = [[key, to_data(tuple(args))] for key, args in rec.calls.items()]
        blocked = {q.answers[0]: list(q.forbid) for q in spec.questions if q.kind == "implement" and q.forbid}
        with self._lock:
            self._sets[(name, variant)] = (ex, functions, blocked)
        return ex, functions, blocked

    def _write_checks(self, name, ex):
        """The set's public checks (variant 0) where its sandboxes read them; written once, atomically."""
        target = self.checks_dir / f"{name}.json"
        with self._lock:
            if target.exists():
                return
            tmp = target.with_suffix(".tmp")
            tmp.write_text(json.dumps(public_checks(ex)), encoding="utf-8")
            os.chmod(tmp, 0o644)
            tmp.replace(target)

    # ------------------------------------------------------------------------------------- the sandbox
    def run_sandboxed(self, cells, names, functions, blocked=None):
        """Run the runner on one submission (scripts/sandbox.py); returns (parsed output or None, reason or None)."""
        job = {
            "cells": cells,
            "names": names,
            "functions": functions,
            "cell_timeout": self.cell_timeout,
            "total_timeout": self.total_timeout,
            "call_timeout": self.call_timeout,
            "blocked": blocked or {},
        }
        return self.box.run(job)

    # ------------------------------------------------------------------------------------- judging
    def grade(self, cells, spec: SourceSpec, variant=0):
        """Grade code cells (strings) of set ``spec``: [ProblemGrade], notes."""
        ex, functions, blocked = self.set_for(spec.name, variant)
        names = sorted({a for q in spec.questions for a in q.answers})
        data, failure = self.run_sandboxed(cells, names, functions, blocked)
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
        with hidden_feedback():  # name the case and the kind of mistake, never the expected value
            return self._judge(ex, q, answers, calls, texts, variant)

    def _judge(self, ex, q, answers, calls, texts, variant):
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
                msg = str(exc) if isinstance(exc, AssertionError) else type(exc).__name__
                failure = f"{_tr(t.failure_message, 'test')}: " if t.failure_message else ""
                messages.append(_t("hidden_test_failed", i=i + 1, failure=failure, message=msg[:1000]))
        delegated = [
            a
            for a in q.answers
            if isinstance(calls.get(a), dict)
            and any(isinstance(r, dict) and r.get("delegation") for r in calls[a].values())
        ]
        if delegated:
            messages.insert(0, _t("forbidden", call=", ".join(q.forbid) or delegated[0]))
        status = "correct" if points == q.points else ("partial" if points > 0 else "incorrect")
        return ProblemGrade(q.name, points, q.points, status, " | ".join(messages), texts)


def _where(w):
    zh = _get_language() == "zh"
    if isinstance(w, list) and len(w) == 2 and w[0] == "cell_in":
        n = int(w[1]) if isinstance(w[1], int) else "?"
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
MAX_NOTEBOOK_BYTES = 20 * 2**20


class Refused(Exception):
    """A submission the grader does not open (a link, not a regular file, too large); the message never quotes it."""

    def __init__(self, key, **fields):
        super().__init__(key)
        self.key, self.fields = key, fields


def _inside(path: Path, root: Path) -> Path:
    """``path`` relative to ``root`` when no component below ``root`` is a symbolic link and it resolves inside."""
    rel = path.relative_to(root)
    here = root
    for part in rel.parts:
        here = here / part
        if stat.S_ISLNK(os.lstat(here).st_mode):
            raise Refused("symlink")
    real = Path(os.path.realpath(path))
    if real != path and root != real and root not in real.parents:
        raise Refused("outside")
    return rel


def read_bytes_safely(path, root) -> bytes:
    """The bytes of a submitted file, opened without following links (O_NOFOLLOW), only when every component below
    ``root`` is a real folder or file, it resolves inside ``root``, and it is a regular file of at most 20 MB."""
    path, root = Path(path), Path(root)
    _inside(path, root)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused("symlink") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused("outside")
        if st.st_size > MAX_NOTEBOOK_BYTES:
            raise Refused("too_big", mb=MAX_NOTEBOOK_BYTES // 2**20)
        chunks, left = [], MAX_NOTEBOOK_BYTES + 1
        while left > 0:
            b = os.read(fd, min(left, 1 << 20))
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        if left <= 0:
            raise Refused("too_big", mb=MAX_NOTEBOOK_BYTES // 2**20)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_submission(path, root=None):
    """(notebook or None, code cell sources, problem message): never follows a link, never quotes the file."""
    try:
        data = read_bytes_safely(path, root if root is not None else Path(path).parent)
        text = data.decode("utf-8")
    except Refused as exc:
        return None, [], _t(exc.key, **exc.fields)
    except UnicodeDecodeError:
        return None, [], _t("unreadable", error="not UTF-8 text")
    except OSError as exc:
        return None, [], _t("unreadable", error=exc.strerror or type(exc).__name__)
    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception as exc:  # noqa: BLE001  (the error's text may quote the file: only its type is kept)
        return None, [], _t("not_a_notebook", error=type(exc).__name__)
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


def normalise_name(name: str) -> str:
    """A student's name as the tables show it: NFKC, control and format characters dropped, trimmed."""
    name = unicodedata.normalize("NFKC", str(name))
    name = "".join(ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return name.strip() or "?"


def student_name(path, root):
    """The first folder below ``root``, or the file's stem for a file directly in it (``alice.ipynb`` and
    ``alice/`` are one student), normalised."""
    rel = Path(path).relative_to(root)
    return normalise_name(rel.parts[0] if len(rel.parts) > 1 else rel.stem)


def _skeleton(name: str):
    """(skeleton, look-alike characters): each character confusable with a Latin one replaced by it (Unicode's
    confusables, through confusable_homoglyphs; without it, by the NFKD base letter of non-ASCII letters)."""
    try:
        from confusable_homoglyphs import confusables

        found = confusables.is_confusable(name, greedy=True, preferred_aliases=["latin"]) or []
        table = {f["character"]: f["homoglyphs"][0]["c"] for f in found if f.get("homoglyphs")}
    except ImportError:
        table = {}
    chars = sorted({ch for ch in name if ch in table and not ch.isascii()})
    skel = "".join(table.get(ch, ch) if not ch.isascii() else ch for ch in name)
    return skel.casefold(), chars


def lookalike_notes(names):
    """{name: note} for names that look like another student's name (same skeleton, different characters)."""
    by = {}
    for n in names:
        by.setdefault(_skeleton(n)[0], []).append(n)
    notes = {}
    for group in by.values():
        if len(set(group)) > 1:
            for n in group:
                chars = _skeleton(n)[1]
                if chars or not n.isascii():
                    notes[n] = _t("lookalike", name=n, chars=", ".join(f"U+{ord(c):04X}" for c in chars) or "?")
    return notes


def submission_language(nb, cells=()):
    """The learner's language: the notebook's ``evallib.lang`` metadata (the Chinese edition, exercises/zh/, sets it)
    or a set-up call ``setup_notebook(..., lang="zh")``; English otherwise. It only chooses the feedback's language."""
    lang = ((nb or {}).get("metadata", {}).get("evallib") or {}).get("lang") if nb else None
    if lang not in ("en", "zh"):
        lang = "zh" if any(re.search(r"setup_notebook\([^)]*lang\s*=\s*[\"']zh", c) for c in cells[:3]) else "en"
    return lang


@dataclass
class Submission:
    """One (student, set): the file graded, or why none is; the other files found for it."""

    student: str
    key: str | None
    path: Path | None
    nb: object = None
    cells: list = field(default_factory=list)
    problem: str | None = None
    notes: list = field(default_factory=list)


def collect(root, specs) -> list[Submission]:
    """Every (student, set) of the folder, once: links refused (named, never opened), the newest notebook of a
    student's set graded (the rule stated in the feedback), look-alike names flagged."""
    root = Path(root)
    found: dict = {}
    refused = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        for d in list(dirnames):
            if d == ".ipynb_checkpoints" or d.startswith("."):
                dirnames.remove(d)
            elif os.path.islink(here / d):
                dirnames.remove(d)
                refused.append(here / d)
        for f in filenames:
            p = here / f
            if not f.endswith(".ipynb"):
                continue
            if os.path.islink(p):
                refused.append(p)
                continue
            nb, cells, problem = read_submission(p, root)
            key = identify_set(p, nb, specs)
            try:
                mtime = os.lstat(p).st_mtime
            except OSError:
                mtime = 0
            found.setdefault((student_name(p, root), key), []).append(
                (mtime, str(p.relative_to(root)), p, nb, cells, problem)
            )
    subs = []
    for (student, key), files in found.items():
        files.sort(key=lambda t: (t[5] is None, t[0], t[1]), reverse=True)  # readable first, then newest
        mtime, rel, p, nb, cells, problem = files[0]
        s = Submission(student, key, p, nb, cells, problem)
        if len(files) > 1:
            s.notes.append(_t("more_notebooks", n=len(files), chosen=rel, others=", ".join(f[1] for f in files[1:])))
        subs.append(s)
    for p in refused:
        subs.append(Submission(student_name(p, root), identify_set(p, None, specs), p, problem=_t("symlink")))
    notes = lookalike_notes({s.student for s in subs})
    for s in subs:
        if s.student in notes:
            s.notes.append(notes[s.student])
    return sorted(subs, key=lambda s: (s.student, s.key or "", str(s.path)))


def grade_submission(sub: Submission, root, grader: Grader):
    """Grade one (student, set). Never raises: problems become zero-credit rows with a message. Messages are
    in the submission's language (:func:`submission_language`)."""
    with _language(submission_language(sub.nb, sub.cells)):
        g = _grade_submission(sub, root, grader)
    g.notes = [*sub.notes, *g.notes]
    return g


def _grade_submission(sub: Submission, root, grader: Grader):
    rel = str(Path(sub.path).relative_to(root)) if sub.path else ""
    if sub.key is None:
        g = SubmissionGrade(sub.student, "?", rel)
        g.notes.append(sub.problem or _t("unknown_set"))
        return g
    spec = grader.specs[sub.key]
    g = SubmissionGrade(sub.student, sub.key, rel)
    if sub.problem is not None:
        g.problems = [ProblemGrade(q.name, 0.0, q.points, "not graded", sub.problem) for q in spec.questions]
        g.notes.append(sub.problem)
        return g
    try:
        g.problems, g.notes = grader.grade(sub.cells, spec, variant_for(grader.seed, sub.student, sub.key))
    except Exception as exc:  # noqa: BLE001  (a bug here must not stop the class's grading)
        msg = _t("grader_error", error=type(exc).__name__)
        g.problems = [ProblemGrade(q.name, 0.0, q.points, "not graded", msg) for q in spec.questions]
        g.notes.append(msg)
    return g


def grade_file(path, root, grader: Grader):
    """Grade one submitted notebook file (tests, tools): as :func:`grade_submission`."""
    path, root = Path(path), Path(root)
    nb, cells, problem = read_submission(path, root)
    sub = Submission(student_name(path, root), identify_set(path, nb, grader.specs), path, nb, cells, problem)
    return grade_submission(sub, root, grader)


def find_submissions(folder):
    """The notebooks under ``folder`` that are real files in real folders (links are refused by :func:`collect`)."""
    folder = Path(folder)
    out = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = [d for d in dirnames if d != ".ipynb_checkpoints" and not os.path.islink(Path(dirpath) / d)]
        out += [Path(dirpath) / f for f in filenames if f.endswith(".ipynb") and not os.path.islink(Path(dirpath) / f)]
    return sorted(out)


# ----------------------------------------------------------------------------------------- tables
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def safe_cell(text, *, newlines=True) -> str:
    """A text for a CSV cell or a console line: control and bidi characters replaced by '?', and a leading
    = + - @ (or tab) made inert with a quote (spreadsheet formula injection)."""
    text = _CONTROL.sub("?", str(text))
    if not newlines:
        text = text.replace("\n", " ").replace("\t", " ")
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class Tables:
    """grades.csv and feedback.csv, one submission's rows appended (flushed and synced) as soon as it is graded,
    so a crash loses nothing graded; :meth:`finish` rewrites them sorted by student (atomically)."""

    GRADES = ["student", "exercise_set", "file"]
    FEEDBACK = ["student", "exercise_set", "problem", "points", "max_points", "status", "message", "text_answers"]

    def __init__(self, out_dir, problems):
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.problems = sorted(set(problems), key=lambda s: (len(s), s))
        self.rows: list[SubmissionGrade] = []
        self.lock = threading.Lock()
        self.header = [*self.GRADES, *self.problems, "total", "max_points", "notes"]
        self._open()

    def _open(self):
        self.fh = {
            "grades": open(self.out / "grades.csv", "w", newline="", encoding="utf-8"),
            "feedback": open(self.out / "feedback.csv", "w", newline="", encoding="utf-8"),
        }
        csv.writer(self.fh["grades"]).writerow(self.header)
        csv.writer(self.fh["feedback"]).writerow(self.FEEDBACK)
        self._sync()

    def _sync(self):
        for fh in self.fh.values():
            fh.flush()
            os.fsync(fh.fileno())

    def _grade_row(self, g):
        by = {p.problem: p.points for p in g.problems}
        return [
            safe_cell(g.student, newlines=False),
            safe_cell(g.exercise_set),
            safe_cell(g.file, newlines=False),
            *[_fmt(by[p]) if p in by else "" for p in self.problems],
            _fmt(g.total),
            _fmt(g.max_points),
            safe_cell(" | ".join(g.notes)[:2000]),
        ]

    def _feedback_rows(self, g):
        return [
            [
                safe_cell(g.student, newlines=False),
                safe_cell(g.exercise_set),
                safe_cell(p.problem),
                _fmt(p.points),
                _fmt(p.max_points),
                p.status,
                safe_cell(p.message[:2000]),
                safe_cell(p.text_answers),
            ]
            for p in g.problems
        ]

    def add(self, g: SubmissionGrade):
        with self.lock:
            self.rows.append(g)
            csv.writer(self.fh["grades"]).writerow(self._grade_row(g))
            csv.writer(self.fh["feedback"]).writerows(self._feedback_rows(g))
            self._sync()

    def finish(self):
        with self.lock:
            for fh in self.fh.values():
                fh.close()
            rows = sorted(self.rows, key=lambda g: (g.student, g.exercise_set, g.file))
            for name, header, make in (
                ("grades", self.header, lambda g: [self._grade_row(g)]),
                ("feedback", self.FEEDBACK, self._feedback_rows),
            ):
                tmp = self.out / f".{name}.csv.tmp"
                with open(tmp, "w", newline="", encoding="utf-8") as fh:
                    w = csv.writer(fh)
                    w.writerow(header)
                    for g in rows:
                        w.writerows(make(g))
                    fh.flush()
                    os.fsync(fh.fileno())
                os.replace(tmp, self.out / f"{name}.csv")
        return self.out / "grades.csv", self.out / "feedback.csv"


def write_tables(grades: list[SubmissionGrade], out_dir):
    """Both tables at once (tests, tools): as :class:`Tables`."""
    t = Tables(out_dir, [p.problem for g in grades for p in g.problems])
    for g in grades:
        t.add(g)
    return t.finish()


def _fmt(x):
    return f"{x:g}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("submissions", help="folder of submitted notebooks")
    ap.add_argument("--source", default=str(SOURCE_DIR), help="folder of exercise sources (hidden inside the sandbox)")
    ap.add_argument(
        "--out", default=None, help="folder for grades.csv and feedback.csv (default: the submissions folder)"
    )
    ap.add_argument("--cell-timeout", type=float, default=60, help="seconds per cell (default 60)")
    ap.add_argument(
        "--total-timeout", type=float, default=None, help="seconds per submission (default 20 cells' worth)"
    )
    ap.add_argument(
        "--call-timeout",
        type=float,
        default=None,
        help="seconds per call of a submitted function (default min(5, cell timeout / 5))",
    )
    ap.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default 2)")
    ap.add_argument(
        "--memory-mb",
        type=int,
        default=4096,
        help="memory of each sandbox as a whole (a cgroup; without one, per process) in MB (default 4096)",
    )
    ap.add_argument("--seed", help="the instructor's secret for per-student variants")
    ap.add_argument("--seed-file", help="file holding that secret (outside the course; hidden from the sandbox)")
    ap.add_argument(
        "--unsafe-no-sandbox",
        action="store_true",
        help="run submissions WITHOUT bwrap (their code gets your rights; grades can be forged)",
    )
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
            print(
                f"autograde: refusing to grade without a sandbox: {problem}. "
                f"(--unsafe-no-sandbox grades anyway, with forgeable results.)",
                file=sys.stderr,
            )
            return 2
    seed = read_seed(args.seed, args.seed_file)
    set_run_seed(secrets.randbits(62))  # hidden inputs drawn by hidden_rng(): new in every run
    hide = [root, out, Path(args.source)]
    if args.seed_file:
        hide.append(Path(args.seed_file).expanduser())
    grader = Grader(
        args.source,
        seed=seed,
        cell_timeout=args.cell_timeout,
        total_timeout=args.total_timeout,
        call_timeout=args.call_timeout,
        sandbox=not args.unsafe_no_sandbox,
        memory_mb=args.memory_mb,
        hide=hide,
    )
    if grader.sandbox:
        print(f"autograde: sandbox bounds: {grader.box.bounds()}", file=sys.stderr, flush=True)
    subs = collect(root, grader.specs)
    if not subs:
        print(f"no notebooks under {root}")
    tables = Tables(out, [q.name for spec in grader.specs.values() for q in spec.questions])

    def one(sub):
        g = grade_submission(sub, root, grader)
        tables.add(g)  # on disk now: a crash later loses nothing graded
        line = (
            f"{g.student:>20s}  {g.exercise_set:<28s} {_fmt(g.total):>5s} / {_fmt(g.max_points):<5s}"
            f"{'  ' + g.notes[-1][:80] if g.notes else ''}"
        )
        print(safe_cell(line, newlines=False), flush=True)
        return g

    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(one, subs))
    finally:
        grader.close()
    grades_csv, feedback_csv = tables.finish()  # every sandbox has exited by now
    print(f"wrote {grades_csv} and {feedback_csv}" + (" (UNSAFE: no sandbox)" if args.unsafe_no_sandbox else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
