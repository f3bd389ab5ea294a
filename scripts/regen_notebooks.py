#!/usr/bin/env python
"""Regenerate the stored chapter notebooks from their text sources, with exactly the settings the tests use.

    make regen                                   # every chapter: notebooks/NN_topic.md -> notebooks/NN_topic.ipynb
    make regen NB=notebooks/05_roc_pr_curves.md  # one chapter (the .md or its paired .ipynb may be named)

For each chapter the MyST text source (what contributors edit; jupytext pairs it with the .ipynb) is read with
jupytext, given stable cell ids (the cell's index), executed (kernel working directory: notebooks/), given its
slide metadata (scripts/slides.py: RISE and `make slides`) and the JupyterLab collapse flag of its hidden cells,
written to the paired .ipynb and stripped of volatile metadata with the same nbstripout flags as the git filter.
Its execution time is printed. Nothing is read from the old .ipynb: a sentence edited in either file (JupyterLab
saves both) survives.

Other editions plug in through :func:`source_notebook` (the Chinese one, notebooks/zh/, is built from the English
source and a gettext catalog: CONTRIBUTING.md, "A second language").
"""

import sys
import time
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

from scripts.nbsettings import KEEP_FLAGS, KERNEL_ARGS, NOTEBOOKS, apply_env, chapter_sources, nbstripout, text_source
from scripts.slides import add_slide_metadata

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
HIDDEN_INPUT_TAGS = {"hide-input", "remove-input", "remove-cell"}


def source_notebook(ipynb: Path):
    """The notebook (no outputs) that ``ipynb`` is generated from: its paired MyST source, read by jupytext; for
    the Chinese edition (notebooks/zh/) the English source with the Markdown of its catalog (scripts/i18n.py)."""
    if Path(ipynb).resolve().parent.name == "zh":
        from scripts.i18n import NOTEBOOKS as EN
        from scripts.i18n import build_chapter

        return build_chapter(EN / Path(ipynb).with_suffix(".md").name)
    src = text_source(ipynb)
    if src is None:
        raise SystemExit(f"{ipynb}: no text source (expected {ipynb.with_suffix('.md')}; CONTRIBUTING.md)")
    nb = jupytext.read(src)
    nb.metadata = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    for i, cell in enumerate(nb.cells):
        cell.id = str(i)  # stable ids: regenerating does not churn the file
        if HIDDEN_INPUT_TAGS & set(cell.metadata.get("tags", [])) and cell.cell_type == "code":
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True  # collapsed in JupyterLab
    return nb


def coalesce_streams(outputs):
    """Consecutive prints to the same stream as one output (how they arrive in chunks depends on timing)."""
    merged = []
    for out in outputs:
        if (
            out.get("output_type") == "stream"
            and merged
            and merged[-1].get("output_type") == "stream"
            and merged[-1].get("name") == out.get("name")
        ):
            merged[-1]["text"] += out["text"]
        else:
            merged.append(out)
    return merged


def regen(ipynb: Path) -> tuple[bool, float]:
    nb = source_notebook(ipynb)
    client = NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        extra_arguments=KERNEL_ARGS,
        resources={"metadata": {"path": str(ipynb.parent)}},
    )
    t0 = time.perf_counter()
    ok = True
    try:
        client.execute()
    except Exception as exc:  # keep going: show every broken notebook
        ok = False
        print(f"FAILED {ipynb.name}: {type(exc).__name__}: {str(exc)[-2000:]}")
    dt = time.perf_counter() - t0
    for cell in nb.cells:
        cell_outputs = cell.get("outputs")
        if cell_outputs:
            cell.outputs = coalesce_streams(cell_outputs)
    nbformat.write(add_slide_metadata(nb), ipynb)
    nbstripout(*KEEP_FLAGS, ipynb, check=True)
    return ok, dt


def zh_twins(nbs):
    """The Chinese chapters (notebooks/zh/, those with a catalog) of these English chapters, not already listed."""
    listed = {Path(p).resolve() for p in nbs}
    twins = []
    for p in nbs:
        twin = NOTEBOOKS / "zh" / Path(p).name
        if (
            Path(p).resolve().parent == NOTEBOOKS.resolve()
            and twin.with_suffix(".po").exists()
            and twin.resolve() not in listed
        ):
            twins.append(twin)
    return twins


def main(paths):
    apply_env()
    nbs = [Path(p).with_suffix(".ipynb") for p in paths] or [p.with_suffix(".ipynb") for p in chapter_sources()]
    # and the Chinese twin of each chapter (built from the English and its catalog: an English edit shows there
    # as English with the stale marker until translated, scripts/i18n.py)
    nbs += zh_twins(nbs)
    failed = False
    for path in nbs:
        ok, dt = regen(path.resolve())
        failed |= not ok
        print(f"{path.name}: {dt:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
