"""Once, when make sets up the venv: build matplotlib's font cache and write the bytecode (.pyc) of what a chapter
kernel and a sandboxed grading run import.

uv installs without compiling (compiling all 11,000 files of the venv took most of a fresh clone's set-up, for
modules no test imports), and the Makefile lets Python write each module's bytecode the first time it is imported,
even where PYTHONDONTWRITEBYTECODE is set (CI, this machine). A sandboxed grading run cannot write (the venv is
read-only there), so what its kernel imports is imported here first, in a real kernel: ipykernel's own modules,
evallib, NumPy, SciPy, scikit-learn and matplotlib as the chapters and exercise sets use them.

    python -m scripts.warm_imports
"""

from __future__ import annotations

import time

# What the chapters' and exercise sets' code cells import (grep "import" notebooks/*.md exercises/source/*.md),
# what the sandbox runner's warm-up and delegation block import (scripts/sandbox_run.py), and evallib itself.
STACK = """
import evallib
import matplotlib.pyplot, numpy, scipy.optimize, scipy.special, scipy.stats
import sklearn.base, sklearn.datasets, sklearn.dummy, sklearn.ensemble, sklearn.feature_selection
import sklearn.linear_model, sklearn.metrics, sklearn.model_selection, sklearn.naive_bayes, sklearn.neighbors
import sklearn.pipeline, sklearn.preprocessing, sklearn.svm, sklearn.tree
import statsmodels.stats.contingency_tables, statsmodels.stats.multitest
for name in evallib.__all__:  # every submodule: grading, plots, widgets, ...
    getattr(evallib, name)
# Imported only when a kernel first shows a figure (the inline backend, Agg, PNG), loads a bundled data set, asks
# for Nemenyi's q_alpha (SciPy's studentized range builds a cffi callback) or sends a large output (zmq).
evallib.data.load_bundled("breast_cancer")
evallib.compare.q_alpha(5, 0.05)
import zmq.utils.garbage
matplotlib.pyplot.plot([0, 1])
matplotlib.pyplot.show()
"""


def main() -> int:
    import matplotlib.pyplot  # noqa: F401  (its font cache, built now rather than in a notebook's first cell)
    import nbformat
    from nbclient import NotebookClient

    t0 = time.perf_counter()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(STACK)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, kernel_name="python3", timeout=600).execute()
    print(f"bytecode of the kernel's stack written in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
