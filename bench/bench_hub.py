"""What a lecturer asks of the course's JupyterHub (`make hub`): how long until a student's server is up with the
course pulled, and how much memory each idle student costs, for 1, 5 and 20 simulated students.

    .venv/bin/python -m bench.bench_hub [--students 1,5,20] [--out FILE]

For each class size a fresh hub (classroom/jupyterhub_config.py through classroom/hubtools.Hub: shared password,
SimpleLocalProcessSpawner, configurable-http-proxy from _build/node) in a temporary folder, the course as a local
clone. All students arrive at once (one thread each, as a class opening the link at the start of a lecture): log in,
open the README's nbgitpuller link (the hub starts the server), nbgitpuller clones the course. Per student: the
seconds from login to "pull finished". Then, with every server idle for 10 s: the memory (PSS, so shared pages are
split fairly) of the hub, the proxy and each student's server. No kernel is running (a student who opens a
notebook adds one kernel, measured apart below). A plain script, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from classroom import hubtools

ROOT = Path(__file__).resolve().parent.parent


def _pss_mb(procs) -> float:
    import psutil

    total = 0
    for p in procs:
        try:
            total += p.memory_full_info().pss
        except psutil.Error:
            pass
    return total / 2**20


def one_class(n: int, tmp: Path, course: Path) -> dict:
    hub = hubtools.Hub(tmp / f"hub{n}", homes=tmp / f"homes{n}")
    t0 = time.monotonic()
    try:
        hub.start()
        t_hub = time.monotonic() - t0
        link = hubtools.readme_link(hub.base, str(course), "evallib-course", branch="main")
        load0 = os.getloadavg()[0]

        def arrive(i):
            t = time.monotonic()
            st = hubtools.Student(hub, f"student{i:02d}").login()
            st.open_link(link, timeout=900)
            events = st.pull(str(course), "main", timeout=900)
            assert events[-1]["phase"] == "finished", events[-3:]
            return time.monotonic() - t, st

        t1 = time.monotonic()
        with ThreadPoolExecutor(max_workers=n) as pool:
            results = list(pool.map(arrive, range(n)))
        wall = time.monotonic() - t1
        times = [r[0] for r in results]
        for i in range(n):
            assert (tmp / f"homes{n}" / f"student{i:02d}" / "evallib-course" / "notebooks").is_dir()
        time.sleep(10)
        procs = hub.processes()
        assert len(procs["server"]) == n and not procs["kernel"], {k: len(v) for k, v in procs.items()}
        out = {
            "n": n,
            "hub_start": t_hub,
            "median": statistics.median(times),
            "max": max(times),
            "wall": wall,
            "hub_mb": _pss_mb(procs["hub"]),
            "proxy_mb": _pss_mb(procs["proxy"]),
            "server_mb": _pss_mb(procs["server"]) / n,
            "load": f"{load0:.1f}-{os.getloadavg()[0]:.1f}",
        }
        if n == 1:  # one student opens a chapter: what a running kernel adds
            st = results[0][1]
            st.rest(
                "POST",
                "/sessions",
                json={
                    "path": "evallib-course/notebooks/01_error_and_fitting.ipynb",
                    "type": "notebook",
                    "name": "01",
                    "kernel": {"name": "python3"},
                },
            )
            time.sleep(8)
            out["kernel_mb"] = _pss_mb(hub.processes()["kernel"])
        return out
    finally:
        hub.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", default="1,5,20")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    rows = [
        "| students | hub start (s) | per student: login → server → course pulled, median / max (s) | "
        "all ready (s) | hub (MB) | proxy (MB) | per idle student's server (MB) | load (1-min) |",
        "|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    extra = []
    with tempfile.TemporaryDirectory(prefix="bench-hub-") as tmp:
        course = Path(tmp) / "remote" / "evallib-course"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(course)], check=True)
        subprocess.run(["git", "checkout", "-q", "-B", "main"], cwd=course, check=True)
        for n in [int(x) for x in args.students.split(",")]:
            r = one_class(n, Path(tmp), course)
            rows.append(
                f"| {n} | {r['hub_start']:.1f} | {r['median']:.1f} / {r['max']:.1f} | {r['wall']:.1f} | "
                f"{r['hub_mb']:.0f} | {r['proxy_mb']:.0f} | {r['server_mb']:.0f} | {r['load']} |"
            )
            print(rows[-1], flush=True)
            if "kernel_mb" in r:
                extra.append(f"A kernel for chapter 01 (opened, no cell run) adds {r['kernel_mb']:.0f} MB (PSS).")
    text = "\n".join(rows + [""] + extra)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
