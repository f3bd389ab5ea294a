#!/usr/bin/env python
"""Student notebooks from the exercise sources (exercises/source/NN_topic.md), and the classroom bundle.

    make release                                   # exercises/source/NN_*.md -> exercises/NN_*.ipynb (self-study)
    python scripts/release_exercises.py --check    # exit 1 if a committed release is out of date
    make classroom OUT=dir [CLASSROOM_ARGS="--roster ids.txt --seed-file ~/course-seed"]

A source is a jupytext MyST notebook holding the whole set (CONTRIBUTING.md, "Exercise sets"), with otter-style
markers: a raw ``# ASSIGNMENT CONFIG`` cell; raw ``# BEGIN QUESTION`` (``name``, ``points``, ``title``, ``kind``,
``answers``, ``hint``, ``book``) ... ``# END QUESTION`` cells around each problem; in answer cells
``# BEGIN SOLUTION`` ... ``# END SOLUTION`` (replaced by ``...``), ``# BEGIN SOLUTION NO PROMPT`` (removed),
``x = value  # SOLUTION`` (becomes ``x = ...``) and ``\"\"\" # BEGIN PROMPT`` ... ``\"\"\" # END PROMPT`` (what the
student sees instead); raw ``# BEGIN TESTS`` ... ``# END TESTS`` around hidden test cells (each starts with a
``\"\"\" # BEGIN TEST CONFIG`` block: ``hidden``, ``points``, ``failure_message``); one or more code cells tagged
``checks`` that define the learner-facing check of each problem (``def q1(answer): ...``).

The self-study release keeps ``ex.solution()`` (it loads the source from this repository). The classroom bundle
(``--classroom OUT``) holds the student notebooks (one folder per student with ``--roster``: each notebook's
``variant`` is derived from the instructor's seed, which the bundle does not contain), ``exercises/checks/*.json``
(titles, hints, answer names: no check code, no solution, no hidden test), the chapters and a copy of evallib.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat

from evallib.grading import (  # noqa: F401
    HiddenTest,
    Question,
    SourceSpec,
    _marker,
    load_source,
    parse_source,
    public_checks,
    read_myst,
    source_questions,
)
from evallib.grading._source import parse_test_cell  # noqa: F401
from scripts.nbsettings import ROOT, STRIP_FLAGS, nbstripout

SOURCE_DIR = ROOT / "exercises" / "source"
RELEASE_DIR = ROOT / "exercises"
MARKDOWN_PROMPT = "_Type your answer here, replacing this text._"
VARIANT_LINE = re.compile(r"^variant = 0\b.*$", re.M)


# ----------------------------------------------------------------------------------------- parsing
# The one reader of the sources is evallib.grading's (jupytext + yaml.safe_load): SourceSpec, Question, HiddenTest,
# parse_source and parse_test_cell are imported from it above.


# ----------------------------------------------------------------------------------------- release
_SOLUTION_LINE = re.compile(r"^(\s*)(.+?)\s*=\s*(?!=).*?#\s*SOLUTION\s*$")


def strip_solutions(source: str) -> str:
    """Apply otter's code-cell solution markers (see the module docstring)."""
    out, mode = [], None  # mode: None | "solution" | "noprompt" | "prompt"
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


_NO_SOLUTION = [
    (re.compile(r"\s*·\s*ex\.solution\(\"\w+\"\)"), ""),
    (re.compile(r" and `ex\.solution\(\"q1\"\)` the worked solution"), ""),
]


def make_release(source_path, *, variant=0, classroom=False):
    """The student notebook (a new NotebookNode) for an exercise source (``classroom``: no ``ex.solution``)."""
    _, src_cells = read_myst(Path(source_path).read_text(encoding="utf-8"))
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    cells, skip_tests, md_solution = [], False, False
    for cell in src_cells:
        if cell.cell_type == "raw":
            first = _marker(cell)
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
        if skip_tests or md_solution or "checks" in cell.tags:
            continue
        text = cell.source
        if classroom:
            for pattern, repl in _NO_SOLUTION:
                text = pattern.sub(repl, text)
        if cell.cell_type == "code":
            src = strip_solutions(text)
            if variant:
                # (why: the set's introduction, in its language)
                src = VARIANT_LINE.sub(f"variant = {int(variant)}", src)
            new = nbformat.v4.new_code_cell(src)
        else:
            new = nbformat.v4.new_markdown_cell(text)
        cells.append(new)
    nb.cells = cells
    for c in nb.cells:  # stable ids: nbstripout keeps them, so make them deterministic
        c.pop("id", None)
    nb.nbformat, nb.nbformat_minor = 4, 4
    nb.metadata["exercise_set"] = Path(source_path).stem
    return nb


def solution_notebook(source_path, *, variant=0):
    """The instructor's worked notebook as a student would hand it in: every code cell outside the tests and the
    checks, solutions included (for tests and benchmarks)."""
    _, src_cells = read_myst(Path(source_path).read_text(encoding="utf-8"))
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    in_tests = False
    for cell in src_cells:
        mark = _marker(cell)
        if mark in ("# BEGIN TESTS", "# END TESTS"):
            in_tests = mark == "# BEGIN TESTS"
        elif cell.cell_type == "code" and not in_tests and "checks" not in cell.tags:
            src = VARIANT_LINE.sub(f"variant = {int(variant)}", cell.source) if variant else cell.source
            nb.cells.append(nbformat.v4.new_code_cell(src))
        elif cell.cell_type == "markdown":
            nb.cells.append(nbformat.v4.new_markdown_cell(cell.source))
    nb.metadata["exercise_set"] = Path(source_path).stem
    return nb


def write_releases(pairs, *, variant=0, classroom=False, lang="en"):
    """Write the release of each (source, out) pair, then strip them all with one nbstripout run
    (the flags of the exercises/ git filter, so the files are exactly what git stores). ``lang="zh"``: the Chinese
    release where the set has a catalog (scripts/i18n.py)."""
    outs = []
    for source_path, out_path, *own in pairs:  # (source, out) or (source, out, variant)
        nb = make_release(source_path, variant=own[0] if own else variant, classroom=classroom)
        if lang != "en":
            from scripts.i18n import translate_release

            nb = translate_release(nb, Path(source_path), classroom=classroom)
        nbformat.write(nb, out_path)
        outs.append(str(out_path))
    if outs:
        nbstripout(*STRIP_FLAGS, *outs, check=True)
    return [Path(o) for o in outs]


def source_files(source_dir=SOURCE_DIR):
    return sorted(p for p in Path(source_dir).glob("[0-9][0-9]_*.md"))


# ----------------------------------------------------------------------------------------- variants
def read_seed(seed=None, seed_file=None) -> bytes | None:
    """The instructor's secret: ``--seed`` text or the first line of ``--seed-file`` (outside the course)."""
    if seed and seed_file:
        raise SystemExit("give --seed or --seed-file, not both")
    if seed_file:
        path = Path(seed_file).expanduser().resolve()
        if ROOT in path.parents:
            raise SystemExit(f"--seed-file: {path} is inside the course; keep the seed outside it")
        seed = path.read_text(encoding="utf-8").strip()
    return seed.encode("utf-8") if seed else None


def variant_for(seed: bytes | None, student: str, set_key: str) -> int:
    """The variant number of ``student`` for set ``set_key`` (1..999999; 0 without a seed: self-study)."""
    if not seed:
        return 0
    digest = hmac.new(seed, f"{set_key[:2]}:{student}".encode(), hashlib.sha256).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 999_999


CLASSROOM_README = """# Model evaluation and selection: classroom edition

`pip install -e .` (or `conda env create -f environment.yml`), then open the notebooks in JupyterLab: the chapters
in `notebooks/`, your exercise sets in `students/<your id>/` (or `exercises/`). Replace each `...` with your answer
and run the check cell: it says *not attempted* or *received* (a well-formed answer). Whether an answer is right is
decided when your instructor grades the notebook you hand in. Keep the `variant = ...` line of the first cell as it
is: your data differ from your classmates'.
"""


def make_classroom(out, *, roster=None, seed=None, lang="en"):
    """Write the classroom bundle into ``out`` (see the module docstring). Returns the files written.

    ``lang="zh"`` (``make classroom LANG=zh``): every set with a Chinese catalog (exercises/zh/NN_topic.po) is
    released in Chinese (scripts/i18n.py), its hints and titles in the checks file too, and the catalogs travel
    with the bundle (evallib reads the checks' Chinese sentences from them); sets without one stay English."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"OUT: {out} exists and is not empty")
    sources = source_files()
    if roster and not seed:
        raise SystemExit("--roster needs the instructor's --seed or --seed-file (the variants derive from it)")
    if not seed:
        print(
            "make classroom: no seed given, so every student gets variant 0: the public self-study data, whose "
            "answers the self-study edition shows. For per-student variants pass the instructor's secret: "
            "make classroom OUT=dir CLASSROOM_ARGS='--roster ids.txt --seed-file ~/course-seed'",
            file=sys.stderr,
        )
    ex_dir = out / "exercises"
    (ex_dir / "checks").mkdir(parents=True)
    for src in sources:
        data = public_checks(load_source(src))
        if lang != "en":
            from evallib.i18n import language, translate

            with language(lang):
                data["title"] = translate(data["title"], "check")
                for p in data["problems"]:
                    p["title"], p["hint"] = translate(p["title"], "title"), translate(p["hint"], "hint")
        (ex_dir / "checks" / f"{src.stem}.json").write_text(
            json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    if roster:
        pairs = []
        for student in roster:
            folder = out / "students" / student
            folder.mkdir(parents=True)
            pairs += [(src, folder / f"{src.stem}.ipynb", variant_for(seed, student, src.stem)) for src in sources]
            shutil.copytree(ex_dir / "checks", folder / "checks")
        write_releases(pairs, classroom=True, lang=lang)
    else:
        write_releases(
            [(src, ex_dir / src.name.replace(".md", ".ipynb")) for src in sources], classroom=True, lang=lang
        )
    if lang != "en" and (ROOT / "exercises" / lang).is_dir():
        (out / "exercises" / lang).mkdir(parents=True, exist_ok=True)
        for po in sorted((ROOT / "exercises" / lang).glob("[0-9][0-9]_*.po")):
            shutil.copy2(po, out / "exercises" / lang / po.name)
    shutil.copytree(
        ROOT / "notebooks", out / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    )
    shutil.copytree(ROOT / "evallib", out / "evallib", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "environment.yml"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, out / name)
    (out / "README.md").write_text(CLASSROOM_README, encoding="utf-8")
    return sorted(p for p in out.rglob("*") if p.is_file())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", default=str(SOURCE_DIR), help="folder of exercise sources (NN_topic.md)")
    ap.add_argument("--out", default=str(RELEASE_DIR), help="folder for the student notebooks")
    ap.add_argument("--check", action="store_true", help="only compare with the releases in --out")
    ap.add_argument("--classroom", metavar="OUT", help="write the classroom bundle into OUT")
    ap.add_argument("--roster", help="file with one student id per line: one folder per student (needs a seed)")
    ap.add_argument("--seed", help="the instructor's secret for the per-student variants")
    ap.add_argument("--seed-file", help="file holding that secret (outside the course)")
    ap.add_argument(
        "--lang",
        default="en",
        choices=["en", "zh"],
        help="language of the classroom bundle (zh: the sets translated in exercises/zh/, the others in English)",
    )
    args = ap.parse_args(argv)
    sources = source_files(args.source)
    for src in sources:
        parse_source(src)  # validates markers and points
    if args.classroom:
        roster = None
        if args.roster:
            roster = [s.strip() for s in Path(args.roster).read_text(encoding="utf-8").splitlines() if s.strip()]
        files = make_classroom(args.classroom, roster=roster, seed=read_seed(args.seed, args.seed_file), lang=args.lang)
        print(f"wrote {len(files)} files into {args.classroom}")
        return 0
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = [src.name.replace(".md", ".ipynb") for src in sources]
    if not args.check:
        for path in write_releases([(src, out / n) for src, n in zip(sources, names)]):
            print(f"wrote {path}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = write_releases([(src, Path(tmp) / n) for src, n in zip(sources, names)])
        from scripts.nbsettings import committed_bytes  # what git holds: a learner's saved set is not "out of date"

        stale = [
            out / f.name
            for f in fresh
            if not (out / f.name).exists() or committed_bytes(out / f.name) != f.read_bytes()
        ]
    extra = sorted({p.name for p in out.glob("[0-9][0-9]_*.ipynb")} - set(names))
    if stale or extra:
        print("out of date (run `make release`):", *map(str, stale), *[f"{e} (no source)" for e in extra], sep="\n  ")
        return 1
    print(f"{len(sources)} release(s) up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
