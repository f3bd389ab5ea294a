# JupyterHub for a class on one machine (`make hub`; README, "For instructors").
#
#   students log in with one shared password and each gets a JupyterLab from the course's .venv;
#   the course reaches their home folders through an nbgitpuller link (README).
#
# Everything listens on 127.0.0.1. Settings come from environment variables so that `make hub`, the class-day
# test (tests/test_hub.py) and the benchmark (bench/bench_hub.py) share this one file:
#   EVALLIB_HUB_PORT      public port (default 8000); the hub's own API uses PORT+1, the proxy's API PORT+2
#   EVALLIB_HUB_DATA      state: database, cookie secret, pid files (default _build/hub)
#   EVALLIB_HUB_HOMES     students' home folders, one per user name (default $EVALLIB_HUB_DATA/home)
#   EVALLIB_HUB_PASSWORD  the shared password (default "evallib-class"; at least 8 characters)
#   EVALLIB_HUB_API_TOKEN when set, a service with this token may create users, start/stop servers and
#                         issue tokens (the test and the benchmark use it; a class does not need it)
import os
import sys
from pathlib import Path

from classroom import hubtools  # the course's root is on PYTHONPATH (hubtools.Hub and `make hub` put it there)

ROOT = Path(__file__).resolve().parent.parent

c = get_config()  # noqa: F821  (JupyterHub's config loader defines it)

# ---- the two lines a real deployment changes (README: "From this hub to a real one") ---------------------
c.JupyterHub.authenticator_class = "shared-password"  # e.g. "github" / "generic-oauth" (oauthenticator), LTI
c.JupyterHub.spawner_class = "simple"  # e.g. "docker" (dockerspawner) or "kubespawner" (Zero to JupyterHub)
# ------------------------------------------------------------------------------------------------------------

PORT = int(os.environ.get("EVALLIB_HUB_PORT", "8000"))
DATA = Path(os.environ.get("EVALLIB_HUB_DATA", ROOT / "_build" / "hub")).resolve()
HOMES = Path(os.environ.get("EVALLIB_HUB_HOMES", DATA / "home")).resolve()
VENV_BIN = Path(sys.executable).parent  # the hub runs from the course's .venv; so do the students' servers
DATA.mkdir(parents=True, exist_ok=True)
HOMES.mkdir(parents=True, exist_ok=True)

c.JupyterHub.bind_url = f"http://127.0.0.1:{PORT}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = PORT + 1
c.JupyterHub.db_url = f"sqlite:///{DATA / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(DATA / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(DATA / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every student's server and the proxy
c.JupyterHub.cleanup_proxy = True

# configurable-http-proxy from the npm registry, in _build/node (hubtools.ensure_proxy; never a global install)
c.ConfigurableHTTPProxy.command = [str(hubtools.proxy_command())]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{PORT + 2}"
c.ConfigurableHTTPProxy.pid_file = str(DATA / "proxy.pid")
c.ConfigurableHTTPProxy.should_start = True

c.SharedPasswordAuthenticator.user_password = os.environ.get("EVALLIB_HUB_PASSWORD", "evallib-class")
c.Authenticator.allow_all = True  # a class: replace by c.Authenticator.allowed_users = {...} (the roster)

# SimpleLocalProcessSpawner: every student's server runs as this OS user (no isolation between students:
# fine on a lecturer's laptop, not on a shared server), each with its own home folder.
c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
c.Spawner.cmd = [str(VENV_BIN / "jupyterhub-singleuser")]
c.Spawner.args = ["--allow-root"] if os.geteuid() == 0 else []
c.Spawner.default_url = "/lab"
c.Spawner.environment = {
    **hubtools.notebook_settings(),  # the course's settings: one BLAS thread per student on a shared machine
    "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",  # git for nbgitpuller
}
c.Spawner.start_timeout = 180  # a class logging in at once on a small machine
c.Spawner.http_timeout = 180
c.JupyterHub.tornado_settings = {"slow_spawn_timeout": 0}
c.JupyterHub.implicit_spawn_seconds = 1  # a student who opens the course link gets a server without a click

if os.environ.get("EVALLIB_HUB_API_TOKEN"):
    c.JupyterHub.services = [{"name": "classroom-admin", "api_token": os.environ["EVALLIB_HUB_API_TOKEN"]}]
    c.JupyterHub.load_roles = [
        {
            "name": "classroom-admin",
            "scopes": ["admin:users", "admin:servers", "tokens", "read:users", "access:servers"],
            "services": ["classroom-admin"],
        }
    ]
