"""Slide metadata for the chapter notebooks (RISE in JupyterLab, nbconvert ``--to slides``).

:func:`add_slide_metadata` is a pure, deterministic function of the cells: ``make regen``
(scripts/regen_notebooks.py) applies it after execution, so every regeneration keeps the slides. Rules:

* the title cell (``# NN · ...``) opens the deck: ``slide``;
* the set-up cell (``el.setup_notebook(``) is ``skip``;
* a markdown cell with a ``## `` heading starts a new ``slide`` (one section, one idea);
  a ``### `` heading starts a ``subslide`` (below it, reveal's vertical direction);
* an explorer cell (``el.widgets.<name>_explorer(``) gets a slide of its own; what follows it starts a
  subslide unless it opens a section anyway;
* a long section is cut into subslides where the next cell would overflow a slide that is at least half full
  (an estimate of its height in text lines: source, printed output, about 16 lines per figure; a slide that
  is still too tall scrolls); an **In the notes:** remark that fits is a ``fragment`` (it appears on the next
  key press);
* everything else is ``-`` (continues the current slide).
"""

from __future__ import annotations

import copy
import math
import re

SLIDE_LINES = 26  # what fits on a 960×700 reveal slide at the deck's font sizes
FIGURE_LINES = 16  # a figure is shown at most 400 px high
LINE_CHARS = 95

_EXPLORER = re.compile(r"\bel\.widgets\.\w+_explorer\(")
_H1 = re.compile(r"^# ", re.M)
_H2 = re.compile(r"^## ", re.M)
_H3 = re.compile(r"^### ", re.M)


def _text_lines(text: str, width: int = LINE_CHARS) -> int:
    return sum(max(1, math.ceil(len(line) / width)) for line in text.split("\n"))


def cell_height(cell) -> int:
    """Estimated height of a cell on a slide, in text lines (input plus stored outputs)."""
    if cell.cell_type == "markdown":
        return _text_lines(cell.source) + 1
    if cell.cell_type != "code":
        return _text_lines(cell.source)
    h = _text_lines(cell.source) + 1
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            h += min(_text_lines(out.get("text", "")), 20)
        elif out.get("output_type") in ("execute_result", "display_data"):
            data = out.get("data", {})
            if "image/png" in data or "image/svg+xml" in data or "application/vnd.jupyter.widget-view+json" in data:
                h += FIGURE_LINES
            elif "text/html" in data:
                h += min(data["text/html"].count("<tr"), 20) + 1
            elif "text/plain" in data:
                h += min(_text_lines(data["text/plain"]), 20)
        elif out.get("output_type") == "error":
            h += 10
    return h


def is_setup_cell(cell) -> bool:
    return cell.cell_type == "code" and "el.setup_notebook(" in cell.source


def is_explorer_cell(cell) -> bool:
    return cell.cell_type == "code" and bool(_EXPLORER.search(cell.source))


def slide_types(cells) -> list[str]:
    """The ``slide_type`` of every cell (see the module docstring for the rules)."""
    types: list[str] = []
    used = 0  # lines used on the current (sub)slide
    after_explorer = False
    for cell in cells:
        h = cell_height(cell)
        md = cell.cell_type == "markdown"
        if is_setup_cell(cell):
            types.append("skip")
            continue
        if all(t == "skip" for t in types) or (md and (_H1.search(cell.source) or _H2.search(cell.source))):
            kind = "slide"
            kind = "slide"
        elif is_explorer_cell(cell):
            kind = "slide"
        elif md and _H3.search(cell.source):
            kind = "subslide"
        elif after_explorer:
            kind = "subslide"
        elif used >= SLIDE_LINES // 2 and used + h > SLIDE_LINES:  # never leave a slide less than half full
            kind = "subslide"
        elif md and cell.source.lstrip().startswith("**In the notes"):
            kind = "fragment"
        else:
            kind = "-"
        if kind in ("slide", "subslide"):
            used = 0
        used += h
        after_explorer = is_explorer_cell(cell)
        types.append(kind)
    return types


def add_slide_metadata(nb):
    """Return a copy of ``nb`` whose every cell has ``metadata.slideshow.slide_type`` (RISE / nbconvert).

    Deterministic and idempotent: any slide metadata already there is replaced.
    """
    nb = copy.deepcopy(nb)
    for cell, kind in zip(nb.cells, slide_types(nb.cells)):
        cell.metadata["slideshow"] = {"slide_type": kind}
    return nb


# MyST / Jupyter Book cell tags in the chapters' text sources, honoured by `make site` and `make slides`:
#   remove-cell   the whole cell is left out;   remove-input / hide-input   only its output is shown
#   (a static page has no toggle: hidden input is left out, as on a slide);   remove-output   only its code.
REMOVE_CELL_TAGS = {"remove-cell"}
REMOVE_INPUT_TAGS = {"remove-input", "hide-input"}
REMOVE_OUTPUT_TAGS = {"remove-output", "hide-output"}


def hidden_cells_config():
    """nbconvert configuration (TagRemovePreprocessor) that applies the cell tags above to an exporter."""
    from traitlets.config import Config

    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = set(REMOVE_CELL_TAGS)
    c.TagRemovePreprocessor.remove_input_tags = set(REMOVE_INPUT_TAGS)
    c.TagRemovePreprocessor.remove_all_outputs_tags = set(REMOVE_OUTPUT_TAGS)
    # an explorer's Vega-Lite spec first (the templates draw it in the page), before its text/plain readout
    c.NbConvertBase.display_data_priority = [
        "application/vnd.vegalite.v5+json",
        "application/vnd.jupyter.widget-view+json",
        "application/javascript",
        "text/html",
        "text/markdown",
        "image/svg+xml",
        "text/vnd.mermaid",
        "text/latex",
        "image/png",
        "image/jpeg",
        "text/plain",
    ]
    return c
