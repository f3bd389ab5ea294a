"""Translations follow, they do not block (issue 25): an English cell whose Chinese entry is missing, empty, fuzzy or
written for an older English text is shown in the Chinese edition as the English text with the marker
「（此段译文待更新，先显示英文原文）」 (scripts/i18n.py, STALE_MARK), never as the outdated Chinese; `make
translate-status` lists exactly those cells. So an English edit alone passes `make test`, and nothing drifts
silently: the marker appears exactly where the catalog has no current translation.
"""

from __future__ import annotations

import io
import re

import nbformat
import pytest

from scripts import i18n

ROOT = i18n.ROOT
CHAPTERS = [p for p in i18n.catalogs() if p.parent == i18n.ZH_NOTEBOOKS]
SETS = [p for p in i18n.catalogs() if p.parent == i18n.ZH_EXERCISES]
MARK = i18n.STALE_MARK


def _ids(paths):
    return [p.relative_to(ROOT).as_posix() for p in paths]


def _stale_cells(po, units):
    """Cell indices the catalog has no current translation for (Markdown cells only), from entry_problems."""
    cells = [u for u in units if u.msgctxt is None or u.msgctxt.startswith("copy")]
    problems = i18n.entry_problems(po, cells, "x.po")
    return sorted({int(re.search(r":cell (\d+)", p).group(1)) for p in problems})


def _check_edition(english_cells, zh_cells, po, units, exercises):
    """Every Markdown cell is either its current translation (no marker) or its English text with the marker."""
    table = i18n.translations(po)
    stale = set(_stale_cells(po, units))
    seen = {}
    for i, (en, zh) in enumerate(zip(english_cells, zh_cells)):
        if en.cell_type != "markdown" or not en.source.strip():
            continue
        n = seen[en.source] = seen.get(en.source, 0) + 1
        key = (None if n == 1 else f"copy {n}", en.source)
        if key in table:
            assert MARK not in zh.source, f"cell {i}: a current translation carries the stale marker"
            assert zh.source == i18n._links(table[key], exercises), f"cell {i}: not its current translation"
        else:
            assert zh.source == i18n.mark_stale(en.source, exercises), (
                f"cell {i}: no current translation, so the English text with the marker (never the old Chinese): "
                "`make regen NB=...` / `make release` rebuilds it"
            )
    shown = [i for i, c in enumerate(zh_cells) if c.cell_type == "markdown" and MARK in c.source]
    return shown, stale


@pytest.mark.parametrize("po", CHAPTERS, ids=_ids(CHAPTERS))
def test_chapter_marker_exactly_where_the_translation_is_stale(po):
    src = i18n.source_of(po)
    english = i18n.chapter_cells(src).cells
    zh = nbformat.read(po.with_suffix(".ipynb"), as_version=4).cells
    assert len(english) == len(zh), "run `make regen NB=notebooks/...` (it rebuilds the Chinese twin)"
    shown, stale = _check_edition(english, zh, i18n.load(po), i18n.units_of(src), exercises=False)
    assert shown == sorted(stale)


@pytest.mark.parametrize("po", SETS, ids=_ids(SETS))
def test_exercise_marker_exactly_where_the_translation_is_stale(po):
    english = nbformat.read(ROOT / "exercises" / po.with_suffix(".ipynb").name, as_version=4).cells
    zh = nbformat.read(po.with_suffix(".ipynb"), as_version=4).cells
    assert len(english) == len(zh), "run `make release` (it rebuilds the Chinese sets)"
    _check_edition(english, zh, i18n.load(po), i18n.units_of(i18n.source_of(po)), exercises=True)
    assert not any(MARK in c.source for c in english), "the marker never reaches the English edition"


def _edited_chapter(monkeypatch, k=2):
    """Chapter 01 with one English sentence of its k-th Markdown cell edited (the catalog untouched)."""
    md = ROOT / "notebooks" / "01_error_and_fitting.md"
    nb = i18n.chapter_cells(md)
    md_cells = [i for i, c in enumerate(nb.cells) if c.cell_type == "markdown"]
    i = md_cells[k]
    old = nb.cells[i].source
    nb.cells[i].source = old.replace(".", ". This sentence is new in English.", 1)
    assert nb.cells[i].source != old
    monkeypatch.setattr(i18n, "chapter_cells", lambda _md: nbformat.from_dict(nb))
    return md, i, nb.cells[i].source


def test_an_english_edit_shows_as_marked_english_and_is_listed(monkeypatch):
    md, i, edited = _edited_chapter(monkeypatch)
    po = i18n.catalog_path(md)
    built = i18n.build_chapter(md)
    marked = [j for j, c in enumerate(built.cells) if MARK in c.source]
    assert marked == [i]
    assert built.cells[i].source == i18n.mark_stale(edited, False)
    old_zh = [e.msgstr for e in i18n.load(po) if e.msgstr and e.msgstr in built.cells[i].source]
    assert not old_zh, "no outdated Chinese shown"
    others = [c for j, c in enumerate(built.cells) if c.cell_type == "markdown" and j != i]
    assert all(i18n.CJK.search(c.source) for c in others), "every other cell keeps its translation"
    problems = i18n.problems_of(po)
    assert len(problems) == 1 and f"cell {i} " in problems[0]
    buf = io.StringIO()
    listed = i18n.status(out=buf)
    assert any(f"01_error_and_fitting.md:cell {i} " in line for line in listed)
    assert f"01_error_and_fitting.md:cell {i} " in buf.getvalue()


def test_a_fuzzy_entry_is_never_shown(monkeypatch):
    """After `make translate-update` the edited cell's entry is fuzzy (the old Chinese kept for the translator):
    the build still shows the marked English, and once translated the marker goes."""
    md, i, edited = _edited_chapter(monkeypatch)
    po = i18n.merge(i18n.load(i18n.catalog_path(md)), i18n.units_of(md))
    entry = next(e for e in po if e.msgid == edited)
    assert "fuzzy" in entry.flags and entry.msgstr
    table = i18n.translations(po)
    nb = i18n.chapter_cells(md)
    i18n._translate_cells(nb.cells, None, table, exercises=False)
    assert nb.cells[i].source == i18n.mark_stale(edited, False)
    entry.msgstr, entry.flags = "新的译文。", []
    nb = i18n.chapter_cells(md)
    i18n._translate_cells(nb.cells, None, i18n.translations(po), exercises=False)
    assert nb.cells[i].source == "新的译文。" and not any(MARK in c.source for c in nb.cells)


def test_warn_lists_the_stale_cells(monkeypatch):
    md, i, _ = _edited_chapter(monkeypatch)
    buf = io.StringIO()
    assert i18n.warn_stale([str(md)], out=buf) == 1
    assert "warning" in buf.getvalue() and f"cell {i} " in buf.getvalue()
