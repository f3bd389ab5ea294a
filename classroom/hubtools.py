"""The course's JupyterHub on one machine: `make hub`, and the pieces the class-day test and the benchmark share.

    python classroom/hubtools.py          # = make hub: fetch the proxy once, then run JupyterHub in _build/hub

* :func:`ensure_proxy` installs configurable-http-proxy from the **npm registry** into ``_build/node``
  (``npm install --prefix``; never global), once;
* :class:`Hub` starts ``jupyterhub -f classroom/jupyterhub_config.py`` on free 127.0.0.1 ports in a folder of
  its own and stops it, the students' servers and their kernels, always;
* :class:`Student` is what a student's browser does, as HTTP: log in, open the nbgitpuller link, let
  nbgitpuller pull (its page's event stream), read and save files, run cells in a kernel (REST + websocket).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote, urlparse

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "classroom" / "jupyterhub_config.py"
PROXY_PACKAGE, PROXY_VERSION = "configurable-http-proxy", "5.3.0"
PASSWORD = "evallib-class"


def node_dir() -> Path:
    return Path(os.environ.get("EVALLIB_NODE_DIR", ROOT / "_build" / "node"))


def proxy_command() -> Path:
    return node_dir() / "node_modules" / ".bin" / "configurable-http-proxy"


def ensure_proxy(verbose=True) -> Path:
    """configurable-http-proxy from the npm registry in ``_build/node`` (installed the first time)."""
    cmd = proxy_command()
    if cmd.exists():
        return cmd
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(
            f"npm is needed once to fetch {PROXY_PACKAGE}@{PROXY_VERSION} from the npm registry "
            "(Debian: apt-get install npm)"
        )
    node_dir().mkdir(parents=True, exist_ok=True)
    if verbose:
        print(f"installing {PROXY_PACKAGE}@{PROXY_VERSION} from the npm registry into {node_dir()} ...", flush=True)
    r = subprocess.run(
        [
            npm,
            "install",
            "--prefix",
            str(node_dir()),
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            f"{PROXY_PACKAGE}@{PROXY_VERSION}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if r.returncode or not cmd.exists():
        raise SystemExit(f"npm install {PROXY_PACKAGE}@{PROXY_VERSION} failed:\n{r.stderr[-2000:]}")
    return cmd


def _with_root(pythonpath):
    """PYTHONPATH with the course's root first: the hub's configuration imports classroom.hubtools and
    scripts.nbsettings as packages (no sys.path edits)."""
    return os.pathsep.join([str(ROOT), *([pythonpath] if pythonpath else [])])


def notebook_settings() -> dict:
    """The course's notebook environment (scripts/nbsettings.py), for the students' servers."""
    from scripts.nbsettings import ENV

    return dict(ENV)


def readme_link(hub: str, repo_url: str, repo_name: str, branch: str = "main") -> str:
    """The nbgitpuller link exactly as the lecturers' guide (docs/teaching.md) gives it, filled in."""
    readme = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    template = re.search(r"^https://HUB/hub/user-redirect/git-pull\?\S+$", readme, flags=re.M).group(0)
    link = template.replace("https://HUB", hub).replace("https://REPO-URL", quote(repo_url, safe=""))
    return link.replace("REPO-NAME", repo_name).replace("branch=main", f"branch={branch}")


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def free_port_triple() -> int:
    """A port p with p, p+1, p+2 free on 127.0.0.1 (public, hub API, proxy API)."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            p = s.getsockname()[1]
        if p < 65000 and all(_port_free(p + i) for i in range(3)):
            return p
    raise RuntimeError("no three free consecutive ports on 127.0.0.1")


class Hub:
    """``jupyterhub -f classroom/jupyterhub_config.py`` in ``workdir``, with an admin service token.

    Use as a context manager: on exit every student's server, every kernel and the proxy are stopped (by the
    hub, then by process id for anything left over).
    """

    def __init__(self, workdir: Path, *, homes: Path | None = None, password: str = PASSWORD):
        self.workdir = Path(workdir)
        self.homes = Path(homes) if homes else self.workdir / "home"
        self.password = password
        self.token = uuid.uuid4().hex
        self.port = None
        self.proc = None
        self.started = set()
        self._seen = {}

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self, timeout=180):
        import requests

        ensure_proxy(verbose=False)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port_triple()
        env = {
            **os.environ,
            "EVALLIB_HUB_PORT": str(self.port),
            "EVALLIB_HUB_DATA": str(self.workdir),
            "EVALLIB_HUB_HOMES": str(self.homes),
            "EVALLIB_HUB_PASSWORD": self.password,
            "EVALLIB_HUB_API_TOKEN": self.token,
            "PYTHONPATH": _with_root(os.environ.get("PYTHONPATH")),
        }
        self.log = open(self.workdir / "jupyterhub.log", "w")
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "jupyterhub"), "-f", str(CONFIG)],
            cwd=self.workdir,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited with {self.proc.returncode}:\n{self.log_text()[-3000:]}")
            try:
                if requests.get(f"{self.base}/hub/api/", timeout=2).ok:
                    return self
            except requests.RequestException:
                pass
            self._remember_children()
            time.sleep(0.25)
        raise RuntimeError(f"jupyterhub did not answer within {timeout} s:\n{self.log_text()[-3000:]}")

    def log_text(self) -> str:
        self.log.flush()
        return (self.workdir / "jupyterhub.log").read_text(errors="replace")

    def api(self, method: str, path: str, timeout=60, **kw):
        import requests

        r = requests.request(
            method,
            f"{self.base}/hub/api{path}",
            timeout=timeout,
            headers={"Authorization": f"token {self.token}"},
            **kw,
        )
        r.raise_for_status()
        return r.json() if r.content else None

    def server(self, name: str) -> dict | None:
        return self.api("GET", f"/users/{name}").get("servers", {}).get("")

    def wait_ready(self, name: str, timeout=300):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s = self.server(name)
            if s and s.get("ready"):
                self._remember_children()
                return s
            time.sleep(0.2)
        raise TimeoutError(f"{name}'s server was not ready within {timeout} s:\n{self.log_text()[-3000:]}")

    def _remember_children(self):
        """Every process the hub started (proxy, students' servers, their kernels), by pid and start time."""
        import psutil

        try:
            for p in psutil.Process(self.proc.pid).children(recursive=True):
                self._seen[p.pid] = p.create_time()
        except psutil.Error:
            pass

    def processes(self) -> dict:
        """role -> list of psutil.Process: 'hub', 'proxy', 'server', 'kernel', 'other'."""
        import psutil

        out = {"hub": [psutil.Process(self.proc.pid)], "proxy": [], "server": [], "kernel": [], "other": []}
        for p in out["hub"][0].children(recursive=True):
            try:
                cmd = " ".join(p.cmdline())
            except psutil.Error:
                continue
            role = (
                "proxy"
                if "configurable-http-proxy" in cmd
                else "server"
                if "jupyterhub-singleuser" in cmd
                else "kernel"
                if "ipykernel" in cmd
                else "other"
            )
            out[role].append(p)
        return out

    def stop(self):
        import psutil

        if self.proc is None:
            return
        self._remember_children()
        try:
            if self.proc.poll() is None:
                names = [
                    u["name"] for u in self.api("GET", "/users") if u["name"] != "classroom-admin" and u.get("servers")
                ]

                def stop_server(name):
                    try:
                        self.api("DELETE", f"/users/{name}/server", timeout=60)
                    except Exception:
                        pass

                with ThreadPoolExecutor(max(1, len(names))) as pool:  # the servers stop at once, not in turn
                    list(pool.map(stop_server, names))
        except Exception:
            pass
        self._remember_children()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        for pid, created in self._seen.items():  # anything left: only processes this hub started
            try:
                p = psutil.Process(pid)
                if p.create_time() == created:
                    p.kill()
            except psutil.Error:
                pass
        self.log.close()
        self.proc = None


class Student:
    """A student's browser, as HTTP requests with the student's cookies (no API token)."""

    def __init__(self, hub: Hub, name: str):
        import requests

        self.hub, self.name = hub, name
        self.s = requests.Session()
        self.prefix = f"{hub.base}/user/{name}"

    def login(self):
        r = self.s.get(f"{self.hub.base}/hub/login", timeout=60)
        xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', r.text)
        data = {"username": self.name, "password": self.hub.password}
        if xsrf:
            data["_xsrf"] = xsrf.group(1)
        r = self.s.post(f"{self.hub.base}/hub/login", data=data, allow_redirects=False, timeout=60)
        assert r.status_code == 302, f"login of {self.name} failed: {r.status_code}"
        return self

    def open_link(self, link: str, timeout=300):
        """Open the nbgitpuller link as a browser does; starts the server when it is not running (the hub's
        "not running" page spawns it, as its script would). Returns the nbgitpuller page's response."""
        r = self.s.get(link, timeout=120)
        if "/git-pull" not in urlparse(r.url).path:
            self.s.get(f"{self.hub.base}/hub/spawn/{self.name}", timeout=120)
            self.hub.wait_ready(self.name, timeout)
            r = self.s.get(link, timeout=120)
        r.raise_for_status()
        assert "/git-pull" in urlparse(r.url).path, r.url
        return r

    def pull(self, repo: str, branch: str, targetpath: str | None = None, timeout=300) -> list[dict]:
        """What nbgitpuller's page does next: read its event stream until it says finished (or error)."""
        params = {"repo": repo, "branch": branch}
        if targetpath:
            params["targetpath"] = targetpath
        events = []
        with self.s.get(f"{self.prefix}/git-pull/api", params=params, stream=True, timeout=timeout) as r:
            r.raise_for_status()
            for line in r.iter_lines(decode_unicode=True):
                if line and line.startswith("data: "):
                    events.append(json.loads(line[6:]))
                    if events[-1].get("phase") in ("finished", "error"):
                        break
        return events

    # --- the Jupyter server's REST API with the student's cookies ------------------------------------------
    def _xsrf(self) -> str:
        if not any(c.name == "_xsrf" and c.path.startswith(f"/user/{self.name}") for c in self.s.cookies):
            self.s.get(f"{self.prefix}/lab", timeout=120)  # the page sets the server's _xsrf cookie
        return next(c.value for c in self.s.cookies if c.name == "_xsrf" and c.path.startswith(f"/user/{self.name}"))

    def rest(self, method: str, path: str, timeout=120, **kw):
        r = self.s.request(
            method, f"{self.prefix}/api{path}", headers={"X-XSRFToken": self._xsrf()}, timeout=timeout, **kw
        )
        r.raise_for_status()
        return r.json() if r.content else None

    def read(self, path: str) -> dict:
        return self.rest("GET", f"/contents/{quote(path)}?content=1")["content"]

    def save(self, path: str, nb: dict):
        self.rest("PUT", f"/contents/{quote(path)}", json={"type": "notebook", "format": "json", "content": nb})

    def run_cells(self, notebook_path: str, sources: list[str], timeout=300) -> list[list[dict]]:
        """Start a kernel for ``notebook_path`` (its folder is the working directory), run each source over
        the kernel's websocket, return each cell's outputs (nbformat-like dicts); the kernel is shut down."""
        import websocket

        sess = self.rest(
            "POST",
            "/sessions",
            json={
                "path": notebook_path,
                "type": "notebook",
                "name": Path(notebook_path).name,
                "kernel": {"name": "python3"},
            },
        )
        kid = sess["kernel"]["id"]
        try:
            ws_url = self.prefix.replace("http://", "ws://") + f"/api/kernels/{kid}/channels"
            cookie = "; ".join(f"{c.name}={c.value}" for c in self.s.cookies)
            ws = websocket.create_connection(
                ws_url, cookie=cookie, header=[f"X-XSRFToken: {self._xsrf()}"], origin=self.hub.base, timeout=timeout
            )
            try:
                return [_execute(ws, src, self.name, timeout) for src in sources]
            finally:
                ws.close()
        finally:
            self.rest("DELETE", f"/sessions/{sess['id']}")


def _execute(ws, code: str, username: str, timeout: float) -> list[dict]:
    msg_id, session = uuid.uuid4().hex, uuid.uuid4().hex
    ws.send(
        json.dumps(
            {
                "header": {
                    "msg_id": msg_id,
                    "username": username,
                    "session": session,
                    "msg_type": "execute_request",
                    "version": "5.3",
                    "date": "",
                },
                "parent_header": {},
                "metadata": {},
                "channel": "shell",
                "buffers": [],
                "content": {
                    "code": code,
                    "silent": False,
                    "store_history": True,
                    "user_expressions": {},
                    "allow_stdin": False,
                    "stop_on_error": True,
                },
            }
        )
    )
    outputs, replied, idle = [], False, False
    end = time.monotonic() + timeout
    while not (replied and idle):
        if time.monotonic() > end:
            raise TimeoutError(f"cell did not finish within {timeout} s:\n{code[:200]}")
        msg = json.loads(ws.recv())
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "execute_reply":
            replied = True
        elif kind == "status" and content.get("execution_state") == "idle":
            idle = True
        elif kind == "stream":
            outputs.append({"output_type": "stream", "name": content["name"], "text": content["text"]})
        elif kind in ("display_data", "execute_result"):
            outputs.append({"output_type": kind, "data": content["data"]})
        elif kind == "error":
            outputs.append({"output_type": "error", "ename": content["ename"], "evalue": content["evalue"]})
    return outputs


def main():
    """`make hub`: the course's JupyterHub on http://127.0.0.1:8000 (EVALLIB_HUB_PORT) until Ctrl-C."""
    ensure_proxy()
    data = Path(os.environ.get("EVALLIB_HUB_DATA", ROOT / "_build" / "hub"))
    data.mkdir(parents=True, exist_ok=True)
    os.chdir(data)
    port = os.environ.get("EVALLIB_HUB_PORT", "8000")
    print(
        f"JupyterHub for the course on http://127.0.0.1:{port} (any user name, password "
        f"{os.environ.get('EVALLIB_HUB_PASSWORD', PASSWORD)!r}); Ctrl-C stops it and every student's server",
        flush=True,
    )
    jupyterhub = Path(sys.executable).parent / "jupyterhub"
    os.environ["PYTHONPATH"] = _with_root(os.environ.get("PYTHONPATH"))
    os.execv(str(jupyterhub), [str(jupyterhub), "-f", str(CONFIG)])


if __name__ == "__main__":
    main()
