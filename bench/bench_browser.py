#!/usr/bin/env python
"""Explorer latency in the browser, as the learner meets it (issue 26): ``make bench-browser``.

    .venv/bin/python -m bench.bench_browser [--moves 10] [--only 01,11] [--where lab,site] [--no-results]

Every explorer of the chapters (tests/browser/explorer_moves.py: the chapters' stored outputs, and those of
chapters 09, 13 and 14 built from small inputs), in headless Debian Chromium driven by Playwright, in two places:

* *lab*: JupyterLab (a temporary server, the test suite's settings) showing one notebook of all the explorers'
  outputs, its kernel stopped (the charts need none);
* *site*: the site's explorer pages (``explorers/NN_*.html``, built by scripts/build_site.py's functions) opened
  from ``file://`` with no server.

**Every control of every explorer** is moved ``--moves`` times from the keyboard (the row's moves in order, then
back in reverse order with the opposite keys: each move changes the readout), one move at a time. Per move the page records, with
``performance.now()``: from the ``keydown`` (its ``timeStamp``, in a capturing listener) to the first
``requestAnimationFrame`` callback after the Vega view changed the chart's readout (a MutationObserver on the
chart sees the SVG change): the frame that paints the new state. The readout at that frame is compared with the
one the chart settles on (*complete*: the frame already held the whole new state).

Writes ``bench/latency.json`` (one row per explorer and place, keys ``lab: …`` / ``site: …``, each with
``where``), ``bench/latency_runs.json`` (every move, the load, and the PNG canvas's numbers it replaces) and
``bench/latency.md`` (the section ``bench/run.py`` puts into bench/RESULTS.md; this script also replaces it
there), with a second table: the bytes of each explorer's stored output (its mimebundle as JSON, as
notebooks/NN_*.ipynb holds it). Targets (bench, not tests): median ≤ 16 ms, p95 ≤ 33 ms per move. Nothing here is
a test: no time is asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BROWSER_TESTS = ROOT / "tests" / "browser"


def _module(name):
    """A module of tests/browser (not a package): loaded from its file and registered under its name, so the
    modules' own ``from labdriver import ...`` resolve; sys.path is not touched."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BROWSER_TESTS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


labdriver = _module("labdriver")
moves_mod = _module("explorer_moves")
conftest = _module("conftest")

TARGET_MEDIAN_MS, TARGET_P95_MS = 16.0, 33.0
MOVE_TIMEOUT_MS = 10_000
OPPOSITE = {"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight", "ArrowDown": "ArrowUp", "ArrowUp": "ArrowDown"}

# Installed before each move: the keydown's time, then the first animation frame after the readout changed.
PROBE_JS = (
    """(root) => {
  const read = """
    + moves_mod.READ_TEXTS
    + """;
  const before = read(root);
  const m = window.__lat = {t0: null, t1: null, at: null, seen: false};
  document.addEventListener('keydown', e => { if (m.t0 === null) m.t0 = e.timeStamp; }, {capture: true, once: true});
  const obs = new MutationObserver(() => {
    if (m.seen) return;
    const now = read(root);
    if (now === before) return;
    m.seen = true;
    obs.disconnect();
    requestAnimationFrame(() => { m.t1 = performance.now(); m.at = read(root); });
  });
  obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
  window.__latObs = obs;
}"""
)


def load_average():
    return [round(x, 2) for x in os.getloadavg()]


def measure_move(page, chart, move, key):
    """One key press on the move's control: (ms from keydown to the frame, whether that frame held the final state)."""
    moves_mod.control(chart, move.label).focus()
    chart.evaluate(PROBE_JS)
    page.keyboard.press("Space" if key == " " else key)
    try:
        page.wait_for_function("() => window.__lat.t1 !== null", timeout=MOVE_TIMEOUT_MS, polling=50)
    finally:
        page.evaluate("() => window.__latObs.disconnect()")
    lat = page.evaluate("() => window.__lat")
    time.sleep(0.15)  # let anything after the frame land, then read what the chart settled on
    final = chart.evaluate(moves_mod.READ_TEXTS)
    return lat["t1"] - lat["t0"], lat["at"] == final


def measure_case(page, chart, case, n_moves):
    """Each control moved ``n_moves`` times: the row's moves in order (each changes the readout: the tests check
    it), then back in reverse order with the opposite keys, and again; the state ends where it started."""
    chart.scroll_into_view_if_needed()
    controls, complete, lost = {m.label: [] for m in case.moves}, 0, 0
    passes = [(case.moves, False), (tuple(reversed(case.moves)), True)] * ((n_moves + 1) // 2)
    for i, (seq, back) in enumerate(passes[:n_moves]):
        for move in seq:
            key = OPPOSITE.get(move.key, move.key) if back else move.key
            try:
                dt, whole = measure_move(page, chart, move, key)
            except PlaywrightTimeout:  # no frame with a new readout: counted, not timed
                lost += 1
                continue
            controls[move.label].append(round(dt, 2))
            complete += whole
    if n_moves % 2:  # back to the start
        for move in reversed(case.moves):
            moves_mod.control(chart, move.label).focus()
            page.keyboard.press("Space" if move.key == " " else OPPOSITE.get(move.key, move.key))
            time.sleep(0.2)
    all_ms = [x for xs in controls.values() for x in xs]
    return {
        "median_ms": _r(statistics.median(all_ms)),
        "p95_ms": _r(_p95(all_ms)),
        "max_ms": _r(max(all_ms)),
        "moves": len(all_ms),
        "complete_frames": complete,
        "lost_moves": lost,
        "controls": controls,
    }


def run_lab(browser, items, cases, n_moves):
    import nbformat

    with tempfile.TemporaryDirectory(prefix="evallib-bench-lab-") as tmp:
        with conftest.lab_server(Path(tmp), token="evallib-bench-" + uuid.uuid4().hex[:12]) as lab:
            nb = moves_mod.notebook_of(items)
            nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
            nbformat.write(nb, lab["root"] / "explorers_bench.ipynb")
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            try:
                page = ctx.new_page()
                labdriver.goto_notebook(page, lab["base"], lab["token"], "explorers_bench.ipynb", "bench")
                page.locator(".vega-embed svg").nth(len(items) - 1).wait_for(timeout=300_000)
                labdriver.shutdown_kernel_of(lab["base"], lab["token"], "explorers_bench.ipynb")
                out = {}
                for case in cases:
                    chart = page.locator(".vega-embed").nth(moves_mod.CASES.index(case))
                    out[case.id] = measure_case(page, chart, case, n_moves)
                    print(f"  lab  {case.id:22s} {_line(out[case.id])}", flush=True)
                return out
            finally:
                ctx.close()


def run_site(browser, items, cases, n_moves):
    with tempfile.TemporaryDirectory(prefix="evallib-bench-site-") as tmp:
        pages = moves_mod.build_explorer_pages(Path(tmp), items)
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file://") else r.abort())
        try:
            out = {}
            # one page at a time, in front (a page behind another gets no animation frames: its moves would be
            # timed by the browser's background throttling), closed before the next
            for stem in dict.fromkeys(c.notebook for c in cases):
                page = ctx.new_page()
                page.goto(pages[stem].as_uri())
                page.wait_for_function(
                    "() => document.querySelectorAll('.evallib-vega').length > 0 && Array.from("
                    "document.querySelectorAll('.evallib-vega')).every(d => d.dataset.evallibVega === 'ready')",
                    timeout=120_000,
                )
                page.bring_to_front()
                for case in (c for c in cases if c.notebook == stem):
                    chart = page.locator(".evallib-vega").nth(moves_mod.nth_on_page(case))
                    out[case.id] = measure_case(page, chart, case, n_moves)
                    print(f"  site {case.id:22s} {_line(out[case.id])}", flush=True)
                page.close()
            return {c.id: out[c.id] for c in cases}
        finally:
            ctx.close()


def _line(row):
    return f"median {row['median_ms']:6.1f} ms  p95 {row['p95_ms']:6.1f} ms  max {row['max_ms']:6.1f} ms  ({row['moves']} moves)"


def _r(x):
    return round(float(x), 1)


def _p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


# --- names, before, sizes ---------------------------------------------------------------------------------------
def chapter_of(case):
    return moves_mod.CHAPTER_OF[case.builder] if case.notebook == moves_mod.BUILT_HERE else case.notebook


def names(before_keys):
    """case id -> the row's name as bench/latency.json has always named it ("NN_topic.ipynb: Title"): the PNG
    era's names, matched by chapter and order; a new explorer gets "NN_topic.ipynb: builder"."""
    out = {}
    for case in moves_mod.CASES:
        stem = chapter_of(case)
        mine = [c for c in moves_mod.CASES if chapter_of(c) == stem]
        theirs = [k for k in before_keys if k.startswith(f"{stem}.ipynb: ")]
        i = mine.index(case)
        out[case.id] = theirs[i] if i < len(theirs) else f"{stem}.ipynb: {case.builder}"
    return out


def png_before():
    """The PNG canvas's numbers (issue 19's design, in JupyterLab with a kernel): kept in latency_runs.json under
    "png_canvas" once this script first replaced them."""
    runs = json.loads((HERE / "latency_runs.json").read_text()) if (HERE / "latency_runs.json").exists() else {}
    if "png_canvas" in runs:
        return runs["png_canvas"]
    if "after" in runs and "explorers" in runs["after"]:  # the file as issue 19 left it: its "after" side
        a = runs["after"]
        return {
            "label": "PNG canvas (issue 19): kernel -> matplotlib -> PNG tiles -> canvas, JupyterLab only",
            "load_start": a.get("load_start"),
            "load_end": a.get("load_end"),
            "explorers": {
                k: {f: v.get(f) for f in ("median_ms", "p95_ms", "moves", "text_median_ms")}
                for k, v in a["explorers"].items()
            },
        }
    return {"label": "none", "explorers": {}}


def stored_sizes():
    """Bytes of every explorer's stored output in the chapters (its mimebundle, data and metadata, as JSON the
    way the notebook keeps it: nbformat's indent=1), with the Vega-Lite spec alone beside it."""
    rows = []
    for stem, builder, nth in moves_mod.explorer_calls():
        data, meta = moves_mod.stored_output(stem, builder, nth)
        spec = len(json.dumps(data[moves_mod.VEGA_MIME], indent=1, ensure_ascii=False).encode())
        rows.append(
            {
                "notebook": f"{stem}.ipynb",
                "builder": builder + (f" (#{nth + 1})" if nth else ""),
                "bytes": moves_mod.bundle_bytes(data, meta),
                "spec_bytes": spec,
            }
        )
    return rows


def table(after, before, sizes, args):
    t = lambda v: "–" if v is None else f"{v:.0f} ms"  # noqa: E731
    u = lambda v: "–" if v is None else f"{v:.1f} ms"  # noqa: E731
    L = [
        "## Explorers in the browser: input to painted frame (issue 26)",
        "",
        "`make bench-browser` (`bench/bench_browser.py`): every explorer of the chapters "
        "(tests/browser/explorer_moves.py: the chapters' stored outputs; chapters 09, 13 and 14 built by the same "
        "builders from small inputs) in headless Chromium, in JupyterLab (*lab*: one notebook of the explorers, "
        "kernel stopped) and on the site's explorer pages (*site*: `file://`, no server). Every control of every "
        f"explorer moved {args.moves} times from the keyboard (the moves of the tests in order, then back), one at a time; per move: "
        "`keydown` to the first `requestAnimationFrame` after the Vega view changed the chart's readout (the frame "
        "that paints the new state); *complete*: moves whose frame already showed the readout the chart settled "
        f"on (*lost*: moves with no new readout within 10 s, not timed). Load average (1, 5, 15 min): {after['load_start']} → {after['load_end']} (2 cores, shared). "
        f"*before*: the PNG canvas of issue 19 (kernel → matplotlib → PNG tiles → canvas; JupyterLab only, the site "
        f"showed a dead picture), bench/latency.json as it was, load {before.get('load_start')} → "
        f"{before.get('load_end')} (issue 26 measured that design independently per control: 64–208 ms median, "
        f"worst move 412 ms from the keyboard). A p95 over 10 moves (one control) is their slowest. Targets (bench, not tests): median ≤ {TARGET_MEDIAN_MS:.0f} ms, p95 ≤ "
        f"{TARGET_P95_MS:.0f} ms per move.",
        "",
        "| explorer | where | moves | before: median | before: p95 | after: median | after: p95 | after: max | "
        f"complete | median ≤ {TARGET_MEDIAN_MS:.0f}, p95 ≤ {TARGET_P95_MS:.0f} |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for key, a in after["explorers"].items():
        where, name = key.split(": ", 1)
        b = before["explorers"].get(name, {}) if where == "lab" else {}
        ok = a["median_ms"] <= TARGET_MEDIAN_MS and a["p95_ms"] <= TARGET_P95_MS
        L.append(
            f"| {name} | {where} | {a['moves']} | {t(b.get('median_ms'))} | {t(b.get('p95_ms'))} | "
            f"{u(a['median_ms'])} | {u(a['p95_ms'])} | {u(a['max_ms'])} | {a['complete_frames']}/{a['moves']}"
            f"{f' ({lost} lost)' if (lost := a.get('lost_moves')) else ''} | "
            f"{'**met**' if ok else '**missed**'} |"
        )
    L += [
        "",
        "## Explorers: data size of each stored output (issue 26)",
        "",
        "Measured by `bench/bench_browser.py` (`stored_sizes`) from notebooks/NN_*.ipynb: the bytes of each "
        "explorer's stored output, its mimebundle (the Vega-Lite spec with the precomputed data, the text/plain "
        "readout and the metadata) as JSON the way the notebook keeps it (nbformat's indent=1); *spec*: the "
        "Vega-Lite spec alone. Budget: about 1 MB per explorer. The second roofline explorer holds this "
        "machine's measurement.",
        "",
        "| notebook | explorer | bytes | spec | ≤ 1 MB |",
        "|---|---|---:|---:|---|",
    ]
    for s in sizes:
        ok = s["bytes"] <= 1_000_000
        L.append(
            f"| {s['notebook']} | {s['builder']} | {s['bytes']:,} | {s['spec_bytes']:,} | "
            f"{'**met**' if ok else '**missed**'} |"
        )
    L.append(f"| all | {len(sizes)} explorers | {sum(s['bytes'] for s in sizes):,} | | |")
    L.append("")
    return "\n".join(L)


def put_into_results(md):
    """Replace this script's sections in bench/RESULTS.md (and the PNG era's "input to pixels" one)."""
    import re

    res = HERE / "RESULTS.md"
    text = res.read_text() if res.exists() else ""
    ours = {line for line in md.splitlines() if line.startswith("## ")}
    ours.add("## Explorers in the browser: input to pixels (issue 19)")
    sections = re.split(r"(?m)^(?=## )", text)
    out, placed = [], False
    for s in sections:
        head = s.splitlines()[0] if s else ""
        if head in ours:
            if not placed:
                out.append(md.rstrip() + "\n\n")
                placed = True
            continue
        out.append(s)
    if not placed:
        out.append("\n" + md.rstrip() + "\n")
    res.write_text("".join(out))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=10, help="moves per control (there and back)")
    ap.add_argument("--only", default=None, help="comma-separated chapter prefixes, e.g. 01,11")
    ap.add_argument("--where", default="lab,site", help="lab, site or both")
    ap.add_argument("--no-results", action="store_true", help="print only; do not write bench/ files")
    ap.add_argument(
        "--report-only", action="store_true", help="rewrite the tables from bench/latency_runs.json (no browser)"
    )
    args = ap.parse_args(argv)
    if args.report_only:
        runs = json.loads((HERE / "latency_runs.json").read_text())
        args.moves = runs["after"]["moves_per_control"]
        md = table(runs["after"], runs["png_canvas"], stored_sizes(), args)
        (HERE / "latency.md").write_text(md)
        put_into_results(md)
        print(md)
        return 0
    from playwright.sync_api import sync_playwright

    if not conftest.CHROMIUM.exists():
        sys.exit(f"{conftest.CHROMIUM} not found: make chromium")
    os.environ.update(conftest._notebook_env())
    cases = [c for c in moves_mod.CASES if not args.only or chapter_of(c)[:2] in args.only.split(",")]
    items = moves_mod.outputs()
    before = png_before()
    name = names(list(before["explorers"]))
    where = args.where.split(",")
    load_start = load_average()
    results = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(conftest.CHROMIUM), headless=True, args=conftest.CHROMIUM_ARGS)
        try:
            if "lab" in where:
                results["lab"] = run_lab(browser, items, cases, args.moves)
            if "site" in where:
                results["site"] = run_site(browser, items, cases, args.moves)
        finally:
            browser.close()
    after = {
        "load_start": load_start,
        "load_end": load_average(),
        "moves_per_control": args.moves,
        "explorers": {
            f"{w}: {name[c.id]}": {"where": w, "case": c.id, **results[w][c.id]}
            for w in where
            for c in cases
            if c.id in results.get(w, {})
        },
    }
    sizes = stored_sizes()
    md = table(after, before, sizes, args)
    print(md)
    if args.no_results:
        return 0
    issue = {
        "explorers": {
            k: {f: v[f] for f in ("where", "median_ms", "p95_ms", "max_ms", "moves")}
            for k, v in after["explorers"].items()
        },
        "sizes": {f"{s['notebook']}: {s['builder']}": s["bytes"] for s in sizes},
    }
    (HERE / "latency.json").write_text(json.dumps(issue, indent=1, ensure_ascii=False) + "\n")
    runs = {"png_canvas": before, "after": after, "sizes": sizes}
    (HERE / "latency_runs.json").write_text(json.dumps(runs, indent=1, ensure_ascii=False) + "\n")
    (HERE / "latency.md").write_text(md)
    put_into_results(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
