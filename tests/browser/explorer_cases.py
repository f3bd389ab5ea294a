"""The explorers the browser suite drives: one row each.

A row names the notebook, the builder it calls (``el.widgets.<builder>(...)``), the explorer's title (its bold
header), the description of its main control, three values of that control (as the notebook starts it, after
the keyboard move, after the mouse move), the keys to press, and ``expected(ns, value) -> str``: the text the
explorer must print for that value, computed in the test process by evallib's pure update function.

``ns`` holds the explorer's inputs: ``setup=None`` gives an empty dict, a callable gives what it returns, and
``NOTEBOOK`` runs the notebook's own code cells above the explorer (in this process, Agg backend) and gives
their namespace, so data prepared by the chapter (a trained model's scores, a table of errors) never has to be
copied here.

Adding a chapter's explorer = adding a row. ``test_every_explorer_in_the_notebooks_has_a_row`` fails when a
notebook calls an explorer builder that no row (and no entry of ``NOT_DRIVEN``) covers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import evallib as el

NOTEBOOK = "notebook"  # setup: run the notebook's code cells above the explorer


@dataclass(frozen=True)
class ExplorerCase:
    notebook: str  # file name in notebooks/
    builder: str  # el.widgets.<builder>(...) in a code cell of that notebook
    title: str  # the explorer's bold header
    control: str  # the description label of the control moved
    values: tuple  # (start, after the keys, after the mouse); start None: not recomputable here (a measurement)
    expected: Callable[[dict, Any], str]  # (ns, value of the control) -> printed text
    keys: tuple = ("ArrowRight",)  # pressed on the focused control; () = mouse only
    setup: Any = None  # None, a callable () -> dict, or NOTEBOOK
    nth: int = 0  # which call of `builder` in the notebook (and which explorer with that title)

    @property
    def id(self):
        return f"{self.notebook[:2]}-{self.builder}" + (f"-{self.nth}" if self.nth else "")


def _text(update_result):
    """The text of an update's (text, figure[, ...]) result; the figure (never shown by pyplot) is dropped."""
    return update_result[0]


def _breast_cancer():
    # notebooks/02_evaluation_methods.ipynb: `X, y = el.data.load_bundled("breast_cancer")`
    X, y = el.data.load_bundled("breast_cancer")
    return {"X": X, "y": y}


def _kfold_text(ns, k):
    from sklearn.naive_bayes import GaussianNB

    return _text(el.widgets.kfold_update(GaussianNB(), ns["X"], ns["y"], n_splits=k, n_repeats=1, random_state=0))


def _threshold_text(ns, t):
    # threshold_explorer keeps its update inside the builder: the explorer built here (no browser) computes it.
    ex = el.widgets.threshold_explorer(ns["y_test"], ns["scores"]["logistic regression"], threshold=0.5)
    ex.set(threshold=t)
    return ex.text


def _cost_text(ns, log2_ratio):
    ex = el.widgets.cost_explorer(ns["y_test"], ns["scores"], log2_cost_ratio=np.log2(5))
    ex.set(log2_cost_ratio=log2_ratio)
    return ex.text


def _cd_text(ns, n):
    return _text(el.widgets.cd_view(ns["fr_real"].mean_ranks, list(ns["learners"]), 0.05, n))


def _roofline_text(ns, batch):
    dev = el.roofline.DEVICES["GTX 1080 Ti"]
    return _text(
        el.widgets.roofline_update(
            device="GTX 1080 Ti",
            peak_flops=dev.peak("float32"),
            bandwidth=dev.bandwidth,
            models=("VGG16", "MobileNetV1", "MobileNetV2"),
            batch=batch,
        )
    )


def _roofline_preset_text(ns, device):
    # Choosing a preset moves the peak and bandwidth sliders to the preset's values (RooflineExplorer).
    dev = el.roofline.DEVICES[device]
    return _text(
        el.widgets.roofline_update(
            device=device, peak_flops=dev.peak("float32"), bandwidth=dev.bandwidth, models=("ResNet-18", "MobileNetV2")
        )
    )


EXPLORERS = [
    ExplorerCase(
        "01_error_and_fitting.ipynb",
        "fitting_explorer",
        "Over- and under-fitting",
        "degree",
        values=(3, 4, 12),
        expected=lambda ns, d: _text(el.widgets.fitting_update(degree=d, n_train=20, noise_std=0.25, seed=0)),
    ),
    ExplorerCase(
        "02_evaluation_methods.ipynb",
        "kfold_explorer",
        "p-times k-fold cross-validation",
        "k (folds)",
        values=(10, 11, 5),
        expected=_kfold_text,
        setup=_breast_cancer,
    ),
    ExplorerCase(
        "05_roc_pr_curves.ipynb",
        "threshold_explorer",
        "Threshold explorer: move the cut point",
        "threshold",
        values=(0.5, 0.51, 0.3),
        expected=_threshold_text,
        setup=NOTEBOOK,
    ),
    ExplorerCase(
        "06_cost_sensitive.ipynb",
        "cost_explorer",
        "Cost explorer: class prior and cost ratio",
        "log2(cost_fn / cost_fp)",
        values=(np.log2(5), 2.5, -1.0),
        expected=_cost_text,
        setup=NOTEBOOK,
    ),
    ExplorerCase(
        "08_hypothesis_tests.ipynb",
        "binomial_test_explorer",
        "Binomial test: H0 says the generalisation error is at most eps0",
        "observed error rate",
        values=(0.4, 0.42, 0.25),
        keys=("ArrowRight", "ArrowRight"),  # 0.41 * 50 rounds to 20 errors too
        expected=lambda ns, e: _text(el.widgets.binomial_view(50, 0.3, 0.05, e)),
    ),
    ExplorerCase(
        "09_friedman_nemenyi.ipynb",
        "cd_explorer",
        "Nemenyi critical difference: alpha and the number of data sets",
        "N (data sets)",
        values=(10, 11, 40),
        expected=_cd_text,
        setup=NOTEBOOK,
    ),
    ExplorerCase(
        "10_bias_variance.ipynb",
        "bias_variance_explorer",
        "Bias–variance explorer (squared loss, 式(2.42))",
        "degree (complexity)",
        values=(3, 4, 9),
        expected=lambda ns, d: _text(el.widgets.bias_variance_view(d, 0.3, 30, 200)),
    ),
    ExplorerCase(
        "11_roofline.ipynb",
        "roofline_explorer",
        "Roofline explorer: models on a device's roof",
        "batch size",
        values=(1, 2, 64),
        expected=_roofline_text,
    ),
    # The second roofline explorer starts on "this machine" as the kernel measured it (timings: not recomputable);
    # the mouse then picks a preset, whose numbers are. Mouse only: on a focused Dropdown JupyterLab takes the
    # keys as notebook shortcuts ("R" turned the cell into a raw cell, arrows moved the cell selection;
    # ipywidgets issue 3912), so no key can be tested there.
    ExplorerCase(
        "11_roofline.ipynb",
        "roofline_explorer",
        "Roofline explorer: models on a device's roof",
        "device",
        values=(None, None, "GTX 1080 Ti"),
        keys=(),
        expected=_roofline_preset_text,
        nth=1,
    ),
]

# Explorer calls in the notebooks that no row drives, with the reason.
NOT_DRIVEN = {}


def _bayes_text(ns, n):
    # notebooks/13_comparing_today.ipynb: the explorer over logistic regression vs naive Bayes on 30 data sets
    return _text(
        el.widgets.bayesian_comparison_view(ns["E30"][:, 0], ns["E30"][:, 1], 0.01, n, ("logistic", "naive Bayes"))
    )


EXPLORERS.append(
    ExplorerCase(
        "13_comparing_today.ipynb",
        "bayesian_comparison_explorer",
        "Bayesian signed-rank vs Wilcoxon: the ROPE and the number of data sets",
        "N (data sets)",
        values=(30, 29, 12),
        keys=("ArrowLeft",),
        expected=_bayes_text,
        setup=NOTEBOOK,
    )
)


def _leakage_text(ns, k):
    # notebooks/14_pitfalls.ipynb: `curve` is the chapter's selection_leakage study on 50 x 10,000 noise
    return _text(el.widgets.leakage_update(ns["curve"], k, chance=0.5))


def _calibration_text(ns, slope):
    # notebooks/14_pitfalls.ipynb: the logistic regression's test probabilities `p_lr` and labels `y_ct`
    return _text(el.widgets.calibration_update(ns["y_ct"], ns["p_lr"], slope, 0.0))


EXPLORERS += [
    ExplorerCase(
        "14_pitfalls.ipynb",
        "leakage_explorer",
        "Leakage explorer: features selected before cross-validation",
        "features selected",
        values=(128, 256, 16),
        expected=_leakage_text,
        setup=NOTEBOOK,
    ),
    ExplorerCase(
        "14_pitfalls.ipynb",
        "calibration_explorer",
        "Calibration explorer: bend the probabilities",
        "slope (over-/under-confidence)",
        values=(2.0, 2**1.125, 0.5),
        expected=_calibration_text,
        setup=NOTEBOOK,
    ),
]


EXPLORERS.append(
    # notebooks/12_how_sure.ipynb: `el.widgets.interval_explorer(m=100, error_rate=0.05, confidence=0.95)`
    ExplorerCase(
        "12_how_sure.ipynb",
        "interval_explorer",
        "Intervals for an error rate: test-set size and true error",
        "true error rate",
        values=(0.05, 0.06, 0.5),
        expected=lambda ns, e: _text(el.widgets.interval_view(100, e, 0.95)),
    )
)
