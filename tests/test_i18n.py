"""The Chinese edition (issue 16): one source, two languages, no drift.

For every chapter and exercise set that has a catalog (notebooks/zh/*.po, exercises/zh/*.po; the others are
listed as English-only by `make translate-status`, so the course is translated chapter by chapter):
- every English Markdown cell has a current translation: none missing, none fuzzy, and an English cell changed
  after its translation fails here, naming the cell;
- the stored Chinese notebook is what scripts/i18n.py builds (its code cells are the English ones, the set-up
  call may add lang="zh");
- its stored outputs equal the English notebook's, cell by cell (text outputs; an explorer's repr differs only by
  its title, translated through evallib.i18n). The cells whose outputs are translated run again in Chinese in the
  English chapters' nbval kernels (conftest.py), checked against the zh notebook's stored outputs.
And evallib speaks the learner's language: explorer titles and labels, check messages, hints, known-mistake
messages (in-process; the autograder's run is tests/test_grading.py's one `make autograde`).
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import nbformat
import numpy as np
import polib
import pytest

import evallib as el
from evallib import grading_messages
from evallib.grading import exercise_set
from evallib.i18n import language
from scripts import i18n

ROOT = Path(__file__).resolve().parent.parent

CATALOGS = i18n.catalogs()
CHAPTER_CATALOGS = [p for p in CATALOGS if p.parent == i18n.ZH_NOTEBOOKS]
EXERCISE_CATALOGS = [p for p in CATALOGS if p.parent == i18n.ZH_EXERCISES]
ids = lambda paths: [p.relative_to(ROOT).as_posix() for p in paths]  # noqa: E731


# ------------------------------------------------------------------------------- pairing and staleness
def test_pilot_exists():
    """Chapter 01 and exercise set 01 are translated (the pilot); more catalogs only add rows below."""
    assert i18n.ZH_NOTEBOOKS / "01_error_and_fitting.po" in CHAPTER_CATALOGS
    assert i18n.ZH_EXERCISES / "01_error_and_fitting.po" in EXERCISE_CATALOGS


# A stale or missing translation is shown as the marked English, never as current: tests/test_translation_follows.py.
@pytest.mark.parametrize("po", CATALOGS, ids=ids(CATALOGS))
def test_merging_the_catalog_loses_no_translation(po):
    """`make translate-update` on the committed catalog keeps every translation (current, fuzzy or obsolete), and
    merging twice changes nothing more (an English edit may leave the committed catalog unmerged: that is allowed)."""
    before = i18n.load(po)
    after = i18n.merge(before, i18n.units_of(i18n.source_of(po)))
    assert {e.msgstr for e in before if e.msgstr} <= {e.msgstr for e in after if e.msgstr}
    again = i18n.merge(after, i18n.units_of(i18n.source_of(po)))
    key = lambda cat: [(e.msgctxt, e.msgid, e.msgstr, e.obsolete, tuple(e.flags)) for e in cat]  # noqa: E731
    assert key(again) == key(after)


def test_english_edit_makes_the_cell_fuzzy_and_fails():
    """An English sentence edited after its translation: before the merge the check names the cell as changed;
    after `make translate-update` the entry is fuzzy with the old English as previous msgid, and still fails."""
    md = ROOT / "notebooks" / "01_error_and_fitting.md"
    po = i18n.load(i18n.catalog_path(md))
    units = i18n.chapter_units(md)
    current = i18n.translations(po)  # only cells translated now: an English edit elsewhere must not break this test
    units = [u for u in units if u.key in current]
    k = next((i for i, u in enumerate(units) if "slip" in u.msgid), 0)
    old = units[k].msgid
    units[k].msgid = old.replace("slip", "typo") if "slip" in old else old + " Edited."
    assert units[k].msgid != old
    stale = i18n.entry_problems(po, units, "x.po")
    assert len(stale) == 1 and f"cell {units[k].where.rsplit(' ', 1)[1]}" in stale[0] and "changed" in stale[0]
    merged = i18n.merge(po, units)
    entry = next(e for e in merged if e.msgid == units[k].msgid)
    assert "fuzzy" in entry.flags and entry.previous_msgid == old and entry.msgstr  # the old Chinese kept
    assert old in [e.msgid for e in merged if e.obsolete]  # the old English kept as an obsolete entry
    after = i18n.entry_problems(merged, units, "x.po")
    assert len(after) == 1 and "fuzzy" in after[0]
    # a new cell gets an empty entry, and an empty entry fails too
    units.append(i18n.Unit("A brand-new paragraph about nothing in particular at all.", None, "x.md:cell 99"))
    merged = i18n.merge(merged, units)
    assert any(e.msgid == units[-1].msgid and e.msgstr == "" for e in merged)
    assert any("cell 99 has no translation" in p for p in i18n.entry_problems(merged, units, "x.po"))


def test_merge_round_trips_through_a_file(tmp_path):
    """What polib writes, polib reads back: the fuzzy flag and previous msgid survive a save (what a translator sees)."""
    po = polib.POFile(wrapwidth=0)
    po.append(polib.POEntry(msgid="Old text of a cell.", msgstr="旧的译文。"))
    merged = i18n.merge(po, [i18n.Unit("Old text of the cell.", None, "a.md:cell 3")])
    merged.save(str(tmp_path / "a.po"))
    text = (tmp_path / "a.po").read_text(encoding="utf-8")
    assert "#, fuzzy" in text and '#| msgid "Old text of a cell."' in text and "#: a.md:3" in text
    again = polib.pofile(str(tmp_path / "a.po"))
    assert [(e.msgid, e.msgstr, e.flags) for e in again if not e.obsolete] == [
        ("Old text of the cell.", "旧的译文。", ["fuzzy"])
    ]
    assert [(e.msgid, e.msgstr) for e in again.obsolete_entries()] == [("Old text of a cell.", "旧的译文。")]


# ------------------------------------------------------------------------------- built notebooks
@pytest.mark.parametrize("po", CHAPTER_CATALOGS, ids=ids(CHAPTER_CATALOGS))
def test_zh_chapter_is_what_the_build_writes(po):
    stored = nbformat.read(po.with_suffix(".ipynb"), as_version=4)
    built = i18n.build_chapter(i18n.source_of(po))
    cells = lambda nb: [(c.cell_type, c.source, tuple(c.metadata.get("tags", ()))) for c in nb.cells]  # noqa: E731
    assert cells(stored) == cells(built), "run `make translate` (or make regen NB=notebooks/zh/...)"
    assert stored.metadata.get("evallib") == {"lang": "zh"}


def test_zh_exercises_are_what_the_build_writes(tmp_path):
    """Every Chinese exercise set, built as `make release` builds it (one nbstripout run for all)."""
    from scripts.nbsettings import committed_bytes  # what git holds (a learner's saved copy is theirs)

    fresh = i18n.write_exercises(
        [(i18n.source_of(po), tmp_path / po.with_suffix(".ipynb").name) for po in EXERCISE_CATALOGS]
    )
    stale = [
        po.name
        for po, f in zip(EXERCISE_CATALOGS, fresh)
        if f.read_bytes() != committed_bytes(po.with_suffix(".ipynb"))
    ]
    assert EXERCISE_CATALOGS and not stale, f"{stale}: run `make release` (or `make translate`)"


def _english_and_zh():
    out = []
    for po in CHAPTER_CATALOGS:
        out.append(
            (
                nbformat.read(ROOT / "notebooks" / po.with_suffix(".ipynb").name, as_version=4),
                nbformat.read(po.with_suffix(".ipynb"), as_version=4),
                po.name,
            )
        )
    for po in EXERCISE_CATALOGS:
        out.append(
            (
                nbformat.read(ROOT / "exercises" / po.with_suffix(".ipynb").name, as_version=4),
                nbformat.read(po.with_suffix(".ipynb"), as_version=4),
                po.name,
            )
        )
    return out


def test_code_cells_identical_to_english():
    for en, zh, name in _english_and_zh():
        assert not i18n.code_problems(en.cells, zh.cells, name)
        n_md = sum(c.cell_type == "markdown" for c in en.cells)
        translated = sum(a.source != b.source for a, b in zip(en.cells, zh.cells) if a.cell_type == "markdown")
        assert translated == n_md, f"{name}: {n_md - translated} Markdown cell(s) still English"


def test_code_check_catches_a_changed_cell():
    en, zh, name = _english_and_zh()[0]
    zh = nbformat.from_dict(zh)
    i = next(i for i, c in enumerate(zh.cells) if c.cell_type == "code" and "setup_notebook" not in c.source)
    zh.cells[i].source += "\nprint('hi')"
    assert i18n.code_problems(en.cells, zh.cells, name) == [f"{name}: code cell {i} differs from the English source"]
    j = next(i for i, c in enumerate(zh.cells) if "setup_notebook" in c.source)
    zh.cells[j].source = zh.cells[j].source.replace('lang="zh"', 'lang="zh", seed=1')
    assert len(i18n.code_problems(en.cells, zh.cells, name)) == 2  # only adding lang="zh" is allowed


def _texts(cell):
    back = {v: k for k, v in el.i18n._catalog("zh").items()}
    out = []
    for o in cell.get("outputs", []):
        if o.output_type == "stream":
            out.append((o.name, o.text))
        elif o.output_type in ("execute_result", "display_data"):
            text = o.data.get("text/plain", "")
            text = re.sub(
                r"""Explorer\(('[^']*'|"[^"]*")""",  # repr() of the title, in the English form
                lambda m: "Explorer(" + repr(back.get(m.group(1)[1:-1], m.group(1)[1:-1])),
                text,
            )
            if "application/vnd.vegalite.v5+json" in o.data:
                text = tuple(_numbers(text))  # an explorer's readout speaks the chapter's language: same numbers
            out.append((o.output_type, text, sorted(o.data)))
        else:
            out.append((o.output_type, o.get("ename"), o.get("evalue")))
    return out


@pytest.mark.parametrize("po", CHAPTER_CATALOGS, ids=ids(CHAPTER_CATALOGS))
def test_zh_outputs_equal_english_cell_by_cell(po):
    """Same code, same computations: every printed output is the English one (an explorer's repr up to its
    translated title), so a wrong number cannot appear in one edition only."""
    en = nbformat.read(ROOT / "notebooks" / po.with_suffix(".ipynb").name, as_version=4)
    zh = nbformat.read(po.with_suffix(".ipynb"), as_version=4)
    for i, (a, b) in enumerate(zip(en.cells, zh.cells)):
        if a.cell_type != "code" or "nbval-ignore-output" in a.metadata.get("tags", []):
            continue  # (a cell that measures the machine differs between any two runs)
        ta, tb = _texts(a), _texts(b)
        for k, (x, y) in enumerate(zip(ta, tb)):  # a cut widget repr: the shorter must begin the longer
            if x[0] in ("execute_result", "display_data") and x != y and x[2] == y[2] and x[1].startswith("Explorer("):
                short, long_ = sorted((x[1], y[1]), key=len)
                if long_.startswith(short) and len(short) >= 100:
                    tb[k] = x
        assert len(ta) == len(tb), f"{po.name}: code cell {i} has other outputs than the English notebook"
        for x, y in zip(ta, tb):
            if x == y:
                continue
            # a readout or a result's caption (evallib.i18n.say, e.g. a roofline convention) is Chinese in the zh
            # edition, printed or as a cell's result: same numbers, in order
            same_kind = x[0] == y[0] and x[0] in ("stdout", "execute_result", "display_data")
            assert same_kind and _numbers(x[1]) == _numbers(y[1]) and i18n.CJK.search(y[1]), (
                f"{po.name}: outputs of code cell {i} differ from the English notebook: {x!r} / {y!r}"[:600]
            )


def test_zh_chapter_links_resolve():
    for po in CHAPTER_CATALOGS + EXERCISE_CATALOGS:
        nb = nbformat.read(po.with_suffix(".ipynb"), as_version=4)
        for c in nb.cells:
            if c.cell_type == "markdown":
                for target in re.findall(r"\]\(([^)#\s]+\.ipynb)\)", c.source):
                    assert (po.parent / target).resolve().exists(), f"{po.name}: broken link {target}"


def test_status_lists_untranslated_chapters():
    import io

    buf = io.StringIO()
    i18n.status(out=buf)
    text = buf.getvalue()
    for md in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.md")):
        line = next(ln for ln in text.splitlines() if f" {md.stem} " in f" {ln} " and ln.startswith("notebooks"))
        po = i18n.ZH_NOTEBOOKS / f"{md.stem}.po"
        if po.exists():  # current, stale (= the cells listed below the table), Chinese characters
            assert re.search(rf"\d+\s+{len(i18n.problems_of(po))}\s+\d+$", line), line
        else:
            assert "not started" in line


_CODE = re.compile(r"`[^`]*`|\$[^$]*\$|\]\([^)]*\)|https?://\S+")
_WORD = re.compile(r"[A-Za-z]{3,}")


def _prose_words(text):
    """English words of running text (code spans, formulas and link targets removed)."""
    return _WORD.findall(_CODE.sub(" ", text))


def test_pilot_is_chinese():
    """The pilot carries the book's terms (the checks below hold for every catalog)."""
    md = ROOT / "notebooks" / "01_error_and_fitting.md"
    zh = "\n".join(i18n.translations(i18n.load(i18n.catalog_path(md))).values())
    for term in ("错误率", "精度", "经验误差", "泛化误差", "过拟合", "欠拟合", "留一法", "中文 | English", "笔记勘误"):
        assert term in zh, term


@pytest.mark.parametrize("po", CATALOGS, ids=ids(CATALOGS))
def test_translation_is_chinese_prose_with_the_same_anchors_and_links(po):
    """Chinese prose, not English with a few words: every sentence-long English text has a Chinese translation,
    the catalog has at least one Chinese character per English word, every 式(2.N) anchor and every link target
    of the English cell survives, a chapter opens with its 中英术语表 and an "In the notes" box stays a 勘误 box."""
    cat = i18n.load(po)
    live = [e for e in cat if not e.obsolete and e.msgstr]
    words = cjk = 0
    for e in live:
        where = f"{po.name}: {e.occurrences[0][0] if e.occurrences else ''} {e.msgid[:60]!r}"
        n_words = len(_prose_words(e.msgid))
        words += n_words
        cjk += len(i18n.CJK.findall(e.msgstr))
        if n_words >= 4 and e.msgctxt != "keywords":
            assert i18n.CJK.search(e.msgstr), f"{where}: not translated"
        assert set(re.findall(r"式\(2\.\d+\)", e.msgid)) <= set(re.findall(r"式\(2\.\d+\)", e.msgstr)), where
        links = lambda t: sorted(re.findall(r"\]\(([^)\s]+)\)", t))  # noqa: E731
        assert links(e.msgid) == links(e.msgstr), f"{where}: link targets differ"
        if e.msgid.startswith("**In the notes"):
            assert "勘误" in e.msgstr.split("\n")[0], f"{where}: an In-the-notes box is a 笔记勘误 box"
    assert cjk >= words, f"{po.name}: {cjk} Chinese characters for {words} English words"
    if po.parent == i18n.ZH_NOTEBOOKS:
        first = next((e for e in cat if not e.obsolete and e.msgid.startswith("# ")), None)
        assert first is not None and "| 中文 | English |" in first.msgstr, (
            f"{po.name}: the title cell opens with a 中英术语表"
        )


# ------------------------------------------------------------------------------- evallib speaks the language
def test_setup_notebook_sets_the_language():
    try:
        el.setup_notebook(seed=0, lang="zh")
        assert el.i18n.get_language() == "zh"
        with pytest.raises(ValueError, match="lang"):
            el.setup_notebook(seed=0, lang="fr")
        with pytest.raises(TypeError, match="lang"):
            el.i18n.set_language(None)
    finally:
        el.setup_notebook(seed=0)
    assert el.i18n.get_language() == "en"


def test_explorer_title_and_labels_follow_the_language():
    import json

    en = el.widgets.fitting_explorer(seed=0)
    with language("zh"):
        zh = el.widgets.fitting_explorer(seed=0)
    assert en.title == "Over- and under-fitting" and zh.title == "过拟合与欠拟合"
    en_spec, zh_spec = (json.dumps(e.spec(), ensure_ascii=False) for e in (en, zh))
    for label_en, label_zh in [
        ("degree", "多项式次数"),
        ("training samples", "训练样本数"),
        ("noise std", "噪声标准差"),
    ]:
        assert f'"{label_en}' in en_spec and f'"{label_zh}' in zh_spec
    assert _numbers(zh.text) == _numbers(en.text) and zh.text != en.text  # same computation, Chinese readout
    assert zh.text.startswith("多项式次数") and "训练 MSE" in zh.text


def _numbers(text):
    """The numbers of a text, in order (what must not differ between the editions)."""
    return re.findall(r"[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?", text)


def _fields(template):
    return sorted(f for _, f, _, _ in string.Formatter().parse(template) if f)


def test_check_messages_and_hints_in_chinese():
    import evallib.i18n as i18n_mod

    i18n_mod.reload_catalogs()
    ex = exercise_set("01")
    _, train_err, _ = ex.namespace["cached"]("01q1", ex.namespace["_q1"])
    en = ex.check("q1", train_err)
    with language("zh"):
        zh = ex.check("q1", train_err)
        hint = ex.hint("q1")
        missing = ex.check("q1", ...)
        wrong_choice = ex.check("q4", "A", "A 的训练误差为零，所以它在测试集上一定最好。")
        short = ex.check("q4", "B", "更好")
        right = ex.check("q4", "B", "B 的测试误差更低，A 在训练集上零误差却在测试集上更差，是过拟合。")
        shown = str(zh)  # the outcome is worded when shown, in the language of the moment
        shown_md = zh._repr_markdown_()
    assert en.status == zh.status == "incorrect"
    assert en.message == "that is the error on the training set; evaluate on the test indices."
    assert zh.message == "这是训练集上的误差；请在测试集的下标上评估。"
    # Chinese separators: a full-width colon, no space after 。 (English: "✘ q1: incorrect. that is…")
    assert shown == "✘ q1：不正确。这是训练集上的误差；请在测试集的下标上评估。"
    assert shown_md.endswith("**q1：不正确。**</span>这是训练集上的误差；请在测试集的下标上评估。")
    assert str(en) == "✘ q1: incorrect. that is the error on the training set; evaluate on the test indices."
    assert hint.startswith("**提示（q1）：** 在 `X[train]` 上拟合")
    assert missing.status == "not attempted" and "仍是 `...`" in missing.message
    assert wrong_choice.message == "A 的训练误差为零，测试误差却更高：它把训练数据背了下来。"
    assert short.status == "incorrect" and "至少" in short.message
    assert right.status == "correct"  # a Chinese justification is read with the catalog's Chinese keywords


def test_every_kind_of_check_message_is_chinese():
    """A check's own Incorrect("..."), a message an f-string built (the catalog holds it as a template with
    fields {0}, {1}: the numbers are filled in), and the keyword examples of a justification (Chinese first)."""
    import evallib.i18n as i18n_mod

    i18n_mod.reload_catalogs()
    s05, s06, s01 = exercise_set("05"), exercise_set("06"), exercise_set("01")
    y = np.array([1, 1, 0, 0])
    y_test, proba = s06.namespace["_tumours"]()
    best = min(
        el.metrics.cost_sensitive_error(y_test, (proba >= t).astype(int), cost_fn=5, cost_fp=1)
        for t in np.unique(proba)
    )
    with language("zh"):
        raised = s05.check("q3", np.zeros(4, int), np.linspace(0, 1, 4), np.linspace(0, 1, 4))
        built = s05.check("q3", y, np.array([0.6, 0.4, 0.3, 0.2]), np.array([0.8, 0.6, 0.9, 0.1]))  # A, B swapped
        cost = s06.check("q2", 0.0, best)  # the right minimum, the wrong threshold
        vague = s01.check("q4", "B", "我认为第二个模型看起来更加合理一些，所以选择它作为答案")
    assert raised.message == "q3_y 中必须同时含有标签 0 和 1"
    assert built.message == "阈值 0.5 下的 F1：A 为 0.667，B 为 0.800；A 的 F1 必须更高。", built.message
    assert cost.status == "incorrect" and cost.message.startswith("在 proba >= 0 处预测为恶性，代价为 "), cost.message
    assert vague.status == "incorrect" and "（例如：测试, 泛化, 过拟合）" in vague.message, vague.message


def test_untranslated_sentence_falls_back_to_english():
    with language("zh"):
        assert el.i18n.translate("A sentence no catalog has.") == "A sentence no catalog has."
        assert el.i18n.ui("some new explorer") == "some new explorer"
        assert grading_messages.text("too_large", name="q", value=2) == "q = 2 偏大。"


# The autograder's Chinese feedback through the real sandbox is not run here (it was a fourth `make autograde`): the
# one `make autograde` run of tests/test_grading.py grades a submission of the Chinese release (its fixtures) and
# checks its feedback.csv is Chinese; the messages themselves are checked in-process above.


def test_classroom_bundle_in_chinese(tmp_path):
    """make classroom LANG=zh: set 01 in Chinese without solutions (same code as the English classroom release but
    the set-up call), its hints in Chinese in the checks file, the catalogs in the bundle; so is every set that has
    a catalog (a set without one would stay English)."""
    import json

    from scripts import release_exercises as rel

    rel.make_classroom(tmp_path / "en")
    rel.make_classroom(tmp_path / "zh", lang="zh")
    en = nbformat.read(tmp_path / "en" / "exercises" / "01_error_and_fitting.ipynb", as_version=4)
    zh = nbformat.read(tmp_path / "zh" / "exercises" / "01_error_and_fitting.ipynb", as_version=4)
    assert not i18n.code_problems(en.cells, zh.cells, "classroom 01")
    text = "\n".join(c.source for c in zh.cells)
    assert "练习 01" in text and "ex.solution" not in text and zh.metadata["evallib"] == {"lang": "zh"}
    md = [c.source for c in zh.cells if c.cell_type == "markdown"]
    assert all(re.search(r"[\u4e00-\u9fff]{6}", m) for m in md)
    checks = json.loads((tmp_path / "zh" / "exercises" / "checks" / "01_error_and_fitting.json").read_text("utf-8"))
    assert checks["problems"][0]["hint"].startswith("在 `X[train]` 上拟合")
    assert (tmp_path / "zh" / "exercises" / "zh" / "01_error_and_fitting.po").exists()
    for po in EXERCISE_CATALOGS:  # every set with a catalog is Chinese in the bundle, with its catalog
        nb = nbformat.read(tmp_path / "zh" / "exercises" / po.with_suffix(".ipynb").name, as_version=4)
        assert nb.metadata["evallib"] == {"lang": "zh"} and i18n.CJK.search(nb.cells[0].source), po.name
        assert (tmp_path / "zh" / "exercises" / "zh" / po.name).exists()
