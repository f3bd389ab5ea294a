"""`import evallib` is lazy (PEP 562): the statistics load without matplotlib or ipywidgets, so the grader's
sandbox runner, which imports evallib and its grading data protocol, never pays for (or exposes) them."""

import json
import subprocess
import sys

import pytest

import evallib

# What must stay free of plotting and widgets: the package, the core modules the checks call, the grader's side.
CORE = [
    "evallib",
    "evallib.compare",
    "evallib.metrics",
    "evallib.roofline",
    "evallib.splits",
    "evallib.evaluation",
    "evallib.curves",
    "evallib.uncertainty",
    "evallib.biasvar",
    "evallib.data",
    "evallib.fitting",
    "evallib.pitfalls",
    "evallib.grading",
]
HEAVY = ("matplotlib", "ipywidgets", "IPython")


def _loaded_after(imports):
    code = (
        "import importlib, json, sys\n"
        f"for m in {imports!r}: importlib.import_module(m)\n"
        f"print(json.dumps(sorted(k for k in sys.modules if k.split('.')[0] in {HEAVY!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_import_evallib_loads_no_submodule():
    code = "import sys, evallib; print(sorted(k for k in sys.modules if k.startswith('evallib')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['evallib']"


def test_core_modules_import_no_plotting_or_widgets():
    assert _loaded_after(CORE) == []


def test_the_graders_processes_import_no_plotting_or_widgets():
    """What the autograder's two processes import: the sandbox runner (scripts/sandbox_run.py, which also runs
    ``from evallib.grading import to_data, from_data`` in the kernel to read the answers) and the trusted grader
    (scripts/autograde.py, with evallib.grading_messages and evallib.i18n)."""
    runner = ["scripts.sandbox_run", "evallib.grading", "evallib.grading._protocol"]
    grader = ["scripts.autograde", "evallib.grading_messages", "evallib.i18n"]
    assert _loaded_after(runner) == []
    assert _loaded_after(grader) == []


def test_plots_do_load_matplotlib():  # the property above could not fail if nothing ever loaded it
    assert "matplotlib" in _loaded_after(["evallib.plots"])


def test_lazy_attributes_and_dir():
    names = dir(evallib)
    for sub in evallib._SUBMODULES:
        assert sub in names
    assert "setup_notebook" in names
    assert evallib.compare.friedman.__module__ == "evallib.compare._demsar"
    assert evallib.setup_notebook is evallib.style.setup_notebook
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        evallib.nope  # noqa: B018


def test_widgets_and_exercise_sets_import_jsonschema_without_the_iri_grammars():
    """Reading an exercise set's text source (jupytext, nbformat) and importing evallib.widgets (Altair) load
    jsonschema with rfc3987_syntax hidden (2.4 s of Lark grammars in every kernel's first exercise cell or explorer): then
    rfc3987_syntax is not loaded, still importable, and Altair still validates a spec against the Vega-Lite schema
    (a wrong one raises)."""
    code = (
        "import sys, importlib.util, evallib.grading._source as src\n"
        "assert src.read_myst('# a\\n\\n```{code-cell}\\nq1 = 1\\n```\\n')[1] and 'jupytext' in sys.modules\n"
        "assert 'jsonschema' in sys.modules and 'rfc3987_syntax' not in sys.modules\n"
        "import evallib.widgets, altair as alt, pandas as pd\n"
        "assert 'rfc3987_syntax' not in sys.modules\n"
        "assert importlib.util.find_spec('rfc3987_syntax') is None or __import__('rfc3987_syntax')\n"
        "alt.Chart(pd.DataFrame({'x': [1]})).mark_point().encode(x='x:Q').to_dict(validate=True)\n"
        "try:\n"
        "    alt.Chart(pd.DataFrame({'x': [1]})).mark_point(size='big').to_dict(validate=True)\n"
        "except Exception as exc:\n"
        "    print('refused', type(exc).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("refused"), out.stdout + out.stderr
