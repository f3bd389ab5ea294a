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

__all__ = ["LANGUAGES", "set_language", "get_language", "language", "ui", "say", "translate", "cjk_font", "UI_ZH",
           "SAY_ZH"]

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


def _check_text(text, name="text"):
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a string, got {type(text).__name__}")
    return text


def set_language(code: str) -> None:
    """Set the learner's language for this process: ``"en"`` (default) or ``"zh"``."""
    global _default
    _default = _check(code)


def get_language() -> str:
    """The current language (this thread's override if any, else the process-wide setting)."""
    return getattr(_local, "lang", None) or _default


def language(code: str):
    """Speak ``code`` in this thread inside the ``with`` block (the autograder: one submission per thread)."""
    return _language(_check(code))   # checked at the call, not only when the block is entered


@contextlib.contextmanager
def _language(code: str):
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
    # issue 26: the explorers in the browser (engineer C)
    "peak FLOP/s: log₁₀ shift from the preset": "峰值 FLOP/s：相对预设的 log₁₀ 偏移",
    "bandwidth B/s: log₁₀ shift from the preset": "带宽 B/s：相对预设的 log₁₀ 偏移",
    "log₂ slope (over-/under-confidence)": "log₂ 斜率（过度自信 / 信心不足）",
    "posterior draws in the simplex": "单纯形中的后验抽样",
    "fold accuracies at the selected k": "所选 k 下各折的精度",
    "fitted polynomials, their mean (red), f(x) (dashed)": "拟合的多项式、其均值（红）与 f(x)（虚线）",
    "mean squared error": "均方误差",
    "arithmetic intensity (FLOP/byte)": "计算强度（FLOP/字节）",
    "attainable performance (GFLOP/s)": "可达性能（GFLOP/s）",
    "number of features selected": "所选特征数",
    "cross-validated accuracy": "交叉验证精度",
    "accuracy on the test fold": "测试折上的精度",
    "mean predicted probability": "平均预测概率",
    "fraction of positives": "正例比例",
    "false positive rate": "假正例率",
    "true positive rate": "真正例率",
    "ROC curve: the same for every bend": "ROC 曲线：任何弯曲下都相同",
    "Feature selection before or inside CV": "在交叉验证之前还是之内选择特征",
    "selected on all data, then CV (leaky)": "先在全部数据上选择，再交叉验证（泄漏）",
    "selected inside each fold (Pipeline)": "在每一折内部选择（Pipeline）",
    "Decomposition, mean over x": "分解（对 x 取平均）",
    "expected error": "期望误差",
    "bias²": "偏差²",
    "variance": "方差",
    "noise": "噪声",
    "sum": "和",
    "posterior probability": "后验概率",
    "1 MAC = 1 FLOP": "1 MAC = 1 FLOP",
    "1 MAC = 2 FLOPs": "1 MAC = 2 FLOPs",
    "weights + conv/linear outputs (article)": "权重 + 卷积/全连接层输出（原文）",
    "weights + every layer's output": "权重 + 每层输出",
    "weights + every layer's inputs and output": "权重 + 每层输入与输出",
    # issue 26: the explorers in the browser (engineer B: chapters 05, 06, 08, 09)
    "confusion matrix": "混淆矩阵",
    "predicted": "预测",
    "true": "真实",
    "ROC curve": "ROC 曲线",
    "P-R curve": "P-R 曲线",
    "recall": "查全率",
    "precision": "查准率",
    "probability cost P(+)cost": "正例概率代价 P(+)cost",
    "normalised cost": "归一化代价",
    "Cost curves and lower envelopes": "代价曲线及其下包络",
    "ROC: best points and iso-cost lines": "ROC：最佳点与等代价线",
    "do not reject": "不拒绝",
    "critical region": "拒绝域",
    "critical region (> {c} errors), P = {P}": "拒绝域（错误数 > {c}），P = {P}",
    "observed: {k} errors, p = {p}": "观测：{k} 个错误，p = {p}",
    "number of misclassified test samples": "被错分的测试样本数",
    "probability under H0": "H0 下的概率",
    "number of data sets N": "数据集个数 N",
    "critical difference CD (mean ranks)": "临界值域 CD（平均序值）",
    "Nemenyi critical difference against N": "Nemenyi 临界值域随 N 的变化",
    "Critical difference diagram (Nemenyi)": "临界值域图（Nemenyi）",
    # the explorer's own status line
    "computing…": "计算中…",
    # the interval explorer's chart (chapter 12)
    "error rate": "错误率",
    "coverage (exact)": "覆盖率（精确值）",
    "nominal": "名义",
    "Intervals (dashed: true error rate)": "区间（虚线：真实错误率）",
    "Real coverage of each method": "各方法的实际覆盖率",
}
_UI = {"zh": UI_ZH}


def ui(text: str) -> str:
    """An explorer's title or control label in the current language (English when the table has no entry)."""
    _check_text(text)
    return _UI.get(get_language(), {}).get(text, text)


# ---------------------------------------------------------------------------------------- explorers' readouts
# English template (str.format fields) -> Chinese template with the same fields and the same numbers.
SAY_ZH = {
    # fitting and k-fold (chapters 01, 02)
    "degree {d:2d} | training MSE {train:.4f} | test MSE {test:.4f} | noise variance {noise:.4f} | "
    "best degree on test: {best}":
        "多项式次数 {d:2d} | 训练 MSE {train:.4f} | 测试 MSE {test:.4f} | 噪声方差 {noise:.4f} | 测试误差最小的次数：{best}",
    "k = {k:2d}, p = {p:2d}: {fits:3d} fits | estimate {mean:.4f} | std of the p k-fold estimates {spread} | "
    "single folds range {lo:.3f}–{hi:.3f}":
        "k = {k:2d}，p = {p:2d}：共训练 {fits:3d} 次 | 估计值 {mean:.4f} | p 次 k 折估计的标准差 {spread} | "
        "单折结果范围 {lo:.3f}–{hi:.3f}",
    "n/a (needs p >= 2)": "无（需要 p >= 2）",
    # threshold and cost (chapters 05, 06)
    "threshold {t:.2f}: predict positive when score >= {t:.2f}": "阈值 {t:.2f}：得分 >= {t:.2f} 时预测为正例",
    "precision {p:.3f}   recall {r:.3f}   F1 {f1:.3f}{note}": "查准率 {p:.3f}   查全率 {r:.3f}   F1 {f1:.3f}{note}",
    "  (nothing predicted positive: precision taken as 1)": "  （没有样本被预测为正例：查准率取 1）",
    "TPR {tpr:.3f}   FPR {fpr:.3f}   (AUC {auc:.3f}, BEP {bep:.3f})":
        "真正例率 {tpr:.3f}   假正例率 {fpr:.3f}   （AUC {auc:.3f}，平衡点 BEP {bep:.3f}）",
    "p = {p:.2f}, cost_fn / cost_fp = {ratio:.3g}  ->  probability cost x = {x:.3f}":
        "p = {p:.2f}，cost_fn / cost_fp = {ratio:.3g}  ->  正例概率代价 x = {x:.3f}",
    "{name:>{width}}: best threshold {t:.3g}, FPR {fpr:.3f}, FNR {fnr:.3f}, normalised cost {nc:.3f}, "
    "cost per sample {ec:.3f}":
        "{name:>{width}}：最佳阈值 {t:.3g}，假正例率 {fpr:.3f}，假反例率 FNR {fnr:.3f}，归一化代价 {nc:.3f}，"
        "每个样本的代价 {ec:.3f}",
    "lowest cost at this x: {name}": "在这个 x 处代价最低的是：{name}",
    # binomial test and Nemenyi (chapters 08, 09)
    "m = {m}, eps0 = {eps0:.2f}, alpha = {alpha:.2f}: {k} errors observed (test error rate {rate:.3f})":
        "m = {m}，eps0 = {eps0:.2f}，alpha = {alpha:.2f}：观测到 {k} 个错误（测试错误率 {rate:.3f}）",
    "critical count C = {c}, critical error rate = {cv:.3f}": "临界错误数 C = {c}，临界错误率 = {cv:.3f}",
    "p = P(X >= {k} | eps0) = {p:.4f} -> {verdict}": "p = P(X >= {k} | eps0) = {p:.4f} -> {verdict}",
    "reject H0: the error rate is above eps0": "拒绝 H0：错误率高于 eps0",
    "cannot reject H0 (which does not prove it)": "不能拒绝 H0（但这并不证明原假设成立）",
    "k = {k}, N = {n}, alpha = {alpha:.2f}: q_alpha = {q:.3f}, CD = {cd:.3f}":
        "k = {k}，N = {n}，alpha = {alpha:.2f}：q_alpha = {q:.3f}，临界值域 CD = {cd:.3f}",
    "significantly different pairs: {pairs}": "差异显著的算法对：{pairs}",
    "groups joined by a bar: {groups}": "由横线连成一组的算法：{groups}",
    "none": "无",
    # bias and variance (chapter 10)
    "degree {d}, noise_std {s:.2f}, {n} data sets of {m} points":
        "多项式次数 {d}，噪声标准差 {s:.2f}，{n} 个训练集，每个 {m} 个点",
    "bias² = {b:.4f}   variance = {v:.4f}   noise = {e:.4f}": "偏差² = {b:.4f}   方差 = {v:.4f}   噪声 = {e:.4f}",
    "bias² + variance + noise = {s:.4f}   simulated expected error = {ee:.4f}":
        "偏差² + 方差 + 噪声 = {s:.4f}   模拟得到的期望泛化误差 = {ee:.4f}",
    "dominant term: {term}": "占主导的一项：{term}",
    "bias²": "偏差²",
    "variance": "方差",
    "noise": "噪声",
    # roofline (chapter 11)
    "device: {label}": "设备：{label}",
    "custom (moved from {device})": "自定义（由 {device} 调整而来）",
    " (no documented {dtype} peak: its {used} peak is used)": "（没有公开的 {dtype} 峰值：使用其 {used} 峰值）",
    "roof: peak {peak:.3f} TFLOP/s, bandwidth {bw:.1f} GB/s, ridge {ridge:.2f} FLOP/B":
        "屋顶：峰值 {peak:.3f} TFLOP/s，带宽 {bw:.1f} GB/s，拐点 {ridge:.2f} FLOP/B",
    "counting: {conv}": "计数方式：{conv}",
    "select at least one model": "请至少选择一个模型",
    "model        I (FLOP/B)    bound   TFLOP/s  time (ms)  per layer   images/s":
        "模型         I (FLOP/B)   受限于   TFLOP/s  时间 (ms)  逐层 (ms)    图像/秒",
    "compute": "算力",
    "memory": "带宽",
    "time = max(F/peak, Q/bandwidth) per batch; per layer = sum of the layers' bounds; images/s from the latter":
        "时间 = 每批 max(F/峰值, Q/带宽)；逐层 = 各层时间下界之和；图像/秒按逐层时间计算",
    # intervals (chapter 12)
    "m = {m}, true error rate {eps:.2f}, confidence {c:g}": "m = {m}，真实错误率 {eps:.2f}，置信度 {c:g}",
    "a test set with the expected {k} error(s) (test error rate {rate:.3f}) gives:":
        "错误数恰为期望值 {k} 的测试集（测试错误率 {rate:.3f}）给出：",
    "{meth:<16} [{lo:.3f}, {hi:.3f}]  width {w:.3f}   coverage: exact {ce:.3f}, simulated {cs:.3f}":
        "{meth:<16} [{lo:.3f}, {hi:.3f}]  宽度 {w:.3f}   覆盖率：精确值 {ce:.3f}，模拟值 {cs:.3f}",
    # Bayesian signed-rank vs Wilcoxon (chapter 13)
    "{name} better": "{name} 更好",
    "equivalent": "实际等价",
    "{label} (P > {d})": "{label}（P > {d}）",
    "no decision (no P above {d})": "无法判定（没有一个 P 超过 {d}）",
    "N = {n} data sets, rope = {rope:.3f}: mean {b} - {a} = {diff:.4f} ({b} better on {bw}, {a} better on {aw}, "
    "ties {ties})":
        "N = {n} 个数据集，rope = {rope:.3f}：{b} - {a} 的均值 = {diff:.4f}（{b} 更好 {bw} 个，{a} 更好 {aw} 个，"
        "持平 {ties} 个）",
    "Bayesian signed-rank: P({l0}) = {p0:.3f}, P({l1}) = {p1:.3f}, P({l2}) = {p2:.3f} -> {verdict}":
        "贝叶斯符号秩检验：P({l0}) = {p0:.3f}，P({l1}) = {p1:.3f}，P({l2}) = {p2:.3f} -> {verdict}",
    "Wilcoxon: T = {t:g}, p = {p:.4f} -> {v1} | sign test: p = {ps:.4f} -> {v2} | t-test over data sets: "
    "p = {pt:.4f} -> {v3}":
        "Wilcoxon 符号秩检验：T = {t:g}，p = {p:.4f} -> {v1} | 符号检验：p = {ps:.4f} -> {v2} | "
        "跨数据集 t 检验：p = {pt:.4f} -> {v3}",
    "reject H0": "拒绝 H0",
    "cannot reject H0": "不能拒绝 H0",
    # leakage and calibration (chapter 14)
    "{k} features selected | selected on all data, then CV: {leaky:.3f} | selected inside each fold: "
    "{honest:.3f} | optimism {opt:+.3f}":
        "选择了 {k} 个特征 | 先在全部数据上选择，再交叉验证：{leaky:.3f} | 在每一折内部选择：{honest:.3f} | "
        "乐观偏差 {opt:+.3f}",
    "slope {slope:.2f}, shift {shift:+.2f} | ROC AUC {auc:.4f} (original {auc0:.4f}) | Brier {b:.4f} "
    "(original {b0:.4f}) | log loss {ll:.4f} (original {ll0:.4f}) | ECE {e:.4f} (original {e0:.4f})":
        "斜率 {slope:.2f}，平移 {shift:+.2f} | ROC AUC {auc:.4f}（原始 {auc0:.4f}）| Brier 分数 {b:.4f}"
        "（原始 {b0:.4f}）| 对数损失 {ll:.4f}（原始 {ll0:.4f}）| ECE {e:.4f}（原始 {e0:.4f}）",
}
_SAY = {"zh": SAY_ZH}


def say(template: str, /, **fields) -> str:
    """An explorer's readout in the current language: ``template`` (English, ``str.format`` fields) or its entry
    in the language's table (same fields, same numbers), formatted with ``fields``.

    >>> say("degree {d}, noise_std {s:.2f}, {n} data sets of {m} points", d=3, s=0.25, n=50, m=20)
    'degree 3, noise_std 0.25, 50 data sets of 20 points'
    """
    _check_text(template, "template")
    try:
        return _SAY.get(get_language(), {}).get(template, template).format(**fields)
    except (KeyError, IndexError) as exc:
        raise ValueError(f"template needs the field {exc} (give it as a keyword argument)") from None


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
    if text is None:   # a problem without a hint
        return text
    _check_text(text)
    if context is not None:
        _check_text(context, "context")
    lang = get_language()
    if lang == "en" or not text:
        return text
    with _FREE_LOCK:
        if lang not in _FREE:
            _FREE[lang] = _load_free(lang)
        table = _FREE[lang]
        if (lang, "templates") not in _FREE:
            _FREE[lang, "templates"] = _templates(table)
        templates = _FREE[lang, "templates"]
    found = table.get((context, text)) or table.get((None, text))
    if found:
        return found
    for ctx, pattern, target in templates:  # a message an f-string built: "costs {0}, not {1}" with its values
        if ctx in (context, None):
            m = pattern.fullmatch(text)
            if m:
                return target.format(*m.groups())
    return text


def _templates(table):
    """The entries that are f-string templates (fields ``{0}``, ``{1}``, ... stand for the f-string's values,
    scripts/i18n.py extracts them so): (context, regex of the English, the translation to fill in)."""
    import re
    import string

    out = []
    for (ctx, msgid), msgstr in table.items():
        if ctx is None or "{0}" not in msgid:
            continue
        parts = list(string.Formatter().parse(msgid))
        regex = "".join(re.escape(lit) + ("(.+?)" if field is not None else "") for lit, field, _, _ in parts)
        out.append((ctx, re.compile(regex, re.S), msgstr))
    return out


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
