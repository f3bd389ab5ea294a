#!/usr/bin/env python
"""One benchmark harness for evallib: ``make bench`` runs it and writes ``bench/RESULTS.md``.

    .venv/bin/python -m bench.run [--quick] [--only curves,splits,compare,biasvar,memory,notebooks]
                                  [--output bench/RESULTS.md]

Every section times evallib next to what people would use instead, in the same process on the same data,
and reports medians over repeats and ratios (< 1: evallib is faster):

* curves   — ``roc_auc``, ``roc_curve``, ``pr_curve`` vs scikit-learn and vs one bare ``np.argsort`` of the
             same scores, 10^5, 10^6, 10^7 scores, with and without ties (results checked to agree first);
* splits   — stratified 10-fold index generation on 10^6 samples vs ``StratifiedKFold``; bootstrap with
             out-of-bag sets vs plain NumPy and ``sklearn.utils.resample``;
* compare  — the Friedman/Nemenyi path vs SciPy and scikit-posthocs on 100 × 20 score tables;
* biasvar  — the bias–variance simulation (polynomials, 200 data sets) vs loops of fits and mlxtend;
* memory   — peak memory of the largest case (10^7 scores), each function in a fresh process;
* notebooks— every chapter notebook executed with nbclient under the test settings (scripts/nbsettings.py).

The explorers move in the browser with no kernel (issue 26): their latency and data sizes are measured by
``make bench-browser`` (bench/bench_browser.py), whose section (bench/latency.md) this report includes.

Targets are checked and reported per row (met / missed). Nothing here is a test: speed is never asserted.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench.timing import median_time

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

NOTEBOOK_TARGET_S = 30.0


# ------------------------------------------------------------------------------------------- timing
def timed(f, repeats, warmup=True):
    """Median wall-clock seconds of ``repeats`` calls of ``f`` (after one warm-up call by default)."""
    return median_time(f, repeats, warmup=warmup)


def fmt_t(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def met(ok):
    return "**met**" if ok else "**missed**"


def load_average():
    return os.getloadavg()


# ------------------------------------------------------------------------------------------- machine
def machine_description():
    import scipy
    import sklearn
    from threadpoolctl import threadpool_info

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    blas = [
        f"{i.get('internal_api')} {i.get('version')} (kernel: {i.get('architecture')}, "
        f"{i.get('num_threads')} threads, {i.get('threading_layer')})"
        for i in threadpool_info()
        if i.get("user_api") == "blas"
    ]
    env = {
        k: os.environ.get(k, "unset")
        for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
    }
    versions = {
        "Python": platform.python_version(),
        "NumPy": np.__version__,
        "SciPy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
    }
    for mod, name in (("matplotlib", "matplotlib"), ("mlxtend", "mlxtend"), ("scikit_posthocs", "scikit-posthocs")):
        try:
            versions[name] = __import__(mod).__version__
        except ImportError:
            versions[name] = "not installed"
    mem = ""
    try:
        kb = int(next(l for l in Path("/proc/meminfo").read_text().splitlines() if l.startswith("MemTotal")).split()[1])
        mem = f"{kb / 2**20:.0f} GiB"
    except (OSError, StopIteration):
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "blas": "; ".join(blas) or "unknown",
        "env": env,
        "versions": versions,
        "os": platform.platform(),
    }


# ------------------------------------------------------------------------------------------- curves
def bench_curves(sizes, repeats_for, warmup_below=10**7):
    from sklearn import metrics as skm

    from bench.bench_curves import check_agreement, make_scores
    from evallib import curves

    rng = np.random.default_rng(0)
    rows = []
    for n in sizes:
        reps = repeats_for(n)
        warm = n < warmup_below  # at 10^7 a call takes seconds: no warm-up call (the first call is timed too)
        y, raw = make_scores(n, rng)
        for kind, s in (("no ties", raw), ("ties (2 decimals)", np.round(raw, 2))):
            check_agreement(y, s)
            floor = timed(lambda: np.argsort(s), reps, warm)
            for name, ours, theirs_name, theirs in (
                ("roc_auc", lambda: curves.roc_auc(y, s), "roc_auc_score", lambda: skm.roc_auc_score(y, s)),
                (
                    "roc_curve",
                    lambda: curves.roc_curve(y, s),
                    "roc_curve(drop_intermediate=False)",
                    lambda: skm.roc_curve(y, s, drop_intermediate=False),
                ),
                (
                    "pr_curve",
                    lambda: curves.pr_curve(y, s),
                    "precision_recall_curve",
                    lambda: skm.precision_recall_curve(y, s),
                ),
            ):
                t_ours = timed(ours, reps, warm)
                t_theirs = timed(theirs, reps, warm)
                rows.append(
                    dict(
                        n=n,
                        kind=kind,
                        name=name,
                        ours=t_ours,
                        sk_name=theirs_name,
                        theirs=t_theirs,
                        argsort=floor,
                        repeats=reps,
                    )
                )
                print(
                    f"  curves n={n:.0e} {kind:18s} {name:9s} evallib {fmt_t(t_ours):>9s}  sklearn "
                    f"{fmt_t(t_theirs):>9s}  argsort {fmt_t(floor):>9s}",
                    flush=True,
                )
    return rows


# ------------------------------------------------------------------------------------------- splits
def bench_splits(m, repeats):
    from sklearn.model_selection import StratifiedKFold
    from sklearn.utils import resample

    from evallib import splits

    rng = np.random.default_rng(0)
    y = (rng.random(m) < 0.3).astype(np.int64)  # two classes, 30 % positive
    X = np.zeros((m, 1))
    rows = []
    kf = splits.KFold(10, random_state=0)
    skf = StratifiedKFold(10, shuffle=True, random_state=0)
    # agreement of the contract: every sample in exactly one test fold, class counts balanced
    ids = kf.fold_ids(X, y)[0]
    assert np.ptp(np.bincount(ids)) <= 1 and np.ptp(np.bincount(ids[y == 1])) <= 1
    t_sk = timed(lambda: list(skf.split(X, y)), repeats)
    for name, f in (
        ("KFold(10).fold_ids (fold of every sample)", lambda: kf.fold_ids(X, y)),
        ("list(KFold(10).split) (train/test indices)", lambda: list(kf.split(X, y))),
    ):
        t = timed(f, repeats)
        rows.append(
            dict(
                section="folds",
                name=name,
                ours=t,
                base_name="list(StratifiedKFold(10, shuffle=True).split)",
                base=t_sk,
                target=t <= t_sk,
            )
        )
        print(f"  splits {name}: {fmt_t(t)} vs StratifiedKFold {fmt_t(t_sk)}", flush=True)

    n_rep = 10
    bs = splits.Bootstrap(n_rep, random_state=0)

    def numpy_oob():
        g = np.random.default_rng(0)
        out = []
        for _ in range(n_rep):
            train = g.integers(0, m, m)
            out.append((train, np.flatnonzero(np.bincount(train, minlength=m) == 0)))
        return out

    def sklearn_oob():
        idx = np.arange(m)
        out = []
        for r in range(n_rep):
            train = resample(idx, replace=True, n_samples=m, random_state=r)
            mask = np.ones(m, dtype=bool)
            mask[train] = False
            out.append((train, np.flatnonzero(mask)))
        return out

    t_ours = timed(lambda: list(bs.split(X)), repeats)
    for base_name, base in (
        ("NumPy: integers + bincount == 0", numpy_oob),
        ("sklearn.utils.resample + mask", sklearn_oob),
    ):
        t_b = timed(base, repeats)
        rows.append(
            dict(
                section="bootstrap",
                name=f"list(Bootstrap({n_rep}).split)",
                ours=t_ours,
                base_name=base_name,
                base=t_b,
                target=None,
            )
        )
        print(f"  splits bootstrap: {fmt_t(t_ours)} vs {base_name} {fmt_t(t_b)}", flush=True)
    return rows


# ------------------------------------------------------------------------------------------- compare
def bench_compare(shape, repeats):
    from bench.bench_compare import compare_rows

    rows = compare_rows(shape, repeats)
    for r in rows:
        print(
            f"  compare {r['table']:9s} {r['name']:34s} {fmt_t(r['ours']):>9s} vs {r['base_name']} {fmt_t(r['base'])}",
            flush=True,
        )
    return rows


# ------------------------------------------------------------------------------------------- biasvar
def bench_biasvar(degrees, repeats):
    from bench.bench_biasvar import method_rows

    rows = method_rows(degrees, repeats=repeats)
    for r in rows:
        print(f"  biasvar degree {r['degree']} {r['name']:55s} {fmt_t(r['time']):>9s}", flush=True)
    return rows


# ------------------------------------------------------------------------------------------- memory
MEMORY_SNIPPET = r"""
import json, resource, sys, tracemalloc
import numpy as np
n = int(sys.argv[1]); which = sys.argv[2]
rng = np.random.default_rng(0)
y = (rng.random(n) < 0.3).astype(np.int64)
s = rng.random(n) + 0.3 * y
if which.startswith("sklearn"):
    from sklearn import metrics as skm
    f = {"sklearn.roc_auc_score": lambda: skm.roc_auc_score(y, s),
         "sklearn.roc_curve": lambda: skm.roc_curve(y, s, drop_intermediate=False),
         "sklearn.precision_recall_curve": lambda: skm.precision_recall_curve(y, s),
         "np.argsort": lambda: np.argsort(s)}[which]
elif which == "np.argsort":
    f = lambda: np.argsort(s)
else:
    from evallib import curves
    f = getattr(curves, which)
    g = f
    f = lambda: g(y, s)
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1])
try:  # reset the peak resident size (VmHWM) to the current one, so it measures the call alone
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
    rss0 = status("VmRSS:")
except OSError:
    rss0 = None
tracemalloc.start()
f()
cur, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
hwm = status("VmHWM:") if rss0 is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"input_bytes": y.nbytes + s.nbytes, "traced_peak": peak, "rss_before_kib": rss0,
                  "peak_rss_kib": hwm}))
"""


def bench_memory(n):
    rows = []
    for which in (
        "roc_auc",
        "roc_curve",
        "pr_curve",
        "sklearn.roc_auc_score",
        "sklearn.roc_curve",
        "sklearn.precision_recall_curve",
        "np.argsort",
    ):
        out = subprocess.run(
            [sys.executable, "-c", MEMORY_SNIPPET, str(n), which], capture_output=True, text=True, cwd=ROOT, check=True
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        r["name"] = which if "." in which else f"evallib.curves.{which}"
        rows.append(r)
        print(
            f"  memory {r['name']:32s} traced peak {r['traced_peak'] / 2**20:7.0f} MiB, "
            f"peak RSS {r['peak_rss_kib'] / 2**10:7.0f} MiB (before the call {(r['rss_before_kib'] or 0) / 2**10:.0f} MiB)",
            flush=True,
        )
    return rows


# ------------------------------------------------------------------------------------------- notebooks
# The notebook's last cell: the kernel's CPU time up to there (user + system).
CPU_CELL = """\
import json as _json, resource as _res
_ru = _res.getrusage(_res.RUSAGE_SELF)
print("BENCH-JSON" + _json.dumps({"cpu": _ru.ru_utime + _ru.ru_stime}))
"""


def bench_notebooks(paths):
    import nbformat
    from nbclient import NotebookClient

    from scripts.nbsettings import ENV

    saved = {k: os.environ.get(k) for k in ENV}
    os.environ.update(ENV)
    os.environ.pop("MPLBACKEND", None)
    nb_rows = []
    try:
        for path in paths:
            nb = nbformat.read(path, as_version=4)
            n_orig = len(nb.cells)
            nb.cells.append(nbformat.v4.new_code_cell(CPU_CELL))
            client = NotebookClient(
                nb,
                timeout=600,
                kernel_name="python3",
                record_timing=True,
                resources={"metadata": {"path": str(path.parent)}},
            )
            w0 = _dt.datetime.now(_dt.timezone.utc)
            t0 = time.perf_counter()
            err = None
            try:
                client.execute()
            except Exception as exc:  # report, keep going
                err = f"{type(exc).__name__}: {str(exc)[-300:]}"
            t_end = time.perf_counter() - t0
            # from the kernel's own timestamps: start of the first original cell to the reply of the last one
            stamps = [
                c.metadata["execution"]
                for c in nb.cells[:n_orig]
                if c.cell_type == "code" and "execution" in c.get("metadata", {})
            ]
            try:
                first = _dt.datetime.fromisoformat(stamps[0]["iopub.execute_input"].replace("Z", "+00:00"))
                last = _dt.datetime.fromisoformat(stamps[-1]["shell.execute_reply"].replace("Z", "+00:00"))
                cells = (last - first).total_seconds()
                total = (last - w0).total_seconds()  # kernel start included
            except (KeyError, IndexError, ValueError):
                cells, total = float("nan"), t_end
            cpu = float("nan")
            for out in nb.cells[-1].get("outputs", []):
                text = out.get("text", "")
                if "BENCH-JSON" in text:
                    cpu = json.loads(text.split("BENCH-JSON", 1)[1])["cpu"]
            nb_rows.append(dict(name=path.name, total=total, cells=cells, cpu=cpu, error=err))
            print(
                f"  notebook {path.name}: {total:.1f} s (cells {cells:.1f} s, kernel CPU {cpu:.1f} s)"
                f"{' ERROR ' + err if err else ''}",
                flush=True,
            )
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return nb_rows


# ------------------------------------------------------------------------------------------- report
def write_report(path, info, results, started, finished, loads, args):
    L = []
    a = L.append
    a("# evallib benchmarks")
    a("")
    a(
        f"Generated by `make bench` (`bench/run.py{' ' + ' '.join(sys.argv[1:]) if sys.argv[1:] else ''}`) on "
        f"{started:%Y-%m-%d %H:%M} UTC, {((finished - started).total_seconds()) / 60:.1f} min. Times are medians over "
        "repeats (after one warm-up call; for the curves at 10^7 the agreement check is that call) of wall-clock time, measured side by side in one process on the same data; "
        "ratio = evallib / the other tool (< 1: evallib is faster). Nothing here is asserted by the tests."
    )
    a("")
    a("## Machine")
    a("")
    a(f"- CPU: {info['cpu']}, {info['cores']} cores, {info['memory']} memory; {info['os']}")
    a(f"- BLAS: {info['blas']}")
    a("- BLAS/OpenMP environment: " + ", ".join(f"`{k}={v}`" for k, v in info["env"].items()))
    a(
        "  (`make bench` unsets `OPENBLAS_CORETYPE` and `OPENBLAS_L2_SIZE` for this command only, so NumPy picks "
        "its own kernel, named above by threadpoolctl; the Makefile's one-thread settings apply, as in the tests)"
    )
    a("- Versions: " + ", ".join(f"{k} {v}" for k, v in info["versions"].items()))
    a(
        f"- Load average (1, 5, 15 min) at start: {loads[0][0]:.2f}, {loads[0][1]:.2f}, {loads[0][2]:.2f}; "
        f"at end: {loads[1][0]:.2f}, {loads[1][1]:.2f}, {loads[1][2]:.2f} (the machine is shared: a high load "
        "inflates every time, both sides of a ratio alike)"
    )
    a("")

    targets = []

    if "curves" in results:
        a("## Curves: evallib vs scikit-learn vs one bare `np.argsort`")
        a("")
        a(
            "Binary labels (30 % positive), informative scores `U(0,1) + 0.3·y`; with ties: the same rounded to 2 "
            "decimals (~130 distinct values). Agreement with scikit-learn is checked before timing. roc_curve is "
            "compared with `drop_intermediate=False` (the same points as evallib)."
        )
        a("")
        a(
            "| n | scores | evallib | time | scikit-learn | time | ratio vs sklearn | `np.argsort` | ratio vs argsort | repeats |"
        )
        a("|---:|---|---|---:|---|---:|---:|---:|---:|---:|")
        for r in results["curves"]:
            a(
                f"| 1e{int(round(np.log10(r['n'])))} | {r['kind']} | {r['name']} | {fmt_t(r['ours'])} | {r['sk_name']} | "
                f"{fmt_t(r['theirs'])} | {r['ours'] / r['theirs']:.2f} | {fmt_t(r['argsort'])} | "
                f"{r['ours'] / r['argsort']:.2f} | {r['repeats']} |"
            )
        a("")
        for r in results["curves"]:
            if r["name"] == "roc_auc" and r["n"] == max(x["n"] for x in results["curves"]):
                targets.append(
                    (
                        f"roc_auc at n = {r['n']:.0e}, {r['kind']}: no slower than scikit-learn (aim: half)",
                        f"ratio {r['ours'] / r['theirs']:.2f}",
                        r["ours"] <= r["theirs"],
                    )
                )
                targets.append(
                    (
                        f"roc_auc at n = {r['n']:.0e}, {r['kind']}: within 2× of one bare argsort",
                        f"ratio {r['ours'] / r['argsort']:.2f}",
                        r["ours"] <= 2 * r["argsort"],
                    )
                )

    if "memory" in results:
        n_mem = results["memory"][0]["input_bytes"] // 16
        a(f"## Peak memory of the largest case (1e{int(round(np.log10(n_mem)))} scores)")
        a("")
        a(
            f"Each function in a fresh process on 1e{int(round(np.log10(n_mem)))} float64 scores and int64 labels (inputs: "
            f"{results['memory'][0]['input_bytes'] / 2**20:.0f} MiB). *traced peak*: the largest memory allocated "
            "during the call (tracemalloc, which sees NumPy's buffers); *peak RSS*: the process's peak resident "
            "size during the call (VmHWM reset just before it), inputs and interpreter included, next to the "
            "resident size just before the call."
        )
        a("")
        a("| function | traced peak during the call | × input size | peak RSS during the call | RSS before the call |")
        a("|---|---:|---:|---:|---:|")
        for r in results["memory"]:
            a(
                f"| {r['name']} | {r['traced_peak'] / 2**20:.0f} MiB | {r['traced_peak'] / r['input_bytes']:.2f} | "
                f"{r['peak_rss_kib'] / 2**10:.0f} MiB | {(r['rss_before_kib'] or 0) / 2**10:.0f} MiB |"
            )
        a("")

    if "splits" in results:
        a("## Splits: stratified 10-fold and bootstrap on 10^6 samples")
        a("")
        a(
            "Two classes (30 % positive). Folds: the stratified 10-fold indices of one repeat; bootstrap: 10 "
            "repeats of m draws with replacement plus the out-of-bag indices."
        )
        a("")
        a("| what | evallib | time | baseline | time | ratio |")
        a("|---|---|---:|---|---:|---:|")
        for r in results["splits"]:
            a(
                f"| {r['section']} | {r['name']} | {fmt_t(r['ours'])} | {r['base_name']} | {fmt_t(r['base'])} | "
                f"{r['ours'] / r['base']:.2f} |"
            )
            if r["target"] is not None:
                targets.append(
                    (
                        f"stratified folds, {r['name']}: no slower than StratifiedKFold",
                        f"ratio {r['ours'] / r['base']:.2f}",
                        r["target"],
                    )
                )
        a("")

    if "compare" in results:
        n, k = args.compare_shape
        a(f"## Friedman / Nemenyi on {n} data sets × {k} algorithms")
        a("")
        a(
            "Each evallib call is timed next to the SciPy code that computes the same numbers (checked to agree "
            "first) and, where it has one, scikit-posthocs' function for the same step."
        )
        a("")
        a("| table | evallib | time | baseline | time | ratio |")
        a("|---|---|---:|---|---:|---:|")
        for r in results["compare"]:
            a(
                f"| {r['table']} | {r['name']} | {fmt_t(r['ours'])} | {r['base_name']} | {fmt_t(r['base'])} | "
                f"{r['ours'] / r['base']:.2f} |"
            )
        a("")

    if "biasvar" in results:
        a("## Bias–variance simulation (polynomial regression, 200 data sets of 30 points, 101 test points)")
        a("")
        a(
            "Target sin(2πx), noise 0.3. The vectorised path and the evallib loop are checked to agree to 1e-10. "
            "mlxtend's `bias_variance_decomp` makes its data sets by bootstrap resampling of one training set of "
            "30 points (its own method), with the same number of fits and test points."
        )
        a("")
        a("| degree | method | time | ratio to evallib (vectorised) |")
        a("|---:|---|---:|---:|")
        for r in results["biasvar"]:
            a(f"| {r['degree']} | {r['name']} | {fmt_t(r['time'])} | {r['ratio']:.1f}× |")
        a("")

    if "notebooks" in results:
        a("## Chapter notebooks: execution time")
        a("")
        a(
            "nbclient with the settings of `scripts/nbsettings.py` (PYTHONHASHSEED=0, one BLAS/OpenMP thread), one "
            "notebook at a time. *total*: kernel start to the last cell; *cells*: the cells alone (kernel timestamps); *kernel CPU*: "
            "user + system CPU time of the kernel process up to the last cell (what the load on the machine does "
            "not inflate)."
        )
        a("")
        a("| notebook | total | cells | kernel CPU | < 30 s |")
        a("|---|---:|---:|---:|---|")
        for r in results["notebooks"]:
            ok = r["error"] is None and r["total"] < NOTEBOOK_TARGET_S
            a(
                f"| {r['name']} | {r['total']:.1f} s | {r['cells']:.1f} s | {r['cpu']:.1f} s | {met(ok)}{' (error: ' + r['error'] + ')' if r['error'] else ''} |"
            )
            targets.append((f"notebook {r['name']}: under 30 s", f"{r['total']:.1f} s", ok))
        a("")

    if targets:
        a("## Targets")
        a("")
        a("| target | measured | |")
        a("|---|---|---|")
        for name, val, ok in targets:
            a(f"| {name} | {val} | {met(ok)} |")
        a("")
    latency = HERE / "latency.md"  # `make bench-browser` (bench/bench_browser.py): explorers in Chromium
    if latency.exists():
        a(latency.read_text().rstrip())
        a("")
    notes = HERE / "NOTES.md"
    if notes.exists():
        a(notes.read_text().rstrip())
        a("")
    # Other benchmark scripts (bench_hub.py, bench_setup.py, bench_browser.py, ...) write their own sections into
    # the same file: keep every section this run did not write, so one script never erases another's figures.
    written = {line for line in L if line.startswith("## ")}
    old = Path(path).read_text() if Path(path).exists() else ""
    for section in re.split(r"(?m)^(?=## )", old):
        if section.startswith("## ") and section.splitlines()[0] not in written:
            a(section.rstrip())
            a("")
    Path(path).write_text("\n".join(L))
    return targets


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes and fewer repeats (a smoke run)")
    ap.add_argument("--only", default="curves,memory,splits,compare,biasvar,notebooks")
    ap.add_argument("--notebooks", nargs="*", help="notebook paths (default: notebooks/[0-9][0-9]_*.ipynb)")
    ap.add_argument("--output", default=str(HERE / "RESULTS.md"))
    ap.add_argument("--json", default=None, help="also dump the raw results as JSON")
    args = ap.parse_args(argv)
    args.compare_shape = (100, 20)
    only = set(args.only.split(","))
    quick = args.quick

    import matplotlib

    matplotlib.use("Agg")

    started = _dt.datetime.now(_dt.timezone.utc)
    loads = [load_average()]
    info = machine_description()
    print(f"{info['cpu']}, {info['cores']} cores; BLAS {info['blas']}; env {info['env']}; load {loads[0]}", flush=True)
    results = {}
    if "curves" in only:
        sizes = [10**5, 10**6] if quick else [10**5, 10**6, 10**7]
        results["curves"] = bench_curves(sizes, lambda n: 2 if quick else {10**5: 15, 10**6: 7, 10**7: 3}[n])
    if "memory" in only:
        results["memory"] = bench_memory(10**6 if quick else 10**7)
    if "splits" in only:
        results["splits"] = bench_splits(10**6, 2 if quick else 5)
    if "compare" in only:
        results["compare"] = bench_compare(args.compare_shape, 3 if quick else 7)
    if "biasvar" in only:
        results["biasvar"] = bench_biasvar([3, 9], 2 if quick else 5)
    if "notebooks" in only:
        paths = (
            [Path(p) for p in args.notebooks]
            if args.notebooks
            else sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
        )
        results["notebooks"] = bench_notebooks(paths)
    finished = _dt.datetime.now(_dt.timezone.utc)
    loads.append(load_average())
    if args.json:
        Path(args.json).write_text(
            json.dumps({"info": info, "results": results, "loads": loads}, indent=1, default=float)
        )
    targets = write_report(args.output, info, results, started, finished, loads, args)
    print(f"\nwrote {args.output} in {(finished - started).total_seconds():.0f} s")
    for name, val, ok in targets:
        print(f"  {'met   ' if ok else 'MISSED'} {name}: {val}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
