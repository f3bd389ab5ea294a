"""What the slide decks and the static site need from the web, kept offline (`make slides`, `make site`).

nbconvert's templates load reveal.js, MathJax, require.js, jQuery and mermaid from CDNs; our machines (and a
projector's laptop in a lecture hall) may reach none. So:

* reveal.js 4 and MathJax 3 come from the **npm registry** at build time (``npm pack``, pinned versions below),
  unpacked once into ``_build/vendor/`` (git-ignored; ``EVALLIB_VENDOR_DIR`` moves it) and reused;
* the templates in ``scripts/templates/`` replace every CDN tag: decks inline reveal.js, its theme, the
  speaker-notes plugin and MathJax (one HTML file per chapter, nothing else to copy); site pages load
  MathJax from the site's own ``_static/``; require.js, jQuery and mermaid are not used.

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
    "reveal.js": ("4.6.1", ["dist/reveal.css", "dist/reveal.js", "dist/theme/white.css", "plugin/notes/notes.js",
                            "LICENSE"]),
    "mathjax": ("3.2.2", ["es5/tex-svg-full.js", "LICENSE"]),
}

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
                raise SystemExit(f"npm is needed once to fetch {name}@{version} from the npm registry "
                                 "(Debian: apt-get install npm), or put its files under " + str(dest))
            with tempfile.TemporaryDirectory() as tmp:
                if verbose:
                    print(f"fetching {name}@{version} from the npm registry (npm pack) ...", flush=True)
                r = subprocess.run([npm, "pack", f"{name}@{version}", "--json", "--pack-destination", tmp],
                                   capture_output=True, text=True, timeout=300)
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
