"""Every explorer drawn in the browser (issue 26) in JupyterLab, with no kernel: one notebook holding only the
explorers' stored outputs (explorer_moves.py says which are the chapters' own and which are built here) is
opened once, its kernel is stopped, and every control of every explorer is moved from the keyboard; the readout
the chart then shows (its SVG text) must be what evallib computes for the new setting. JupyterLab's own Vega
renderer draws them (vega 5.33 / vega-lite 5.6.1), as a learner's JupyterLab does.
"""

from __future__ import annotations

import pytest
from explorer_moves import CASES, case_params, explorer_calls, move_every_control, notebook_of, outputs
from labdriver import goto_notebook, shutdown_kernel_of

pytestmark = pytest.mark.browser

NB = "explorers_check.ipynb"


def test_every_explorer_call_of_the_chapters_has_a_row():
    from explorer_moves import BUILT_HERE, CHAPTER_OF

    rows = {(CHAPTER_OF[c.builder] if c.notebook == BUILT_HERE else c.notebook, c.builder, c.nth) for c in CASES}
    assert set(explorer_calls()) == rows


@pytest.fixture(scope="module")
def page(lab, browser):
    nb = notebook_of(outputs())
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    import nbformat

    nbformat.write(nb, lab["root"] / NB)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    try:
        goto_notebook(pg, lab["base"], lab["token"], NB, "charts")
        pg.locator(".vega-embed svg").nth(len(CASES) - 1).wait_for(timeout=120_000)
        shutdown_kernel_of(lab["base"], lab["token"], NB)  # no kernel from here on: the charts move by themselves
        yield pg
    finally:
        ctx.close()


@pytest.mark.parametrize("case", case_params())
def test_every_control_moves_from_the_keyboard_without_a_kernel(page, case):
    chart = page.locator(".vega-embed").nth(CASES.index(case))
    move_every_control(page, chart, case)


def test_charts_fit_the_notebook_at_1280px(page):
    for nth in range(len(CASES)):
        chart = page.locator(".vega-embed").nth(nth)
        width = chart.locator("svg").first.evaluate("s => s.getBoundingClientRect().width")
        area = chart.evaluate("e => e.closest('.jp-OutputArea-output').clientWidth")
        assert width <= area, (CASES[nth].id, width, area)
