#!/usr/bin/env python
"""Every chapter as a self-contained reveal.js deck (`make slides`): one HTML file per chapter, no CDN.

    make slides                                   # -> _build/slides/NN_topic.slides.html, _build/slides/zh/...
    python scripts/export_slides.py --out DIR --no-execute notebooks/05_roc_pr_curves.ipynb

By default each chapter is executed again (as `make regen` does, scripts/nbsettings.py) with the presentation
style switched on by a hidden cell after the set-up (``el.style.presentation()``: larger text and thicker
lines, the same plots), so figures are readable from the back of a room. ``--no-execute`` uses the stored
outputs instead (the notebook's own figures; fast). The slide layout is each notebook's slide metadata
(scripts/slides.py, applied again here so a deck is right even for a notebook not yet regenerated).
reveal.js, MathJax and vega come from the npm registry once (scripts/webassets.py) and are inlined in each deck:
an explorer is its stored Vega-Lite spec, and its controls move in the deck with no kernel.
Both editions: the Chinese chapters (notebooks/zh/, built from the catalogs) become decks in ``zh/`` beside the
English ones, and every deck has a language switch (中文 / English, top right) to its twin.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

from scripts import webassets
from scripts.nbsettings import KERNEL_ARGS, apply_env
from scripts.slides import add_slide_metadata, hidden_cells_config, is_setup_cell  # noqa: E402

ROOT = webassets.ROOT
SENTINEL = "EVALLIB-REVEAL"
PRESENTATION_CELL = "_ = el.style.presentation()  # larger text and lines for projection (added by make slides)"
_CHAPTER_LINK = re.compile(r"\]\(((?:\.\./)?)(\d\d_[A-Za-z0-9_]+)\.ipynb(#[^)]*)?\)")
SWITCH = {"en": "中文", "zh": "English"}


def chapters(lang="both"):
    """The chapter notebooks of an edition ("en", "zh" = notebooks/zh/, or "both")."""
    en = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    zh = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
    return {"en": en, "zh": zh, "both": en + zh}[lang]


def lang_of(path: Path) -> str:
    return "zh" if path.parent.name == "zh" else "en"


def rewrite_chapter_links(nb, suffix):
    """Markdown links between chapters (``05_roc_pr_curves.ipynb``, a Chinese chapter's ``../05_...``) point to
    the exported file instead."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _CHAPTER_LINK.sub(
                lambda m: f"]({m.group(1)}{m.group(2)}{suffix}{m.group(3) or ''})", cell.source
            )
    return nb


def execute_presentation(nb, path):
    from nbclient import NotebookClient

    nb = copy.deepcopy(nb)
    at = next(i for i, c in enumerate(nb.cells) if is_setup_cell(c)) + 1
    cell = nbformat.v4.new_code_cell(PRESENTATION_CELL)
    cell.metadata["slideshow"] = {"slide_type": "skip"}
    nb.cells.insert(at, cell)
    NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        extra_arguments=KERNEL_ARGS,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    return nb


def _assets():
    vend = webassets.ensure_vendor()
    rv, mj = vend["reveal.js"], vend["mathjax"]
    reveal_js = webassets.script_tag((rv / "dist/reveal.js").read_text(encoding="utf-8")) + webassets.script_tag(
        (rv / "plugin/notes/notes.js").read_text(encoding="utf-8")
    )
    mathjax_head = webassets.script_tag(webassets.MATHJAX_CONFIG) + webassets.script_tag(
        (mj / "es5/tex-svg-full.js").read_text(encoding="utf-8")
    )
    styles = {
        f"{SENTINEL}/dist/reveal.css": webassets.style_tag((rv / "dist/reveal.css").read_text(encoding="utf-8")),
        f"{SENTINEL}/dist/theme/white.css": webassets.style_tag(
            (rv / "dist/theme/white.css").read_text(encoding="utf-8")
        ),
    }
    vega_js = webassets.script_tag(webassets.vega_js(vend))  # the explorers: drawn in the deck, no kernel
    return {"reveal_js": reveal_js, "mathjax_head": mathjax_head, "vega_js": vega_js}, styles


_EXPORTERS = threading.local()  # one SlidesExporter per thread and language: its templates compile once


def _exporter(lang):
    from nbconvert import SlidesExporter

    cache = _EXPORTERS.__dict__.setdefault("by_lang", {})
    if lang not in cache:
        cache[lang] = webassets.soup_free(SlidesExporter)(
            config=hidden_cells_config(),
            template_name="evallib_slides",
            extra_template_basedirs=[str(webassets.TEMPLATES)],
            reveal_url_prefix=SENTINEL,
            reveal_theme="white",
            reveal_transition="none",
            reveal_number="c/t",
            exclude_input_prompt=True,
            exclude_output_prompt=True,
            language_code=lang,
        )
    return cache[lang]


def export_one(path: Path, out_dir: Path, execute: bool, assets) -> tuple[Path, float]:
    t0 = time.perf_counter()
    resources_extra, styles = assets
    nb = add_slide_metadata(nbformat.read(path, as_version=4))
    if execute:
        nb = execute_presentation(nb, path)
    lang = lang_of(path)
    nb = rewrite_chapter_links(nb, ".slides.html")
    other = f"../{path.stem}.slides.html" if lang == "zh" else f"zh/{path.stem}.slides.html"
    has_twin = lang == "zh" or (ROOT / "notebooks" / "zh" / path.name).exists()
    switch = f'<a class="evallib-lang" href="{other}">{SWITCH[lang]}</a>' if has_twin else ""
    out_dir = out_dir / "zh" if lang == "zh" else out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    # The inlined scripts (reveal.js, MathJax, vega: about 4 MB) go in after nbconvert: a literal "<img" in them
    # must not meet webassets.accessible (which once was nbconvert's BeautifulSoup pass over the whole page).
    marks = {key: f"<!--{SENTINEL}-{key}-->" for key in resources_extra}
    html, _ = _exporter(lang).from_notebook_node(
        nb, resources={"evallib": {**marks, "switch": switch}, "metadata": {"name": path.stem}}
    )
    for key, mark in marks.items():
        assert html.count(mark) == 1, f"{key}: the deck template changed (expected it once, found {html.count(mark)})"
        html = html.replace(mark, resources_extra[key])
    for href, tag in styles.items():
        html, n = re.subn(rf'<link\b[^>]*\bhref="{re.escape(href)}"[^>]*>', lambda m: tag, html)
        assert n == 1, f"{href}: the reveal template changed (expected one <link> to it, found {n})"
    left = webassets.external_refs(html)
    assert not left and SENTINEL not in html, f"{path.name}: the deck would load {left or SENTINEL} from the network"
    target = out_dir / f"{path.stem}.slides.html"
    target.write_text(html, encoding="utf-8")
    return target, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "notebooks",
        nargs="*",
        type=Path,
        help="chapter notebooks (default: every chapter of the editions --lang names)",
    )
    ap.add_argument("--lang", choices=("en", "zh", "both"), default="both", help="which edition (default: both)")
    ap.add_argument("--out", type=Path, default=ROOT / "_build" / "slides")
    ap.add_argument("--no-execute", action="store_true", help="use the stored outputs (no kernel, fast)")
    ap.add_argument("--jobs", type=int, default=2, help="chapters exported at once (default 2: one per core)")
    args = ap.parse_args(argv)
    apply_env()
    paths = [p.resolve() for p in args.notebooks] or chapters(args.lang)
    args.out.mkdir(parents=True, exist_ok=True)
    assets = _assets()
    t0 = time.perf_counter()
    failed = []

    def run(p):
        try:
            target, dt = export_one(p, args.out, not args.no_execute, assets)
            print(
                f"{target.relative_to(args.out.parent) if args.out.parent in target.parents else target}: {dt:.1f} s",
                flush=True,
            )
        except Exception as exc:  # show every broken chapter
            failed.append(p.name)
            print(f"FAILED {p.name}: {type(exc).__name__}: {str(exc)[-1500:]}", flush=True)

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        list(pool.map(run, paths))
    print(f"{len(paths) - len(failed)} deck(s) in {args.out} in {time.perf_counter() - t0:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
