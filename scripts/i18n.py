#!/usr/bin/env python
"""The Chinese edition (issue 16): gettext catalogs per chapter and exercise set, and the notebooks built from them.

    python scripts/i18n.py update                  # merge every catalog with its English source (make translate-update)
    python scripts/i18n.py update notebooks/02_evaluation_methods.md   # ... this one; creates the catalog if new
    python scripts/i18n.py build                   # write notebooks/zh/*.ipynb (executed) and exercises/zh/*.ipynb
    python scripts/i18n.py build --no-execute      # cells only (outputs of the stored zh notebook kept)
    python scripts/i18n.py build exercises/source/02_evaluation_methods.md   # ... only this set (or chapter)
    python scripts/i18n.py status                  # current / stale per chapter and set, then every stale cell
    python scripts/i18n.py warn                    # the stale cells as a warning (make site, make classroom LANG=zh)
    python scripts/i18n.py check                   # what tests/test_i18n.py checks, as a report; exit 1 on a problem

One source, two languages (CONTRIBUTING.md, "A second language"). The English text sources are the only source of
code: ``notebooks/NN_topic.md`` and ``exercises/source/NN_topic.md``. The Chinese text lives in
``notebooks/zh/NN_topic.po`` and ``exercises/zh/NN_topic.po``: one entry per English Markdown cell
(``msgid`` = the cell's text, ``msgstr`` = its translation; ``msgctxt`` only to keep two identical cells apart)
and, for an exercise set, one entry per learner-facing sentence of its checks (``msgctxt`` ``title``, ``hint``,
``check``, ``test``, ``keywords``). ``update`` merges a catalog with its source exactly as gettext's ``msgmerge``
does: a new cell gets an empty entry, a changed cell keeps its old translation marked ``#, fuzzy`` with the old
English as ``#| msgid`` (the translator sees what changed), a removed cell's entry becomes obsolete (``#~``).
The built notebook takes every code cell from the English source unchanged (the set-up call gains ``lang="zh"``)
and every Markdown cell from the catalog.

Translations follow, they do not block: a Markdown cell whose entry is missing, empty, fuzzy or written for an
older English text (the English was edited after it) is built as the *English* text followed by the marker
``STALE_MARK`` (「（此段译文待更新，先显示英文原文）」), never as the outdated Chinese. An English edit therefore lands
without a translator (`make regen NB=...` rebuilds the Chinese twin, `make release` the Chinese exercise sets);
``status`` lists every such cell for the translator, and `make site` / `make classroom LANG=zh` warn with the
same list (``stale``).
"""

from __future__ import annotations

import argparse
import ast
import copy
import difflib
import re
import sys
from pathlib import Path

import nbformat
import polib

from scripts.nbsettings import NOTEBOOKS, ROOT, STRIP_FLAGS, chapter_sources, nbstripout

LANG = "zh"
ZH_NOTEBOOKS = NOTEBOOKS / LANG
EXERCISE_SOURCES = ROOT / "exercises" / "source"
ZH_EXERCISES = ROOT / "exercises" / LANG
SETUP_CALL = re.compile(r"setup_notebook\(([^()]*)\)")
FUZZY_MATCH = 0.6  # msgmerge-like: a changed cell keeps the closest old translation above this similarity
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
STALE_MARK = "（此段译文待更新，先显示英文原文）"  # appended to an English cell shown in the Chinese edition
HEADER = {
    "Project-Id-Version": "evallib course",
    "Language": "zh_CN",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
}


# ----------------------------------------------------------------------------------------- what to translate
class Unit:
    """One translatable text of a source: a Markdown cell (``cell`` = its index) or a sentence of the checks."""

    def __init__(self, msgid, msgctxt=None, where=""):
        self.msgid, self.msgctxt, self.where = msgid, msgctxt, where

    @property
    def key(self):
        return self.msgctxt, self.msgid


def _markdown_units(texts, label):
    """Markdown cells [(index, text)] -> Units; the second and later copies of one text get msgctxt 'copy N'."""
    seen, units = {}, []
    for i, text in texts:
        n = seen[text] = seen.get(text, 0) + 1
        units.append(Unit(text, None if n == 1 else f"copy {n}", f"{label}:cell {i}"))
    return units


def chapter_cells(md: Path):
    """The English chapter as regen_notebooks reads it (cells with ids, kernelspec)."""
    from scripts.regen_notebooks import source_notebook

    return source_notebook(md.with_suffix(".ipynb"))


def chapter_units(md: Path):
    nb = chapter_cells(md)
    return _markdown_units(
        [(i, c.source) for i, c in enumerate(nb.cells) if c.cell_type == "markdown"], md.relative_to(ROOT).as_posix()
    )


def _checks_strings(code: str):
    """Learner-facing sentences in checks/test code: string constants with a space (mistake messages, choice
    explanations, case labels, TITLE), f-strings as templates (each value a field ``{0}``, ``{1}``, ...: the
    translation may reorder them; evallib.i18n.translate fills them in), and ``keywords=[...]`` lists joined by '|'."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return [], []
    fstrings = [j for j in ast.walk(tree) if isinstance(j, ast.JoinedStr)]
    in_fstring = {id(n) for j in fstrings for n in ast.walk(j)}
    inner = {id(n) for j in fstrings for n in ast.walk(j) if n is not j}
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.Module))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    sentences, keywords = [], []
    for n in ast.walk(tree):
        if isinstance(n, ast.keyword) and n.arg == "keywords" and isinstance(n.value, (ast.List, ast.Tuple)):
            words = [e.value for e in n.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if words:
                keywords.append("|".join(words))
        if (
            isinstance(n, ast.Constant)
            and isinstance(n.value, str)
            and id(n) not in in_fstring
            and id(n) not in docstrings
            and " " in n.value.strip()
            and re.search(r"[A-Za-z]{2}", n.value)
        ):
            sentences.append(n.value)
        if isinstance(n, ast.JoinedStr) and id(n) not in inner:  # f"costs {x:.4f}, not ..." -> "costs {0}, not ..."
            literal = "".join(v.value for v in n.values if isinstance(v, ast.Constant))
            if " " in literal.strip() and re.search(r"[A-Za-z]{2}", literal):
                fields = iter(range(len(n.values)))
                sentences.append(
                    "".join(
                        v.value.replace("{", "{{").replace("}", "}}")
                        if isinstance(v, ast.Constant)
                        else "{%d}" % next(fields)
                        for v in n.values
                    )
                )
    return sentences, keywords


def exercise_units(src: Path):
    from evallib.grading import _config, _marker, read_myst
    from evallib.grading._source import parse_test_cell

    _, cells = read_myst(src.read_text(encoding="utf-8"))
    label = src.relative_to(ROOT).as_posix()
    units = _markdown_units([(i, c.source) for i, c in enumerate(cells) if c.cell_type == "markdown"], label)
    extra, seen = [], set()

    def add(text, ctx, where):
        if text and (ctx, text) not in seen:
            seen.add((ctx, text))
            extra.append(Unit(text, ctx, where))

    for i, c in enumerate(cells):
        where = f"{label}:cell {i}"
        if _marker(c) == "# BEGIN QUESTION":
            cfg = _config(c)
            add(str(cfg.get("title", "")), "title", where)
            add(str(cfg.get("hint", "")), "hint", where)
        elif c.cell_type == "code" and ("checks" in c.tags or "BEGIN TEST CONFIG" in c.source):
            test = parse_test_cell(c.source)  # the grader's own reading of the config (YAML: quotes are syntax)
            if test.failure_message:
                add(test.failure_message, "test", where)
            body = test.source
            sentences, keywords = _checks_strings(body)
            for s in sentences:
                add(s, "check", where)
            for k in keywords:
                add(k, "keywords", where)
    return units + extra


# ----------------------------------------------------------------------------------------- catalogs
def catalog_path(src: Path) -> Path:
    return (ZH_NOTEBOOKS if src.parent == NOTEBOOKS else ZH_EXERCISES) / src.with_suffix(".po").name


def source_of(po: Path) -> Path:
    return (NOTEBOOKS if po.parent == ZH_NOTEBOOKS else EXERCISE_SOURCES) / po.with_suffix(".md").name


def units_of(src: Path):
    return chapter_units(src) if src.parent == NOTEBOOKS else exercise_units(src)


def catalogs():
    """Every catalog of the Chinese edition, chapters first."""
    return sorted(ZH_NOTEBOOKS.glob("[0-9][0-9]_*.po")) + sorted(ZH_EXERCISES.glob("[0-9][0-9]_*.po"))


def merge(old: polib.POFile | None, units) -> polib.POFile:
    """msgmerge: the catalog for ``units`` keeping what ``old`` translated (exact -> kept; changed -> fuzzy with the
    previous msgid; gone -> obsolete)."""
    po = polib.POFile(wrapwidth=0)
    po.metadata = dict(HEADER)
    if old is not None:
        po.metadata.update(old.metadata)
        po.header = old.header
    live = {(e.msgctxt, e.msgid): e for e in (old or []) if not e.obsolete}
    dead = {(e.msgctxt, e.msgid): e for e in (old or []) if e.obsolete}
    wanted = {u.key for u in units}
    pool = [e for e in (old or []) if e.msgstr and (e.msgctxt, e.msgid) not in wanted]
    for u in units:
        e = live.get(u.key) or dead.get(u.key)
        new = polib.POEntry(
            msgid=u.msgid, msgctxt=u.msgctxt, msgstr="", occurrences=[tuple(u.where.rsplit(":cell ", 1))]
        )  # (source, cell index)
        if e is not None:
            new.msgstr, new.flags = e.msgstr, [f for f in e.flags]
            new.previous_msgid, new.tcomment = e.previous_msgid, e.tcomment
        else:
            best, score = None, FUZZY_MATCH
            for cand in pool:
                if (cand.msgctxt or "") != (u.msgctxt or "") and not (cand.msgctxt or "").startswith("copy"):
                    continue
                sm = difflib.SequenceMatcher(None, cand.msgid, u.msgid, autojunk=False)
                if sm.real_quick_ratio() > score and sm.quick_ratio() > score and sm.ratio() > score:
                    best, score = cand, sm.ratio()
            if best is not None:
                new.msgstr, new.flags = best.msgstr, ["fuzzy"]
                new.previous_msgid = (
                    best.previous_msgid if "fuzzy" in best.flags and best.previous_msgid else best.msgid
                )
                new.tcomment = best.tcomment
        po.append(new)
    for key, e in live.items():
        if key not in wanted and e.msgstr:
            gone = copy.deepcopy(e)  # never change the old catalog
            gone.obsolete, gone.occurrences = True, []
            po.append(gone)
    for key, e in dead.items():
        if key not in wanted:
            po.append(copy.deepcopy(e))
    return po


def update(src: Path, create=False) -> Path | None:
    path = catalog_path(src)
    if not path.exists() and not create:
        return None
    old = polib.pofile(str(path), wrapwidth=0) if path.exists() else None
    po = merge(old, units_of(src))
    path.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(path))
    return path


def load(po_path: Path):
    return polib.pofile(str(po_path), wrapwidth=0)


def translations(po) -> dict:
    """{(msgctxt, msgid): msgstr} of the entries a build may use: translated, not fuzzy, not obsolete."""
    return {(e.msgctxt, e.msgid): e.msgstr for e in po if e.msgstr and "fuzzy" not in e.flags and not e.obsolete}


# ----------------------------------------------------------------------------------------- building
def _zh_setup(code: str) -> str:
    """The set-up call of the Chinese edition: ``setup_notebook(seed=0)`` -> ``setup_notebook(seed=0, lang="zh")``."""

    def add(m):
        args = m.group(1).strip()
        return m.group(0) if "lang" in args else f'setup_notebook({args + ", " if args else ""}lang="{LANG}")'

    return SETUP_CALL.sub(add, code, count=1)


def _links(text: str, exercises: bool) -> str:
    """Relative links to chapters: to the Chinese chapter when it exists, else to the English one."""

    def chapter(name, from_zh_chapters):
        zh = (ZH_NOTEBOOKS / name).exists() or (ZH_NOTEBOOKS / name).with_suffix(".po").exists()
        if from_zh_chapters:
            return name if zh else f"../{name}"
        return f"../../notebooks/zh/{name}" if zh else f"../../notebooks/{name}"

    if exercises:
        return re.sub(r"\]\(\.\./notebooks/([0-9]{2}_\w+\.ipynb)\)", lambda m: f"]({chapter(m.group(1), False)})", text)
    return re.sub(r"\]\(([0-9]{2}_\w+\.ipynb)\)", lambda m: f"]({chapter(m.group(1), True)})", text)


def mark_stale(text: str, exercises: bool) -> str:
    """The English ``text`` of a cell without a current translation, as the Chinese edition shows it."""
    return f"{_links(text, exercises).rstrip()}\n\n{STALE_MARK}"


def _translate_cells(cells, units_by_text, table, exercises):
    """Markdown cells from ``table`` (current translations); a cell without one: English + STALE_MARK."""
    seen = {}
    for cell in cells:
        if cell.cell_type == "markdown" and cell.source.strip():
            n = seen[cell.source] = seen.get(cell.source, 0) + 1
            key = (None if n == 1 else f"copy {n}", cell.source)
            cell.source = _links(table[key], exercises) if key in table else mark_stale(cell.source, exercises)
    for cell in cells:
        if cell.cell_type == "code" and "setup_notebook(" in cell.source:
            cell.source = _zh_setup(cell.source)
            break


def build_chapter(md: Path):
    """The Chinese notebook of chapter ``md`` (no outputs): the English cells, Markdown from the catalog."""
    nb = chapter_cells(md)
    po = catalog_path(md)
    _translate_cells(nb.cells, None, translations(load(po)) if po.exists() else {}, exercises=False)
    nb.metadata["evallib"] = {"lang": LANG}
    return nb


def build_exercise(src: Path):
    """The Chinese self-study notebook of exercise set ``src`` (what `make release` writes, translated)."""
    from scripts.release_exercises import make_release

    nb = make_release(src)
    po = catalog_path(src)
    _translate_cells(nb.cells, None, translations(load(po)) if po.exists() else {}, exercises=True)
    nb.metadata["evallib"] = {"lang": LANG}
    return nb


# The classroom release has no solutions: drop the sentence of the title cell that names ex.solution.
_NO_SOLUTION_ZH = re.compile(r"，`ex\.solution\(\"q1\"\)` 给出参考解答")


def translate_release(nb, src: Path, *, classroom=False):
    """A release of ``src`` (release_exercises.make_release) in Chinese, when the set has a catalog."""
    po = catalog_path(src)
    if not po.exists():
        return nb
    table = translations(load(po))
    if classroom:  # make_release already took the solution sentences out of the English: look those texts up
        from scripts.release_exercises import _NO_SOLUTION

        def plain(text):
            for pattern, repl in _NO_SOLUTION:
                text = pattern.sub(repl, text)
            return text

        table = {**table, **{(ctx, plain(msgid)): msgstr for (ctx, msgid), msgstr in table.items()}}
    _translate_cells(nb.cells, None, table, exercises=True)
    if classroom:
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = _NO_SOLUTION_ZH.sub("", cell.source)
    nb.metadata["evallib"] = {"lang": LANG}
    return nb


def write_exercises(pairs):
    """Write the Chinese notebook of each (English source, out) pair, then strip them all with one nbstripout run
    (the exercises/ git filter's flags: the files are what git stores). Returns the outs."""
    outs = []
    for src, out in pairs:
        nbformat.write(build_exercise(src), out)
        outs.append(out)
    if outs:
        nbstripout(*STRIP_FLAGS, *outs, check=True)
    return outs


def write_exercise(src: Path, out: Path):
    return write_exercises([(src, out)])[0]


def _catalogs_of(sources):
    """The catalogs of these English sources or catalogs (all catalogs when ``sources`` is empty)."""
    if not sources:
        return catalogs()

    def kind(path):  # "exercises/..." or "notebooks/..." narrows a stem to that folder's catalog
        parts = Path(path).parts
        return "exercises" if "exercises" in parts else "notebooks" if "notebooks" in parts else None

    wanted = {(kind(s), Path(s).stem) for s in sources}
    found = [po for po in catalogs() if (kind(po.relative_to(ROOT)), po.stem) in wanted or (None, po.stem) in wanted]
    missing = {stem for _, stem in wanted} - {po.stem for po in found}
    if missing:
        raise SystemExit(f"no catalog for {', '.join(sorted(missing))}: run `make translate-update NB=...` first")
    return found


def build(execute=True, sources=()):
    for po in _catalogs_of(sources):
        src = source_of(po)
        if not src.exists():
            print(f"{po.relative_to(ROOT)}: no English source {src.relative_to(ROOT)} (remove the catalog?)")
            continue
        out = po.with_suffix(".ipynb")
        if po.parent == ZH_EXERCISES:
            write_exercise(src, out)
            print(f"wrote {out.relative_to(ROOT)}")
        elif execute:
            from scripts.nbsettings import apply_env
            from scripts.regen_notebooks import regen

            apply_env()
            ok, dt = regen(out)
            print(f"wrote {out.relative_to(ROOT)} (executed in {dt:.1f} s){'' if ok else ': FAILED'}")
        else:
            stored = nbformat.read(out, as_version=4) if out.exists() else None
            nb = build_chapter(src)
            if stored is not None and "language_info" in stored.metadata:
                nb.metadata["language_info"] = stored.metadata["language_info"]  # what the kernel wrote
            if stored is not None and len(stored.cells) == len(nb.cells):
                for new, old in zip(nb.cells, stored.cells):
                    if new.cell_type == "code" and old.cell_type == "code" and new.source == old.source:
                        new.outputs, new.execution_count = old.outputs, old.execution_count
            from scripts.regen_notebooks import KEEP_FLAGS
            from scripts.slides import add_slide_metadata

            nbformat.write(add_slide_metadata(nb), out)
            nbstripout(*KEEP_FLAGS, out, check=True)
            print(f"wrote {out.relative_to(ROOT)} (not executed)")


# ----------------------------------------------------------------------------------------- checking
def problems_of(po_path: Path) -> list[str]:
    """Why the Chinese edition of this catalog is not complete and current (empty list: it is)."""
    src = source_of(po_path)
    rel = po_path.relative_to(ROOT)
    if not src.exists():
        return [f"{rel}: its English source {src.relative_to(ROOT)} is gone"]
    return entry_problems(load(po_path), units_of(src), rel)


def entry_problems(po, units, rel) -> list[str]:
    """For each English text (``units``): is there a current, non-fuzzy translation in ``po``? Names the cell."""
    entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    out = []
    for u in units:
        e = entries.get(u.key)
        what = f"{u.where}" + (f" ({u.msgctxt})" if u.msgctxt else "")
        first = u.msgid.strip().split("\n")[0][:70]
        if e is None:
            out.append(
                f"{rel}: {what} changed in English after its translation (or is new): {first!r}. "
                f"Run `make translate-update`, then translate the fuzzy/empty entry"
            )
        elif "fuzzy" in e.flags:
            out.append(
                f"{rel}: {what} is fuzzy (the English changed from {(e.previous_msgid or '')[:60]!r}): {first!r}"
            )
        elif not e.msgstr:
            out.append(f"{rel}: {what} has no translation: {first!r}")
    return out


def code_problems(english_cells, zh_cells, label) -> list[str]:
    """Code cells must be the English ones (the set-up call may gain lang="zh"); the cell structure must match."""
    if [c.cell_type for c in english_cells] != [c.cell_type for c in zh_cells]:
        return [f"{label}: cell types differ from the English source"]
    out = []
    for i, (a, b) in enumerate(zip(english_cells, zh_cells)):
        if a.cell_type == "code" and b.source != a.source and b.source != _zh_setup(a.source):
            out.append(f"{label}: code cell {i} differs from the English source")
    return out


def stale(sources=()) -> list[str]:
    """One line per English text the Chinese edition shows in English for now (cells: with STALE_MARK; checks'
    sentences: evallib falls back to the English), for every catalog (or those of ``sources``)."""
    return [p for po in _catalogs_of(sources) for p in problems_of(po)]


def warn_stale(sources=(), out=sys.stderr) -> int:
    """Print the stale list as a warning (make site, make classroom LANG=zh); returns how many."""
    lines = stale(sources)
    if lines:
        print(
            f"warning: {len(lines)} text(s) of the Chinese edition are shown in English with {STALE_MARK} until "
            'translated (`make translate-status`; CONTRIBUTING.md, "Translate a cell"):',
            file=out,
        )
        for line in lines:
            print(f"  {line}", file=out)
    return len(lines)


def status(out=sys.stdout):
    """Per chapter and set: current translations, stale (English shown with the marker), Chinese characters; then
    every stale text, by cell."""
    rows = []
    for md in chapter_sources():
        po = ZH_NOTEBOOKS / f"{md.stem}.po"
        rows.append(("notebooks", md.stem, po if po.exists() else None))
    for src in sorted(EXERCISE_SOURCES.glob("[0-9][0-9]_*.md")):
        po = ZH_EXERCISES / f"{src.stem}.po"
        rows.append(("exercises", src.stem, po if po.exists() else None))
    print(f"{'':10s} {'chapter / set':32s} {'current':>8s} {'stale':>6s} {'汉字':>7s}", file=out)
    lines = []
    for folder, stem, po in rows:
        if po is None:
            print(f"{folder:10s} {stem:32s} {'not started (English only)':>26s}", file=out)
            continue
        src = source_of(po)
        table = translations(load(po))
        units = units_of(src) if src.exists() else []
        current = [table[u.key] for u in units if u.key in table]
        problems = problems_of(po)
        lines += problems
        chars = sum(len(CJK.findall(t)) for t in current)
        print(f"{folder:10s} {stem:32s} {len(current):8d} {len(problems):6d} {chars:7d}", file=out)
    if lines:
        print(
            f"\n{len(lines)} stale text(s), shown in English with {STALE_MARK} until translated "
            "(`make translate-update`, then translate the fuzzy or empty entries):",
            file=out,
        )
        for line in lines:
            print(f"  {line}", file=out)
    else:
        print("\nevery translated chapter and set is current", file=out)
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    up = sub.add_parser("update", help="merge catalogs with the English sources (msgmerge semantics)")
    up.add_argument("sources", nargs="*", help="English sources to start or update (default: every catalog's)")
    b = sub.add_parser("build", help="write notebooks/zh/*.ipynb (executed) and exercises/zh/*.ipynb")
    b.add_argument("--no-execute", action="store_true")
    b.add_argument("sources", nargs="*", help="only these chapters/sets (a source, a catalog or a stem; default: all)")
    sub.add_parser("status", help="per catalog: current and stale texts, then every stale text by cell")
    w = sub.add_parser("warn", help="print the stale texts as a warning (make site, make classroom LANG=zh)")
    w.add_argument("sources", nargs="*")
    c = sub.add_parser("check")
    c.add_argument("sources", nargs="*", help="only these chapters/sets (default: every catalog)")
    args = ap.parse_args(argv)
    if args.cmd == "update":
        if args.sources:
            srcs = [(ROOT / s if not Path(s).is_absolute() else Path(s)).resolve() for s in args.sources]
            srcs = [s.with_suffix(".md") for s in srcs]
            srcs = [s if s.parent != ZH_NOTEBOOKS else NOTEBOOKS / s.name for s in srcs]
            for s in srcs:
                print(f"updated {update(s, create=True).relative_to(ROOT)}")
        else:
            for po in catalogs():
                if source_of(po).exists():
                    update(source_of(po))
                    print(f"updated {po.relative_to(ROOT)}")
        status()
        return 0
    if args.cmd == "build":
        build(execute=not args.no_execute, sources=args.sources)
        return 0
    if args.cmd == "status":
        status()
        return 0
    if args.cmd == "warn":
        warn_stale(args.sources)
        return 0
    chosen = _catalogs_of(args.sources)
    problems = [p for po in chosen for p in problems_of(po)]
    for p in problems:
        print(p)
    print(f"{len(chosen)} catalog(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
