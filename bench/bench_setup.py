"""Fresh clone to a served JupyterLab page: `make lab`'s set-up with pip (before) and with uv (after).

    .venv/bin/python bench/bench_setup.py [--modes pip,uv] [--out FILE]

For each installer, twice: with an empty package cache (cold: everything downloaded from PyPI) and with the
cache the cold run left (warm). Both read PyPI only (the machine's pip.conf, which may point at local wheel
folders, is ignored via PIP_CONFIG_FILE=/dev/null). Each run: a fresh `git clone` of this repository into a temporary folder,
`python3 -m venv .venv`, the install (`pip`: the Makefile's recipe before, `pip install -U pip` then
`pip install -e ".[test]"`; `uv`: scripts/pip_install.sh, which puts uv into the venv with pip and installs with
`uv pip install -e ".[test]"`), matplotlib's font cache, the git filters, then `jupyter lab --no-browser` until
`/lab` answers 200. Caches (PIP_CACHE_DIR, UV_CACHE_DIR, MPLCONFIGDIR) are temporary folders: nothing of the
machine's own caches is used. Prints one Markdown row per run (phases in seconds) with the load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(cmd, cwd, env):
    t = time.monotonic()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.monotonic() - t


def one_run(mode: str, cache: Path, work: Path) -> dict:
    clone = work / "course"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    shutil.copy(ROOT / "scripts" / "pip_install.sh", clone / "scripts" / "pip_install.sh")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PIP_", "UV_", "MAKE"))}
    env.update(
        PIP_CACHE_DIR=str(cache / "pip"),
        UV_CACHE_DIR=str(cache / "uv"),
        MPLCONFIGDIR=str(work / "mpl"),
        JUPYTER_CONFIG_DIR=str(work / "jcfg"),
        JUPYTER_DATA_DIR=str(work / "jdata"),
        JUPYTER_RUNTIME_DIR=str(work / "jrt"),
        PATH=os.environ["PATH"],
        PIP_CONFIG_FILE=os.devnull,
    )  # PyPI only, as on a learner's machine: no local wheel folders
    if mode == "pip":
        env["EVALLIB_INSTALLER"] = "pip"
    py = clone / ".venv" / "bin" / "python"
    load0 = os.getloadavg()[0]
    t0 = time.monotonic()
    out = {"mode": mode, "venv": _run([sys.base_prefix + "/bin/python3", "-m", "venv", ".venv"], clone, env)}
    if mode == "pip":  # the Makefile's recipe before this change
        out["install"] = _run([str(py), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], clone, env) + _run(
            [str(py), "-m", "pip", "install", "--quiet", "-e", ".[test]"], clone, env
        )
    else:
        out["install"] = _run(["bash", "scripts/pip_install.sh", str(py.parent), "-e", ".[test]"], clone, env)
    out["fonts+filters"] = _run([str(py), "-c", "import matplotlib.pyplot"], clone, env) + _run(
        ["bash", "scripts/install_git_filters.sh", str(py)], clone, env
    )
    port, token = _free_port(), "bench-setup"
    t1 = time.monotonic()
    cmd = [
        str(py.parent / "jupyter"),
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        "notebooks/01_error_and_fitting.ipynb",
    ]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    proc = subprocess.Popen(
        cmd, cwd=clone, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=2) as r:
                    if r.status == 200 and b"jupyter-widgets/jupyterlab-manager" in r.read():
                        break
            except OSError as exc:
                if proc.poll() is not None:
                    raise RuntimeError("jupyter lab exited") from exc
                time.sleep(0.2)
        out["serve"] = time.monotonic() - t1
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    out["total"] = time.monotonic() - t0
    out["load"] = f"{load0:.1f}-{os.getloadavg()[0]:.1f}"
    out["cache MB"] = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file()) / 1e6
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--modes", default="pip,uv")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    rows = [
        "| installer | cache | venv | install | fonts + filters | serve /lab | total (s) | load (1-min) | cache MB |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|",
    ]
    for mode in args.modes.split(","):
        with tempfile.TemporaryDirectory(prefix=f"setup-{mode}-") as tmp:
            cache = Path(tmp) / "cache"
            for state in ("cold", "warm"):
                work = Path(tmp) / state
                work.mkdir()
                r = one_run(mode, cache, work)
                rows.append(
                    f"| {mode} | {state} | {r['venv']:.1f} | {r['install']:.1f} | {r['fonts+filters']:.1f} | "
                    f"{r['serve']:.1f} | **{r['total']:.1f}** | {r['load']} | {r['cache MB']:.0f} |"
                )
                print(rows[-1], flush=True)
                shutil.rmtree(work)
    text = "\n".join(rows)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
