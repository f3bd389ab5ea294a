"""Every 式(...) reference in the course names the equation the book gives that number (西瓜书 chapter 2, 式(2.1)–(2.42)).

The table below is the book's numbering, each equation with the words and symbols the course uses for it. A
reference passes when a quantity named next to it (on its line, back to the previous reference; in a code
comment, the assigned name) belongs to one of the referenced equations, and fails when the quantities named there
all belong to other equations; a reference with no named quantity nearby passes only as part of a chapter or
module heading (a range, or next to a § section number or 西瓜书). Numbers outside 2.1–2.42 fail.
Scanned: every chapter source (notebooks/*.md, chapters added later included), every exercise source
(exercises/source/*.md), every evallib module (docstrings and comments), and the Chinese edition: the
translations of every catalog (notebooks/zh/*.po, exercises/zh/*.po) and README.zh-CN.md.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# number -> keywords (regular expressions, case-insensitive) naming that equation's quantity
BOOK = {
    1: ("bootstrap", r"自助", r"\(1\s*[-−]\s*1/m\)\^m", r"1/e", "never drawn", "out-of-bag", "63.2"),
    2: ("mean squared error", r"\bMSE\b", "均方误差"),
    3: ("mean squared error", r"\bMSE\b", "均方误差"),
    4: ("error rate", r"错误率", r"E\s*=\s*a/m", r"\berror_rate\b", r"\bE\(f;\s*D\)"),
    5: ("accuracy", "精度", r"\bacc\b", r"1\s*[-−]\s*E"),
    6: ("error rate", "错误率", "accuracy", "精度"),
    7: ("error rate", "错误率", "accuracy", "精度"),
    8: ("precision", "查准率", r"\bP\s*=\s*TP"),
    9: ("recall", "查全率", r"\bR\s*=\s*TP"),
    10: (r"\bF1\b",),
    11: ("F-beta", r"F_?β", r"\bfbeta\b", r"F_beta"),
    12: ("macro",),
    13: ("macro",),
    14: ("macro",),
    15: ("micro",),
    16: ("micro",),
    17: ("micro",),
    18: (r"\bTPR\b", "true positive rate", r"\bROC\b"),
    19: (r"\bFPR\b", "false positive rate", r"\bROC\b"),
    20: (r"AUC", "trapezoid", "area under"),
    21: ("ranking loss", r"ℓ_rank", r"l_rank", r"rank_loss", r"\\ell_\\text\{rank\}", "misordered"),
    22: (r"\bAUC\b", r"1\s*[-−]\s*ℓ_rank", r"1 - \\ell"),
    23: ("cost-sensitive error", "代价敏感错误率", r"cost_fn", r"\bcost\b", r"cost(01|10)"),
    24: ("probability cost", "正例概率代价", r"P\(\+\)\s*cost", "probability cost x"),
    25: (r"normali[sz]ed[ _]cost", "归一化代价", r"cost_norm"),
    26: ("binomial", "二项", r"Binomial\(m"),
    27: ("critical", "临界", r"ε̄", r"\\bar\\varepsilon", "binomial test"),
    28: (r"\bμ\b", r"\bmean\b", r"\\mu\b"),
    29: (r"σ²", r"\bvariance\b", r"\\sigma\^2"),
    30: (r"τ_t", r"\bt-test\b", r"\\tau_t", "one-sample"),
    31: ("paired t-test", "cross-validated paired", r"k-fold", "交叉验证 t"),
    32: (r"5\s*[×x]\s*2", r"5x2cv", "5×2cv"),
    33: ("McNemar", r"e01", r"τ_χ²", "列联表"),
    34: ("Friedman", r"τ_χ²", r"\\tau_\{\\chi\^2\}", r"χ² form", r"tau_chi2", r"chi2"),
    35: (r"τ_F", r"\\tau_F", r"F form", r"tau_F", "Friedman"),
    36: ("Nemenyi", r"\bCD\b", "critical difference", "临界值域", r"q_α"),
    37: ("expected prediction", "mean prediction", r"\bmean_pred\b", r"f̄", r"\\bar f", r"\bf_bar\b", r"mean f̄"),
    38: ("variance", "方差", r"\bvar\b"),
    39: ("noise", "噪声", r"ε²"),
    40: (r"bias", "偏差"),
    41: ("expected error", r"E\(f;\s*D\)", r"\berr\b", r"\bexpected\b", "derivation", "cross term"),
    42: (
        "decomposition",
        r"bias(²|\}\^2)?(\(x\))?\s*\+\s*(\\operatorname\{)?var",
        "residual",
        r"bias², variance,? and noise",
        r"bias2 \+ variance",
        "identity",
        "bias–variance",
        "bias-variance",
        "squared loss",
        r"偏差-方差",
    ),
}
# The Chinese edition's words for the same quantities (notebooks/zh/*.po, exercises/zh/*.po: the translations).
ZH = {
    1: ("包外", r"\(1\s*[-−]\s*1/m\)"),
    4: ("错误率",),
    5: ("精度",),
    8: ("查准率",),
    9: ("查全率",),
    11: (r"F_?β", "F_beta"),
    12: ("宏",),
    13: ("宏",),
    14: ("宏",),
    15: ("微",),
    16: ("微",),
    17: ("微",),
    18: ("真正例率",),
    19: ("假正例率",),
    20: ("曲线下面积", "梯形"),
    21: ("排序损失", "排错"),
    23: ("代价敏感", "代价"),
    24: ("正例概率代价",),
    26: ("二项",),
    27: ("临界",),
    28: ("均值",),
    29: ("方差",),
    30: ("t 检验",),
    31: ("成对 t 检验", "k 折"),
    32: ("5×2", "5 × 2"),
    33: ("McNemar",),
    34: ("卡方", "Friedman"),
    35: ("F 分布", "Friedman"),
    36: ("平均序值", "Nemenyi"),
    37: ("期望预测",),
    38: ("方差",),
    39: ("噪声",),
    40: ("偏差",),
    41: ("期望泛化误差", "交叉项", "推导"),
    42: ("分解", "偏差-方差", "残差", "期望平方误差", r"偏差²\s*\+\s*方差"),
}
for _n, _ks in ZH.items():
    BOOK[_n] = BOOK[_n] + tuple(k for k in _ks if k not in BOOK[_n])
# Each term of the decomposition 式(2.37)–(2.41) is also named by "the decomposition" or "the terms of" it.
for _n in range(37, 43):
    BOOK[_n] = BOOK[_n] + ("decomposition", "terms of", "分解")

KEYWORDS = [(re.compile(k, re.IGNORECASE), n) for n, ks in BOOK.items() for k in ks]
REF = re.compile(r"式\s*[（(]\s*2\.(\d+)\s*[)）](?:\s*[–\-—~至]\s*[（(]?\s*(?:2\.)?(\d+)\s*[)）]?)?")
ANY_REF = re.compile(r"式\s*[（(]\s*([0-9.]+)")


def _sources():
    files = sorted((ROOT / "notebooks").glob("*.md")) + sorted((ROOT / "exercises" / "source").glob("*.md"))
    files += sorted((ROOT / "evallib").rglob("*.py"))
    return [p for p in files if "zh" not in p.relative_to(ROOT).parts]


def _hits(text):
    """(start, end, equation numbers) of every keyword occurrence in ``text``."""
    out = []
    for rx, n in KEYWORDS:
        for m in rx.finditer(text):
            out.append((m.start(), m.end(), n))
    return out


def _before_window(text, start):
    """The text a reference's named quantity is looked for in, before it: its line back to the previous
    reference (or, in a code comment, the assigned name on the left of ``=``), continued into the previous
    line of the same paragraph when the line holds nothing before the reference."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if "#" in before and not before.lstrip().startswith("#"):  # code ... # 式(2.x): the assignment
        code = before[: before.index("#")]
        if "=" in code:
            return code[: code.index("=")]
    prev = list(ANY_REF.finditer(before))
    if prev:  # "P 式(2.8), R 式(2.9)": back to the last one
        cut = prev[-1].end()
        rest = before[cut:]
        rest = rest[rest.find(")") + 1 :] if ")" in rest[:3] else rest
        before = rest
    if not re.search(r"\w", before.replace("西瓜书", "")) and line_start > 0:
        prev_start = text.rfind("\n", 0, line_start - 1) + 1
        prev_line = text[prev_start : line_start - 1]
        if prev_line.strip():
            before = prev_line + " " + before
    return before


def _after_window(text, end):
    line_end = text.find("\n", end)
    after = text[end : line_end if line_end >= 0 else len(text)]
    nxt = ANY_REF.search(after)
    return after[: nxt.start()] if nxt else after


def check_reference(text, m):
    """None when the reference ``m`` (a REF match in ``text``) is right, else a message."""
    a = int(m.group(1))
    b = int(m.group(2)) if m.group(2) else a
    if not (1 <= a <= b <= 42):
        return f"式(2.{a}){'–(2.%d)' % b if b != a else ''}: the book's chapter 2 has 式(2.1)–(2.42)"
    wanted = set(range(a, b + 1))
    before, after = _before_window(text, m.start()), _after_window(text, m.end())
    near = before + " … " + after
    if not any(n in wanted for _, _, n in _hits(near)):  # the sentence may begin on the line above
        near = _previous_line(text, m.start()) + " " + near
    if not _hits(near):  # nothing named on the reference's own lines: its paragraph
        near = _paragraph(text, m.start())
    hits = _hits(near)
    if any(n in wanted for _, _, n in hits):
        return None
    if not hits:
        if b > a or "§" in text[max(0, m.start() - 200) : m.start()] or "西瓜书" in before:
            return None  # a heading's list of equations
        return f"式(2.{a}): no named quantity next to it"
    named = sorted({n for _, _, n in hits})
    words = sorted({near[s:e] for s, e, _ in hits})
    return (
        f"式(2.{a}){'–(2.%d)' % b if b != a else ''} next to {', '.join(words)}: quantities the book numbers "
        f"式(2.{'/'.join(str(n) for n in named)})"
    )


def _previous_line(text, pos):
    line_start = text.rfind("\n", 0, pos) + 1
    if line_start == 0:
        return ""
    prev = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
    return ANY_REF.split(prev)[-1] if prev.strip() else ""


def _paragraph(text, pos):
    """The lines around ``pos`` up to blank lines (at most two each way), without other references."""
    lines = text.split("\n")
    k = text.count("\n", 0, pos)
    lo, hi = k, k
    while lo > max(0, k - 2) and lines[lo - 1].strip():
        lo -= 1
    while hi < min(len(lines) - 1, k + 2) and lines[hi + 1].strip():
        hi += 1
    return ANY_REF.sub(" ", "\n".join(lines[lo : hi + 1]))


def _text(path):
    """A source's text; for a gettext catalog (the Chinese edition), its translations, one paragraph each."""
    if path.suffix == ".po":
        import polib

        return "\n\n".join(e.msgstr for e in polib.pofile(str(path)) if e.msgstr and not e.obsolete)
    return path.read_text(encoding="utf-8")


def _problems(path):
    text = _text(path)
    out = []
    for m in ANY_REF.finditer(text):
        if not REF.match(text, m.start()):
            out.append(
                f"line {text.count(chr(10), 0, m.start()) + 1}: {text[m.start() : m.start() + 12]!r} is not "
                "a chapter-2 equation number"
            )
    for m in REF.finditer(text):
        msg = check_reference(text, m)
        if msg:
            out.append(f"line {text.count(chr(10), 0, m.start()) + 1}: {msg}")
    return out


SOURCES = _sources()
# The Chinese edition: every catalog's translations (issue 29) and the Chinese README.
ZH_SOURCES = sorted((ROOT / "notebooks" / "zh").glob("*.po")) + sorted((ROOT / "exercises" / "zh").glob("*.po"))
ZH_SOURCES += [ROOT / "README.zh-CN.md"]


@pytest.mark.parametrize("path", ZH_SOURCES, ids=[str(p.relative_to(ROOT)) for p in ZH_SOURCES])
def test_chinese_equation_references_match_the_book(path):
    assert _problems(path) == []


def test_the_chinese_check_catches_a_wrong_number():
    assert [check_reference(t, m) for t in ("查准率 P 的定义见式(2.9)",) for m in REF.finditer(t)] != [None]
    assert [check_reference(t, m) for t in ("查准率 P 的定义见式(2.8)",) for m in REF.finditer(t)] == [None]


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_equation_references_match_the_book(path):
    assert _problems(path) == []


@pytest.mark.parametrize(
    "sentence, ok",
    [
        ("the k-fold cross-validated paired t-test 式(2.31)", True),
        ("the k-fold cross-validated paired t-test 式(2.29)", False),  # the old wrong number
        ("### 3.2 The 5×2 cross-validated t-test 式(2.32)", True),
        ("### 3.2 The 5×2 cross-validated t-test 式(2.31)", False),
        ("McNemar on one hold-out (式(2.33))", True),
        ("McNemar's test 式(2.32)", False),
        ("the one-sample τ_t of 式(2.30)", True),
        ("the one-sample τ_t of 式(2.28)", False),
        ("recall R = TP / (TP + FN) (式(2.9))", True),
        ("recall R = TP / (TP + FN) (式(2.8))", False),
        ("Friedman's τ_F 式(2.35)", True),
        ("the critical difference CD 式(2.34)", False),
        ("the noise term 式(2.43)", False),  # beyond the chapter
        ("西瓜书 §2.4.1–2.4.3, 式(2.26)–(2.33)", True),  # a heading's range
        ("f_bar = pred.mean(axis=0)   # 式(2.37)", True),
        ("var = ((pred - f_bar) ** 2).mean(axis=0)   # 式(2.37)", False),
    ],
)
def test_the_check_catches_a_wrong_number(sentence, ok):
    """The check is a claim that could fail: a wrong number next to a named quantity is caught."""
    problems = [check_reference(sentence, m) for m in REF.finditer(sentence)]
    problems += [f"{m.group(0)} is malformed" for m in ANY_REF.finditer(sentence) if not REF.match(sentence, m.start())]
    assert problems and (all(p is None for p in problems) == ok), problems


def test_the_table_is_the_books():
    """Forty-two numbered equations in 西瓜书 chapter 2, and the tests' numbers as the book prints them."""
    assert sorted(BOOK) == list(range(1, 43))
    assert "one-sample" in BOOK[30] and "paired t-test" in BOOK[31] and "5×2cv" in BOOK[32] and "McNemar" in BOOK[33]
