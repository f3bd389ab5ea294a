"""Issue 29: the Chinese edition speaks the book's language (西瓜书 chapter 2) and one typography.

* A deny-list over every Chinese text a learner reads -- the translations of every catalog (notebooks/zh/*.po,
  exercises/zh/*.po, evallib/locale/**/*.po) and README.zh-CN.md: words that are not the book's term for its
  concept (逻辑回归 for 对数几率回归, 正确率 for 精度, ...).
* One word each where the edition had several (并列校正, 交互探索, 西瓜书习题): the chapters' catalogs and README.
* Typography of the chapters' catalogs: Chinese quotation marks, one style for percentages (95%), no English
  prose inside formulas (\\text{equivalently}), no obsolete (#~) entries left behind.
* Fewer mid-sentence full-width colons: in the prose of the chapters, the exercise sets and README, a sentence has
  at most one "：" (an English ":" joining two clauses becomes "，", "。" or "——" in Chinese).
* A strictly increasing map of the probabilities is 对预测概率做单调变换, not "弯曲" (bend) them.
Each check is also run on a sentence it must reject.
"""

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_CATALOGS = sorted((ROOT / "notebooks" / "zh").glob("*.po"))
CATALOGS = (
    NOTEBOOK_CATALOGS
    + sorted((ROOT / "exercises" / "zh").glob("*.po"))
    + sorted((ROOT / "evallib" / "locale").rglob("*.po"))
)
README = ROOT / "README.zh-CN.md"
PROSE = NOTEBOOK_CATALOGS + sorted((ROOT / "exercises" / "zh").glob("*.po")) + [README]

# word -> the book's term
DENY = {
    "逻辑回归": "对数几率回归",
    "逻辑斯蒂回归": "对数几率回归",
    "正确率": "精度",
    "准确率": "精度",
    "显著性水平": "显著度",
    "召回率": "查全率",
    "精确率": "查准率",
    "袋外": "包外",
    "噪音": "噪声",
    "过度拟合": "过拟合",
    "临界差": "临界值域",
    "超参数": "参数（调参）",
    "混淆表": "混淆矩阵",
    "交叉校验": "交叉验证",
    "自举": "自助法",
}
# the edition's one word where it had several
ONE_WORD = {
    "并列修正": "并列校正",
    "交互探索工具": "交互探索",
    "探索器": "交互探索",
    "书中习题": "西瓜书习题",
    "教材习题": "西瓜书习题",
}
ENGLISH_IN_MATH = re.compile(r"\\text\{\s*(equivalently|observed|where|otherwise|and|if|for all)\s*\}")
PROTECT = re.compile(r"(```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]*\$)", re.S)
CJK = re.compile(r"[\u4e00-\u9fff]")
# Colons that are not a sentence's connector: inside a link text or parentheses, after a leading bold label
# ("**笔记勘误：**", "- **Wilson 区间**："), and the navigation labels (上一章：…；下一章：…).
LINK_TEXT = re.compile(r"\[[^\]\n]*\]\([^)\n]*\)")
PARENTHESES = re.compile(r"（[^（）\n]*）|\([^()\n]*\)")
LABEL = re.compile(r"^\s*(?:[-*]\s+|\d+\.\s+)?(?:\*\*[^*\n]+?(?:：\*\*|\*\*(?:（[^）\n]*）)?：)|\*[^*\n]+?\*：)")
NAVIGATION = re.compile(r"(上一章|下一章|对应章节|延伸阅读)：")


def _translations(path):
    if path.suffix == ".po":
        return [
            (e.occurrences[0] if e.occurrences else ("", e.msgid[:30]), e.msgstr)
            for e in polib.pofile(str(path))
            if e.msgstr and not e.obsolete
        ]
    return [(("", path.name), path.read_text(encoding="utf-8"))]


def denied(text, words):
    return [f"{w} (use {words[w]})" for w in words if w in text]


def typography(text):
    """Problems of one Chinese text outside code and formulas: straight quotes around Chinese, '95 %'."""
    out = []
    prose = "".join(p for i, p in enumerate(PROTECT.split(text)) if i % 2 == 0)
    for m in re.finditer(r'"([^"\n]{1,60})"', prose):
        if CJK.search(m.group(1)) or CJK.search(prose[max(0, m.start() - 1) : m.start()]):
            out.append(f"straight quotes {m.group(0)!r}: use “…”")
    for m in re.finditer(r"\d %", prose):
        out.append(f"{prose[max(0, m.start() - 8) : m.end()]!r}: write 95% (no space)")
    out += [f"{m.group(0)}: English inside a formula" for m in ENGLISH_IN_MATH.finditer(text)]
    return out


def colon_sentences(text):
    """Sentences of one Chinese text's prose (outside code, formulas, tables and headings) with two or more "："."""
    out = []
    prose = "".join(p if i % 2 == 0 else "§" for i, p in enumerate(PROTECT.split(text)))
    for line in prose.split("\n"):
        if line.lstrip().startswith(("|", "#")):
            continue
        line = NAVIGATION.sub("", LINK_TEXT.sub("§", line))
        for _ in range(2):  # parentheses inside parentheses
            line = PARENTHESES.sub("§", line)
        line = LABEL.sub("", line, count=1)
        out += [s.strip() for s in re.split(r"(?<=[。！？])", line) if s.count("：") >= 2]
    return out


@pytest.mark.parametrize("path", CATALOGS + [README], ids=lambda p: str(p.relative_to(ROOT)))
def test_no_denied_word(path):
    bad = [(where, w) for where, text in _translations(path) for w in denied(text, DENY)]
    assert bad == []


@pytest.mark.parametrize("path", CATALOGS + [README], ids=lambda p: str(p.relative_to(ROOT)))
def test_one_word_for_each_concept(path):
    bad = [(where, w) for where, text in _translations(path) for w in denied(text, ONE_WORD)]
    assert bad == []


@pytest.mark.parametrize("path", CATALOGS + [README], ids=lambda p: str(p.relative_to(ROOT)))
def test_typography(path):
    bad = [(where, p) for where, text in _translations(path) for p in typography(text)]
    assert bad == []


@pytest.mark.parametrize("path", NOTEBOOK_CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_obsolete_entries(path):
    """Entries of removed English cells (#~) are purged once the chapter is translated."""
    assert [e.msgid[:40] for e in polib.pofile(str(path)) if e.obsolete] == []


@pytest.mark.parametrize(
    "text, n",
    [
        ("下面在乳腺癌数据上训练逻辑回归，做 10 次留出划分", 1),  # the old 08 cell 17
        ("在新数据上，没有哪个模型的正确率能超过 50%", 1),  # the old 03
        ("调节 m、eps0、显著性水平 α 和观测到的错误率", 1),  # the old 08 cell 5
        ("训练对数几率回归，精度为 0.95，显著度 α = 0.05", 0),
    ],
)
def test_the_deny_list_catches_the_old_words(text, n):
    assert len(denied(text, DENY)) == n


@pytest.mark.parametrize(
    "text, n",
    [
        ('正如笔记所说的"我们只能努力使训练误差最小化"', 1),
        ("覆盖率只有 18 %", 1),
        (r"$$P = \min(\pi,\ \beta I), \qquad\text{equivalently}\qquad t \ge F/\pi$$", 1),
        ('覆盖率只有 18%，正如“笔记”所说；代码 `f"{x} %"` 与公式 $\\text{rope}$ 不受影响', 0),
    ],
)
def test_the_typography_check_catches_the_old_forms(text, n):
    assert len(typography(text)) == n


@pytest.mark.parametrize("path", PROSE, ids=lambda p: str(p.relative_to(ROOT)))
def test_at_most_one_full_width_colon_per_sentence(path):
    bad = [(where, s) for where, text in _translations(path) for s in colon_sentences(text)]
    assert bad == []


@pytest.mark.parametrize(
    "text, n",
    [
        # the old 12 and 08 sentences
        ("要是**一个**错误都没有，Wald 区间就缩成单独一个点 0：恰恰在我们所知最少的时候，它却声称完全确定：", 1),
        ("只是问题的一半：一个有用的检验……是以较低的功效为代价换来的：要得到经得起推敲的结论，就得付出这样的代价。", 1),
        (
            "上一章：[01](01_error_and_fitting.ipynb) · 下一章：[03 · 调参与最终模型](03_tuning_and_final_model.ipynb)。",
            0,
        ),
        ("**笔记勘误（§1）：** 过拟合只能缓解：如果某个学习器（西瓜书 §2.1：这一论证）总能避免过拟合。", 0),
        ("- **Clopper–Pearson 区间**（“精确”区间）：两个端点都是分位数 $B_{a}(X: m)$ 和 `f(x: y)`。", 0),
    ],
)
def test_the_colon_check_catches_the_old_forms(text, n):
    assert len(colon_sentences(text)) == n


@pytest.mark.parametrize("path", PROSE, ids=lambda p: str(p.relative_to(ROOT)))
def test_probabilities_are_transformed_not_bent(path):
    assert [where for where, text in _translations(path) if "弯曲" in text and "概率" in text] == []
