#!/usr/bin/env python
"""Explorer latency in the browser, as the learner meets it (issue 19): ``make bench-browser``.

    .venv/bin/python bench/bench_browser.py [--before REV] [--moves 5] [--rss-moves 200] [--only 01,05]

JupyterLab (a temporary copy of notebooks/) in headless Debian Chromium, driven by Playwright. For each side
(*before*: evallib as it was at ``REV``, unpacked by ``git archive`` into a temporary folder and put first on the
kernel's PYTHONPATH; *after*: the working tree), each chapter with an explorer is opened and run with Run All,
then **every control of every explorer** is moved ``--moves`` times (sliders: arrow keys on the focused handle;
menus: the next option; toggle buttons: a click on another button; multi-selects: another selection). For each
move the page records, with ``performance.now()``:

* *figure*: from the input event (keydown / change / click, in a capturing listener) to the first animation frame
  after the explorer's figure changed: a MutationObserver sees the canvas's ``data-frame`` change (set once the
  new pixels are drawn into it; evallib/widgets/_figure.py) or, for code before that canvas, the ``<img>``'s
  ``src`` change followed by ``img.decode()``; then ``requestAnimationFrame``;
* *text*: from the input event to the explorer's printed text changing.

Beside wall time: the kernel's CPU time per move (user + system of the kernel process over the moves, psutil),
and its resident size after 10 and after ``--rss-moves`` moves of the main control (a figure leak grows it).
The machine's load average is written beside each side. Writes ``bench/latency.json`` (the issue's schema,
the *after* side), ``bench/latency_runs.json`` (both sides, every move) and ``bench/latency.md`` (the table that
``bench/run.py`` puts into bench/RESULTS.md; this script also replaces that section in RESULTS.md).
Nothing here is a test: no time is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import labdriver  # noqa: E402
import psutil  # noqa: E402
from explorer_cases import EXPLORERS  # noqa: E402
from labdriver import goto_notebook, run_all, server_api, stop_server, wait_kernel_idle, wait_until  # noqa: E402

from conftest import CHROMIUM, CHROMIUM_ARGS, LAB_SETTINGS, _free_port, _notebook_env  # noqa: E402

labdriver.LOAD_TIMEOUT_S = 300  # a shared, loaded machine: wait longer than the tests do
labdriver.RUN_ALL_TIMEOUT_S = 600

TOKEN = "evallib-bench-" + uuid.uuid4().hex[:12]
MOVE_TIMEOUT_S = 20.0

# Installed in the page: marks per move (input event, figure painted, text changed) for one explorer box.
PROBE_JS = r"""
(box) => {
  const lat = window.__lat = {t0: null, fig: null, text: null, srcs: new Set(), lastText: null};
  const textOf = () => Array.from(box.querySelectorAll(
      ".widget-output .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout']"))
      .map(e => e.innerText).join("");
  // the figure: an <img> (before issue 19's canvas) or the explorer's canvas, whose data-frame names the frame drawn
  const imgs = () => Array.from(box.querySelectorAll("img, canvas.evallib-figure"));
  const key = (i) => i.tagName === "IMG" ? i.src : (i.dataset.frame || "");
  lat.lastText = textOf();
  lat.lastSrc = imgs().map(key).join("|");
  const start = (e) => { if (box.contains(e.target)) { lat.t0 = performance.now(); lat.fig = null; lat.text = null;
                                                       lat.lastText = textOf(); lat.lastSrc = imgs().map(key).join("|"); } };
  for (const type of ["keydown", "change", "mousedown"]) document.addEventListener(type, start, true);
  const obs = new MutationObserver(() => {
    if (lat.t0 === null) return;
    const t = textOf();
    if (lat.text === null && t !== lat.lastText) lat.text = performance.now() - lat.t0;
    const src = imgs().map(key).join("|");
    if (lat.fig === null && src !== lat.lastSrc && imgs().length) {
      const t0 = lat.t0;
      lat.lastSrc = src;
      Promise.all(imgs().map(i => i.tagName === "IMG" ? i.decode().catch(() => null) : null)).then(() =>
        requestAnimationFrame(() => { if (lat.t0 === t0 && lat.fig === null) lat.fig = performance.now() - t0; }));
    }
  });
  obs.observe(box, {subtree: true, childList: true, attributes: true, attributeFilter: ["src", "data-frame"], characterData: true});
  lat.obs = obs;
}
"""


def _load():
    return [round(x, 2) for x in os.getloadavg()]


@contextlib.contextmanager
def jupyterlab(work: Path, pythonpath: str | None):
    shutil.copytree(
        ROOT / "notebooks", work / "root" / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    for rel, values in LAB_SETTINGS.items():
        f = work / "settings" / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps(values))
    env = _notebook_env()
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
    for name in ("config", "data", "runtime"):
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
        f"--IdentityProvider.token={TOKEN}",
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
        ok = wait_until(lambda: _up(base) or proc.poll() is not None, 90, 0.25)
        if not ok or proc.poll() is not None:
            raise RuntimeError(f"JupyterLab did not start: {(work / 'jupyterlab.log').read_text()[-2000:]}")
        yield {"base": base, "proc": proc}
    finally:
        with contextlib.suppress(Exception):
            for k in server_api(base, TOKEN, "/api/kernels"):
                server_api(base, TOKEN, f"/api/kernels/{k['id']}", method="DELETE", timeout=20)
        stop_server(proc, log)


def _up(base):
    try:
        server_api(base, TOKEN, "/api/status", timeout=2)
        return True
    except OSError:
        return False


def kernel_process(lab, path):
    for s in server_api(lab["base"], TOKEN, "/api/sessions"):
        if s.get("path") == path and s.get("kernel"):
            kid = s["kernel"]["id"]
            for p in psutil.Process(lab["proc"].pid).children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if any(kid in part for part in p.cmdline()):
                        return p
    return None


def kernel_cpu(p):
    t = p.cpu_times()
    return t.user + t.system


# --- the controls of one explorer, and one move of each -----------------------------------------------------
def controls_of(box):
    """(kind, label, locator) of every control in the explorer box, in order."""
    found = []
    for row in box.locator(".widget-inline-hbox, .widget-toggle-buttons, .widget-select-multiple").all():
        label = (row.locator(":scope > label.widget-label").all_inner_texts() or [""])[0].strip()
        if row.locator(".noUi-handle").count() == 1:
            found.append(("slider", label, row))
        elif row.locator("select[multiple]").count() == 1:
            found.append(("multi", label, row))
        elif row.locator("select").count() == 1:
            found.append(("dropdown", label, row))
        elif row.locator("button").count() > 1:
            found.append(("toggle", label, row))
    return found


def make_move(page, kind, row, i):
    """Move the control once; return False when it cannot move."""
    if kind == "slider":
        handle = row.locator(".noUi-handle")
        readout = row.locator(".widget-readout")
        before = readout.inner_text()
        handle.focus()
        for key in ("ArrowRight", "ArrowLeft") if i % 2 == 0 else ("ArrowLeft", "ArrowRight"):
            handle.press(key)
            if readout.inner_text() != before:
                return True
        return False
    if kind == "dropdown":
        sel = row.locator("select")
        n = sel.locator("option").count()
        cur = sel.evaluate("s => s.selectedIndex")
        sel.select_option(index=(cur + 1) % n)
        return n > 1
    if kind == "toggle":
        buttons = row.locator("button")
        n = buttons.count()
        cur = next((j for j in range(n) if "mod-active" in (buttons.nth(j).get_attribute("class") or "")), 0)
        buttons.nth((cur + 1) % n).click()
        return n > 1
    if kind == "multi":
        sel = row.locator("select")
        n = sel.locator("option").count()
        chosen = [j for j in range(n) if (i + j) % 3 != 0] or [0]
        sel.select_option(index=chosen)
        return True
    return False


def measure_control(page, box, kind, row, moves, kernel):
    samples = []
    cpu0 = kernel_cpu(kernel) if kernel else None
    for i in range(moves):
        box.evaluate("b => { window.__lat.t0 = null; }")
        if not make_move(page, kind, row, i):
            break
        t_end = time.monotonic() + MOVE_TIMEOUT_S
        while time.monotonic() < t_end:
            lat = page.evaluate("() => ({fig: window.__lat.fig, text: window.__lat.text, t0: window.__lat.t0})")
            if lat["fig"] is not None and (lat["text"] is not None or time.monotonic() > t_end - MOVE_TIMEOUT_S + 3):
                break
            time.sleep(0.02)
        time.sleep(0.15)  # let a straggling update (same value twice) land before the next move
        lat = page.evaluate("() => ({fig: window.__lat.fig, text: window.__lat.text})")
        samples.append({"fig_ms": lat["fig"], "text_ms": lat["text"]})
    cpu = (kernel_cpu(kernel) - cpu0) if kernel else None
    return samples, cpu


def rss_run(page, box, row, n_total, kernel):
    """Kernel RSS after 10 and after ``n_total`` moves of one slider (each waiting for its figure)."""
    out = {}
    for i in range(n_total):
        box.evaluate("b => { window.__lat.t0 = null; }")
        make_move(page, "slider", row, i)
        wait_until(lambda: page.evaluate("() => window.__lat.fig") is not None, MOVE_TIMEOUT_S, 0.02)
        if i + 1 in (10, n_total):
            time.sleep(0.3)
            out[i + 1] = kernel.memory_info().rss / 2**20
    return out


def measure_explorer(page, case, kernel, label, args):
    header = page.locator(":scope > .widget-html", has_text=re.compile(rf"^\s*{re.escape(case.title)}\s*$"))
    box = page.locator(".jp-OutputArea-output .widget-vbox", has=header).nth(case.nth)
    box.scroll_into_view_if_needed()
    wait_until(lambda: box.locator("img, canvas.evallib-figure").count() > 0, 60)
    box.evaluate(PROBE_JS)
    per_control, all_samples, cpu_total, n_moves = {}, [], 0.0, 0
    for kind, clabel, row in controls_of(box):
        samples, cpu = measure_control(page, box, kind, row, args.moves, kernel)
        per_control[clabel or kind] = samples
        all_samples += samples
        if cpu is not None:
            cpu_total += cpu
        n_moves += len(samples)
    figs = [s["fig_ms"] for s in all_samples if s["fig_ms"] is not None]
    texts = [s["text_ms"] for s in all_samples if s["text_ms"] is not None]
    entry = {
        "moves": n_moves,
        "figure_moves": len(figs),
        "median_ms": _r(statistics.median(figs)) if figs else None,
        "p95_ms": _r(_p95(figs)) if figs else None,
        "text_median_ms": _r(statistics.median(texts)) if texts else None,
        "cpu_ms_per_move": _r(1e3 * cpu_total / n_moves) if n_moves and kernel else None,
        "controls": per_control,
    }
    if (
        args.rss_moves
        and kernel
        and (label == "after" or args.rss_before)
        and (not args.rss_only or case.notebook[:2] in args.rss_only.split(","))
    ):
        sliders = [r for k, _, r in controls_of(box) if k == "slider"]
        if sliders:
            rss = rss_run(page, box, sliders[0], args.rss_moves, kernel)
            entry["rss_mib"] = {str(k): round(v, 1) for k, v in rss.items()}
    return entry


def run_side(label, pythonpath, cases, args, browser):
    results = {"label": label, "load_start": _load(), "explorers": {}}
    with (
        tempfile.TemporaryDirectory(prefix=f"evallib-latency-{label}-") as tmp,
        jupyterlab(Path(tmp), pythonpath) as lab,
    ):
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            for nb in dict.fromkeys(c.notebook for c in cases):
                import nbformat

                n_code = sum(
                    c.cell_type == "code"
                    for c in nbformat.read(Path(tmp) / "root" / "notebooks" / nb, as_version=4).cells
                )
                page = context.new_page()
                t0 = time.monotonic()
                try:
                    goto_notebook(page, lab["base"], TOKEN, f"notebooks/{nb}", workspace=f"b{uuid.uuid4().hex[:8]}")
                    wait_kernel_idle(page)
                    run_all(page, n_code)
                    bad = labdriver.cell_problems(
                        page, len(nbformat.read(Path(tmp) / "root" / "notebooks" / nb, as_version=4).cells)
                    )
                    if bad:
                        print(f"[{label}] {nb}: cells show errors: {str(bad)[:1500]}", flush=True)
                except Exception as e:  # noqa: BLE001
                    print(f"[{label}] {nb}: could not run: {type(e).__name__}: {str(e)[:300]}", flush=True)
                    page.close()
                    continue
                kernel = kernel_process(lab, f"notebooks/{nb}")
                print(f"[{label}] {nb}: opened and run in {time.monotonic() - t0:.0f} s; load {_load()}", flush=True)
                seen = {}
                for case in [c for c in cases if c.notebook == nb]:
                    key = (case.notebook, case.title)
                    seen[key] = seen.get(key, 0) + 1
                    name = f"{nb}: {case.title}" + (f" (#{seen[key]})" if seen[key] > 1 else "")
                    try:
                        results["explorers"][name] = measure_explorer(page, case, kernel, label, args)
                    except Exception as e:  # noqa: BLE001  (one broken page must not cost the whole run)
                        results["explorers"][name] = {
                            "error": f"{type(e).__name__}: {str(e)[:300]}",
                            "moves": 0,
                            "median_ms": None,
                            "p95_ms": None,
                            "text_median_ms": None,
                        }
                    print(
                        f"[{label}] {name}: "
                        + json.dumps({k: v for k, v in results["explorers"][name].items() if k != "controls"}),
                        flush=True,
                    )
                page.close()
                with contextlib.suppress(Exception):
                    for s in server_api(lab["base"], TOKEN, "/api/sessions"):
                        if s.get("path") == f"notebooks/{nb}":
                            server_api(
                                lab["base"], TOKEN, f"/api/kernels/{s['kernel']['id']}", method="DELETE", timeout=20
                            )
        finally:
            context.close()
    results["load_end"] = _load()
    return results


def _r(x):
    return round(float(x), 1)


def _p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def before_tree(rev, dest: Path):
    """The working tree's evallib with ``evallib/widgets`` as it was at ``rev`` (git archive; the working tree is
    not touched): the explorers' redraw path before, everything they compute as now (the chapters may call
    library functions added since)."""
    import io

    shutil.copytree(ROOT / "evallib", dest / "evallib", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(dest / "evallib" / "widgets")
    data = subprocess.run(["git", "archive", rev, "evallib/widgets"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return str(dest)


def table(before, after, rev, same_run=True):
    L = [
        "## Explorers in the browser: input to pixels (issue 19)",
        "",
        f"`make bench-browser` (`bench/bench_browser.py`): JupyterLab in headless Chromium, every control of every "
        f"explorer moved {after.get('moves_per_control', 5)} times (keys on sliders, the next option in menus), "
        "one move at a time. *figure*: input event to the first animation frame after the new image was decoded; "
        "*text*: input event to the new printed text; *CPU*: the kernel's CPU time per move; *RSS*: the kernel's "
        f"resident size after 10 and after {after.get('rss_moves', 200)} moves of the first slider. *before*: evallib at "
        f"`{rev}` (new figure per move, inline PNG), "
        + (
            "measured in the same run"
            if same_run
            else "measured by an earlier run of this script on the same "
            "machine (`--before-json`), the after side alone then"
        )
        + "; *after*: the working tree. Load average "
        f"(1, 5, 15 min): before {before['load_start']} → {before['load_end']}, after {after['load_start']} → "
        f"{after['load_end']} (2 cores shared: wall times are inflated by the load, CPU times much less). Targets "
        "(bench, not tests): median ≤ 100 ms, p95 ≤ 200 ms at low load.",
        "",
        "| explorer | moves | before: median | before: p95 | before: text | before: CPU/move | after: median | after: p95 | after: text | after: CPU/move | after: RSS 10 → N moves | median ≤ 100, p95 ≤ 200 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    f = lambda v: "–" if v is None else f"{v:.0f} ms"  # noqa: E731
    for name, a in after["explorers"].items():
        b = before["explorers"].get(name, {}) if before else {}
        rss = a.get("rss_mib") or {}
        rss_s = " → ".join(f"{v:.0f}" for v in rss.values()) + " MiB" if rss else "–"
        ok = a["median_ms"] is not None and a["median_ms"] <= 100 and a["p95_ms"] <= 200
        L.append(
            f"| {name} | {a['moves']} | {f(b.get('median_ms'))} | {f(b.get('p95_ms'))} | {f(b.get('text_median_ms'))} | "
            f"{f(b.get('cpu_ms_per_move'))} | {f(a['median_ms'])} | {f(a['p95_ms'])} | {f(a['text_median_ms'])} | "
            f"{f(a.get('cpu_ms_per_move'))} | {rss_s} | {'**met**' if ok else '**missed**'} |"
        )
    L.append("")
    return "\n".join(L)


def put_into_results(md):
    res = HERE / "RESULTS.md"
    text = res.read_text() if res.exists() else ""
    start = "## Explorers in the browser: input to pixels"
    if start in text:
        head, rest = text.split(start, 1)
        nxt = rest.find("\n## ")
        text = head + md.rstrip() + "\n" + (rest[nxt:] if nxt >= 0 else "")
    else:
        marker = "## Chapter notebooks: execution time"
        text = text.replace(marker, md.rstrip() + "\n\n" + marker, 1) if marker in text else text + "\n" + md
    res.write_text(text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default=None, help="git revision for the 'before' side (default: none)")
    ap.add_argument("--before-json", default=None, help="reuse the 'before' side of an earlier latency_runs.json")
    ap.add_argument("--moves", type=int, default=5, help="moves per control (at least 5)")
    ap.add_argument("--rss-moves", type=int, default=200)
    ap.add_argument("--rss-only", default=None, help="RSS runs only for these notebook prefixes, e.g. 01,10")
    ap.add_argument("--rss-before", action="store_true", help="also measure RSS on the before side (slow)")
    ap.add_argument("--only", default=None, help="comma-separated notebook prefixes, e.g. 01,05")
    ap.add_argument("--no-results", action="store_true", help="do not touch bench/RESULTS.md / latency.json")
    ap.add_argument(
        "--before-only",
        default=None,
        metavar="PATH",
        help="measure only the 'before' side and write it to PATH (for a later --before-json PATH)",
    )
    args = ap.parse_args(argv)
    cases = [c for c in EXPLORERS if not args.only or c.notebook[:2] in args.only.split(",")]
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} not found: bash scripts/install_browser.sh")
    runs = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            if args.before_json:
                saved = json.loads(Path(args.before_json).read_text())
                runs["before"], args.before = saved["before"], saved.get("before_rev") or args.before
            elif args.before:
                with tempfile.TemporaryDirectory(prefix="evallib-before-") as tmp:
                    runs["before"] = run_side("before", before_tree(args.before, Path(tmp)), cases, args, browser)
            if args.before_only:
                Path(args.before_only).write_text(
                    json.dumps({"before": runs["before"], "before_rev": args.before}, indent=1)
                )
                return 0
            runs["after"] = run_side("after", None, cases, args, browser)
        finally:
            browser.close()
    runs["after"]["moves_per_control"] = args.moves
    runs["after"]["rss_moves"] = args.rss_moves
    runs["before_rev"] = args.before
    if args.no_results:
        print(json.dumps(runs, indent=1)[:3000])
        return 0
    (HERE / "latency_runs.json").write_text(json.dumps(runs, indent=1))
    issue = {
        "continuous_update": True,
        "explorers": {
            k: {f: v[f] for f in ("median_ms", "p95_ms", "moves", "text_median_ms")}
            for k, v in runs["after"]["explorers"].items()
        },
    }
    (HERE / "latency.json").write_text(json.dumps(issue, indent=1, ensure_ascii=False) + "\n")
    runs["before_same_run"] = not args.before_json
    md = table(runs.get("before"), runs["after"], args.before or "–", same_run=not args.before_json)
    (HERE / "latency.md").write_text(md)
    put_into_results(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
