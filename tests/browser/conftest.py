"""Fixtures for the browser suite: a JupyterLab server on a temporary copy of the notebooks and headless
Debian Chromium driven by Playwright. Both always shut down (finally), also when a test fails.

Skipped, with the reason, where the browser cannot run: no /usr/bin/chromium (``scripts/install_browser.sh``
installs it as root with apt-get; ``make test`` runs that first) or no ``playwright`` package. Never
``playwright install``: it downloads a browser.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from labdriver import ROOT, server_api, stop_server

CHROMIUM = Path(os.environ.get("EVALLIB_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = ROOT / "test-artifacts" / "browser"
# The flags that work on these machines (root, closed network): see the course's machine notes.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TOKEN = "evallib-browser-" + uuid.uuid4().hex[:12]

# JupyterLab user settings for the run: no news or update pop-up, every cell in the DOM, no autosave.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}
# JupyterLab 4.6's notebook takes all four arrow keys in command mode (cells, headings) unless the focus is on a
# :read-write element, which a range input, a radio button or a <select> is not: the explorers' Vega controls
# would not move from the keyboard. The course's JupyterLab settings (docs/design/explorers.md) narrow those four
# shortcuts to focus outside form controls; the suite runs with the same settings.
_CMD = ".jp-Notebook.jp-mod-commandMode:not(.jp-mod-readWrite) :focus"
ARROW_SHORTCUTS = [
    entry
    for command, key in [
        ("notebook:move-cursor-down", "ArrowDown"),
        ("notebook:move-cursor-up", "ArrowUp"),
        ("notebook:move-cursor-heading-above-or-collapse", "ArrowLeft"),
        ("notebook:move-cursor-heading-below-or-expand", "ArrowRight"),
    ]
    for entry in (
        {"command": command, "keys": [key], "selector": _CMD, "disabled": True},
        {"command": command, "keys": [key], "selector": _CMD + ":not(input):not(select)"},
    )
]
LAB_SETTINGS["@jupyterlab/shortcuts-extension/shortcuts.jupyterlab-settings"] = {"shortcuts": ARROW_SHORTCUTS}


def _notebook_env():
    """The settings under which notebooks run everywhere (scripts/nbsettings.py, also exported by the Makefile)."""
    from scripts import nbsettings

    env = {**os.environ, **nbsettings.ENV}
    env.pop("MPLBACKEND", None)
    return env


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def browser_available():
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} not found: run `bash scripts/install_browser.sh` as root "
            "(Debian's chromium via apt-get; `make test` does it)"
        )
    if importlib.util.find_spec("playwright") is None:
        pytest.skip("playwright is not installed: pip install -e '.[test]'")


@contextlib.contextmanager
def lab_server(work: Path, token: str = TOKEN):
    """A JupyterLab server on 127.0.0.1 with ``token``, serving a copy of notebooks/ under ``work / "root"`` (the
    repo is never served), with the suite's settings; stopped with its kernels on exit. Also bench_browser.py's."""
    shutil.copytree(
        ROOT / "notebooks", work / "root" / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    for rel, values in LAB_SETTINGS.items():
        f = work / "settings" / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps(values))
    env = _notebook_env()
    for name in ("config", "data", "runtime"):  # nothing from the user's Jupyter setup, nothing left behind
        env[f"JUPYTER_{name.upper()}_DIR"] = str(work / name)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(work / "jupyterlab.log", "w")
    cmd = [
        str(Path(sys.executable).parent / "jupyter"),
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={work / 'root'}",
        f"--LabApp.user_settings_dir={work / 'settings'}",
        f"--LabApp.workspaces_dir={work / 'workspaces'}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--ServerApp.open_browser=False",
    ]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        for _ in range(240):
            try:
                server_api(base, token, "/api/status", timeout=2)
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.25)
        else:
            raise RuntimeError(f"JupyterLab did not answer within 60 s; log: {work / 'jupyterlab.log'}")
        if proc.poll() is not None:
            raise RuntimeError(
                f"JupyterLab exited with {proc.returncode}:\n{(work / 'jupyterlab.log').read_text()[-3000:]}"
            )
        yield {"base": base, "token": token, "root": work / "root", "log": work / "jupyterlab.log"}
    finally:
        try:  # kernels first (they run in sessions of their own), then the server
            for k in server_api(base, token, "/api/kernels"):
                server_api(base, token, f"/api/kernels/{k['id']}", method="DELETE", timeout=20)
        except Exception:
            pass
        stop_server(proc, log)


@pytest.fixture(scope="session")
def lab(browser_available, tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 with a token, serving a copy of notebooks/ (:func:`lab_server`)."""
    try:
        server = lab_server(tmp_path_factory.mktemp("lab"))
        info = server.__enter__()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield info
    finally:
        server.__exit__(None, None, None)


@pytest.fixture(scope="session")
def browser(browser_available):
    """Debian's Chromium, headless, with a fresh profile (Playwright's launch uses a new temporary one)."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
