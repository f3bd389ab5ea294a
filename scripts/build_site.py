#!/usr/bin/env python
"""The static edition (`make site`): every chapter as an HTML page with its stored outputs, no kernel needed.

    make site                                     # -> _build/site/index.html
    python scripts/build_site.py --out DIR

Built with nbconvert's HTML exporter (JupyterLab's look) from the committed notebooks: nothing is executed,
so the pages show exactly the outputs nbval checks, figures included (PNG, embedded). Layout:

    index.html                the README's chapter table, then "By book section" (西瓜书 §2.x -> where it is taught)
    NN_topic.html             one page per chapter, with index / previous / next / exercises links at top and bottom
    exercises/NN_topic.html   the student release of the chapter's exercise set, and its .ipynb to download
    zh/...                    the Chinese edition, same layout (notebooks/zh/, exercises/zh/, README.zh-CN.md's
                              table); a chapter without a translation shows its English page under a note
    _static/                  site.css and MathJax 3 (from the npm registry once, scripts/webassets.py)

Every page carries a language switch (中文 / English) to its twin in the other edition.

Links between notebooks (``05_roc_pr_curves.ipynb``, ``../exercises/...``) become links between pages;
a relative link to anything outside the site is turned into plain text (and reported). :func:`check_links`
parses every href/src of every page and lists those that do not resolve (`make site` fails on any).
"""

from __future__ import annotations

import argparse
import html as htmlmod
import posixpath
import re
import shutil
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat

from scripts import webassets
from scripts.slides import hidden_cells_config

ROOT = webassets.ROOT
_MD_LINK = re.compile(r"(!?\[[^\]]*\])\(([^)\s]+)\)")
_SECTION = re.compile(r"§\s?(2(?:\.\d+){1,2})")

SITE_CSS = """
body { margin: 0; }
main { max-width: 1100px; margin: 0 auto; padding: 0 12px; }
.evallib-nav { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; padding: 0.6em 0; margin: 0 0 0.8em 0;
  border-bottom: 1px solid #ddd; font-family: system-ui, sans-serif; font-size: 15px; }
.evallib-nav-bottom { border-top: 1px solid #ddd; border-bottom: none; margin-top: 2em; }
.evallib-nav a { text-decoration: none; color: #0072B2; }
.evallib-app-note { color: #555; border-left: 4px solid #0072B2; padding-left: 0.6em; }
.evallib-index { font-family: system-ui, sans-serif; line-height: 1.5; }
.evallib-index table { border-collapse: collapse; font-size: 14px; }
.evallib-index th, .evallib-index td { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; text-align: left; }
@media (max-width: 700px) { .jp-InputPrompt, .jp-OutputPrompt { display: none; } }
"""


# --- where things go ----------------------------------------------------------------------------------
def site_path(repo_rel: str) -> str | None:
    """The page (site-relative) that a repository file becomes, or None when the site has no such page."""
    m = re.fullmatch(r"(notebooks|exercises)/(?:(zh)/)?(\d\d_[\w-]+)\.ipynb", repo_rel)
    if not m:
        return None
    prefix = "zh/" if m.group(2) else ""
    return prefix + (f"{m.group(3)}.html" if m.group(1) == "notebooks" else f"exercises/{m.group(3)}.html")


def twin(page: str) -> str:
    """The same page in the other edition (site-relative): ``05_x.html`` <-> ``zh/05_x.html``."""
    return page[3:] if page.startswith("zh/") else "zh/" + page


# What the pages say, per edition.
WORDS = {
    "en": {
        "index": "Index",
        "exercises": "Exercises",
        "chapter": "Chapter",
        "download": "Download the notebook",
        "switch": "中文",
        "lang": "en",
        "explorers": "Explorers",
        "explorers_of": "The explorers of chapter {n}, full page (for a projector)",
        "untranslated": "",
    },
    "zh": {
        "index": "目录",
        "exercises": "练习",
        "chapter": "本章",
        "download": "下载 notebook",
        "switch": "English",
        "lang": "zh",
        "explorers": "交互探索",
        "explorers_of": "第 {n} 章的交互探索（整页，便于投影）",
        "untranslated": "**本页尚无中文译文，下面是英文原文。**",
    },
}


def rewrite_links(nb, repo_dir: str, page_dir: str, dropped: list):
    """Markdown links to notebooks -> links to their pages; other relative links -> plain text."""

    def sub(m):
        label, target = m.group(1), m.group(2)
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or target.startswith("#"):
            return m.group(0)
        repo_rel = posixpath.normpath(posixpath.join(repo_dir, unquote(parts.path)))
        page = site_path(repo_rel)
        if page is None:
            dropped.append(target)
            return label[1:-1] if not label.startswith("!") else ""
        if (page_dir or "").split("/")[0] == "zh" and not page.startswith("zh/"):
            page = twin(page)  # the Chinese edition has a page for every chapter and set: stay in it
        rel = posixpath.relpath(page, page_dir or ".")
        return f"{label}({rel}{'#' + parts.fragment if parts.fragment else ''})"

    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _MD_LINK.sub(sub, cell.source)
    return nb


def title_of(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return "untitled"


# --- pages ----------------------------------------------------------------------------------------------
def _exporter(lang="en"):
    from nbconvert import HTMLExporter

    return webassets.soup_free(HTMLExporter)(
        config=hidden_cells_config(),
        template_name="evallib_site",
        extra_template_basedirs=[str(webassets.TEMPLATES)],
        exclude_input_prompt=False,
        language_code="zh" if lang == "zh" else "en",
    )


def _nav(items):
    return " ".join(f'<a href="{htmlmod.escape(href)}">{htmlmod.escape(text)}</a>' for text, href in items)


def render(exporter, nb, page: str, nav_items, name, lang="en") -> str:
    static = posixpath.relpath("_static", posixpath.dirname(page) or ".")
    here = posixpath.dirname(page) or "."
    nav_items = [(text, posixpath.relpath(href, here)) for text, href in nav_items]  # site-relative -> relative
    nav_items.append((WORDS[lang]["switch"], posixpath.relpath(twin(page), here)))
    body, _ = exporter.from_notebook_node(
        nb,
        resources={
            "metadata": {"name": name},
            "evallib": {"static": static, "mathjax_config": webassets.MATHJAX_CONFIG, "nav": _nav(nav_items)},
        },
    )
    return body


class _Collect(HTMLParser):
    """hrefs/srcs, element ids, and (section, nearest heading id) for every §2.x in the text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs, self.ids, self.sections = [], set(), []
        self._heading, self._in_h = None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("href", "src"):
            if a.get(key):
                self.refs.append((tag, a[key]))
        if a.get("id"):
            self.ids.add(a["id"])
        if tag in ("h1", "h2", "h3") and a.get("id"):
            self._heading, self._in_h = a["id"], tag

    def handle_data(self, data):
        for m in _SECTION.finditer(data):
            self.sections.append((m.group(1), self._heading))


def parse(html_text):
    c = _Collect()
    c.feed(html_text)
    return c


def _readme_chapter_table(lang="en") -> str:
    """The README's chapter table (markdown; README.zh-CN.md's for the Chinese edition), linking the site's pages."""
    readme = (ROOT / ("README.zh-CN.md" if lang == "zh" else "README.md")).read_text(encoding="utf-8")
    heading = "章节" if lang == "zh" else "Chapters"
    m = re.search(rf"^## {heading}\s*\n(.*?)(?=^## |\Z)", readme, flags=re.M | re.S)
    if not m:
        return ""
    table = "\n".join(line for line in m.group(1).splitlines() if line.startswith("|"))
    here = "zh" if lang == "zh" else "."

    def sub(mm):
        page = site_path(mm.group(2))
        return f"{mm.group(1)}({posixpath.relpath(page, here)})" if page else mm.group(1)[1:-1]

    return _MD_LINK.sub(sub, table)


INDEX_TEXT = {
    "en": {
        "title": "Model evaluation and selection（模型评估与选择）",
        "html_title": "Model evaluation and selection — static edition",
        "intro": "The static edition of the course on chapter 2 of Zhou Zhihua's *Machine Learning*: every chapter "
        "with its stored outputs and figures. Reading needs no Python; to run the code and move the "
        "explorers' sliders, clone the repository and use `make lab` (see its README).\n\n"
        "中文版：[zh/index.html](zh/index.html)",
        "chapters": "Chapters",
        "also": "Also in this edition:",
        "exercises": "exercises",
        "graded": "Graded exercises: the student release of each set, as a page and as a notebook to download, "
        "is linked from its chapter's row ({n} sets).",
        "by_section": "By book section",
        "section_col": "| 西瓜书 section | taught in |",
        "where": "Where each section of the book's chapter 2 is taught (the first place a page names it):",
    },
    "zh": {
        "title": "模型评估与选择（Model evaluation and selection）",
        "html_title": "模型评估与选择 — 静态版",
        "intro": "周志华《机器学习》（西瓜书）第 2 章课程的静态版：每一章连同保存的输出和图。阅读不需要 Python；"
        "要运行代码、拖动探索器的滑块，请克隆仓库并运行 `make lab`（见 README.zh-CN.md）。\n\n"
        "English edition: [index.html](../index.html)",
        "chapters": "章节",
        "also": "本版还有：",
        "exercises": "练习",
        "graded": "评分练习：每套练习的学生版（网页，以及可下载的 notebook）链接在对应章节那一行（共 {n} 套）。",
        "by_section": "按教材章节查找",
        "section_col": "| 西瓜书章节 | 讲解位置 |",
        "where": "西瓜书第 2 章各节在哪里讲到（第一次提到它的页面）：",
    },
}


def _index(chapters, sections, exercises, lang="en") -> str:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    t = INDEX_TEXT[lang]
    table_md = _readme_chapter_table(lang)
    listed = set(re.findall(r"\((\d\d_[\w-]+)\.html\)", table_md))
    rows = []
    for stem, title in chapters:
        if stem not in listed:  # a chapter the README's table does not list (yet): still on the index
            ex = f" · [{t['exercises']}](exercises/{stem}.html)" if stem in exercises else ""
            rows.append(f"- [{title}]({stem}.html){ex}")
    extra = (f"\n\n{t['also']}\n\n" + "\n".join(rows)) if rows and table_md else "\n".join(rows)
    by_section = [t["section_col"], "|---|---|"]
    for sec in sorted(sections, key=lambda s: [int(x) for x in s.split(".")]):
        links = ", ".join(
            f"[{title.split(' · ')[0]}]({stem}.html{'#' + hid if hid else ''})" for stem, title, hid in sections[sec]
        )
        by_section.append(f"| §{sec} | {links} |")
    md = f"""# {t["title"]}

{t["intro"]}

## {t["chapters"]}

{table_md}
{extra}

{t["graded"].format(n=len(exercises))}

## {t["by_section"]}

{t["where"]}

{chr(10).join(by_section)}
"""
    body = markdown2html_mistune(md)
    static = "../_static" if lang == "zh" else "_static"
    return f"""<!DOCTYPE html>
<html lang="{WORDS[lang]["lang"]}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t["html_title"]}</title>
<link rel="stylesheet" href="{static}/site.css">
</head><body><main class="evallib-index">
{body}
</main></body></html>
"""


def _edition_sources(lang):
    """{stem: (notebook path, translated?)} for the chapters and for the exercise sets of one edition."""
    chapters = {p.stem: (p, lang == "en") for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
    sets = {p.stem: (p, lang == "en") for p in sorted((ROOT / "exercises").glob("[0-9][0-9]_*.ipynb"))}
    if lang == "zh":
        for folder, table in (("notebooks", chapters), ("exercises", sets)):
            for p in sorted((ROOT / folder / "zh").glob("[0-9][0-9]_*.ipynb")):
                if p.stem in table:
                    table[p.stem] = (p, True)
    return chapters, sets


def explorers_page(nb, stem: str, w: dict):
    """A notebook of the chapter's explorers only (their stored Vega-Lite specs, code hidden), or None when the
    chapter has none: the page a lecturer projects, moved with no kernel and no server."""
    cells = [
        c
        for c in nb.cells
        if c.cell_type == "code" and any(webassets.VEGA_MIME in o.get("data", {}) for o in c.get("outputs", []))
    ]
    if not cells:
        return None
    board = nbformat.v4.new_notebook(metadata=nb.metadata)
    title = nbformat.v4.new_markdown_cell("# " + w["explorers_of"].format(n=stem[:2]))
    title["id"] = "explorers-title"  # a fixed id: the same page on every build (nbformat draws a random one)
    board.cells.append(title)
    for c in cells:
        c = nbformat.from_dict(dict(c))
        c.metadata = {**c.get("metadata", {}), "tags": ["remove-input"]}
        board.cells.append(c)
    return board


def build_edition(out: Path, exporter, lang: str, dropped: list):
    """The pages of one edition: ``out`` (English) or ``out/zh`` (Chinese). Returns the chapters' titles."""
    w = WORDS[lang]
    pre = "zh/" if lang == "zh" else ""
    (out / pre / "exercises").mkdir(parents=True, exist_ok=True)
    ch_src, ex_src = _edition_sources(lang)
    nbs = {stem: nbformat.read(p, as_version=4) for stem, (p, _) in ch_src.items()}
    chapters = [(stem, title_of(nb)) for stem, nb in nbs.items()]
    sections = {}

    def untranslated_note(nb, translated):
        if not translated and w["untranslated"]:
            note = nbformat.v4.new_markdown_cell(w["untranslated"])
            note["id"] = "untranslated-note"
            nb.cells.insert(0, note)
        return nb

    for i, (stem, title) in enumerate(chapters):
        nav = [(w["index"], f"{pre}index.html")]
        if i > 0:
            nav.append((f"← {chapters[i - 1][1].split(' · ')[0]}", f"{pre}{chapters[i - 1][0]}.html"))
        if i + 1 < len(chapters):
            nav.append((f"{chapters[i + 1][1].split(' · ')[0]} →", f"{pre}{chapters[i + 1][0]}.html"))
        if stem in ex_src:
            nav.append((w["exercises"], f"{pre}exercises/{stem}.html"))
        path, translated = ch_src[stem]
        repo_dir = path.parent.relative_to(ROOT).as_posix()
        nb = rewrite_links(nbs[stem], repo_dir, pre.rstrip("/"), dropped)
        page = render(exporter, untranslated_note(nb, translated), f"{pre}{stem}.html", nav, stem, lang)
        (out / f"{pre}{stem}.html").write_text(page, encoding="utf-8")
        board = explorers_page(nb, stem, w)
        if board is not None:  # the chapter's explorers alone, full page: what the Voila apps were
            (out / pre / "explorers").mkdir(exist_ok=True)
            board_page = render(
                exporter,
                board,
                f"{pre}explorers/{stem}.html",
                [(w["index"], f"{pre}index.html"), (w["chapter"], f"{pre}{stem}.html")],
                stem,
                lang,
            )
            (out / pre / "explorers" / f"{stem}.html").write_text(board_page, encoding="utf-8")
        for sec, hid in parse(page).sections:
            if sec not in sections or all(s != stem for s, _, _ in sections[sec]):
                sections.setdefault(sec, []).append((stem, title, hid))
    for stem, (path, translated) in ex_src.items():
        nb = nbformat.read(path, as_version=4)
        nav = [(w["index"], f"{pre}index.html")]
        if stem in nbs:
            nav.append((w["chapter"], f"{pre}{stem}.html"))
        nav.append((w["download"], f"{pre}exercises/{stem}.ipynb"))
        nb = rewrite_links(nb, path.parent.relative_to(ROOT).as_posix(), f"{pre}exercises", dropped)
        page = render(exporter, untranslated_note(nb, translated), f"{pre}exercises/{stem}.html", nav, stem, lang)
        (out / pre / "exercises" / f"{stem}.html").write_text(page, encoding="utf-8")
        shutil.copy(path, out / pre / "exercises" / f"{stem}.ipynb")
    (out / pre / "index.html").write_text(_index(chapters, sections, ex_src, lang), encoding="utf-8")
    return chapters


def build(out: Path, verbose=True) -> dict:
    """Build the site, both editions, into ``out`` (emptied first); return timings and the dropped links."""
    t0 = time.perf_counter()
    if out.exists():
        shutil.rmtree(out)
    (out / "_static").mkdir(parents=True)
    vend = webassets.ensure_vendor(verbose)
    shutil.copy(vend["mathjax"] / "es5/tex-svg-full.js", out / "_static" / "tex-svg-full.js")
    shutil.copy(vend["mathjax"] / "LICENSE", out / "_static" / "MATHJAX-LICENSE")
    (out / "_static" / "vega.js").write_text(webassets.vega_js(vend), encoding="utf-8")
    for name in ("vega", "vega-lite", "vega-embed"):
        shutil.copy(vend[name] / "LICENSE", out / "_static" / f"{name.upper()}-LICENSE")
    (out / "_static" / "site.css").write_text(SITE_CSS, encoding="utf-8")
    dropped = []
    for lang in ("en", "zh"):
        build_edition(out, _exporter(lang), lang, dropped)
    return {
        "seconds": time.perf_counter() - t0,
        "dropped": sorted(set(dropped)),
        "pages": sorted(str(p.relative_to(out)) for p in out.rglob("*.html")),
    }


def check_links(out: Path) -> list[str]:
    """Every href/src of every page that does not resolve inside ``out`` (file, and #id when given)."""
    pages = {p: parse(p.read_text(encoding="utf-8")) for p in out.rglob("*.html")}
    bad = []
    for page, c in pages.items():
        for tag, ref in c.refs:
            parts = urlsplit(ref)
            if parts.scheme in ("data", "mailto") or (parts.scheme in ("http", "https") and tag == "a"):
                continue
            if parts.scheme or parts.netloc:
                bad.append(f"{page.relative_to(out)}: <{tag}> loads {ref} from the network")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_file() or out.resolve() not in target.parents:
                bad.append(f"{page.relative_to(out)}: {ref} (no such file in the site)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target.read_text(encoding="utf-8")).ids
                if parts.fragment not in ids and unquote(parts.fragment) not in ids:  # as a browser looks it up
                    bad.append(f"{page.relative_to(out)}: {ref} (no id {parts.fragment!r} there)")
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "_build" / "site")
    args = ap.parse_args(argv)
    res = build(args.out.resolve())
    for ref in res["dropped"]:
        print(f"note: a link to {ref} has no page in the site; kept as text")
    bad = check_links(args.out.resolve())
    for b in bad:
        print("BROKEN", b)
    print(f"{len(res['pages'])} pages in {args.out} in {res['seconds']:.0f} s; open {args.out / 'index.html'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
