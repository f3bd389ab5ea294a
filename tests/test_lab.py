"""`make lab` opens a working JupyterLab: the server starts from this environment, serves the chapters,
and has the ipywidgets front-end extension (without it every explorer would show as plain text)."""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JUPYTER = Path(sys.executable).parent / "jupyter"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_widgets_labextension_is_installed():
    out = subprocess.run([str(JUPYTER), "labextension", "list"], capture_output=True, text=True, timeout=120)
    text = out.stdout + out.stderr
    assert "@jupyter-widgets/jupyterlab-manager" in text and "enabled" in text


@pytest.mark.slow
def test_jupyterlab_serves_the_chapters(tmp_path):
    shutil.copytree(ROOT / "notebooks", tmp_path / "notebooks")
    port, token = _free_port(), "evallib-test"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt")}
    proc = subprocess.Popen(
        [str(JUPYTER), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}", "--allow-root"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        status = None
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                    status = json.load(r)
                break
            except OSError:
                time.sleep(0.5)
        assert status is not None, "JupyterLab did not answer within 60 s"
        with urllib.request.urlopen(f"{base}/api/contents/notebooks?token={token}", timeout=10) as r:
            names = {c["name"] for c in json.load(r)["content"]}
        assert "01_error_and_fitting.ipynb" in names and "02_evaluation_methods.ipynb" in names
        with urllib.request.urlopen(f"{base}/lab?token={token}", timeout=10) as r:
            page = r.read().decode()
        assert "jupyter-widgets/jupyterlab-manager" in page  # the widget renderer is loaded with the page
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
