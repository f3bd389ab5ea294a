#!/usr/bin/env python
"""Check the notebooks as CI does (`make verify`; `make test` runs it first).

1. Every chapter has its MyST text source and the two agree: ``notebooks/NN_topic.md`` and the stored
   ``notebooks/NN_topic.ipynb`` hold the same cells (type, source, tags) in the same order. A sentence edited in
   one file and not the other fails here: save in JupyterLab (jupytext updates both), or run
   ``.venv/bin/jupytext --sync notebooks/NN_topic.md``, or ``make regen NB=...``.
2. nbstripout hygiene of what git holds (the staged version of each notebook, as the git filters wrote it; a file
   git does not track is checked as it is): notebooks/ keep outputs and counts with volatile metadata stripped;
   exercises/ and apps/ are stored fully stripped (nbstripout --verify with each folder's flags). A learner's saved
   exercise or chapter is their work, not a hygiene problem: it is listed, with how to keep it, never failed.

    python scripts/verify_notebooks.py                          # everything
    python scripts/verify_notebooks.py notebooks/05_roc_pr_curves.ipynb   # only these (pairing and hygiene)
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import jupytext
import nbformat

from scripts.nbsettings import (
    KEEP_FLAGS,
    NOTEBOOKS,
    ROOT,
    STRIP_FLAGS,
    chapter_sources,
    nbstripout,
    stored_notebooks,
    text_source,
)


def _cells(nb):
    return [(c.cell_type, c.source, tuple(c.metadata.get("tags", ()))) for c in nb.cells]


def pairing_problems(ipynb_paths):
    """Messages for every chapter whose text source is missing or differs from its stored notebook."""
    problems = []
    for ipynb in ipynb_paths:
        ipynb = Path(ipynb)
        if ipynb.parent.resolve() != NOTEBOOKS.resolve():
            continue  # other editions (notebooks/zh/) are built from a catalog, not paired
        md = text_source(ipynb)
        if md is None:
            problems.append(f"{ipynb.relative_to(ROOT)}: no text source {ipynb.with_suffix('.md').name}")
            continue
        if not ipynb.exists():
            problems.append(f"{md.relative_to(ROOT)}: no stored notebook (run `make regen NB={md.relative_to(ROOT)}`)")
            continue
        a, b = _cells(jupytext.read(md)), _cells(nbformat.read(ipynb, as_version=4))
        if a == b:
            continue
        where = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        show = (a[where][1] if where < len(a) else "(no cell)")[:80]
        problems.append(
            f"{ipynb.relative_to(ROOT)} differs from {md.name} at cell {where} ({len(a)} vs {len(b)} cells): {show!r}"
        )
    return problems


def _git(*args):
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True)


def stored_bytes(path: Path):
    """The bytes git holds for ``path`` (the index: what the next commit stores, after the git filters), or None
    when git does not track it (or there is no git)."""
    r = _git("show", f":{Path(path).resolve().relative_to(ROOT.resolve()).as_posix()}")
    return r.stdout if r.returncode == 0 else None


def changed_in_worktree(files):
    """The files whose working copy differs from what git holds (a learner's saved work, or an edit in progress).

    A file whose bytes equal git's is unchanged without asking git: `git diff` would run the nbstripout filter
    (a Python start-up, about 3 s) on every file a fresh clone wrote in the same second as its index."""
    files = [f for f in files if (held := stored_bytes(f)) is None or Path(f).read_bytes() != held]
    if not files:
        return []
    r = _git("diff", "--name-only", "--", *[str(Path(f).resolve().relative_to(ROOT.resolve())) for f in files])
    return [ROOT / n for n in r.stdout.decode().split()] if r.returncode == 0 else []


FIX = {
    "notebooks": "`make regen NB=notebooks/NN_topic.md` (stores it as the filters do), then `git add` it",
    "exercises": "`make release` (writes the released sets as the filters do), then `git add` them",
    "apps": "save it in JupyterLab with outputs cleared, then `git add` it (the git filter strips it)",
}


def hygiene_problems(groups):
    problems = []
    for folder, flags, files in groups:
        if not files:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            checked = []
            for i, f in enumerate(files):
                data = stored_bytes(f)
                if data is None:
                    checked.append(f)
                    continue
                copy = Path(tmp) / f"{i}_{Path(f).name}"
                copy.write_bytes(data)
                checked.append(copy)
            r = nbstripout("--verify", *flags, *checked, capture_output=True, text=True)
        if r.returncode:
            problems.append(
                f"nbstripout --verify failed for what git holds in {folder}/ (fix: {FIX[folder]}; "
                f"`make setup` installs the git filters):\n{r.stdout}{r.stderr}"
            )
        else:
            print(f"{folder}/: {len(files)} notebook(s) stored clean")
        mine = changed_in_worktree(files)
        if mine:
            names = " ".join(str(p.relative_to(ROOT)) for p in mine)
            print(
                f"note: {len(mine)} notebook(s) in {folder}/ differ from the course as committed (your saved work, "
                f"or an edit in progress): {names}\n  the tests check the committed course; to keep your work "
                f"and check the course as it was: cp those files somewhere of yours, then "
                f"`git checkout -- {names}` and re-run `make test`"
            )
    return problems


def main(paths):
    if paths:
        chosen = [Path(p).resolve().with_suffix(".ipynb") for p in paths]
        chapters = [p for p in chosen if NOTEBOOKS.resolve() in p.parents]
        groups = [("notebooks", KEEP_FLAGS, [p for p in chapters if p.exists()])]
    else:
        chapters = sorted({*stored_notebooks(), *(p.with_suffix(".ipynb") for p in chapter_sources())})
        groups = [("notebooks", KEEP_FLAGS, [p for p in chapters if p.exists()])]
        for folder in ("exercises", "apps"):
            files = sorted(p for p in (ROOT / folder).rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
            groups.append((folder, STRIP_FLAGS, files))
    problems = pairing_problems(chapters)
    if not problems:
        print(
            f"notebooks/: {sum(p.parent.resolve() == NOTEBOOKS.resolve() for p in chapters)} chapter(s) agree with "
            "their text sources"
        )
    problems += hygiene_problems(groups)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
