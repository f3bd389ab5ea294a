"""Driving JupyterLab in headless Chromium (Playwright for Python) for tests/browser.

What a learner does, done by a program: open a notebook, clear and run all cells, find an explorer by its
title, move one of its controls with the keyboard or the mouse, read the printed text and the figure.
No test logic lives here; the table of explorers is in ``explorer_cases.py``.
"""

from __future__ import annotations

import json
import math
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# How long a learner would wait, at most (the suite runs beside nbval on 2 cores under `make test`).
LOAD_TIMEOUT_S = 90
RUN_ALL_TIMEOUT_S = 240
UPDATE_TIMEOUT_S = 60

_NUMBER = re.compile(r"^\s*(-?\d+(?:\.(\d*))?)(?:e([+-]?\d+))?\s*$")


def stop_server(proc, log):
    """Terminate a server started in its own process group; kill the group if it does not stop in 20 s."""
    import os
    import signal
    import subprocess

    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    log.close()


def wait_until(predicate, timeout_s, interval_s=0.1):
    """Poll ``predicate()`` until it is truthy or ``timeout_s`` passes; return its last value."""
    end = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value or time.monotonic() > end:
            return value
        time.sleep(interval_s)


def server_api(base, token, path, method="GET", timeout=5):
    """A call to the Jupyter server's REST API; the decoded JSON answer (None when empty)."""
    req = urllib.request.Request(f"{base}{path}", method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        body = r.read()
    return json.loads(body) if body else None


def shutdown_kernels(base, token):
    """Stop every kernel of the server (one may already be stopping: then the server answers 404)."""
    for k in server_api(base, token, "/api/kernels"):
        try:
            server_api(base, token, f"/api/kernels/{k['id']}", method="DELETE", timeout=20)
        except urllib.error.HTTPError as e:
            if e.code != 404:
                raise


def _menu(page, top, item):
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(rf"^{re.escape(top)}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(rf"^{re.escape(item)}$")).click()


def shutdown_kernel_of(base, token, path):
    """Stop the kernel of the notebook at ``path`` (relative to the server root), if it has one."""
    try:
        for s in server_api(base, token, "/api/sessions"):
            if s.get("path") == path and s.get("kernel"):
                server_api(base, token, f"/api/kernels/{s['kernel']['id']}", method="DELETE", timeout=20)
    except OSError:  # the server is gone or busy: it stops its kernels itself when it stops
        pass


def goto_notebook(page, base_url, token, path, workspace):
    """Start opening ``path`` (relative to the server root) in a fresh workspace; returns once the page loads."""
    page.goto(f"{base_url}/lab/workspaces/{workspace}/tree/{path}?token={token}", wait_until="commit")


def wait_kernel_idle(page):
    """Wait until JupyterLab shows the notebook with its kernel started and idle."""
    page.locator("#jp-main-statusbar").get_by_text(re.compile(r"\| Idle$")).wait_for(timeout=LOAD_TIMEOUT_S * 1000)


def run_all(page, n_code_cells):
    """Edit → Clear Outputs of All Cells, then Run → Run All Cells; wait until no cell is queued or running.

    Returns the input prompts of the code cells (``[n]:`` for every cell that ran)."""
    _menu(page, "Edit", "Clear Outputs of All Cells")
    _menu(page, "Run", "Run All Cells")
    prompts = page.locator(".jp-Notebook .jp-CodeCell .jp-InputArea-prompt")
    read = lambda: [t.strip() for t in prompts.all_inner_texts()]  # noqa: E731
    # Run All marks every cell [*] at once; it is done when none is left (a failing cell aborts the rest).
    wait_until(lambda: any("*" in p for p in read()) or all(re.fullmatch(r"\[\d+\]:", p) for p in read()), 10)
    done = wait_until(lambda: (p := read()) and not any("*" in x for x in p), RUN_ALL_TIMEOUT_S, 0.25)
    assert done, f"Run All did not finish within {RUN_ALL_TIMEOUT_S} s: prompts {read()}"
    prompts_now = read()
    assert len(prompts_now) == n_code_cells, (
        f"the page shows {len(prompts_now)} code cells, the notebook has {n_code_cells}"
    )
    return prompts_now


def cell_problems(page, n_cells):
    """Per cell index: the error/stderr texts it shows and any widget that failed to render."""
    cells = page.locator(".jp-Notebook .jp-Cell")
    found = cells.evaluate_all("""cells => cells.map(c => {
        const bad = [];
        for (const o of c.querySelectorAll('.jp-OutputArea-output')) {
            const mime = o.getAttribute('data-mime-type') || '';
            const text = o.innerText || '';
            if (mime === 'application/vnd.jupyter.stderr' || mime === 'application/vnd.jupyter.error')
                bad.push(text.slice(0, 2000));
            else if (/Error displaying widget|model not found|Failed to (create|load) (view|model)/.test(text))
                bad.push('widget failed to render: ' + text.slice(0, 500));
        }
        return bad;
    })""")
    assert len(found) == n_cells, f"the page shows {len(found)} cells, the notebook has {n_cells}"
    return {i: bad for i, bad in enumerate(found) if bad}


class ExplorerView:
    """One explorer on the page: the VBox whose first child is the bold HTML title."""

    def __init__(self, page, title, nth=0):
        self.page, self.title = page, title
        header = page.locator(":scope > .widget-html", has_text=re.compile(rf"^\s*{re.escape(title)}\s*$"))
        matches = page.locator(".jp-OutputArea-output .widget-vbox", has=header)
        count = matches.count()
        assert count > nth, f"explorer {title!r} #{nth} not on the page ({count} found)"
        self.box = matches.nth(nth)
        self.box.scroll_into_view_if_needed()

    # --- what the explorer shows ---------------------------------------------------------------
    def text(self):
        out = self.box.locator(".widget-output .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout']")
        return "".join(out.all_inner_texts()).rstrip("\n")

    # The figure: the explorer's canvas (evallib/widgets/_figure.py, issue 19). Each frame drawn into it sets its
    # data-frame attribute to the frame's number; a figure also shown by the Output would be a second element.
    FIGURE = "canvas.evallib-figure, .widget-output img"

    def image_src(self):
        """An id of the frame the figure shows ("frame 7"), or None before the first one (or with two figures)."""
        fig = self.box.locator(self.FIGURE)
        if fig.count() != 1:
            return None
        frame = fig.first.get_attribute("data-frame")
        return f"frame {frame}" if frame else None

    def image_decoded(self):
        """True when the figure is a single canvas holding a drawn frame: no decode error, some opaque pixels."""
        fig = self.box.locator(self.FIGURE)
        return fig.count() == 1 and fig.first.evaluate("""c => {
            if (c.tagName !== 'CANVAS' || !c.dataset.frame || c.dataset.error || !c.width || !c.height) return false;
            const a = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            for (let i = 3; i < a.length; i += 4) if (a[i] === 255) return true;
            return false; }""")

    def canvas_png(self):
        """The figure's canvas as PNG bytes (``toDataURL``: exactly the pixels drawn into it)."""
        import base64

        url = self.box.locator("canvas.evallib-figure").first.evaluate("c => c.toDataURL('image/png')")
        return base64.b64decode(url.split(",", 1)[1])

    def screenshot(self, path):
        self.box.scroll_into_view_if_needed()
        self.box.screenshot(path=str(path))

    def slider_tracks(self):
        """(description, track width in px, number of steps) of every slider of the explorer."""
        return self.box.locator(".widget-inline-hbox:has(.noUi-target)").evaluate_all("""els => els.map(e => {
            const t = e.querySelector('.noUi-target'), o = t.noUiSlider ? t.noUiSlider.options : null;
            return [(e.querySelector(':scope > label.widget-label') || {}).textContent || '',
                    e.querySelector('.noUi-base').getBoundingClientRect().width,
                    o ? Math.round((o.range.max - o.range.min) / (o.step || 1)) : 0];
        })""")

    # --- its controls --------------------------------------------------------------------------
    def control(self, description):
        label = self.page.locator(
            ":scope > label.widget-label", has_text=re.compile(rf"^\s*{re.escape(description)}\s*$")
        )
        ctl = self.box.locator(".widget-inline-hbox", has=label)
        assert ctl.count() == 1, f"{self.title!r}: {ctl.count()} controls labelled {description!r}"
        if ctl.locator(".noUi-handle").count() == 1:
            return SliderControl(self.page, ctl)
        if ctl.locator("select").count() == 1:
            return DropdownControl(self.page, ctl)
        raise AssertionError(f"{self.title!r}: control {description!r} is neither a slider nor a dropdown")


def _shows(readout, value):
    """Whether a slider readout ("12", "0.25", "1.13e+13", "64") shows ``value`` at its own precision."""
    readout = readout.replace("\u2212", "-")  # d3-format writes a minus sign, not a hyphen
    m = _NUMBER.match(readout)
    if m is None or isinstance(value, str):
        return readout.strip() == str(value)
    decimals = len(m.group(2) or "")
    if m.group(3) is not None:  # exponent form: compare the mantissas at the readout's precision
        return float(readout) == float(f"{float(value):.{decimals}e}")
    return math.isclose(float(m.group(1)), float(value), abs_tol=0.5 * 10**-decimals + 1e-12)


class SliderControl:
    """An ipywidgets 8 slider (Int/Float/FloatLog/Selection): a noUiSlider handle and a readout."""

    def __init__(self, page, locator):
        self.page, self.loc = page, locator
        self.handle = locator.locator(".noUi-handle")
        self.base = locator.locator(".noUi-base")
        self.readout_loc = locator.locator(".widget-readout")

    def readout(self):
        return self.readout_loc.inner_text().strip().replace("\u2212", "-")

    def shows(self, value):
        return _shows(self.readout(), value)

    def press(self, keys):
        """Focus the handle (as Tab would) and press ``keys`` (noUiSlider: arrows step, PageUp/Down, Home/End)."""
        self.handle.focus()
        for key in keys:
            self.handle.press(key)

    def drag_to(self, value):
        """Drag the handle with the mouse until the readout shows ``value``, then release.

        The readout follows the handle while dragging; the value reaches the kernel on release
        (the course's sliders have ``continuous_update=False``). A bisection over the track's x finds the spot.
        """
        self.handle.scroll_into_view_if_needed()
        hb, track = self.handle.bounding_box(), self.base.bounding_box()
        y = track["y"] + track["height"] / 2
        self.page.mouse.move(hb["x"] + hb["width"] / 2, hb["y"] + hb["height"] / 2)
        self.page.mouse.down()
        lo, hi = track["x"] - 2, track["x"] + track["width"] + 2
        try:
            for _ in range(40):
                x = (lo + hi) / 2
                self.page.mouse.move(x, y, steps=2)
                shown = self.readout()
                if _shows(shown, value):
                    break
                m = _NUMBER.match(shown)
                if m is None:
                    raise AssertionError(f"slider readout {shown!r} is not a number; cannot drag to {value!r}")
                if float(shown) < float(value):
                    lo = x
                else:
                    hi = x
        finally:
            self.page.mouse.up()


class DropdownControl:
    """An ipywidgets Dropdown (a native <select>)."""

    def __init__(self, page, locator):
        self.page, self.select = page, locator.locator("select")

    def readout(self):
        return self.select.evaluate("s => s.options[s.selectedIndex].text").replace("\xa0", " ").strip()

    def shows(self, value):
        return self.readout() == str(value).strip()

    def press(self, keys):
        """Focus the closed <select> and type: a letter selects the next option starting with it (type-ahead)."""
        self.select.focus()
        for key in keys:
            self.select.press(key)

    def drag_to(self, value):
        # A native <select> opens an OS popup that headless Chromium does not draw: Playwright picks the option
        # as a click on it would (input and change events), by its label.
        self.select.select_option(label=str(value))


# ------------------------------------------------------------------ explorers drawn in the browser (issue 26)
def chart_readout(chart, marker):
    """The lines of the text mark of an explorer chart (Vega, SVG renderer) that holds ``marker``; None if none."""
    texts = chart.locator("svg g.mark-text text").all()
    for t in texts:
        lines = [s.text_content() for s in t.locator("tspan").all()] or [t.text_content()]
        if any(marker in line for line in lines):
            return lines
    return None


def _tokens(text):
    return [w for w in text.split() if w != "|"]


def wait_readout(chart, marker, want, timeout_s=5.0):
    """Wait until the chart's readout says ``want`` (words and numbers in order; a line break stands for " | ")."""
    end = time.monotonic() + timeout_s
    got = None
    while time.monotonic() < end:
        got = chart_readout(chart, marker)
        if got is not None and _tokens(" ".join(got)) == _tokens(want):
            return got
        time.sleep(0.05)
    raise AssertionError(f"readout {got!r} != {want!r}")
