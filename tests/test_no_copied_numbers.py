"""Issue 29: a number is computed where it is shown, never copied from another chapter's output.

Two checks over every chapter source's code cells:
* a line that assigns a number literal must not carry a comment saying the number comes from another chapter (or
  from a stored output): the class of chapter 14's old ``ch03_best_score, ch03_nested = 0.5267, 0.4900  # chapter
  03, section 4 (stored output)``;
* a number literal with four or more significant decimals must not equal a number another chapter prints (its
  stored outputs).
Both are run on the old chapter 14 text too, which they must reject.
"""

import io
import json
import re
import tokenize
from pathlib import Path

import jupytext
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CHAPTERS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.md"))

NUMBER = re.compile(r"(?<![\w.])[-+]?\d+\.\d{3,}(?![\w.])")  # 0.5267, 12.345: a measured-looking value
ASSIGNED_LITERAL = re.compile(r"^\s*[\w\s,\[\]().]+=\s*[-+(\[\s]*\d[\d_.,\s()\[\]+-]*(#|$)")
FROM_ELSEWHERE = re.compile(
    r"#.*(\bchapter\s*\d|\bch\.?\s*\d|\bnotebook\s*\d|stored output|printed (by|in)|第\s*\d+\s*章)", re.IGNORECASE
)


def _code(text):
    nb = jupytext.reads(text, fmt="md:myst")
    return [c.source for c in nb.cells if c.cell_type == "code"]


def copied_assignments(text):
    """Lines of a chapter source's code that assign number literals said (in a comment) to come from elsewhere."""
    out = []
    for src in _code(text):
        for line in src.splitlines():
            if ASSIGNED_LITERAL.match(line) and FROM_ELSEWHERE.search(line):
                out.append(line.strip())
    return out


def _printed_numbers(ipynb):
    nb = json.loads(ipynb.read_text(encoding="utf-8"))
    text = "\n".join(
        "".join(o.get("text", ""))
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if o.get("output_type") == "stream"
    )
    return {float(m.group(0)) for m in NUMBER.finditer(text)}


PRINTED = {p.stem: _printed_numbers(p.with_suffix(".ipynb")) for p in CHAPTERS if p.with_suffix(".ipynb").exists()}


def _number_tokens(src):
    """The number literals of Python code (not digits inside strings or comments)."""
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(src).readline) if t.type == tokenize.NUMBER]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return NUMBER.findall(re.sub(r"(#.*|'[^'\n]*'|\"[^\"\n]*\")", "", src))


def literals_printed_elsewhere(text, stem):
    """Number literals with four or more significant decimals (0.5267, not 0.5000 or 0.125) in a chapter's code that
    another chapter prints."""
    out = []
    for src in _code(text):
        for tok in _number_tokens(src):
            if not NUMBER.fullmatch(tok):
                continue
            value = float(tok)
            if value == round(value, 3):  # 0.005, 2.125, 0.5000: too common to say where they came from
                continue
            others = [o for o, nums in PRINTED.items() if o != stem and value in nums]
            if others:
                out.append(f"{tok} (printed by {', '.join(others)})")
    return out


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_literal_said_to_come_from_another_chapter(path):
    assert copied_assignments(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_literal_equals_another_chapters_printed_number(path):
    assert literals_printed_elsewhere(path.read_text(encoding="utf-8"), path.stem) == []


OLD_CH14_CELL = """```{code-cell} ipython3
ch03_best_score, ch03_nested = 0.5267, 0.4900   # chapter 03, section 4 (stored output)
print(f"winner's own CV score {ch03_best_score:.4f}, nested CV {ch03_nested:.4f}")
```
"""


def test_the_checks_reject_the_old_chapter_14():
    assert copied_assignments(OLD_CH14_CELL) == [
        "ch03_best_score, ch03_nested = 0.5267, 0.4900   # chapter 03, section 4 (stored output)"
    ]
    # the second check: the same cell written with the value chapter 03 prints now
    coin_best = f"{_ch03_best_score():.4f}"
    assert literals_printed_elsewhere(OLD_CH14_CELL.replace("0.5267", coin_best), "14_pitfalls")
    # and a computed value passes both
    ok = "```{code-cell} ipython3\ncoin = el.tuning.coin_flip_tuning()   # chapter 03's call\n```\n"
    assert copied_assignments(ok) == [] and literals_printed_elsewhere(ok, "14_pitfalls") == []


def _ch03_best_score():
    import evallib as el

    return el.tuning.coin_flip_tuning().best_score
