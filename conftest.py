"""How nbval checks the stored notebooks (``pytest notebooks --nbval``; the Makefile's `make test` and `make check`).

The Chinese chapters (notebooks/zh/) have the English code cells (tests/test_i18n.py checks it: only the set-up
call adds ``lang="zh"``), so they compute what the English ones compute; only a cell whose printed text is
translated (an explorer, a readout, a caption) can come out differently. nbval therefore runs the English chapters
only, and in an English chapter's kernel each such cell runs a second time in Chinese, just before its English run:

    Cell 20 · zh on    evallib.i18n.set_language("zh")                  (no output)
    Cell 20 · zh       the zh notebook's cell, checked against the zh notebook's stored outputs
    Cell 20 · zh off   evallib.i18n.set_language("en")
    Cell 20            the English cell, checked against the English stored outputs (it leaves the state a plain
                       English run leaves, so nothing after it can tell)

Such a cell is one whose stored outputs differ between the editions or that shows an explorer. A cell that changed
state on its second run would fail the English cells after it, never pass silently. tests/test_i18n.py ties the
rest of each zh notebook to the English one (same code; every output the English one, numbers in order).

``EVALLIB_NBVAL_ZH=all`` instead runs every Chinese chapter whole through nbval (the slow, complete check);
``=none`` leaves the Chinese out (`make check`).
"""

import functools
import os
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent
ZH = ROOT / "notebooks" / "zh"
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
VEGALITE = "application/vnd.vegalite.v5+json"
SWITCH = '__import__("evallib").i18n.set_language("{}")'


def _mode():
    return os.environ.get("EVALLIB_NBVAL_ZH", "translated")


def _plain(outputs):
    return [{k: v for k, v in o.items() if k != "execution_count"} for o in outputs]


@functools.cache
def translated_cells(name):
    """{code cell number: the zh notebook's cell} for the cells of chapter ``name`` that run again in Chinese."""
    import nbformat

    en = [c for c in nbformat.read(ROOT / "notebooks" / name, as_version=4).cells if c.cell_type == "code"]
    zh = [c for c in nbformat.read(ZH / name, as_version=4).cells if c.cell_type == "code"]
    if len(en) != len(zh):  # tests/test_i18n.py says which cells differ
        return {}
    return {
        n: b
        for n, (a, b) in enumerate(zip(en, zh))
        if _plain(a.get("outputs", [])) != _plain(b.get("outputs", []))
        or any(VEGALITE in o.get("data", {}) for o in a.get("outputs", []))
    }


def pytest_ignore_collect(collection_path, config):
    path = Path(collection_path)
    if path.suffix == ".ipynb" and path.parent == ZH and _mode() != "all":
        return True
    return None


def pytest_collection_modifyitems(session, config, items):
    if _mode() != "translated":
        return
    try:
        import nbformat
        from nbval.plugin import IPyNbCell
    except ImportError:
        return
    out = []
    for item in items:
        path = Path(str(getattr(item, "fspath", "")))
        if isinstance(item, IPyNbCell) and path.parent == ROOT / "notebooks" and (ZH / path.name).exists():
            zh = translated_cells(path.name).get(item.cell_num)
            if zh is not None:
                n = item.cell_num
                for label, cell in (
                    ("zh on", nbformat.v4.new_code_cell(SWITCH.format("zh"))),
                    ("zh", zh),
                    ("zh off", nbformat.v4.new_code_cell(SWITCH.format("en"))),
                ):
                    options = defaultdict(bool, item.options)
                    out.append(
                        IPyNbCell.from_parent(
                            item.parent, name=f"Cell {n} · {label}", cell_num=n, cell=cell, options=options
                        )
                    )
        out.append(item)
    items[:] = out
