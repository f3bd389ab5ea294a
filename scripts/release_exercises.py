#!/usr/bin/env python
"""Generate the student releases of the exercise sets from the instructor's source notebooks.

    make release                                   # exercises/source/NN_*.ipynb -> exercises/NN_*.ipynb
    python scripts/release_exercises.py --check    # exit 1 if a committed release is out of date
    python scripts/release_exercises.py --classroom --out DIR   # releases whose ex.solution() is disabled

The source notebooks use otter-grader's notebook format (otter assign, "v1" format), so an instructor can
move them to otter unchanged:

- a raw cell ``# ASSIGNMENT CONFIG`` (YAML) first;
- raw cells ``# BEGIN QUESTION`` (YAML: ``name``, ``points``) ... ``# END QUESTION`` around each problem;
- in code cells, ``# BEGIN SOLUTION`` ... ``# END SOLUTION`` (replaced by ``...``), ``# BEGIN SOLUTION NO PROMPT``
  (removed), ``x = value  # SOLUTION`` (becomes ``x = ...``), and ``\"\"\" # BEGIN PROMPT`` ... ``\"\"\" # END PROMPT``
  (what the student sees instead);
- raw cells ``# BEGIN TESTS`` ... ``# END TESTS`` around the test cells; every test cell starts with a
  ``\"\"\" # BEGIN TEST CONFIG`` block (``hidden``, ``points``, ``failure_message``) and all of ours are hidden;
- raw ``# BEGIN SOLUTION`` ... ``# END SOLUTION`` cells around markdown solutions.

The release drops the config, question and test cells and the solutions, clears every output and execution
count (nbstripout with the exercises/ flags), and records the set's name in the notebook metadata
(``exercise_set``) so that the autograder recognises renamed submissions.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbsettings import STRIP_FLAGS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIR = ROOT / "exercises" / "source"
RELEASE_DIR = ROOT / "exercises"
MARKDOWN_PROMPT = "_Type your answer here, replacing this text._"


# ----------------------------------------------------------------------------------------- parsing
def _first_line(cell) -> str:
    src = cell.source.lstrip()
    return src.splitlines()[0].strip() if src else ""


def _is_raw(cell, marker) -> bool:
    return cell.cell_type == "raw" and _first_line(cell).upper() == marker


def parse_config_text(text: str) -> dict:
    """The small YAML subset of otter's config blocks: ``key: value`` lines (int, float, bool or string)."""
    out = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#") or ":" not in line:
            continue
        key, value = line.split(":", 1)
        value = value.strip()
        if value.lower() in ("true", "false"):
            v = value.lower() == "true"
        else:
            try:
                v = int(value)
            except ValueError:
                try:
                    v = float(value)
                except ValueError:
                    v = value.strip("'\"")
        out[key.strip()] = v
    return out


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
    tests: list[HiddenTest] = field(default_factory=list)
    cells: list[int] = field(default_factory=list)     # indices of the question's code cells (answers)


@dataclass
class SourceSpec:
    name: str            # e.g. "02_evaluation_methods"
    path: Path
    config: dict
    questions: list[Question]

    @property
    def max_points(self):
        return sum(q.points for q in self.questions)


def parse_test_cell(source: str) -> HiddenTest:
    m = _TEST_CONFIG.match(source)
    cfg = parse_config_text(m.group(1)) if m else {}
    body = source[m.end():] if m else source
    if body.lstrip().startswith("# HIDDEN"):
        cfg.setdefault("hidden", True)
    return HiddenTest(source=body, points=float(cfg.get("points", 1)), hidden=bool(cfg.get("hidden", False)),
                      failure_message=str(cfg.get("failure_message", "")))


def parse_source(path) -> SourceSpec:
    """Read an instructor notebook: its config, questions (name, points) and their test cells."""
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    config, questions, current, in_tests = {}, [], None, False
    for i, cell in enumerate(nb.cells):
        if _is_raw(cell, "# ASSIGNMENT CONFIG"):
            config = parse_config_text(cell.source.split("\n", 1)[1] if "\n" in cell.source else "")
        elif _is_raw(cell, "# BEGIN QUESTION"):
            meta = parse_config_text(cell.source.split("\n", 1)[1] if "\n" in cell.source else "")
            current = Question(name=str(meta["name"]), points=float(meta.get("points", 1)))
            questions.append(current)
        elif _is_raw(cell, "# END QUESTION"):
            current = None
        elif _is_raw(cell, "# BEGIN TESTS"):
            in_tests = True
        elif _is_raw(cell, "# END TESTS"):
            in_tests = False
        elif in_tests and cell.cell_type == "code":
            if current is None:
                raise ValueError(f"{path.name}: test cell {i} outside a question")
            current.tests.append(parse_test_cell(cell.source))
        elif current is not None and cell.cell_type == "code":
            current.cells.append(i)
    for q in questions:
        if not q.tests:
            raise ValueError(f"{path.name}: question {q.name} has no tests")
        total = sum(t.points for t in q.tests)
        if abs(total - q.points) > 1e-9:
            raise ValueError(f"{path.name}: question {q.name} is worth {q.points} points but its tests add up to {total}")
    return SourceSpec(name=path.stem, path=path, config=config, questions=questions)


# ----------------------------------------------------------------------------------------- release
_SOLUTION_LINE = re.compile(r"^(\s*)(.+?)\s*=\s*(?!=).*?#\s*SOLUTION\s*$")


def strip_solutions(source: str) -> str:
    """Apply otter's code-cell solution markers (see the module docstring)."""
    out, mode = [], None          # mode: None | "solution" | "noprompt" | "prompt"
    for line in source.split("\n"):
        s = line.strip()
        if mode == "prompt":
            if re.match(r'^"""\s*;?\s*#\s*END PROMPT\s*$', s):
                mode = None
            else:
                out.append(line)
            continue
        if mode in ("solution", "noprompt"):
            if re.match(r"^#\s*END SOLUTION\s*$", s):
                mode = None
            continue
        if re.match(r'^"""\s*#\s*BEGIN PROMPT\s*$', s):
            mode = "prompt"
        elif re.match(r"^#\s*BEGIN SOLUTION NO PROMPT\s*$", s):
            mode = "noprompt"
        elif re.match(r"^#\s*BEGIN SOLUTION\s*$", s):
            mode = "solution"
            out.append(line[: len(line) - len(line.lstrip())] + "...")
        elif re.search(r"#\s*SOLUTION\s*$", line):
            m = _SOLUTION_LINE.match(line)
            if m:
                out.append(f"{m.group(1)}{m.group(2)} = ...")
        else:
            out.append(line)
    if mode is not None:
        raise ValueError(f"unterminated {mode} block in cell:\n{source[:200]}")
    return "\n".join(out)


def make_release(source_nb, *, classroom=False):
    """The student notebook (a new NotebookNode) for an instructor notebook."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {k: v for k, v in source_nb.metadata.items() if k in ("kernelspec", "language_info")}
    cells, skip_tests, md_solution = [], False, False
    for cell in source_nb.cells:
        if cell.cell_type == "raw":
            first = _first_line(cell).upper()
            if first == "# BEGIN TESTS":
                skip_tests = True
            elif first == "# END TESTS":
                skip_tests = False
            elif first == "# BEGIN SOLUTION":
                md_solution = True
                cells.append(nbformat.v4.new_markdown_cell(MARKDOWN_PROMPT))
            elif first == "# END SOLUTION":
                md_solution = False
            elif first in ("# ASSIGNMENT CONFIG", "# BEGIN QUESTION", "# END QUESTION"):
                pass
            else:
                cells.append(nbformat.v4.new_raw_cell(cell.source))
            continue
        if skip_tests or md_solution:
            continue
        if cell.cell_type == "code":
            src = strip_solutions(cell.source)
            if classroom:
                src = re.sub(r'exercise_set\("(\d\d)"\)', r'exercise_set("\1", solutions=False)', src)
            new = nbformat.v4.new_code_cell(src)
        else:
            new = nbformat.v4.new_markdown_cell(cell.source)
        if cell.metadata.get("tags"):
            new.metadata["tags"] = list(cell.metadata["tags"])
        cells.append(new)
    nb.cells = cells
    for c in nb.cells:          # stable ids: nbstripout keeps them, so make them deterministic
        c.pop("id", None)
    nb.nbformat, nb.nbformat_minor = 4, 4
    return nb


def write_releases(pairs, *, classroom=False):
    """Write the release of each (source, out) pair, then strip them all with one nbstripout run
    (the flags of the exercises/ git filter, so the files are exactly what git stores)."""
    outs = []
    for source_path, out_path in pairs:
        src = nbformat.read(source_path, as_version=4)
        release = make_release(src, classroom=classroom)
        release.metadata["exercise_set"] = Path(source_path).stem
        nbformat.write(release, out_path)
        outs.append(str(out_path))
    if outs:
        subprocess.run([sys.executable, "-m", "nbstripout", *STRIP_FLAGS, *outs], check=True)
    return [Path(o) for o in outs]


def source_notebooks(source_dir=SOURCE_DIR):
    return sorted(p for p in Path(source_dir).glob("[0-9][0-9]_*.ipynb"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", default=str(SOURCE_DIR), help="folder of instructor notebooks")
    ap.add_argument("--out", default=str(RELEASE_DIR), help="folder for the student notebooks")
    ap.add_argument("--classroom", action="store_true", help="disable ex.solution() in the release")
    ap.add_argument("--check", action="store_true", help="only compare with the releases in --out")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sources = source_notebooks(args.source)
    for src in sources:
        parse_source(src)                       # validates markers and points
    if not args.check:
        for path in write_releases([(src, out / src.name) for src in sources], classroom=args.classroom):
            print(f"wrote {path}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = write_releases([(src, Path(tmp) / src.name) for src in sources], classroom=args.classroom)
        stale = [out / f.name for f in fresh
                 if not (out / f.name).exists() or (out / f.name).read_bytes() != f.read_bytes()]
    extra = sorted({p.name for p in out.glob("[0-9][0-9]_*.ipynb")} - {s.name for s in sources})
    if stale or extra:
        print("out of date (run `make release`):", *map(str, stale), *[f"{e} (no source)" for e in extra],
              sep="\n  ")
        return 1
    print(f"{len(sources)} release(s) up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
