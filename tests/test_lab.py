"""`make lab` opens the whole course: started the README's way (`make lab PORT=... NO_BROWSER=1`), the server's root
is the repository (README, chapters, exercises visible; .venv not), it opens on the README, which links every
chapter and exercise set, the news pop-up is off, and the ipywidgets front-end extension is there (for a learner's
own widgets; the course's explorers are Vega-Lite charts, drawn by JupyterLab's own renderer with no kernel)."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JUPYTER = Path(sys.executable).parent / "jupyter"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("[0-9][0-9]_*.ipynb"))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_widgets_labextension_is_installed():
    """What `jupyter labextension list` reads, without its 5 s subprocess: the widget manager is a prebuilt
    extension on JupyterLab's path, and the page config does not disable it (tests/browser shows it at work)."""
    from jupyter_core.paths import jupyter_path
    from jupyterlab_server.config import get_federated_extensions, get_page_config

    paths = jupyter_path("labextensions")
    manager = get_federated_extensions(paths).get("@jupyter-widgets/jupyterlab-manager")
    assert manager and Path(manager["ext_path"], "package.json").is_file(), paths
    disabled = get_page_config(paths).get("disabledExtensions") or {}
    if isinstance(disabled, list):  # (jupyterlab_server < 2.10 wrote a list)
        disabled = dict.fromkeys(disabled, True)
    assert not [d for d, off in disabled.items() if off and d.startswith("@jupyter-widgets/jupyterlab-manager")]


def test_the_landing_page_links_every_chapter_and_exercise_set():
    links = set(re.findall(r"\]\(([^)\s#]+)", (ROOT / "README.md").read_text(encoding="utf-8")))
    missing = [str(p.relative_to(ROOT)) for p in [*CHAPTERS, *EXERCISES] if str(p.relative_to(ROOT)) not in links]
    assert not missing, f"README.md (the page `make lab` opens on) does not link: {missing}"


def test_markdown_opens_rendered_and_build_folders_are_hidden_by_configuration():
    overrides = json.loads((ROOT / ".jupyter/lab/settings/overrides.json").read_text(encoding="utf-8"))
    assert overrides["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]["markdown"] == "Markdown Preview"
    server = json.loads((ROOT / ".jupyter/jupyter_server_config.json").read_text(encoding="utf-8"))
    hidden = set(server["ContentsManager"]["hide_globs"])
    assert {"tests", "scripts", "bench", "*.egg-info", "*.po"} <= hidden  # the catalogs beside the zh notebooks
    assert not hidden & {"notebooks", "exercises", "README.md", "README.zh-CN.md", "evallib"}
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--LabApp.default_url=/lab/tree/$(LAB_PAGE)" in makefile and "README.zh-CN.md" in makefile


def test_the_news_popup_is_off_by_configuration_in_the_repository():
    overrides = json.loads((ROOT / ".jupyter/lab/settings/overrides.json").read_text(encoding="utf-8"))
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    page = json.loads((ROOT / ".jupyter/labconfig/page_config.json").read_text(encoding="utf-8"))
    assert page["disabledExtensions"]["@jupyterlab/apputils-extension:announcements"] is True


def _get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.read().decode()
    except urllib.error.HTTPError as exc:
        raise AssertionError(f"{url.split('?')[0]}: HTTP {exc.code} {exc.read()[:500]!r}") from None


@pytest.mark.slow
def test_make_lab_serves_the_whole_course(tmp_path):
    port = _free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "ws"),
    }
    log = tmp_path / "lab.log"
    with open(log, "w") as out:  # the README's command; make runs it in its own process group
        proc = subprocess.Popen(
            ["make", "--no-print-directory", "lab", f"PORT={port}", "NO_BROWSER=1"],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    try:
        token = None
        for _ in range(240):
            # the printed URL opens README.md (rendered: .jupyter/lab/settings/overrides.json)
            m = re.search(
                rf"http://(?:127\.0\.0\.1|localhost):{port}/lab/tree/README\.md\?token=(\w+)", log.read_text()
            )
            if m:
                token = m.group(1)
                break
            assert proc.poll() is None, f"make lab exited:\n{log.read_text()[-3000:]}"
            time.sleep(0.5)
        assert token, f"no URL with a token within 120 s:\n{log.read_text()[-3000:]}"
        base = f"http://127.0.0.1:{port}"
        for _ in range(60):
            try:
                _get(f"{base}/api/status?token={token}")
                break
            except OSError:
                time.sleep(0.5)

        def names(path):
            return {c["name"] for c in json.loads(_get(f"{base}/api/contents/{path}?token={token}"))["content"]}

        top = names("")
        assert {"README.md", "notebooks", "exercises"} <= top and ".venv" not in top, top
        hidden = {"tests", "scripts", "bench", "classroom", "evallib.egg-info", "_build", "Makefile"}
        assert not hidden & top, f"build and packaging files shown to the learner: {hidden & top}"
        assert {p.name for p in CHAPTERS} <= names("notebooks")
        assert {p.name for p in EXERCISES} <= names("exercises")
        chapter = json.loads(_get(f"{base}/api/contents/notebooks/{CHAPTERS[0].name}?token={token}"))
        assert chapter["type"] == "notebook" and chapter["content"]["cells"]
        settings = json.loads(
            _get(f"{base}/lab/api/settings/@jupyterlab/apputils-extension:notification?token={token}")
        )
        assert settings["schema"]["properties"]["fetchNews"]["default"] == "false"  # the repository's override
        page = _get(f"{base}/lab?token={token}")
        assert "jupyter-widgets/jupyterlab-manager" in page  # the widget renderer is loaded with the page
        assert "apputils-extension:announcements" in page  # listed among the disabled plug-ins
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
