"""evallib: model evaluation and selection, as taught in chapter 2 of Zhou Zhihua's *Machine Learning*
(模型评估与选择). One qualified import serves the whole course::

    import evallib as el
    el.splits.KFold(10, n_repeats=10)      # 西瓜书 §2.2.2
    el.curves.roc_auc(y, scores)           # 式(2.20)
"""
from . import style, data, splits, metrics, evaluation, fitting, curves, compare, uncertainty, biasvar, roofline, pitfalls, tuning, plots, widgets, grading, i18n
from .style import setup_notebook

__version__ = "0.1.0"
__all__ = [
    "setup_notebook", "style", "data", "splits", "metrics", "evaluation", "fitting", "curves", "compare",
    "uncertainty", "biasvar", "roofline", "pitfalls", "tuning", "plots", "widgets", "grading", "i18n",
]
