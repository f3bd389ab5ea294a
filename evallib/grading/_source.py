"""The exercise-source reader: ``exercises/source/NN_topic.md`` (jupytext MyST) read by jupytext, its config cells
by ``yaml.safe_load``; the questions, hidden tests and checks of a set; the loader of an exercise set (self-study
source or classroom bundle). The one reader of these files: scripts/release_exercises.py, scripts/autograde.py and
scripts/i18n.py use it."""

from __future__ import annotations

import copy
import functools
import json
import numbers
import os
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from .._validation import Interval, check_bool, check_positive_int, validate_params
from ..grading_messages import text as _t
from ._checks import ExerciseSet, Problem


@dataclass
class Cell:
    cell_type: str  # "markdown" | "code" | "raw"
    source: str
    tags: tuple[str, ...] = ()


@validate_params({"text": ["str"]})
def read_myst(text: str) -> tuple[dict, list[Cell]]:
    """Read a jupytext MyST notebook (``.md``) with jupytext: (its metadata, cells)."""
    metadata, cells = _read_myst(text)
    return copy.deepcopy(metadata), [Cell(*c) for c in cells]


@functools.lru_cache(maxsize=32)
def _read_myst(text: str):
    # A grading run reads each source twice (its questions, then its checks): jupytext parses it once.
    from .. import _jsonschema  # noqa: F401  # isort: skip  (first: jupytext imports nbformat, then jsonschema)
    import jupytext

    nb = jupytext.reads(text, fmt="md:myst")
    cells = tuple((c.cell_type, c.source, tuple(str(t) for t in c.metadata.get("tags", ()))) for c in nb.cells)
    return dict(nb.metadata), cells


def read_config(text: str) -> dict:
    """A config block (``key: value`` lines) by ``yaml.safe_load``; a block that is not a mapping is an error."""
    import yaml

    # yaml.safe_load's rules, in libyaml's C parser where PyYAML has it (a tenth of the time)
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) if text.strip() else {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"text: a config block must be a YAML mapping; got {type(data).__name__}")
    return data


def _marker(cell: Cell) -> str:
    src = cell.source.lstrip()
    return src.splitlines()[0].strip().upper() if (cell.cell_type == "raw" and src) else ""


def _config(cell: Cell) -> dict:
    return read_config(cell.source.split("\n", 1)[1] if "\n" in cell.source else "")


_SOLUTION_BLOCK = re.compile(
    r"^[ \t]*#\s*BEGIN SOLUTION(?: NO PROMPT)?[ \t]*\n(.*?)^[ \t]*#\s*END SOLUTION[ \t]*$", re.S | re.M
)
_PROMPT_BLOCK = re.compile(r'^[ \t]*"""\s*#\s*BEGIN PROMPT[ \t]*\n(.*?)^[ \t]*"""\s*#\s*END PROMPT[ \t]*$', re.S | re.M)


def source_questions(cells: list[Cell]) -> list[dict]:
    """The questions of a source: config (name, points, title, kind, answers, hint, book), solution code, stub."""
    questions, current = [], None
    for cell in cells:
        mark = _marker(cell)
        if mark == "# BEGIN QUESTION":
            current = {"config": _config(cell), "solution": [], "stub": ""}
            questions.append(current)
        elif mark == "# END QUESTION":
            current = None
        elif current is not None and cell.cell_type == "code" and "BEGIN SOLUTION" in cell.source:
            current["solution"] += [textwrap.dedent(b).strip("\n") for b in _SOLUTION_BLOCK.findall(cell.source)]
            prompt = _PROMPT_BLOCK.search(cell.source)
            if prompt:
                current["stub"] = prompt.group(1).strip("\n")
    return questions


def _checks_code(cells: list[Cell]) -> str:
    return "\n\n".join(c.source for c in cells if c.cell_type == "code" and "checks" in c.tags)


@validate_params(
    {
        "path": ["str", os.PathLike],
        "variant": [Interval(numbers.Integral, 0, None, closed="left")],
        "solutions": ["boolean"],
    }
)
def load_source(path, *, variant=0, solutions=True) -> ExerciseSet:
    """Build the :class:`ExerciseSet` of an exercise source ``exercises/source/NN_topic.md`` for ``variant``.

    Runs the source's ``checks`` cells (trusted course code) with ``variant`` defined; each question's check is
    the function of its name there (``def q1(answer): ...``).
    """
    variant = check_positive_int(variant, "variant", minimum=0)
    solutions = check_bool(solutions, "solutions")
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: must be a str or a path to an exercise source; got {type(path).__name__} ({path!r})")
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path: no exercise source at {str(path)!r}")
    front, cells = read_myst(path.read_text(encoding="utf-8"))
    cache: dict = {}

    def cached(key, compute):
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    from . import __all__ as public  # the names a checks cell star-imports
    from . import __dict__ as facade

    ns = {
        "__name__": f"exercise_checks_{path.stem}",
        "variant": int(variant),
        "cached": cached,
        **{name: facade[name] for name in public if name in facade},
    }
    exec(compile(_checks_code(cells), f"{path}:checks", "exec"), ns)
    ns["cached"], ns["variant"] = cached, int(variant)  # the star import of the cell replaced them
    ex = ExerciseSet(
        path.stem[:2], ns.get("TITLE", path.stem), variant=int(variant), solutions_enabled=solutions, namespace=ns
    )
    for q in source_questions(cells):
        cfg = q["config"]
        name = str(cfg["name"])
        answers = tuple(a.strip() for a in str(cfg.get("answers", name)).split(",") if a.strip())
        ex.problems[name] = Problem(
            name,
            str(cfg.get("title", name)),
            float(cfg.get("points", 1)),
            answers,
            ns.get(name),
            str(cfg.get("hint", "")),
            "\n\n".join(q["solution"]),
            str(cfg.get("kind", "compute")),
            str(cfg.get("book", "")),
            q["stub"],
            _forbid(cfg),
        )
        if ex.problems[name].check is None:
            raise ValueError(f"{path.name}: the checks cell defines no function {name}(...)")
    return ex


def _forbid(cfg) -> tuple[str, ...]:
    """The ``forbid`` list of a question: dotted names of the library functions that solve it."""
    names = cfg.get("forbid") or []
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    if not isinstance(names, list) or not all(
        isinstance(n, str) and re.fullmatch(r"[A-Za-z_][\w.]*", n) for n in names
    ):
        raise ValueError(f"forbid: a list of dotted function names; got {names!r}")
    return tuple(names)


def public_checks(ex: ExerciseSet) -> dict:
    """What a classroom bundle carries for a set: titles, points, kinds, answer names, hints. No check code,
    no solution, no hidden test."""
    return {
        "key": ex.key,
        "title": ex.title,
        "problems": [
            {
                "name": p.name,
                "title": p.title,
                "points": p.points,
                "answers": list(p.answers),
                "kind": p.kind,
                "book": p.book,
                "hint": p.hint,
            }
            for p in ex.problems.values()
        ],
    }


class ClassroomSet(ExerciseSet):
    """A set loaded from a classroom bundle: checks say "not attempted" or "received"; no ``solution``."""

    @property
    def solution(self):
        raise AttributeError(_t("no_solution_classroom"))


def _from_public(data: dict) -> ExerciseSet:
    ex = ClassroomSet(str(data["key"]), str(data["title"]), solutions_enabled=False)
    for p in data["problems"]:
        ex.problems[p["name"]] = Problem(
            p["name"],
            p["title"],
            float(p["points"]),
            tuple(p["answers"]),
            None,
            p.get("hint", ""),
            "",
            p.get("kind", "compute"),
            p.get("book", ""),
        )
    return ex


def _search_dirs() -> list[Path]:
    dirs = [Path(d) for d in os.environ.get("EVALLIB_EXERCISES", "").split(os.pathsep) if d]
    here = Path.cwd()
    dirs += [
        here / "checks",
        here / "exercises" / "checks",
        here.parent / "exercises" / "checks",
        here / "exercises" / "source",
        here.parent / "exercises" / "source",
        Path(__file__).resolve().parents[2] / "exercises" / "source",
    ]
    return dirs


def _find(key: str):
    for d in _search_dirs():
        for pattern in (f"{key}_*.md", f"{key}_*.json"):
            hits = sorted(d.glob(pattern)) if d.is_dir() else []
            if hits:
                return hits[0]
    return None


def available_sets() -> list[str]:
    """Keys of the exercise sets that :func:`exercise_set` can find ("01", "02", ...)."""
    keys = set()
    for d in _search_dirs():
        if d.is_dir():
            keys |= {p.name[:2] for p in d.glob("[0-9][0-9]_*") if p.suffix in (".md", ".json")}
    return sorted(keys)


_LOADED: dict = {}


@validate_params(
    {"key": ["str"], "solutions": ["boolean"], "variant": [Interval(numbers.Integral, 0, None, closed="left")]}
)
def exercise_set(key, *, solutions=True, variant=0) -> ExerciseSet:
    """The exercise set for chapter notebook ``key`` ("02" or "02_evaluation_methods").

    In this repository it is built from ``exercises/source/NN_topic.md`` (checks and solutions); in a classroom
    bundle from ``exercises/checks/NN_topic.json`` (no checks, no solutions: outcomes are "not attempted" or
    "received"). ``solutions=False`` makes ``solution()`` decline; ``variant`` is the classroom variant number
    (0 in the self-study edition).
    """
    variant = check_positive_int(variant, "variant", minimum=0)
    solutions = check_bool(solutions, "solutions")
    k = str(key)[:2]
    path = _find(k)
    if path is None:
        raise ValueError(f"key: no exercise set {key!r}; available: {', '.join(available_sets()) or 'none'}")
    if path.suffix == ".json":
        return _from_public(json.loads(path.read_text(encoding="utf-8")))
    cache_key = (str(path), int(variant), path.stat().st_mtime)
    if cache_key not in _LOADED:
        _LOADED[cache_key] = load_source(path, variant=variant)
    ex = copy.copy(_LOADED[cache_key])
    ex.solutions_enabled = bool(solutions)
    return ex


# ----------------------------------------------------------------------------------------- the grader's view
_TEST_CONFIG = re.compile(r'^\s*"""\s*#\s*BEGIN TEST CONFIG\s*\n(.*?)\n\s*"""\s*#\s*END TEST CONFIG\s*\n?', re.S)


@dataclass
class HiddenTest:
    source: str
    points: float
    hidden: bool
    failure_message: str = ""


@dataclass
class Question:
    name: str
    points: float
    answers: tuple[str, ...] = ()
    kind: str = "compute"
    tests: list[HiddenTest] = field(default_factory=list)
    forbid: tuple[str, ...] = ()


@dataclass
class SourceSpec:
    name: str  # e.g. "02_evaluation_methods"
    path: Path
    config: dict
    questions: list[Question]

    @property
    def key(self):
        return self.name[:2]

    @property
    def max_points(self):
        return sum(q.points for q in self.questions)


def parse_test_cell(source: str) -> HiddenTest:
    m = _TEST_CONFIG.match(source)
    cfg = read_config(m.group(1)) if m else {}
    body = source[m.end() :] if m else source
    return HiddenTest(
        source=body,
        points=float(cfg.get("points", 1)),
        hidden=bool(cfg.get("hidden", False)),
        failure_message=str(cfg.get("failure_message", "")),
    )


def parse_source(path) -> SourceSpec:
    """Read an exercise source: its config, questions (name, points, answers, forbidden functions) and their
    hidden tests."""
    path = Path(path)
    _, cells = read_myst(path.read_text(encoding="utf-8"))
    config, questions, current, in_tests = {}, [], None, False
    for i, cell in enumerate(cells):
        mark = _marker(cell)
        if mark == "# ASSIGNMENT CONFIG":
            config = _config(cell)
        elif mark == "# BEGIN QUESTION":
            meta = _config(cell)
            answers = tuple(a.strip() for a in str(meta.get("answers", meta["name"])).split(",") if a.strip())
            current = Question(
                str(meta["name"]),
                float(meta.get("points", 1)),
                answers,
                str(meta.get("kind", "compute")),
                forbid=_forbid(meta),
            )
            questions.append(current)
        elif mark == "# END QUESTION":
            current = None
        elif mark == "# BEGIN TESTS":
            in_tests = True
        elif mark == "# END TESTS":
            in_tests = False
        elif in_tests and cell.cell_type == "code":
            if current is None:
                raise ValueError(f"{path.name}: test cell {i} outside a question")
            current.tests.append(parse_test_cell(cell.source))
    for q in questions:
        if not q.tests:
            raise ValueError(f"{path.name}: question {q.name} has no tests")
        total = sum(t.points for t in q.tests)
        if abs(total - q.points) > 1e-9:
            raise ValueError(
                f"{path.name}: question {q.name} is worth {q.points} points but its tests add up to {total}"
            )
    return SourceSpec(name=path.stem, path=path, config=config, questions=questions)
