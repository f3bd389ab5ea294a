"""Shared test set-up, and the test tiers (CONTRIBUTING.md, "Which tests to run").

``make check`` (the working loop, minutes) runs ``-m "not e2e"``; ``make test`` (CI) runs everything. A test is
end to end (marker ``e2e``) when it starts a server, a browser, a cluster or a pool of worker processes, a
sandboxed ``make`` run or a site/slide build. The marker is given here, from the tables in tests/e2e_tiers.py, so a
test file needs no edit and every e2e test has its reason in one place; tests/test_tiers.py checks that each name
there still exists (rename it with the test).
"""

import functools
import gc
from collections import Counter
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # unit tests draw off-screen; notebooks (nbval) keep the inline backend

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from e2e_tiers import E2E_FIXTURES, E2E_PATHS, E2E_TESTS, TESTS, run_rank  # noqa: E402  (tests/e2e_tiers.py)


@functools.cache
def _path_reason(fspath):
    """Why every test in file ``fspath`` is end to end, or None; and its path relative to tests/ (None outside)."""
    rel = Path(fspath).resolve()
    try:
        rel = rel.relative_to(TESTS).as_posix()
    except ValueError:
        return None, None  # notebooks (nbval) are not e2e: make check runs the English ones
    for path, why in E2E_PATHS.items():
        if rel == path or (path.endswith("/") and rel.startswith(path)):
            return why, rel
    return None, rel


def e2e_reason(item):
    """Why ``item`` is end to end, or None."""
    why, rel = _path_reason(str(item.fspath))
    if why or rel is None:
        return why
    for name in getattr(item, "fixturenames", ()):
        if name in E2E_FIXTURES:
            return E2E_FIXTURES[name]
    return E2E_TESTS.get(getattr(item, "originalname", item.name))


def pytest_collection_modifyitems(config, items):
    for item in items:
        why = e2e_reason(item)
        if why:
            item.add_marker(pytest.mark.e2e(reason=why))
    # A stable sort: each file's items stay together and in order (nbval runs a chapter's cells in sequence).
    # Every xdist worker sorts the same way, which `--dist loadfile --no-loadscope-reorder` needs.
    counts = Counter(str(item.fspath) for item in items)  # (one path per file, not per test: 7,600 tests)
    rank = {path: run_rank(Path(path), n) for path, n in counts.items()}
    items.sort(key=lambda item: rank[str(item.fspath)])


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    # Everything imported and collected so far lives to the end of the run: move it out of the collector's
    # reach. statsmodels' multipletests calls gc.collect() on every call, which otherwise walked all of it
    # (0.3 s a call); the automatic full collections get cheaper too (make unit: about 19 CPU-s less). And the
    # collector runs less often (every 100,000 allocations, not 700): a test process frees its cycles soon
    # enough, for about 5 % less CPU in the unit tests.
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: `pytest -p no:xdist` must still run
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` with tests/browser/ as one unit: its files share one JupyterLab server and one Chromium
    (session fixtures, tests/browser/conftest.py), started once rather than once on each worker."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class _BrowserTogether(LoadFileScheduling):
        def _split_scope(self, nodeid):
            scope = super()._split_scope(nodeid)
            return "tests/browser/" if scope.startswith("tests/browser/") else scope

    return _BrowserTogether(config, log)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
