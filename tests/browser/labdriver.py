"""Driving JupyterLab in headless Chromium (Playwright for Python) for tests/browser.

What a learner does, done by a program: open a notebook, clear and run all cells, read what the cells show and
an explorer chart's readout (its SVG text). No test logic lives here; the table of explorers, how their controls
are moved and what they must show is in ``explorer_moves.py``.
"""

from __future__ import annotations

import json
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
