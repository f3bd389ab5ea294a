#!/usr/bin/env python
"""Check the notebooks as CI does (`make verify`; `make test` runs it first).

1. Every chapter has its MyST text source and the two agree: ``notebooks/NN_topic.md`` and the stored
   ``notebooks/NN_topic.ipynb`` hold the same cells (type, source, tags) in the same order. A sentence edited in
   one file and not the other fails here: save in JupyterLab (jupytext updates both), or run
   ``.venv/bin/jupytext --sync notebooks/NN_topic.md``, or ``make regen NB=...``.
2. nbstripout hygiene: notebooks/ keep outputs and counts with volatile metadata stripped; exercises/ and apps/
   are stored fully stripped (nbstripout --verify with each folder's flags, as the git filters write them).

    python scripts/verify_notebooks.py                          # everything
    python scripts/verify_notebooks.py notebooks/05_roc_pr_curves.ipynb   # only these (pairing and hygiene)
"""
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat

sys.path.insert(0, str(Path(__file__).parent))
from nbsettings import KEEP_FLAGS, NOTEBOOKS, ROOT, STRIP_FLAGS, chapter_sources, stored_notebooks, text_source  # noqa: E402


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
        problems.append(f"{ipynb.relative_to(ROOT)} differs from {md.name} at cell {where} ({len(a)} vs {len(b)} "
                        f"cells): {show!r}")
    return problems


def hygiene_problems(groups):
    problems = []
    for folder, flags, files in groups:
        if not files:
            continue
        r = subprocess.run([sys.executable, "-m", "nbstripout", "--verify", *flags, *map(str, files)],
                           capture_output=True, text=True)
        if r.returncode:
            problems.append(f"nbstripout --verify failed for {folder}/ (run `make regen` or commit through the git "
                            f"filter):\n{r.stdout}{r.stderr}")
        else:
            print(f"{folder}/: {len(files)} notebook(s) clean")
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
        print(f"notebooks/: {sum(p.parent.resolve() == NOTEBOOKS.resolve() for p in chapters)} chapter(s) agree with "
              "their text sources")
    problems += hygiene_problems(groups)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
