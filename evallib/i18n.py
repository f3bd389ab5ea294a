"""The learner's language (issue 16): English by default, Chinese after ``el.setup_notebook(seed=0, lang="zh")``.

evallib speaks to the learner in three places, and each looks its sentences up here:

- explorers (:mod:`evallib.widgets`): titles and control labels, through :func:`ui` and the table :data:`UI_ZH`;
- grading feedback (:mod:`evallib.grading`, ``scripts/autograde.py``): the sentences of
  :mod:`evallib.grading_messages` (one table per language) and the exercise sets' own sentences (problem titles,
  hints, the "known mistake" messages of the checks, hidden tests' failure messages), which the translator puts
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

__all__ = ["LANGUAGES", "set_language", "get_language", "language", "ui", "translate", "cjk_font", "UI_ZH"]

LANGUAGES = ("en", "zh")
_default = "en"
_local = threading.local()


def _check(code):
    if not isinstance(code, str):
        raise TypeError(f"lang must be a string such as 'en' or 'zh', got {type(code).__name__}")
    code = {"zh-cn": "zh", "zh_cn": "zh", "zh-hans": "zh", "en-us": "en", "en_us": "en"}.get(code.lower(), code.lower())
    if code not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(map(repr, LANGUAGES))}, got {code!r}")
    return code


def set_language(code: str) -> None:
    """Set the learner's language for this process: ``"en"`` (default) or ``"zh"``."""
    global _default
    _default = _check(code)


def get_language() -> str:
    """The current language (this thread's override if any, else the process-wide setting)."""
    return getattr(_local, "lang", None) or _default


@contextlib.contextmanager
def language(code: str):
    """Speak ``code`` in this thread inside the ``with`` block (the autograder: one submission per thread)."""
    code = _check(code)
    before = getattr(_local, "lang", None)
    _local.lang = code
    try:
        yield code
    finally:
        _local.lang = before


# ---------------------------------------------------------------------------------------- explorers
# English title or control label -> Chinese. A missing entry stays English (explorers not yet translated).
UI_ZH = {
    # titles
    "Over- and under-fitting": "过拟合与欠拟合",
    "p-times k-fold cross-validation": "p 次 k 折交叉验证",
    "Threshold explorer: move the cut point": "阈值探索：移动截断点",
    "Cost explorer: class prior and cost ratio": "代价曲线：正类先验与代价比",
    "Binomial test: H0 says the generalisation error is at most eps0": "二项检验：原假设为泛化错误率不超过 eps0",
    "Nemenyi critical difference: alpha and the number of data sets": "Nemenyi 检验的临界值域：显著性水平与数据集个数",
    "Bias–variance explorer (squared loss, 式(2.42))": "偏差-方差分解（平方损失，式(2.42)）",
    "Roofline explorer: models on a device's roof": "Roofline 模型：各模型在设备屋顶线下的位置",
    "Intervals for an error rate: test-set size and true error": "错误率的置信区间：测试集大小与真实错误率",
    "Bayesian signed-rank vs Wilcoxon: the ROPE and the number of data sets":
        "贝叶斯符号秩检验与 Wilcoxon 检验：ROPE 与数据集个数",
    "Leakage explorer: features selected before cross-validation": "数据泄漏：在交叉验证之前选择特征",
    "Calibration explorer: bend the probabilities": "概率校准：弯曲预测概率",
    # control labels
    "degree": "多项式次数",
    "training samples": "训练样本数",
    "noise std": "噪声标准差",
    "k (folds)": "k（折数）",
    "p (repeats)": "p（重复次数）",
    "threshold": "阈值",
    "prior p of the positive class": "正类的先验概率 p",
    "log2(cost_fn / cost_fp)": "log2(cost_fn / cost_fp)（代价比）",
    "m (test samples)": "m（测试样本数）",
    "eps0": "eps0",
    "alpha": "显著性水平 α",
    "observed error rate": "观测到的错误率",
    "N (data sets)": "N（数据集个数）",
    "degree (complexity)": "多项式次数（复杂度）",
    "noise_std": "噪声标准差",
    "training-set size": "训练集大小",
    "data sets": "数据集个数",
    "device": "设备",
    "models": "模型",
    "batch size": "批大小",
    "traffic": "访存量",
    "dtype": "数据类型",
    "peak FLOP/s": "峰值 FLOP/s",
    "bandwidth B/s": "带宽 B/s",
    "confidence": "置信度",
    "true error rate": "真实错误率",
    "rope (half-width)": "ROPE（半宽）",
    "features selected": "所选特征数",
    "shift of the log-odds": "对数几率的平移",
    "slope (over-/under-confidence)": "斜率（过度自信 / 信心不足）",
    "counting": "计数方式",
    # the explorer's own status line
    "computing…": "计算中…",
}
_UI = {"zh": UI_ZH}


def ui(text: str) -> str:
    """An explorer's title or control label in the current language (English when the table has no entry)."""
    return _UI.get(get_language(), {}).get(text, text)


# ---------------------------------------------------------------------------------------- exercise sets
_FREE: dict = {}          # lang -> {(context, English): translation}, read from the exercise catalogs
_FREE_LOCK = threading.Lock()


def _catalog_dirs(lang):
    dirs = [Path(d).parent / lang for d in os.environ.get("EVALLIB_EXERCISES", "").split(os.pathsep) if d]
    here = Path.cwd()
    dirs += [here / "exercises" / lang, here.parent / "exercises" / lang, here.parent.parent / "exercises" / lang,
             Path(__file__).resolve().parent.parent / "exercises" / lang]
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


def translate(text, context=None):
    """``text`` (an English sentence of an exercise set) in the current language; unchanged in English or when
    no catalog translates it. ``context`` is the catalog's msgctxt (``"hint"``, ``"title"``, ``"check"``, ...)."""
    lang = get_language()
    if lang == "en" or not isinstance(text, str) or not text:
        return text
    with _FREE_LOCK:
        if lang not in _FREE:
            _FREE[lang] = _load_free(lang)
        table = _FREE[lang]
    return table.get((context, text)) or table.get((None, text)) or text


def reload_catalogs() -> None:
    """Forget the exercise catalogs read so far (after a translator edited one in a running kernel)."""
    with _FREE_LOCK:
        _FREE.clear()


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
