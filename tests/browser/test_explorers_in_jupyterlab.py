"""Every explorer works for a learner in JupyterLab: opened in headless Chromium, its notebook run with Run All,
no cell shows an error, its main control moved with the keyboard and with the mouse, and each time the printed
numbers become what evallib computes for the new value and the figure (a new PNG) is redrawn.

nbval cannot see any of this (it ignores widget views and images). The table of explorers is
``explorer_cases.py``; a screenshot of each explorer after the moves goes to test-artifacts/browser/.
"""
from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor

import matplotlib
import matplotlib.pyplot as plt
import nbformat
import numpy as np
import pytest
from explorer_cases import EXPLORERS, NOT_DRIVEN, NOTEBOOK
from labdriver import (ROOT, UPDATE_TIMEOUT_S, ExplorerView, cell_problems, goto_notebook, run_all,
                       shutdown_kernel_of, shutdown_kernels, wait_kernel_idle, wait_until)

NOTEBOOKS = ROOT / "notebooks"
log = logging.getLogger("browser")  # phase timings: pytest --log-cli-level=INFO
# A slider a learner can drag to every value: at least 1 px per step, or a track of 100 px. (ipywidgets' slider
# box is 300 px wide; with description_width "initial" a long description leaves a track of ~20 px.)
MIN_TRACK_PX = 100
BUILDER_CALL = re.compile(r"\bwidgets\.(\w+_explorer)\(")  # el.widgets.X_explorer( or evallib.widgets....


def _read(name):
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def _explorer_cell(nb, builder, nth):
    """Index of the code cell holding the ``nth`` call of ``el.widgets.<builder>(``."""
    seen = -1
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            seen += sum(1 for m in BUILDER_CALL.finditer(cell.source) if m.group(1) == builder)
            if seen >= nth:
                return i
    raise AssertionError(f"no call #{nth} of el.widgets.{builder}( in the notebook")


# --- the table covers the notebooks (no browser needed) -------------------------------------------------
def test_every_explorer_in_the_notebooks_has_a_row():
    """A chapter that adds an explorer adds a row to explorer_cases.EXPLORERS (or says in NOT_DRIVEN why not)."""
    in_notebooks = set()
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        counts = {}
        for cell in _read(path.name).cells:
            if cell.cell_type == "code":
                for m in BUILDER_CALL.finditer(cell.source):
                    in_notebooks.add((path.name, m.group(1), counts.get(m.group(1), 0)))
                    counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    covered = {(c.notebook, c.builder, c.nth) for c in EXPLORERS} | set(NOT_DRIVEN)
    missing = sorted(in_notebooks - covered)
    assert not missing, f"explorers with no row in tests/browser/explorer_cases.py: {missing}"
    stale = sorted(covered - in_notebooks)
    assert not stale, f"rows for explorers the notebooks no longer call: {stale}"


# --- the browser suite ----------------------------------------------------------------------------------
class OpenNotebook:
    """The notebook in the browser: opened, cleared and run with Run All (once per notebook, then reused).

    While one notebook runs, the next notebook of the table is already loading in a second page (JupyterLab
    starting, its kernel starting): without that, the suite spends a third of its time waiting for it.
    """

    def __init__(self, lab, context, cases):
        self.lab, self.context, self.cases = lab, context, list(cases)
        self.order = list(dict.fromkeys(c.notebook for c in self.cases))
        self.name = self.page = None
        self.problems = None
        self.preopened = {}  # name -> page already navigating
        self.inputs = {}  # case id -> future of its namespace, computed while the kernel runs the notebook
        self.pool = ThreadPoolExecutor(max_workers=1)

    def namespace(self, case):
        future = self.inputs.pop(case.id, None) or self.pool.submit(_namespace, case, self.lab["root"])
        return future.result()

    def _start(self, name):
        page = self.context.new_page()
        goto_notebook(page, self.lab["base"], self.lab["token"], f"notebooks/{name}",
                      workspace=f"t{uuid.uuid4().hex[:8]}")
        return page

    def get(self, name):
        if name != self.name:
            self.close()
            nb = nbformat.read(self.lab["root"] / "notebooks" / name, as_version=4)  # the copy the server has
            self.name = name
            t0 = time.monotonic()
            self.page = self.preopened.pop(name, None) or self._start(name)
            wait_kernel_idle(self.page)
            t1 = time.monotonic()
            # The next notebook loads while this one runs (its kernel computes; the browser is mostly idle).
            # Loading it later, while this page is driven, slows the mouse down: same-site pages share a renderer.
            following = self.order[self.order.index(name) + 1:] if name in self.order else []
            if following and following[0] not in self.preopened:
                self.preopened[following[0]] = self._start(following[0])
                self.page.bring_to_front()
            for case in self.cases:
                if case.notebook == name and case.setup is not None:
                    self.inputs[case.id] = self.pool.submit(_namespace, case, self.lab["root"])
            prompts = run_all(self.page, sum(c.cell_type == "code" for c in nb.cells))
            log.info("%s: opened in %.1f s (more in the background), Run All in %.1f s",
                     name, t1 - t0, time.monotonic() - t1)
            not_run = [p for p in prompts if not re.fullmatch(r"\[\d+\]:", p)]
            self.problems = {f"cell {i}": texts for i, texts in cell_problems(self.page, len(nb.cells)).items()}
            if not_run:
                self.problems["not run"] = [f"{len(not_run)} code cells did not run (an earlier cell failed?)"]
        return self.page

    def close(self):
        if self.page is not None:
            path = f"notebooks/{self.name}"
            try:
                self.page.close()
            finally:
                self.name = self.page = None
                # The server takes a second or two to stop a kernel: let it, while the next notebook runs.
                threading.Thread(target=shutdown_kernel_of, args=(self.lab["base"], self.lab["token"], path),
                                 daemon=True).start()

    def close_all(self):
        try:
            self.close()
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)
            for page in self.preopened.values():
                page.close()
            self.preopened.clear()
            shutdown_kernels(self.lab["base"], self.lab["token"])


@pytest.fixture(scope="module")
def notebook(lab, browser):
    # One browser context (its cache keeps JupyterLab's scripts between notebooks), one page per notebook.
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    opened = OpenNotebook(lab, context, EXPLORERS)
    try:
        yield opened
    finally:
        try:
            opened.close_all()
        finally:
            context.close()


def _namespace(case, lab_root):
    """The explorer's inputs for ``case.expected`` (see explorer_cases)."""
    if case.setup is None:
        return {}
    if callable(case.setup):
        return case.setup()
    assert case.setup == NOTEBOOK, case.setup
    nb = nbformat.read(lab_root / "notebooks" / case.notebook, as_version=4)
    upto = _explorer_cell(nb, case.builder, case.nth)
    # Runs in a worker thread while the kernel runs the same notebook: quiet through the namespace (print and
    # display), not by redirecting this process's stdout.
    quiet = lambda *a, **k: None  # noqa: E731
    ns = {"__name__": "__notebook__", "print": quiet, "display": quiet}
    # The notebook's cells set print options and matplotlib's style: keep them out of this process afterwards.
    with np.printoptions(), matplotlib.rc_context(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for i, cell in enumerate(nb.cells[:upto]):
                if cell.cell_type == "code":
                    exec(compile(cell.source, f"{case.notebook}[{i}]", "exec"), ns)
        finally:
            plt.close("all")
    return ns


def _expect_update(view, expected, old_src, what):
    """Wait until the explorer prints ``expected``; its figure must be a new PNG the browser decoded."""
    wait_until(lambda: view.text() == expected, UPDATE_TIMEOUT_S)
    assert view.text() == expected, f"after {what}, the explorer printed something else than evallib computes"
    new_src = wait_until(lambda: (s := view.image_src()) and s != old_src and s, 10)
    assert new_src, f"after {what}, the figure did not change (same PNG, or no single figure)"
    assert view.image_decoded(), f"after {what}, the figure is not a PNG the browser can show"
    return new_src


@pytest.mark.browser
@pytest.mark.parametrize("case", EXPLORERS, ids=lambda c: c.id)
def test_explorer_responds_to_keyboard_and_mouse(case, notebook, lab, artifacts):
    stem = f"{case.notebook.removesuffix('.ipynb')}-{case.builder}" + (f"-{case.nth}" if case.nth else "")
    (artifacts / f"{stem}-FAILED.png").unlink(missing_ok=True)  # a screenshot of an earlier failure
    page = None
    try:
        page = notebook.get(case.notebook)
        assert not notebook.problems, f"{case.notebook} shows errors after Run All: {notebook.problems}"
        t0 = time.monotonic()
        ns = notebook.namespace(case)
        start, after_keys, after_mouse = case.values

        view = ExplorerView(page, case.title, case.nth)
        control = view.control(case.control)
        expected = [None if v is None else case.expected(ns, v) for v in case.values]
        assert expected[1] != expected[2] and (expected[0] != expected[1] or not case.keys), (
            "table row: pick values whose texts differ")

        if start is not None:  # None: the start depends on what the kernel measured
            assert control.shows(start), f"{case.control!r} starts at {control.readout()!r}, the table says {start!r}"
            wait_until(lambda: view.text() == expected[0], UPDATE_TIMEOUT_S)
            assert view.text() == expected[0], "as the notebook starts it, the explorer prints something else"
        src = wait_until(view.image_src, UPDATE_TIMEOUT_S)
        assert src and view.image_decoded(), "the explorer shows no figure after Run All"

        t1 = time.monotonic()
        if case.keys:  # () only where JupyterLab takes the keys (see explorer_cases)
            control.press(case.keys)
            assert control.shows(after_keys), (
                f"keys {case.keys} moved {case.control!r} to {control.readout()!r}, not {after_keys!r}")
            src = _expect_update(view, expected[1], src, f"keys {case.keys}")

        t2 = time.monotonic()
        control.drag_to(after_mouse)
        assert control.shows(after_mouse), (
            f"the mouse moved {case.control!r} to {control.readout()!r}, not {after_mouse!r}")
        _expect_update(view, expected[2], src, "the mouse drag")
        t3 = time.monotonic()
        view.screenshot(artifacts / f"{stem}.png")
        log.info("%s: inputs and first text %.1f s, keyboard %.1f s, mouse %.1f s", case.id, t1 - t0, t2 - t1, t3 - t2)

        narrow = [f"{d!r}: {w:.0f} px for {n} steps" for d, w, n in view.slider_tracks() if round(w) < min(MIN_TRACK_PX, n)]
        assert not narrow, f"slider tracks too short to reach every value with the mouse: {narrow}"
    except BaseException:
        if page is not None:
            with contextlib.suppress(Exception):
                page.screenshot(path=str(artifacts / f"{stem}-FAILED.png"), full_page=False)
        raise
