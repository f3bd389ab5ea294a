"""evallib speaks through one gettext catalog (issue 27): evallib/locale/zh/LC_MESSAGES/evallib.po, whose msgids
Babel extracts from the code (scripts/evallib_catalog.py). A missing translation shows the English and is listed by
`make translate-status`; these tests check what must never happen: a translation that changes a number or a
format field, an entry nothing says, a sentence that no longer reaches the learner in Chinese."""

from __future__ import annotations

import re

import polib
import pytest

import evallib as el
from evallib import grading_messages
from scripts import evallib_catalog as cat

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def po():
    return polib.pofile(str(cat.catalog_path("zh")))


@pytest.fixture(scope="module")
def extracted():
    return cat.extract()


def _plain_numbers(text):
    """The literal numbers of a template, format fields removed (0 in H0, 2 in F1, 95 in 95 %)."""
    return sorted(re.findall(r"\d+", re.sub(r"\{[^{}]*(\{[^{}]*\}[^{}]*)?\}", "", text)))


def test_every_entry_keeps_the_fields_and_the_numbers(po):
    for e in po:
        if e.msgstr:
            assert cat.fields(e.msgid) == cat.fields(e.msgstr), e.msgid
            assert _plain_numbers(e.msgid) == _plain_numbers(e.msgstr), e.msgid


def test_no_obsolete_or_dead_entries(po, extracted):
    assert not po.obsolete_entries(), "run make translate-update (it drops #~ entries)"
    dead = sorted(e.msgid for e in po if e.msgid not in extracted)
    assert not dead, f"catalog entries that no code marks (ui/say/gettext/_/N_): {dead}"


def test_every_marked_string_is_translated(po, extracted):
    """Not a blocker for an English edit in a chapter: this is evallib's own UI, whose strings change rarely and
    whose Chinese the maintainers write with the code (make translate-status lists what is missing)."""
    assert cat.problems("zh") == []


def test_the_learner_gets_the_chinese(po):
    with el.i18n.language("zh"):
        assert grading_messages.text("too_large", name="q", value=2) == "q = 2 偏大。"
        for key, en in grading_messages.MESSAGES.items():
            assert grading_messages.text(key, **{f.split(":")[0]: 1 for f in cat.fields(en)})
        translated = [e for e in po if e.msgstr and CJK.search(e.msgstr)]
        assert len(translated) > 100
        for e in translated:
            assert el.i18n.gettext(e.msgid) == e.msgstr
    assert el.i18n.gettext(translated[0].msgid) == translated[0].msgid  # English stays English


def test_a_fuzzy_or_missing_entry_shows_the_english(tmp_path, monkeypatch):
    po = polib.POFile()
    po.append(polib.POEntry(msgid="degree", msgstr="多项式次数"))
    po.append(polib.POEntry(msgid="noise", msgstr="噪声", flags=["fuzzy"]))
    (tmp_path / "zh" / "LC_MESSAGES").mkdir(parents=True)
    po.save(str(tmp_path / "zh" / "LC_MESSAGES" / "evallib.po"))
    monkeypatch.setattr(el.i18n, "LOCALE_DIR", tmp_path)
    el.i18n.reload_catalogs()
    try:
        with el.i18n.language("zh"):
            assert el.i18n.ui("degree") == "多项式次数"
            assert el.i18n.ui("noise") == "noise"  # fuzzy: the English, never a stale translation
            assert el.i18n.ui("bias²") == "bias²"  # missing
    finally:
        monkeypatch.undo()
        el.i18n.reload_catalogs()
