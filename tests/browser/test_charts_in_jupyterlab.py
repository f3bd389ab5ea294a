"""Explorers drawn in the browser (issue 26) in JupyterLab: a notebook holding only the explorers' stored outputs
is opened, its kernel is stopped, and each control is moved from the keyboard; the readout the chart shows (its
SVG text) and the marks it draws must be evallib's for the new setting. JupyterLab's own Vega renderer draws
them (vega 5.33 / vega-lite 5.6.1), as a learner's JupyterLab does.

Chapters 01 and 02 so far (engineer A); the other explorers join as their builders land.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from labdriver import goto_notebook, shutdown_kernel_of
from labdriver import wait_readout as _wait_readout

import evallib as el
from evallib.i18n import say

pytestmark = pytest.mark.browser

NB = "charts_check.ipynb"


@pytest.fixture(scope="module")
def explorers():
    from sklearn.naive_bayes import GaussianNB

    d = el.data.load_watermelon()
    return {
        "fitting": el.widgets.fitting_explorer(seed=0),
        "kfold": el.widgets.kfold_explorer(GaussianNB(), d.X, d.y, random_state=0),
        "melon": (d.X, d.y),
    }


@pytest.fixture(scope="module")
def page(lab, browser, explorers):
    nb = nbformat.v4.new_notebook()
    for name in ("fitting", "kfold"):
        data, meta = explorers[name]._repr_mimebundle_()
        cell = nbformat.v4.new_code_cell(f"# {name}")
        cell.outputs = [nbformat.v4.new_output("display_data", data=data, metadata=meta)]
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, lab["root"] / NB)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    try:
        goto_notebook(pg, lab["base"], lab["token"], NB, "charts")
        pg.locator(".vega-embed svg").nth(1).wait_for(timeout=90_000)
        shutdown_kernel_of(lab["base"], lab["token"], NB)  # no kernel from here on: the charts move by themselves
        yield pg
    finally:
        ctx.close()


def _chart(page, nth):
    return page.locator(".vega-embed").nth(nth)


def _slider(chart, label):
    return chart.locator(".vega-bind", has_text=label).locator("input[type=range]")


def test_kfold_moves_from_the_keyboard_without_a_kernel(page, explorers):
    from sklearn.naive_bayes import GaussianNB

    chart = _chart(page, 1)
    X, y = explorers["melon"]
    _wait_readout(chart, "fits", explorers["kfold"].text)
    k = _slider(chart, "k (folds)")
    k.focus()
    k.press("ArrowLeft")  # k 8 -> 7
    page.keyboard.press("Tab")  # to p
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # p 1 -> 3
    r = el.evaluation.cross_validation(GaussianNB(), X, y, n_splits=7, n_repeats=3, random_state=0)
    want = (
        f"k =  7, p =  3:  21 fits | estimate {r.mean:.4f} | std of the p k-fold estimates "
        f"{r.repeat_std:.4f} | single folds range {r.scores.min():.3f}–{r.scores.max():.3f}"
    )
    _wait_readout(chart, "fits", want)
    # the marks: 21 single folds and 3 k-fold estimates (legend symbols are not marks)
    assert chart.locator("svg g.mark-symbol.role-mark path").count() == 21 + 3


def test_fitting_moves_from_the_keyboard_without_a_kernel(page, explorers):
    chart = _chart(page, 0)
    _wait_readout(chart, "MSE", explorers["fitting"].text)
    deg = _slider(chart, "degree")
    deg.focus()
    for _ in range(6):
        deg.press("ArrowRight")  # degree 3 -> 9
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # noise std (after training samples)
    page.keyboard.press("ArrowLeft")  # 0.25 -> 0.2
    e = el.fitting.polynomial_experiment(20, noise_std=0.2, random_state=0)
    want = say(
        "degree {d:2d} | training MSE {train:.4f} | test MSE {test:.4f} | noise variance {noise:.4f} | "
        "best degree on test: {best}",
        d=9,
        train=e.train_mse[9],
        test=e.test_mse[9],
        noise=0.2**2,
        best=e.best_degree,
    )
    _wait_readout(chart, "MSE", want)


def test_charts_fit_the_notebook_at_1280px(page):
    for nth in range(2):
        chart = _chart(page, nth)
        width = chart.locator("svg").first.evaluate("s => s.getBoundingClientRect().width")
        area = chart.evaluate("e => e.closest('.jp-OutputArea-output').clientWidth")
        assert width <= area, (nth, width, area)
        assert re.search(r"\S", chart.inner_text())  # the controls' labels are there
