"""Every explorer of the chapters, what the browser suite and ``bench/bench_browser.py`` do with it: one row each.

A row (:class:`Case`) names the chapter and the builder call that shows the explorer, the controls' values as the
chapter starts it, one key press on every control (:class:`Move`: the control's label, the key, the value it
leads to) and ``expected(state)``: the readout evallib prints for a state of the controls, computed in the test
process by evallib's own functions for that one setting (``fitting_update``, ``cross_validation`` through
``kfold_update``, ``threshold_summary``, ``cost_operating_point``, ``binomial_view``, ...), never by the
precomputed grid the chart selects from.

Which output is driven:

* the chapter's **stored output** (``notebooks/NN_*.ipynb``, what a learner and the site see) where the inputs of
  ``expected`` cost nothing (chapters 01, 02, 05, 06, 08, 10, 11, 12: arguments, a bundled data set,
  ``el.data.load_tumour_scores()`` = chapter 05's scores);
* an explorer **built here** by the same builder from small inputs where the chapter's inputs take the chapter's
  own minute to compute (chapter 09's score table, chapter 13's 30 data sets, chapter 14's leakage study and
  calibration model): :func:`built_here` (a few seconds).

``test_every_explorer_call_of_the_chapters_has_a_row`` fails when a chapter calls an explorer no row drives.
"""

from __future__ import annotations

import functools
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import evallib as el

ROOT = Path(__file__).resolve().parents[2]
VEGA_MIME = "application/vnd.vegalite.v5+json"
BUILT_HERE = "99_built_here"  # the stem of the notebook (and site page) of the explorers built here


@dataclass(frozen=True)
class Move:
    label: str  # the control's label as the chart shows it (the builder's description, English catalog)
    key: str  # pressed on the focused control (range: arrows; radio: arrows; select: ArrowDown/Up; checkbox: Space)
    param: str  # the key of ``state`` it changes
    value: object  # its value afterwards


@dataclass(frozen=True)
class Case:
    id: str
    notebook: str  # chapter stem (notebooks/<stem>.ipynb) or BUILT_HERE
    builder: str  # el.widgets.<builder>(...) in that chapter
    nth: int  # which call of the builder in the chapter
    state: dict  # the controls as the chapter starts them
    moves: tuple
    expected: Callable[[dict], str]
    start_known: bool = True  # False: the initial readout holds a measurement of another machine
    title: str = field(default="")

    @property
    def key(self):  # the bench's row name (bench/latency.json)
        return f"{self.notebook}.ipynb: {self.title or self.builder}" + (f" (#{self.nth + 1})" if self.nth else "")


def _text(result):
    """The text of a ``(text, figure, ...)`` view; the matplotlib figure is closed."""
    import matplotlib.pyplot as plt

    plt.close(result[1])
    return result[0]


# --- inputs ----------------------------------------------------------------------------------------------------
@functools.cache
def breast_cancer():
    return el.data.load_bundled("breast_cancer")  # chapter 02's X, y


@functools.cache
def tumour_scores():
    return el.data.load_tumour_scores()  # chapter 05's test tumours and two models' scores (chapter 06 loads them)


@functools.cache
def small_inputs():
    """Inputs for the explorers built here: small, seeded, seconds to compute."""
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    ranks = el.compare.friedman(rng.random((10, 5))).mean_ranks
    a = np.round(rng.uniform(0.05, 0.30, 6), 4)
    b = np.round(a + rng.normal(0.005, 0.02, 6), 4)
    X_noise, y_noise = rng.normal(size=(50, 600)), rng.integers(0, 2, 50)
    study = el.pitfalls.selection_leakage(X_noise, y_noise, [1, 8, 64, 128, 256, 600], n_repeats=2, random_state=0)
    X, y = make_classification(1000, n_features=20, n_informative=5, n_redundant=10, random_state=1)
    proba = LogisticRegression(max_iter=1000).fit(X[:500], y[:500]).predict_proba(X[500:])[:, 1]
    return {"ranks": ranks, "a": a, "b": b, "study": study, "y": y[500:], "p": proba}


CD_NAMES = ["majority", "tree", "naive Bayes", "5-NN", "logistic"]
PAIR = ("logistic", "naive Bayes")


def built_here():
    """The explorers of chapters 09, 13 and 14 as the chapters call them, from :func:`small_inputs`."""
    s = small_inputs()
    return {
        "cd_explorer": el.widgets.cd_explorer(s["ranks"], CD_NAMES, n_datasets=10, alpha=0.05),
        "bayesian_comparison_explorer": el.widgets.bayesian_comparison_explorer(s["a"], s["b"], rope=0.01, names=PAIR),
        "leakage_explorer": el.widgets.leakage_explorer(s["study"], k=128, chance=0.5),
        "calibration_explorer": el.widgets.calibration_explorer(s["y"], s["p"], slope=2.0),
    }


# --- what evallib says for a state -----------------------------------------------------------------------------
def _kfold(st):
    from sklearn.naive_bayes import GaussianNB

    X, y = breast_cancer()
    return _text(el.widgets.kfold_update(GaussianNB(), X, y, st["n_splits"], st["n_repeats"], random_state=0))


def _threshold(st):
    from evallib.widgets.curves import _threshold_text  # the readout's sentence; its numbers from evallib.curves

    y, scores = tumour_scores()
    s = scores["logistic regression"]
    t = el.curves.threshold_summary(y, s, st["threshold"])
    return _threshold_text(t, el.curves.roc_auc(y, s), el.curves.break_even_point(y, s))


def _cost(st):
    from evallib.widgets.curves import _cost_text  # the sentence; cost_operating_point per model inside

    y, scores = tumour_scores()
    curves = {name: el.curves.cost_curve(y, s) for name, s in scores.items()}
    return _cost_text(curves, st["p"], st["log2_cost_ratio"])


def _roofline(st):
    dev = el.roofline.DEVICES[st["device"]]
    return _text(
        el.widgets.roofline_update(
            device=st["device"],
            peak_flops=dev.peak(st["dtype"]) * 10 ** st["peak_shift"],
            bandwidth=dev.bandwidth * 10 ** st["bandwidth_shift"],
            models=st["models"],  # the chart lists the explorer's models first, those ticked later after them
            batch=st["batch"],
            mac_flops=st["mac_flops"],
            outputs=st["outputs"],
            dtype=st["dtype"],
        )
    )


def _next(seq, item, step=1):
    seq = list(seq)
    return seq[(seq.index(item) + step) % len(seq)]


DEVICES = list(el.roofline.DEVICES)
PEAK = "peak FLOP/s: log₁₀ shift from the preset"
BANDWIDTH = "bandwidth B/s: log₁₀ shift from the preset"


def _roofline_moves(start_device, device_key, device_value, models):
    extra = next(m for m in el.roofline.MODELS if m not in models)
    return (
        Move("device", device_key, "device", device_value),
        Move(PEAK, "ArrowRight", "peak_shift", 0.05),
        Move(BANDWIDTH, "ArrowLeft", "bandwidth_shift", -0.05),
        Move(extra, " ", "models", (*models, extra)),
        Move("batch size", "ArrowDown", "batch", 2),
        Move("counting", "ArrowLeft", "mac_flops", 1),
        Move("traffic", "ArrowDown", "outputs", "all"),
        Move("dtype", "ArrowRight", "dtype", "float16"),
    )


def _roofline_state(device, models):
    return dict(
        device=device,
        peak_shift=0.0,
        bandwidth_shift=0.0,
        models=tuple(models),
        batch=1,
        mac_flops=2,
        outputs="conv_linear",
        dtype="float32",
    )


ROOF_A = ("VGG16", "MobileNetV1", "MobileNetV2")
ROOF_B = ("ResNet-18", "MobileNetV2")

CASES = [
    Case(
        "01-fitting",
        "01_error_and_fitting",
        "fitting_explorer",
        0,
        dict(degree=3, n_train=20, noise_std=0.25),
        (
            Move("degree", "ArrowRight", "degree", 4),
            Move("training samples", "ArrowRight", "n_train", 25),
            Move("noise std", "ArrowLeft", "noise_std", 0.2),
        ),
        lambda st: _text(el.widgets.fitting_update(st["degree"], st["n_train"], st["noise_std"], seed=0)),
    ),
    Case(
        "02-kfold",
        "02_evaluation_methods",
        "kfold_explorer",
        0,
        dict(n_splits=10, n_repeats=1),
        (
            Move("k (folds)", "ArrowRight", "n_splits", 11),
            Move("p (repeats)", "ArrowRight", "n_repeats", 2),
        ),
        _kfold,
    ),
    Case(
        "05-threshold",
        "05_roc_pr_curves",
        "threshold_explorer",
        0,
        dict(threshold=0.5),
        (Move("threshold", "ArrowRight", "threshold", 0.51),),
        _threshold,
    ),
    Case(
        "06-cost",
        "06_cost_sensitive",
        "cost_explorer",
        0,
        dict(p=0.37, log2_cost_ratio=math.log2(5)),
        (
            Move("prior p of the positive class", "ArrowRight", "p", 0.38),
            Move("log2(cost_fn / cost_fp)", "ArrowRight", "log2_cost_ratio", 2.5),  # off-grid log2(5) -> next step
        ),
        _cost,
    ),
    Case(
        "08-binomial",
        "08_hypothesis_tests",
        "binomial_test_explorer",
        0,
        dict(m=50, eps0=0.3, alpha=0.05, error_rate=0.4),
        (
            Move("m (test samples)", "ArrowRight", "m", 55),
            Move("eps0", "ArrowRight", "eps0", 0.31),
            Move("alpha", "ArrowRight", "alpha", 0.1),
            Move("observed error rate", "ArrowRight", "error_rate", 0.41),
        ),
        lambda st: _text(el.widgets.binomial_view(st["m"], st["eps0"], st["alpha"], st["error_rate"])),
    ),
    Case(
        "09-cd",
        BUILT_HERE,
        "cd_explorer",
        0,
        dict(alpha=0.05, n_datasets=10),
        (
            Move("alpha", "ArrowRight", "alpha", 0.1),
            Move("N (data sets)", "ArrowRight", "n_datasets", 11),
        ),
        lambda st: _text(el.widgets.cd_view(small_inputs()["ranks"], CD_NAMES, st["alpha"], st["n_datasets"])),
    ),
    Case(
        "10-biasvar",
        "10_bias_variance",
        "bias_variance_explorer",
        0,
        dict(degree=3, noise_std=0.3, n_train=30, n_datasets=200),
        (
            Move("degree (complexity)", "ArrowRight", "degree", 4),
            Move("noise_std", "ArrowRight", "noise_std", 0.35),
            Move("training-set size", "ArrowRight", "n_train", 50),
            Move("data sets", "ArrowLeft", "n_datasets", 50),
        ),
        lambda st: _text(el.widgets.bias_variance_view(st["degree"], st["noise_std"], st["n_train"], st["n_datasets"])),
    ),
    Case(
        "11-roofline",
        "11_roofline",
        "roofline_explorer",
        0,
        _roofline_state("GTX 1080 Ti", ROOF_A),
        _roofline_moves("GTX 1080 Ti", "ArrowDown", _next(DEVICES, "GTX 1080 Ti"), ROOF_A),
        _roofline,
    ),
    # The second one starts on "this machine" as the machine that stored the chapter measured it: its first move
    # picks the preset above it (the last preset), whose numbers are evallib's here too.
    Case(
        "11-roofline-machine",
        "11_roofline",
        "roofline_explorer",
        1,
        _roofline_state("this machine", ROOF_B),
        _roofline_moves("this machine", "ArrowUp", DEVICES[-1], ROOF_B),
        _roofline,
        start_known=False,
    ),
    Case(
        "12-interval",
        "12_how_sure",
        "interval_explorer",
        0,
        dict(m=100, error_rate=0.05, confidence=0.95),
        (
            Move("m (test samples)", "ArrowRight", "m", 200),
            Move("true error rate", "ArrowRight", "error_rate", 0.06),
            Move("confidence", "ArrowRight", "confidence", 0.99),
        ),
        lambda st: _text(el.widgets.interval_view(st["m"], st["error_rate"], st["confidence"])),
    ),
    Case(
        "13-bayes",
        BUILT_HERE,
        "bayesian_comparison_explorer",
        0,
        dict(rope=0.01, n_datasets=6),
        (
            Move("rope (half-width)", "ArrowRight", "rope", 0.015),
            Move("N (data sets)", "ArrowLeft", "n_datasets", 5),
        ),
        lambda st: _text(
            el.widgets.bayesian_comparison_view(
                small_inputs()["a"], small_inputs()["b"], st["rope"], st["n_datasets"], PAIR
            )
        ),
    ),
    Case(
        "14-leakage",
        BUILT_HERE,
        "leakage_explorer",
        0,
        dict(k=128),
        (Move("features selected", "ArrowRight", "k", 256),),
        lambda st: _text(el.widgets.leakage_update(small_inputs()["study"], st["k"], chance=0.5)),
    ),
    Case(
        "14-calibration",
        BUILT_HERE,
        "calibration_explorer",
        0,
        dict(log2_slope=1.0, shift=0.0),
        (
            Move("log₂ slope (over-/under-confidence)", "ArrowRight", "log2_slope", 1.25),
            Move("shift of the log-odds", "ArrowRight", "shift", 0.2),
        ),
        lambda st: _text(
            el.widgets.calibration_update(small_inputs()["y"], small_inputs()["p"], 2 ** st["log2_slope"], st["shift"])
        ),
    ),
]

# Which chapter each explorer built here stands for.
CHAPTER_OF = {
    "cd_explorer": "09_friedman_nemenyi",
    "bayesian_comparison_explorer": "13_comparing_today",
    "leakage_explorer": "14_pitfalls",
    "calibration_explorer": "14_pitfalls",
}


def explorer_calls():
    """(chapter stem, builder, nth call) of every ``el.widgets.<name>_explorer(`` in the chapters' sources."""
    calls = []
    for md in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.md")):
        seen = {}
        for name in re.findall(r"el\.widgets\.(\w+_explorer)\(", md.read_text(encoding="utf-8")):
            calls.append((md.stem, name, seen.get(name, 0)))
            seen[name] = seen.get(name, 0) + 1
    return calls


def stored_output(stem, builder, nth):
    """The stored output (data, metadata) of the ``nth`` cell of notebooks/<stem>.ipynb calling ``builder``."""
    import nbformat

    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code" and f"el.widgets.{builder}(" in c.source]
    for o in cells[nth].get("outputs", []):
        if VEGA_MIME in o.get("data", {}):
            return dict(o["data"]), dict(o.get("metadata", {}))
    raise LookupError(f"notebooks/{stem}.ipynb: call {nth} of {builder} has no stored Vega-Lite output")


@functools.cache
def outputs():
    """(case, data, metadata) for every row, in the order of :data:`CASES`: the stored outputs and those built here
    (built once per process: the JupyterLab and the site tests share them)."""
    built = None
    out = []
    for case in CASES:
        if case.notebook == BUILT_HERE:
            built = built or built_here()
            data, meta = built[case.builder]._repr_mimebundle_()
        else:
            data, meta = stored_output(case.notebook, case.builder, case.nth)
        out.append((case, data, meta))
    return tuple(out)


def notebook_of(items, metadata=None):
    """A notebook holding only these outputs, one code cell each (no source to run: ``# <case id>``)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    for case, data, meta in items:
        cell = nbformat.v4.new_code_cell(f"# {case.id}")
        cell.outputs = [nbformat.v4.new_output("display_data", data=data, metadata=meta)]
        nb.cells.append(cell)
    nb.metadata.update(metadata or {})
    return nb


def bundle_bytes(data, meta=None):
    """Bytes of an explorer's stored mimebundle as a notebook keeps it (nbformat's JSON, indent=1)."""
    return len(json.dumps({"data": data, "metadata": meta or {}}, indent=1, ensure_ascii=False).encode())


# --- the page: reading and moving a chart (JupyterLab and the site alike) -------------------------------------
READ_TEXTS = """root => Array.from(root.querySelectorAll('svg g.mark-text text')).map(t => {
    const spans = t.querySelectorAll('tspan');
    return spans.length ? Array.from(spans).map(s => s.textContent).join(' \\n ') : t.textContent;
}).join(' \\n ')"""


def tokens(text):
    return [w for w in text.replace("\u2212", "-").replace("\xa0", " ").split() if w != "|"]


def shows(shown: str, want: str) -> bool:
    """Whether the words and numbers of ``want`` appear, in order and together, among the chart's texts."""
    return f" {' '.join(tokens(want))} " in f" {' '.join(tokens(shown))} "


UPDATE_TIMEOUT_S = 10  # a shared machine under `make test`: how long a chart may take to show a move (< 1 s)


def wait_shows(chart, want, timeout_s=UPDATE_TIMEOUT_S):
    """Wait until the chart's texts hold ``want`` (words and numbers in order); the texts otherwise."""
    end = time.monotonic() + timeout_s
    while True:
        got = chart.evaluate(READ_TEXTS)
        if shows(got, want):
            return got
        if time.monotonic() > end or ("NaN" in got and "NaN" not in want):  # NaN does not go away: fail now
            raise AssertionError(f"the chart does not show\n{want}\nit shows\n{got}")
        time.sleep(0.05)


def control(chart, label):
    """The input of the chart's control labelled ``label`` (Vega's binding: range, radio, select or checkbox)."""
    name = re.compile(rf"^\s*{re.escape(label)}\s*$")
    bind = chart.locator(".vega-bind").filter(has=chart.page.locator(".vega-bind-name", has_text=name))
    n = bind.count()
    assert n == 1, f"{n} controls labelled {label!r}"
    radio = bind.locator("input[type=radio]:checked")
    return radio if radio.count() else bind.locator("input, select").first


def press(page, chart, move):
    """Focus the control (as Tab would) and press the move's key."""
    control(chart, move.label).focus()
    page.keyboard.press("Space" if move.key == " " else move.key)


# --- the site: the explorers' pages, built as `make site` builds them -----------------------------------------
def build_explorer_pages(out: Path, items, also=()) -> dict:
    """The site's explorer pages (``explorers/NN_*.html``: one chapter's explorers, full page) of every chapter
    whose outputs ``items`` drive, through scripts/build_site.py's own ``explorers_page`` and ``render``, and the
    site's ``_static/`` (vega, vega-lite and vega-embed from the npm registry, inlined; MathJax; site.css).
    The explorers built here get a page of their own (``explorers/99_built_here.html``); ``also``: chapters whose
    own page is built as well. Returns {stem: page path}."""
    import shutil

    import nbformat

    from scripts import build_site, webassets

    vend = webassets.ensure_vendor(verbose=False)
    static = out / "_static"
    static.mkdir(parents=True, exist_ok=True)
    (static / "vega.js").write_text(webassets.vega_js(vend), encoding="utf-8")
    shutil.copy(vend["mathjax"] / "es5/tex-svg-full.js", static / "tex-svg-full.js")
    (static / "site.css").write_text(build_site.SITE_CSS, encoding="utf-8")
    exporter, w = build_site._exporter("en"), build_site.WORDS["en"]
    pages = {}
    for stem in dict.fromkeys([*(case.notebook for case, _, _ in items), *also]):
        if stem == BUILT_HERE:
            meta = nbformat.read(ROOT / "notebooks" / f"{CHAPTER_OF['leakage_explorer']}.ipynb", 4).metadata
            nb = notebook_of([i for i in items if i[0].notebook == BUILT_HERE], metadata=dict(meta))
        else:
            nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
        board = build_site.explorers_page(nb, stem, w)
        page = f"explorers/{stem}.html"
        nav = [(w["index"], "index.html"), (w["chapter"], f"{stem}.html")]
        (out / "explorers").mkdir(exist_ok=True)
        (out / page).write_text(build_site.render(exporter, board, page, nav, stem, "en"), encoding="utf-8")
        pages[stem] = out / page
    return pages


def nth_on_page(case):
    """The position of the case's explorer among the explorers of its site page."""
    same = [c for c in CASES if c.notebook == case.notebook]
    if case.notebook == BUILT_HERE:
        return same.index(case)
    return case.nth


# A chart that shows something else than evallib, found by these tests: the row stays, marked xfail (strict: it
# fails the suite once the chart is fixed, so the mark is removed then). Reported to the widgets' owner.
KNOWN_DEFECTS: dict[str, str] = {}


def move_every_control(page, chart, case):
    """Press each of ``case``'s moves on ``chart``: after each, the readout must be evallib's for the new setting
    and differ from the one before (the test in JupyterLab and on the site)."""
    chart.scroll_into_view_if_needed()
    state = dict(case.state)
    if case.start_known:
        wait_shows(chart, case.expected(state))
    for move in case.moves:
        before = chart.evaluate(READ_TEXTS)
        press(page, chart, move)
        state[move.param] = move.value
        got = wait_shows(chart, case.expected(state))
        assert got != before, f"{move.label}: the chart did not change"


def case_params():
    """:data:`CASES` as pytest parameters, ids the rows' ids, the known defects marked xfail(strict=True)."""
    import pytest

    return [
        pytest.param(c, id=c.id, marks=[pytest.mark.xfail(strict=True, reason=KNOWN_DEFECTS[c.id])])
        if c.id in KNOWN_DEFECTS
        else pytest.param(c, id=c.id)
        for c in CASES
    ]


def nth_on_chapter_page(case):
    """The position of the explorer a row built here stands for among the explorers of its chapter's own page."""
    stem = CHAPTER_OF[case.builder]
    return [c for c in explorer_calls() if c[0] == stem].index((stem, case.builder, case.nth))
