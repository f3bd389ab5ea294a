"""Which stored notebooks nbval runs (``pytest notebooks --nbval``; the Makefile's `make test` and `make check`).

The Chinese chapters (notebooks/zh/) have the English code cells (tests/test_i18n.py checks it) and their stored
outputs equal the English ones cell by cell (tests/test_i18n.py, test_zh_outputs_equal_english_cell_by_cell), which
nbval checks for the English notebooks. Only a cell whose printed text is translated (an explorer's title, a
readout) can come out differently in Chinese, so nbval runs a Chinese chapter only when one of its stored outputs
holds Chinese text; ``EVALLIB_NBVAL_ZH=all`` runs every one, ``=none`` none (``make check``).
"""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def translated_outputs(ipynb):
    """Indices of the code cells of ``ipynb`` whose stored outputs hold Chinese text."""
    import nbformat

    nb = nbformat.read(ipynb, as_version=4)
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        texts = [o.get("text", "") for o in cell.get("outputs", [])]
        texts += [v for o in cell.get("outputs", []) for v in o.get("data", {}).values() if isinstance(v, str)]
        if any(CJK.search(t) for t in texts):
            found.append(i)
    return found


def pytest_ignore_collect(collection_path, config):
    path = Path(collection_path)
    if path.suffix != ".ipynb" or path.parent != ROOT / "notebooks" / "zh":
        return None
    mode = os.environ.get("EVALLIB_NBVAL_ZH", "translated")
    if mode == "all":
        return None
    if mode == "none":
        return True
    return True if not translated_outputs(path) else None
