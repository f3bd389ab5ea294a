"""evallib: model evaluation and selection, as taught in chapter 2 of Zhou Zhihua's *Machine Learning*
(模型评估与选择). One qualified import serves the whole course::

    import evallib as el
    el.splits.KFold(10, n_repeats=10)      # 西瓜书 §2.2.2
    el.curves.roc_auc(y, scores)           # 式(2.20)

Submodules are imported on first use (PEP 562): ``import evallib`` is cheap and imports neither
matplotlib nor ipywidgets; ``el.compare``, ``from evallib import plots`` and ``dir(el)`` work as before.
"""

import importlib

__version__ = "0.1.0"

_SUBMODULES = (
    "style",
    "data",
    "splits",
    "metrics",
    "evaluation",
    "fitting",
    "curves",
    "compare",
    "uncertainty",
    "biasvar",
    "roofline",
    "pitfalls",
    "tuning",
    "plots",
    "widgets",
    "grading",
    "i18n",
)
# Functions re-exported at the top level: name -> the submodule that defines it.
_FUNCTIONS = {"setup_notebook": "style"}

__all__ = ["setup_notebook", *_SUBMODULES]


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")  # also binds it as an attribute of the package
    if name in _FUNCTIONS:
        value = getattr(importlib.import_module(f"{__name__}.{_FUNCTIONS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
