"""Every chapter is one text source that opens as a notebook, follows the course's layout, and is stored (with its
outputs) in agreement with that source and ready for nbval on any CPU.

Generic over the folder: a new chapter ``notebooks/NN_topic.md`` (and, later, the Chinese edition in
``notebooks/zh/``) is checked without editing this file.
"""

import json
import re
from pathlib import Path

import jupytext
import nbformat
import pytest

from scripts.nbsettings import chapter_sources, stored_notebooks

ROOT = Path(__file__).resolve().parent.parent

SOURCES = chapter_sources()  # notebooks/NN_topic.md
STORED = stored_notebooks()  # notebooks/**/NN_topic.ipynb (every edition)
CHAPTERS = [p for p in STORED if p.parent == ROOT / "notebooks"]
EXERCISE_SOURCES = sorted(
    p for p in (ROOT / "exercises").rglob("*") if p.suffix in (".md", ".ipynb") and ".ipynb_checkpoints" not in p.parts
)
SETUP = "import numpy as np\nimport matplotlib.pyplot as plt\nimport evallib as el\nrng = el.setup_notebook(seed=0)"
MAX_CODE_LINES = 15
# A printed negative zero: -0, -0., -0.0, -0.0000, -0e+00 (also with a Unicode minus), not -0.0002.
NEGATIVE_ZERO = re.compile(r"(?<![\w.])[-\u2212]0(?:\.0*)?(?:[eE][-+]?0+)?(?![\d]|\.\d)")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _name(p):
    return str(p.relative_to(ROOT))


def _cell_name(i, cell):
    first = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
    return f"cell {i} ({first!r})"


def test_chapters_exist_and_each_has_its_text_source():
    assert len(SOURCES) >= 11
    assert {"01_error_and_fitting.md", "02_evaluation_methods.md"} <= {p.name for p in SOURCES}
    assert {p.stem for p in CHAPTERS} == {p.stem for p in SOURCES}, (
        "every notebooks/NN_topic.ipynb has its notebooks/NN_topic.md and the other way round (make regen NB=...)"
    )


def test_jupytext_pairs_the_chapters_and_not_other_editions():
    from jupytext.config import find_jupytext_configuration_file, load_jupytext_configuration_file

    def formats(folder):
        cfg = load_jupytext_configuration_file(find_jupytext_configuration_file(str(ROOT / folder)))
        return ",".join(cfg.formats) if isinstance(cfg.formats, (list, tuple)) else cfg.formats

    assert formats("notebooks") == "ipynb,md:myst"
    assert formats("notebooks/zh") == "ipynb", "notebooks/zh/ is built from the English source and a catalog"


# That each stored notebook agrees with its text source is `make verify` (scripts/verify_notebooks.py), which
# `make test` and `make check` run first: not repeated here.


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_text_source_reads_as_myst_with_a_stable_header(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\njupytext:\n"), "a MyST header (save through jupytext, or copy another chapter)"
    assert "format_name: myst" in text
    assert "jupytext_version" not in text and "slideshow" not in text, "volatile metadata in the text source"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_layout(path):
    cells = jupytext.read(path).cells
    title = cells[0].source
    number = path.name[:2]
    assert cells[0].cell_type == "markdown"
    assert re.match(rf"# {number} · .+（.+）", title), f"title cell must read '# {number} · Topic（中文）'"
    assert "西瓜书" in title or "notes" in title.lower(), "title cell names the book section or the source note"
    code = [c for c in cells if c.cell_type == "code"]
    assert code[0].source.strip() == SETUP, "the first code cell is the standard setup"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_code_cells_are_short(path):
    nb = jupytext.read(path) if path.suffix == ".md" else nbformat.read(path, as_version=4)
    long = [
        f"{_cell_name(i, c)}: {len(c.source.splitlines())} lines"
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and len(c.source.splitlines()) > MAX_CODE_LINES
    ]
    assert not long, f"code cells longer than {MAX_CODE_LINES} lines (move the work into evallib): {long}"


@pytest.mark.parametrize("path", STORED, ids=_name)
def test_stored_outputs_are_clean(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    assert all(c["execution_count"] for c in code), "every code cell was executed (run `make regen`)"
    counts = [c["execution_count"] for c in code]
    assert counts == sorted(counts), "cells were executed top to bottom"
    for c in code:
        for o in c["outputs"]:
            assert o["output_type"] != "error", f"stored error in cell: {''.join(c['source'])[:60]}"
            assert o.get("name") != "stderr", f"stderr output (a warning?) in: {''.join(c['source'])[:60]}"
            text = "".join(o.get("data", {}).get("text/plain", ""))
            assert " at 0x" not in text, "a memory address in an output: nbval would fail on another run"


def _printed_texts(cell):
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            yield o.get("text", "")
        for mime in ("text/plain", "text/markdown", "text/latex"):
            if mime in o.get("data", {}):
                yield o["data"][mime]


@pytest.mark.parametrize("path", STORED, ids=_name)
def test_no_negative_zero_is_printed(path):
    """-0.0000 is a rounding residue whose sign depends on the CPU's BLAS kernel: nbval fails elsewhere."""
    nb = nbformat.read(path, as_version=4)
    found = [
        f"{_cell_name(i, c)}: ...{t[max(0, m.start() - 30) : m.end() + 10]!r}..."
        for i, c in enumerate(nb.cells)
        for t in _printed_texts(c)
        for m in NEGATIVE_ZERO.finditer(t)
    ]
    assert not found, f"{_name(path)} prints a negative zero (round, then add 0.0; CONTRIBUTING.md): {found}"


@pytest.mark.parametrize(
    "text,hit",
    [
        ("optimism -0.0000", True),
        ("[-0.   1. ]", True),
        ("x = -0", True),
        ("−0.00 here", True),
        ("-0.0002", False),
        ("0.0000", False),
        ("+0.0000", False),
        ("range 2-0.0", False),
        ("-0.5", False),
        ("-10.0", False),
        ("1e-05", False),
    ],
)
def test_negative_zero_pattern(text, hit):
    assert bool(NEGATIVE_ZERO.search(text)) == hit


@pytest.mark.parametrize("path", [*SOURCES, *STORED, *EXERCISE_SOURCES], ids=_name)
def test_no_control_characters_in_sources(path):
    """A "\\b" in a non-raw string is a backspace: `$\\beta$` would lose its backslash (and yaml rejects it)."""
    if path.suffix == ".md":
        sources = [("file", path.read_text(encoding="utf-8"))]
    else:
        nb = nbformat.read(path, as_version=4)
        sources = [(_cell_name(i, c), c.source) for i, c in enumerate(nb.cells)]
    bad = [
        f"{where}: {m.group()!r} at ...{s[max(0, m.start() - 20) : m.start()]!r}"
        for where, s in sources
        for m in CONTROL.finditer(s)
    ]
    assert not bad, f"control characters in {_name(path)}: {bad}"


def test_site_and_slides_honour_the_cell_tags():
    """hide-input/remove-input show only the output, remove-cell drops the cell (the HTML edition and the decks)."""
    from nbconvert import SlidesExporter

    from scripts import build_site
    from scripts.slides import hidden_cells_config

    nb = nbformat.v4.new_notebook()
    hidden = nbformat.v4.new_code_cell("hidden_input_xyz = 1", metadata={"tags": ["hide-input"]})
    hidden.outputs = [nbformat.v4.new_output("stream", text="visible_output_xyz\n")]
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 99 · T"),
        hidden,
        nbformat.v4.new_code_cell("removed_cell_xyz = 2", metadata={"tags": ["remove-cell"]}),
        nbformat.v4.new_code_cell("shown_code_xyz = 3"),
    ]
    site, _ = build_site._exporter().from_notebook_node(
        nb, resources={"metadata": {"name": "t"}, "evallib": {"static": "_static", "mathjax_config": "", "nav": ""}}
    )
    deck, _ = SlidesExporter(config=hidden_cells_config()).from_notebook_node(nb)
    for html in (site, deck):
        assert "visible_output_xyz" in html and "shown_code_xyz" in html
        assert "hidden_input_xyz" not in html and "removed_cell_xyz" not in html


def test_a_sentence_edited_in_jupyterlab_reaches_the_text_source(tmp_path, monkeypatch):
    """JupyterLab saves through jupytext's contents manager: the edit lands in the .md (what make regen reads),
    the stored outputs stay in the .ipynb, and the header of the .md does not churn."""
    import shutil

    from jupyter_server.services.contents.largefilemanager import LargeFileManager
    from jupytext.sync_contentsmanager import build_sync_jupytext_contents_manager_class

    from scripts import nbsettings, regen_notebooks

    src = SOURCES[0]
    for name in (src.name, src.with_suffix(".ipynb").name, "jupytext.toml"):
        shutil.copy(ROOT / "notebooks" / name, tmp_path / name)
    cm = build_sync_jupytext_contents_manager_class(LargeFileManager)(root_dir=str(tmp_path))
    model = cm.get(src.with_suffix(".ipynb").name)
    cell = next(c for c in model["content"].cells if c.cell_type == "markdown" and "**Goal" in c.source)
    cell.source += "\n\nA sentence added in JupyterLab."
    cm.save(model, src.with_suffix(".ipynb").name)
    text = (tmp_path / src.name).read_text(encoding="utf-8")
    assert "A sentence added in JupyterLab." in text
    assert text.split("\n---\n")[0] == src.read_text(encoding="utf-8").split("\n---\n")[0], "the header churned"
    stored = nbformat.read(tmp_path / src.with_suffix(".ipynb").name, as_version=4)
    assert any(c.get("outputs") for c in stored.cells), "outputs kept in the .ipynb"
    monkeypatch.setattr(nbsettings, "NOTEBOOKS", tmp_path)  # make regen reads the edited text source
    nb = regen_notebooks.source_notebook(tmp_path / src.with_suffix(".ipynb").name)
    assert any("A sentence added in JupyterLab." in c.source for c in nb.cells)


def test_an_explorers_stored_text_does_not_show_the_last_bits_of_a_float():
    """An explorer's repr is its text/plain output (nbval compares it): np.log2(5) must not print 16 digits."""
    import numpy as np

    import evallib as el

    y, s = el.data.load_ten_melons()
    text = repr(el.widgets.cost_explorer(y, {"melons": s}, log2_cost_ratio=np.log2(5)))
    assert "log2_cost_ratio=2.32193" in text and "2.3219280" not in text
