"""Every chapter notebook follows the course's layout and is stored ready for nbval."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SETUP = ("import numpy as np\nimport matplotlib.pyplot as plt\nimport evallib as el\n"
         "rng = el.setup_notebook(seed=0)")


def test_chapters_01_and_02_exist():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_error_and_fitting.ipynb", "02_evaluation_methods.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_layout(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb["cells"]
    title = "".join(cells[0]["source"])
    number = path.name[:2]
    assert cells[0]["cell_type"] == "markdown"
    assert re.match(rf"# {number} · .+（.+）", title), f"title cell must read '# {number} · Topic（中文）'"
    assert "西瓜书" in title or "notes" in title.lower(), "title cell names the book section or the source note"
    code = [c for c in cells if c["cell_type"] == "code"]
    assert "".join(code[0]["source"]).strip() == SETUP, "the first code cell is the standard setup"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
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
