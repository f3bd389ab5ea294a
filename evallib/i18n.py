"""The learner's language (issue 16): English by default, Chinese after ``el.setup_notebook(seed=0, lang="zh")``.

evallib speaks to the learner in three places, and each looks its sentences up here:

- explorers (:mod:`evallib.widgets`): titles, control labels and readouts, through :func:`ui` and :func:`say`,
  and every other sentence of evallib (:func:`gettext`): one gettext catalog per language,
  ``evallib/locale/<lang>/LC_MESSAGES/evallib.po``, whose msgids are the English sentences;
- grading feedback (:mod:`evallib.grading`, ``scripts/autograde.py``): the sentences of
  :mod:`evallib.grading_messages` (English msgids, translated through the same catalog) and the exercise sets'
  own sentences (problem titles, hints, the "known mistake" messages of the checks, hidden tests' failure messages), which the translator puts
  in the set's catalog ``exercises/zh/NN_topic.po`` next to its Markdown cells; :func:`translate` finds them.

The language is one process-wide setting (:func:`set_language`), which a thread can override for a block
(:func:`language`): the autograder grades Chinese and English submissions side by side in worker threads.
Figures keep English labels (no CJK font is assumed; see :func:`cjk_font`).
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from ._validation import validate_params

__all__ = [
    "LANGUAGES",
    "set_language",
    "get_language",
    "language",
    "gettext",
    "N_",
    "ui",
    "say",
    "translate",
    "cjk_font",
    "LOCALE_DIR",
]

LANGUAGES = ("en", "zh")
_default = "en"
_local = threading.local()


def _check(code):
    if not isinstance(code, str):
        raise TypeError(f"code: the language must be a string such as 'en' or 'zh', got {type(code).__name__}")
    code = {"zh-cn": "zh", "zh_cn": "zh", "zh-hans": "zh", "en-us": "en", "en_us": "en"}.get(code.lower(), code.lower())
    if code not in LANGUAGES:
        raise ValueError(f"code: the language must be one of {', '.join(map(repr, LANGUAGES))}, got {code!r}")
    return code


@validate_params({"code": ["str"]})  # the language code and its aliases: _check
def set_language(code: str) -> None:
    """Set the learner's language for this process: ``"en"`` (default) or ``"zh"``."""
    global _default
    _default = _check(code)


def get_language() -> str:
    """The current language (this thread's override if any, else the process-wide setting)."""
    return getattr(_local, "lang", None) or _default


@validate_params({"code": ["str"]})
def language(code: str):
    """Speak ``code`` in this thread inside the ``with`` block (the autograder: one submission per thread)."""
    return _language(_check(code))  # checked at the call, not only when the block is entered


@contextlib.contextmanager
def _language(code: str):
    before = getattr(_local, "lang", None)
    _local.lang = code
    try:
        yield code
    finally:
        _local.lang = before


# ---------------------------------------------------------------------------------------- evallib's own strings
# One mechanism (gettext): every learner-facing string of evallib is an English msgid; its translation is in the
# catalog evallib/locale/<lang>/LC_MESSAGES/evallib.po (extracted with Babel: scripts/evallib_catalog.py,
# `make translate-update`). A missing or fuzzy entry shows the English (translations follow, they never block).
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
_CATALOGS: dict = {}
_CATALOG_LOCK = threading.Lock()


def _catalog(lang):
    """{English msgid: translation} of evallib's catalog for ``lang`` (read once; polib parses the .po)."""
    with _CATALOG_LOCK:
        if lang not in _CATALOGS:
            table = {}
            po = LOCALE_DIR / lang / "LC_MESSAGES" / "evallib.po"
            if po.is_file():
                import polib

                for e in polib.pofile(str(po)):
                    if e.msgstr and not e.obsolete and "fuzzy" not in e.flags:
                        table[e.msgid] = e.msgstr
            _CATALOGS[lang] = table
        return _CATALOGS[lang]


@validate_params({"message": ["str"]})
def gettext(message: str) -> str:
    """``message`` (English) in the current language: its catalog entry, or the English when there is none."""
    lang = get_language()
    if lang == "en":
        return message
    return _catalog(lang).get(message, message)


_ = gettext


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (gettext_noop): tables of English msgids."""
    return message


@validate_params({"text": ["str"]})
def ui(text: str) -> str:
    """An explorer's title or control label in the current language (English when the catalog has no entry)."""
    return gettext(text)


@validate_params({"template": ["str"]})
def say(template: str, /, **fields) -> str:
    """An explorer's readout in the current language: ``template`` (English, ``str.format`` fields) or its catalog
    entry (same fields, same numbers), formatted with ``fields``.

    >>> say("degree {d}, noise_std {s:.2f}, {n} data sets of {m} points", d=3, s=0.25, n=50, m=20)
    'degree 3, noise_std 0.25, 50 data sets of 20 points'
    """
    try:
        return gettext(template).format(**fields)
    except (KeyError, IndexError) as exc:
        raise ValueError(f"template needs the field {exc} (give it as a keyword argument)") from None


# ---------------------------------------------------------------------------------------- exercise sets
_FREE: dict = {}  # lang -> {(context, English): translation}, read from the exercise catalogs
_FREE_LOCK = threading.Lock()


def _catalog_dirs(lang):
    dirs = [Path(d).parent / lang for d in os.environ.get("EVALLIB_EXERCISES", "").split(os.pathsep) if d]
    here = Path.cwd()
    dirs += [
        here / "exercises" / lang,
        here.parent / "exercises" / lang,
        here.parent.parent / "exercises" / lang,
        Path(__file__).resolve().parent.parent / "exercises" / lang,
    ]
    seen, out = set(), []
    for d in dirs:
        r = d.resolve()
        if r not in seen and r.is_dir():
            seen.add(r)
            out.append(r)
    return out


def _load_free(lang):
    """Every translated, non-fuzzy entry with a context (titles, hints, checks' sentences) of the catalogs."""
    import polib

    table = {}
    for d in _catalog_dirs(lang):
        for po in sorted(d.glob("[0-9][0-9]_*.po")):
            for e in polib.pofile(str(po)):
                if e.msgctxt and e.msgstr and not e.obsolete and "fuzzy" not in e.flags:
                    table.setdefault((e.msgctxt, e.msgid), e.msgstr)
                    table.setdefault((None, e.msgid), e.msgstr)
    return table


@validate_params({"text": [None, "str"], "context": [None, "str"]})
def translate(text, context=None):
    """``text`` (an English sentence of an exercise set) in the current language; unchanged in English or when
    no catalog translates it. ``context`` is the catalog's msgctxt (``"hint"``, ``"title"``, ``"check"``, ...)."""
    if text is None:  # a problem without a hint
        return text
    lang = get_language()
    if lang == "en" or not text:
        return text
    with _FREE_LOCK:
        if lang not in _FREE:
            _FREE[lang] = _load_free(lang)
        table = _FREE[lang]
    # a sentence with values is a template looked up as it stands (evallib.grading.tr formats it afterwards)
    return table.get((context, text)) or table.get((None, text)) or text


def reload_catalogs() -> None:
    """Forget the catalogs read so far (after a translator edited one in a running kernel)."""
    with _FREE_LOCK:
        _FREE.clear()
    with _CATALOG_LOCK:
        _CATALOGS.clear()


# ---------------------------------------------------------------------------------------- figures
def cjk_font():
    """The name of an installed font with Chinese glyphs (Noto Sans CJK, from Debian's fonts-noto-cjk), or None.

    Figures keep English labels; a lecturer who wants Chinese labels can pass this font to matplotlib. Nothing in
    the course (or its tests) depends on it being present.
    """
    from matplotlib import font_manager

    for f in font_manager.fontManager.ttflist:
        if "CJK" in f.name and ("SC" in f.name or "Sans CJK" in f.name):
            return f.name
    return None
