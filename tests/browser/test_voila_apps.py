"""Each Voilà app (apps/, `make apps`) works for a student in a browser: served by voila on 127.0.0.1 (a token, a
temporary copy of apps/), opened in headless Chromium, it shows its explorer with no code, no error and no widget
that failed to render; a key press on its main control makes it print what evallib computes for the new value
and redraw its figure.

Reuses the browser suite: its fixtures (``browser``, ``artifacts``, Chromium and Playwright checks), its driver
(``labdriver.ExplorerView``) and the explorer table (``explorer_cases.EXPLORERS``: title, control, values, keys),
since each app builds its chapter's explorer with the same arguments. The expected text comes from the app's
own code run in this process (no browser), then ``Explorer.set``.
"""
from __future__ import annotations

import ast
import contextlib
import io
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import nbformat
import numpy as np
import pytest
from PIL import Image
from conftest import TOKEN, _free_port, _notebook_env
from explorer_cases import EXPLORERS
from labdriver import ROOT, UPDATE_TIMEOUT_S, ExplorerView, stop_server, wait_until

APPS = sorted((ROOT / "apps").glob("[0-9][0-9]_*.ipynb"))
BUILDER = re.compile(r"\bel\.widgets\.(\w+_explorer)\(")
LOAD_TIMEOUT_S = 120
# classroom/voila: the offline template (no Font Awesome from a CDN) and the labextension allowlist (no extension
# built for a newer JupyterLab than Voilà's: "Unsatisfied version 4.2.5 of @jupyterlab/application"); make apps uses it
VOILA_SETTINGS = ROOT / "classroom" / "voila"
pytestmark = pytest.mark.browser


def _rgb(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def _case(app):
    builder = BUILDER.search(nbformat.read(app, as_version=4).cells[-1].source).group(1)
    rows = [c for c in EXPLORERS if c.builder == builder and c.notebook[:2] == app.name[:2] and c.nth == 0]
    assert len(rows) == 1, f"{app.name}: no row for {builder} in explorer_cases.EXPLORERS"
    return rows[0]


def _build_in_process(app, control=None, value=None):
    """Run the app's code cells here (Agg, no kernel) and return its explorer (the last cell's value), its text,
    and, after its control described ``control`` is set to ``value`` (under the app's own style settings), its new
    text and the whole figure as PNG."""
    import evallib as el

    nb = nbformat.read(app, as_version=4)
    ns = {"__name__": "__app__"}
    with np.printoptions(), matplotlib.rc_context(), warnings.catch_warnings(), \
            contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            for cell in [c for c in nb.cells if c.cell_type == "code"]:
                src = "\n".join(line for line in cell.source.splitlines() if not line.startswith("%"))
                tree = ast.parse(src)
                last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
                exec(compile(tree, app.name, "exec"), ns)
                if last is not None:
                    ns["_"] = eval(compile(ast.Expression(last.value), app.name, "eval"), ns)
            explorer = ns["_"]
            texts = [explorer.text]
            if control is not None:
                name = next(n for n, w in explorer.controls.items() if w.description == control)
                explorer.set(**{name: value})
                texts.append(explorer.text)
            return explorer, texts, explorer.image.value
        finally:
            el.style.setup_notebook(seed=0)  # back to the default figure style for the rest of the session
            plt.close("all")


@pytest.fixture(scope="module")
def voila(browser_available, tmp_path_factory):
    """`make apps`'s command on a copy of apps/, with a token; always shut down."""
    work = tmp_path_factory.mktemp("voila")
    shutil.copytree(ROOT / "apps", work / "apps", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "*.py"))
    env = _notebook_env()
    for name in ("config", "data", "runtime"):
        env[f"JUPYTER_{name.upper()}_DIR"] = str(work / name)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(work / "voila.log", "w")
    env["JUPYTER_PATH"] = str(VOILA_SETTINGS / "share")  # `make apps`'s Voilà settings (template, extensions)
    cmd = [str(Path(sys.executable).parent / "voila"), str(work / "apps"), "--no-browser", "--Voila.ip=127.0.0.1",
           f"--port={port}", f"--token={TOKEN}", "--show_tracebacks=True",  # a failing test shows why
           f"--Voila.config_file_paths=['{VOILA_SETTINGS}']"]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        def up():
            try:
                with urllib.request.urlopen(f"{base}/?token={TOKEN}", timeout=2) as r:
                    return r.status == 200
            except OSError:
                return proc.poll() is not None
        wait_until(up, 60, 0.25)
        if proc.poll() is not None:
            pytest.fail(f"voila exited with {proc.returncode}:\n{(work / 'voila.log').read_text()[-3000:]}")
        yield {"base": base, "log": work / "voila.log"}
    finally:
        stop_server(proc, log)


@pytest.fixture(scope="module")
def context(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.mark.browser
@pytest.mark.parametrize("app", APPS, ids=lambda p: p.stem)
def test_app_renders_its_controls_and_answers_a_control_change(app, voila, context, artifacts):
    case = _case(app)
    _, expected, figure = _build_in_process(app, case.control, case.values[1])
    assert expected[0] != expected[1], "table row: the key press must change the text"

    page = context.new_page()
    page_errors, console_errors, outside = [], [], []
    page.on("pageerror", lambda e: page_errors.append(str(e)))
    page.on("console", lambda m: console_errors.append(m.text[:300])
            if m.type == "error" or "Unsatisfied version" in m.text and "@jupyterlab/application" in m.text else None)
    page.on("request", lambda r: outside.append(r.url)
            if not r.url.startswith((voila["base"] + "/", "data:", "blob:")) else None)
    try:
        t0 = time.monotonic()
        # Voilà runs the app's cells before it finishes the page; on a loaded 2-core machine that took over
        # Playwright's default 30 s once (CI, 06_cost): wait for the first byte here, for the widgets below.
        page.goto(f"{voila['base']}/voila/render/{app.name}?token={TOKEN}", wait_until="commit",
                  timeout=LOAD_TIMEOUT_S * 1000)
        page.locator(".widget-vbox canvas.evallib-figure, [data-mime-type='application/vnd.jupyter.stderr'], "
                     "[data-mime-type='application/vnd.jupyter.error'], .jp-OutputArea-output pre").first.wait_for(
            timeout=LOAD_TIMEOUT_S * 1000)
        failed = "[data-mime-type='application/vnd.jupyter.stderr'], [data-mime-type='application/vnd.jupyter.error']"
        wait_until(lambda: page.locator(f".widget-vbox canvas.evallib-figure[data-frame], {failed}").count() > 0, 60)
        t1 = time.monotonic()
        view = ExplorerView(page, case.title)
        assert page.locator(".jp-CodeCell .jp-InputArea, .jp-InputArea-editor, .cm-editor").count() == 0, (
            "the app shows code")
        title = nbformat.read(app, as_version=4).cells[0].source.splitlines()[0][2:]
        assert page.get_by_role("heading", name=title).count() == 1, "the app's title"
        bad = page.locator(failed).all_inner_texts()
        assert not bad, f"{app.name} shows errors: {bad}"
        assert "Error displaying widget" not in page.inner_text("body")
        control = view.control(case.control)
        assert control.shows(case.values[0])
        wait_until(lambda: view.text() == expected[0], UPDATE_TIMEOUT_S)
        assert view.text() == expected[0], "the app prints something else than evallib computes"
        src = view.image_src()
        assert src and view.image_decoded()

        control.press(case.keys)
        assert control.shows(case.values[1]), f"keys {case.keys} moved the control to {control.readout()!r}"
        wait_until(lambda: view.text() == expected[1], UPDATE_TIMEOUT_S)
        assert view.text() == expected[1], "after the key press the app prints something else than evallib computes"
        assert wait_until(lambda: (s := view.image_src()) and s != src, 10), "the figure was not redrawn"
        assert view.image_decoded()
        # The canvas, rebuilt in the browser from the pixels sent (a rectangle or tiles per move), is the figure
        # this process draws for the same value: every pixel.
        want = _rgb(figure)
        if not wait_until(lambda: (g := _rgb(view.canvas_png())).shape == want.shape and bool((g == want).all()), 10):
            got = _rgb(view.canvas_png())
            Image.fromarray(got).save(artifacts / f"voila-{app.stem}-canvas.png")
            Image.fromarray(want).save(artifacts / f"voila-{app.stem}-expected.png")
            differ = np.any(got != want, axis=-1) if got.shape == want.shape else None
            raise AssertionError(f"the canvas is not the figure: shapes {got.shape} / {want.shape}, "
                                 f"{'-' if differ is None else int(differ.sum())} pixels differ")
        assert not page_errors, f"JavaScript errors: {page_errors}"
        assert not console_errors, f"console errors: {console_errors}"
        assert not outside, f"requests leaving 127.0.0.1: {outside}"
        page.screenshot(path=str(artifacts / f"voila-{app.stem}.png"))
        print(f"{app.name}: shown in {t1 - t0:.1f} s, updated in {time.monotonic() - t1:.1f} s")
    except BaseException:
        with contextlib.suppress(Exception):
            page.screenshot(path=str(artifacts / f"voila-{app.stem}-FAILED.png"))
        with contextlib.suppress(Exception):  # what the server did meanwhile, beside the screenshot
            shutil.copy(voila["log"], artifacts / f"voila-{app.stem}-FAILED.log")
            print(f"voila.log (last 3000 characters):\n{voila['log'].read_text()[-3000:]}")
        raise
    finally:
        page.close()
