"""evallib's own gettext catalog (issue 27): extract its learner-facing strings with Babel, merge them into
evallib/locale/<lang>/LC_MESSAGES/evallib.po, and list what a translator still has to do.

Strings are marked in the code by the calls ``ui("…")``, ``say("…", …)``, ``gettext("…")``/``_("…")`` and
``N_("…")`` (a table of English msgids, e.g. evallib.grading_messages.MESSAGES). ``make translate-update`` runs
:func:`update`; ``make translate-status`` prints :func:`status`.

    python -m scripts.evallib_catalog update|status|check
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "evallib"
LOCALE = PACKAGE / "locale"
KEYWORDS = {
    "ui": None,
    "say": None,
    "gettext": None,
    "_": None,
    "N_": None,
    "slider": (5,),
    "menu": (3,),
}  # an explorer control's label: slider(value, lo, hi, step, label), menu(value, options, label)
LANGS = ("zh",)


def catalog_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "evallib.po"


def extract() -> dict[str, list[str]]:
    """{msgid: ["evallib/file.py:line", ...]} of every marked string in evallib (Babel's Python extractor)."""
    from babel.messages.extract import extract_from_dir

    found: dict[str, list[str]] = {}
    for filename, lineno, message, _comments, _ctx in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True
    ):
        if isinstance(message, tuple):  # plural forms: not used by evallib
            message = message[0]
        if message:
            found.setdefault(message, []).append(f"evallib/{filename}:{lineno}")
    return found


def fields(text: str) -> list[str]:
    """The str.format fields of ``text`` (names and format specs), sorted."""
    return sorted(f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(text) if name is not None)


def update(lang: str = "zh") -> tuple[int, int]:
    """Merge the extracted msgids into the catalog: new ones are added untranslated, vanished ones are removed
    (no obsolete ``#~`` entries are kept), translations stay. Returns (added, removed)."""
    import polib

    path = catalog_path(lang)
    po = polib.pofile(str(path)) if path.exists() else polib.POFile()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        po.metadata = {
            "Project-Id-Version": "evallib",
            "Language": lang,
            "MIME-Version": "1.0",
            "Content-Type": "text/plain; charset=UTF-8",
            "Content-Transfer-Encoding": "8bit",
        }
    found = extract()
    have = {e.msgid: e for e in po}
    removed = [e for e in po if e.msgid not in found]
    for e in removed:
        po.remove(e)
    added = 0
    for msgid, where in found.items():
        e = have.get(msgid)
        if e is None:
            e = polib.POEntry(msgid=msgid, msgstr="")
            po.append(e)
            added += 1
        e.occurrences = [tuple(w.rsplit(":", 1)) for w in where]
        if "{" in msgid and "python-brace-format" not in e.flags:
            e.flags.append("python-brace-format")
    po.wrapwidth = 0
    po.save(str(path))
    return added, len(removed)


def problems(lang: str = "zh") -> list[str]:
    """What a translator has to do in the catalog (untranslated, fuzzy, fields that differ), one line each."""
    import polib

    path = catalog_path(lang)
    if not path.exists():
        return [f"{path.relative_to(ROOT)}: no catalog (make translate-update)"]
    out = []
    found = extract()
    po = polib.pofile(str(path))
    have = {e.msgid for e in po}
    for msgid in found:
        if msgid not in have:
            out.append(f"missing: {msgid!r} ({found[msgid][0]})")
    for e in po:
        if not e.msgstr:
            out.append(f"untranslated: {e.msgid!r}")
        elif "fuzzy" in e.flags:
            out.append(f"fuzzy: {e.msgid!r}")
        elif fields(e.msgid) != fields(e.msgstr):
            out.append(f"fields differ: {e.msgid!r} -> {e.msgstr!r}")
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    what = argv[0] if argv else "status"
    for lang in LANGS:
        if what == "update":
            added, removed = update(lang)
            print(f"evallib catalog ({lang}): {added} new msgids, {removed} removed")
        elif what in ("status", "check"):
            todo = problems(lang)
            print(f"evallib catalog ({lang}): {len(todo)} to translate" + (":" if todo else ""))
            for line in todo:
                print("  " + line)
        else:
            print(__doc__)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
