"""What the slide decks and the static site need from the web, kept offline (`make slides`, `make site`).

nbconvert's templates load reveal.js, MathJax, require.js, jQuery and mermaid from CDNs; our machines (and a
projector's laptop in a lecture hall) may reach none. So:

* reveal.js 4, MathJax 3, and vega, vega-lite and vega-embed (the explorers) come from the **npm registry** at
  build time (``npm pack``, pinned versions below), unpacked once into ``_build/vendor/`` (git-ignored; ``EVALLIB_VENDOR_DIR`` moves it) and reused;
* the templates in ``scripts/templates/`` replace every CDN tag: decks inline reveal.js, its theme, the
  speaker-notes plugin, MathJax and vega (one HTML file per chapter, nothing else to copy); site pages load
  MathJax and vega from the site's own ``_static/``; require.js, jQuery and mermaid are not used. An explorer
  is a stored Vega-Lite spec: the page draws it (``VEGA_BOOT``) and its controls move with no kernel.

:func:`external_refs` lists any ``http(s)://`` script or stylesheet left in a page (the tests assert none).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "templates"

# npm package -> (version, files to keep, relative to the package root)
PACKAGES = {
    "reveal.js": (
        "4.6.1",
        ["dist/reveal.css", "dist/reveal.js", "dist/theme/white.css", "plugin/notes/notes.js", "LICENSE"],
    ),
    "mathjax": ("3.2.2", ["es5/tex-svg-full.js", "LICENSE"]),
    # the explorers (issue 26): Vega-Lite specs drawn in the page. vega-lite 5.20.1 is the version Altair 5.5
    # writes its specs for; vega and vega-embed are the releases it is built and tested with.
    "vega": ("5.33.0", ["build/vega.min.js", "LICENSE"]),
    "vega-lite": ("5.20.1", ["build/vega-lite.min.js", "LICENSE"]),
    "vega-embed": ("6.29.0", ["build/vega-embed.min.js", "LICENSE"]),
}
VEGA_FILES = [
    ("vega", "build/vega.min.js"),
    ("vega-lite", "build/vega-lite.min.js"),
    ("vega-embed", "build/vega-embed.min.js"),
]
VEGA_MIME = "application/vnd.vegalite.v5+json"

# Draws every explorer of a page: each stored output of type VEGA_MIME is a <script type=VEGA_MIME> holding the
# spec (scripts/templates/*/index.html.j2); vegaEmbed draws it into a <div> before it. A slide that is not shown
# has no width yet: it is drawn when reveal.js shows it.
VEGA_BOOT = """(function () {
  function draw(s) {
    if (s.evallibDone) return;
    var d = s.previousElementSibling;
    if (!d || d.offsetWidth === 0) return;
    s.evallibDone = true;
    vegaEmbed(d, JSON.parse(s.textContent), {actions: false, renderer: 'svg'}).then(function (r) {
      d.evallibView = r.view; d.setAttribute('data-evallib-vega', 'ready');
    }).catch(function (e) { d.setAttribute('data-evallib-vega', 'error'); d.textContent = String(e); });
  }
  function all() {
    document.querySelectorAll('script[type="VEGA_MIME"]').forEach(function (s) {
      if (!s.previousElementSibling || !s.previousElementSibling.classList.contains('evallib-vega')) {
        var d = document.createElement('div'); d.className = 'evallib-vega'; s.parentNode.insertBefore(d, s);
      }
      draw(s);
    });
  }
  window.evallibDrawCharts = all;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', all); else all();
  if (window.Reveal) { Reveal.on('ready', all); Reveal.on('slidechanged', all); }
})();""".replace("VEGA_MIME", VEGA_MIME)


def vega_js(vend: dict) -> str:
    """vega, vega-lite and vega-embed (unpacked by :func:`ensure_vendor`), concatenated, then the boot script."""
    return ";\n".join((vend[name] / f).read_text(encoding="utf-8") for name, f in VEGA_FILES) + ";\n" + VEGA_BOOT


MATHJAX_CONFIG = """window.MathJax = {
  tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']], displayMath: [['$$', '$$'], ['\\\\[', '\\\\]']],
        processEscapes: true, processEnvironments: true},
  svg: {fontCache: 'global'},
  options: {ignoreHtmlClass: 'jp-CodeCell|jp-OutputArea', processHtmlClass: 'jp-MarkdownOutput|jp-RenderedMarkdown'}
};"""


def vendor_dir() -> Path:
    return Path(os.environ.get("EVALLIB_VENDOR_DIR", ROOT / "_build" / "vendor"))


def ensure_vendor(verbose=True) -> dict[str, Path]:
    """The unpacked npm packages (name -> folder), fetched with ``npm pack`` the first time."""
    out = {}
    for name, (version, files) in PACKAGES.items():
        dest = vendor_dir() / f"{name}-{version}"
        if not all((dest / f).is_file() for f in files):
            npm = shutil.which("npm")
            if npm is None:
                raise SystemExit(
                    f"npm is needed once to fetch {name}@{version} from the npm registry "
                    "(Debian: apt-get install npm), or put its files under " + str(dest)
                )
            with tempfile.TemporaryDirectory() as tmp:
                if verbose:
                    print(f"fetching {name}@{version} from the npm registry (npm pack) ...", flush=True)
                r = subprocess.run(
                    [npm, "pack", f"{name}@{version}", "--json", "--pack-destination", tmp],
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
                if r.returncode:
                    raise SystemExit(f"npm pack {name}@{version} failed:\n{r.stderr[-2000:]}")
                tgz = Path(tmp) / json.loads(r.stdout)[0]["filename"]
                with tarfile.open(tgz) as tar:
                    for f in files:
                        member = tar.getmember(f"package/{f}")
                        data = tar.extractfile(member).read()
                        (dest / f).parent.mkdir(parents=True, exist_ok=True)
                        (dest / f).write_bytes(data)
        out[name] = dest
    return out


def script_tag(js: str) -> str:
    """A <script> element holding ``js`` inline (a literal ``</script`` inside is escaped)."""
    return "<script>" + re.sub(r"</(script)", r"<\\/\1", js, flags=re.I) + "</script>"


def style_tag(css: str) -> str:
    css = re.sub(r"@import url\([^)]*\);?", "", css)  # reveal's theme imports web fonts: system fonts instead
    return "<style>" + css + "</style>"


_EXTERNAL = re.compile(r"<(script|link|img|iframe)\b[^>]*?\b(src|href)\s*=\s*[\"']((?:https?:)?//[^\"']+)", re.I)


def external_refs(html: str) -> list[str]:
    """URLs of scripts, stylesheets, images or frames a page would fetch from the network."""
    return [m.group(3) for m in _EXTERNAL.finditer(html)]


# --- nbconvert without its BeautifulSoup pass ---------------------------------------------------------------------
NO_ALT = "No description has been provided for this image"
_IMG = re.compile(r"<img\b[^>]*>", re.I)
_DIV = re.compile(r'<div\b[^>]*\bclass="([^"]*)"[^>]*>')
_NOTEBOOK = re.compile(r'<[a-z][a-z0-9]*\b[^>]*\bclass="(?:[^"]*\s)?jp-Notebook(?:\s[^"]*)?"')
_FOCUSABLE = frozenset({"jp-Cell-inputWrapper", "jp-OutputArea-output"})
_CHARREF = re.compile(r"&#(?:([0-9]+)|[xX]([0-9a-fA-F]+));")


def _add_attr(tag: str, attr: str) -> str:
    end = len(tag) - (2 if tag.endswith("/>") else 1)
    return tag[:end].rstrip() + f" {attr}" + tag[end:]


def accessible(html: str) -> str:
    """What nbconvert's HTMLExporter does to a page in its BeautifulSoup pass, done without parsing the page:
    ``alt`` on every image that has none, ``tabindex="0"`` on the cells' inputs and outputs inside the notebook
    (keyboard focus), and non-ASCII characters as themselves (the headings come out of nbconvert as ``&#183;``,
    a Chinese heading all character references). tests/test_classroom.py checks the result against nbconvert's."""

    def char(m):
        cp = int(m.group(1)) if m.group(1) else int(m.group(2), 16)
        return chr(cp) if 127 < cp < 0x110000 and not 0xD800 <= cp < 0xE000 else m.group(0)

    def img(m):
        tag = m.group(0)
        return tag if re.search(r"\salt\s*=", tag) else _add_attr(tag, f'alt="{NO_ALT}"')

    def div(m):
        tag = m.group(0)
        if _FOCUSABLE & set(m.group(1).split()) and not re.search(r"\stabindex\s*=", tag):
            return _add_attr(tag, 'tabindex="0"')
        return tag

    html = _IMG.sub(img, _CHARREF.sub(char, html))
    nb = _NOTEBOOK.search(html)
    return html if nb is None else html[: nb.start()] + _DIV.sub(div, html[nb.start() :])


def soup_free(exporter_cls):
    """``exporter_cls`` (nbconvert's HTMLExporter or SlidesExporter) without the BeautifulSoup pass that
    HTMLExporter.from_notebook_node runs over every page it renders: it re-parsed and re-serialised each page to
    add two attributes, which was more than half of `make site` (20.8 s -> 7.7 s of CPU) and much of `make
    slides`. The page is the template's, with :func:`accessible` adding those attributes. The filters are
    registered as HTMLExporter.from_notebook_node registers them (nbconvert 7)."""
    from nbconvert.exporters.templateexporter import TemplateExporter
    from nbconvert.filters.highlight import Highlight2HTML
    from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

    class SoupFree(exporter_cls):
        def from_notebook_node(self, nb, resources=None, **kw):
            langinfo = nb.metadata.get("language_info", {})
            lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
            highlight = self.filters.get("highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self))
            resources = self._init_resources(resources)
            datatypes = WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata, parent=self, resources=resources)
            self.register_filter("highlight_code", highlight)
            self.register_filter("filter_data_type", datatypes)
            html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
            return accessible(html), resources

    SoupFree.__name__ = SoupFree.__qualname__ = f"SoupFree{exporter_cls.__name__}"
    return SoupFree
