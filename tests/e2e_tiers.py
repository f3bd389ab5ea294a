"""Which tests are end to end (marker ``e2e``: `make test` runs them, `make check` does not), each with the reason
it exists. tests/conftest.py applies the marker; tests/test_tiers.py checks every name here still exists."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent

# Whole files (or folders) that are end to end: path relative to tests/ -> why the test exists at all.
E2E_PATHS = {
    "browser/": "the explorers and the Chinese edition as a learner uses them: JupyterLab driven by headless "
    "Chromium (the only test of the drawing in the browser)",
    "test_sandbox_attacks.py": "attacks on the sandbox through the real `make autograde` (memory, pidfd forgery, "
    "another clone on the machine, SIGSTOP, two concurrent runs)",
    "test_hub.py": "a class day on the JupyterHub (`make hub`): login, nbgitpuller, kernels, collecting work",
    "test_dask.py": "experiments on a local Dask cluster equal the sequential run (a real scheduler and workers)",
    "test_pip_install.py": "the real installer (uv, pip) into fresh virtual environments against a local package "
    "index: the mirror a student configured is honoured (about a minute)",
}
# Fixtures that start something big: every test using one is end to end.
E2E_FIXTURES = {
    "run_a": "the one `make autograde` run of misbehaving and hostile submissions in the bubblewrap sandbox",
    "run_b": "run B's tests read `graded` (every set's solution, wrong answers and untouched release)",
    "graded": "the one `make autograde` run of every set's solution, wrong and partial answers, untouched release "
    "and the grader attacks (dtype answer, links, delegation, memoisation, identity and injected names)",
    "web_assets": "slides and site: reveal.js and MathJax from the npm registry, nbconvert over every chapter",
    "decks": "`make slides` over every chapter (nbconvert + reveal.js)",
    "site": "`make site`: the static HTML edition of every chapter and exercise set",
    "proxy": "the hub's configurable-http-proxy (npm)",
}
# Single tests (function name) that run a `make` target or a server end to end.
E2E_TESTS = {
    "test_make_lab_serves_the_whole_course": "`make lab` as the README starts it: the server, its root, README",
    "test_refuses_without_sandbox_unless_unsafe": "`make autograde` without bubblewrap refuses (two real runs)",
    "test_classroom_bundle_has_no_solution_no_test_no_seed": "`make classroom` writes the bundle (a real run)",
    "test_classroom_bundle_in_chinese": "`make classroom LANG=zh` writes the Chinese bundle (a real run)",
    "test_zh_exercises_are_what_the_build_writes": "builds every Chinese exercise set as `make release` does (catalog, "
    "jupytext, one nbstripout subprocess) and compares each with the committed notebook",
    # A pool of worker processes (joblib's loky) is a small local cluster: each worker imports NumPy, SciPy,
    # scikit-learn and evallib (about 2 CPU-s each), 17 CPU-s of `make check` for three claims about n_jobs.
    "test_evaluate_parallel_equals_serial": "evaluate(n_jobs=2) in two worker processes equals the sequential run",
    "test_score_table_with_n_jobs_equals_the_sequential_run": "score_table(n_jobs=2) in worker processes equals "
    "the sequential run",
    "test_rejection_rates_do_not_depend_on_n_jobs": "rejection_rates(n_jobs=2) in worker processes draws the same "
    "data sets as the sequential run",
    "test_explorer_data_do_not_depend_on_the_blas_kernel": "two interpreters compute three explorers' data with "
    "different BLAS kernels (OPENBLAS_CORETYPE): a stored notebook must not depend on the CPU",
}

# The order in which xdist hands out files (`--dist loadfile --no-loadscope-reorder`, tests/conftest.py): these
# first, slowest first (a folder: all its files, one unit), then the chapters (nbval), then the rest with the files
# of most tests first. By default xdist hands out the files with the most tests first, which left the hub (one
# test, a minute) and the Chinese edition in the browser (two tests, 45 s) to the end, queued on one worker while
# the other had nothing left. Seconds of one worker on this 2-core machine, 2026-11-26: about 400, 130, 100, 60,
# 65-115, 30-45; then three files of few tests that take 10-15 s each (subprocesses, explorers at the chapters'
# size): ranked by their number of tests, they came last in `make check` and left one worker idle for 11 s.
SLOWEST_FIRST = (
    "test_grading.py",
    "browser/",
    "test_sandbox_attacks.py",
    "test_hub.py",
    "test_classroom.py",
    "test_compare_today.py",
    "test_imports.py",
    "test_uncertainty_widgets.py",
    "test_i18n.py",
)


def run_rank(path: Path, n_tests: int) -> tuple:
    """Sort key of a file in the run (SLOWEST_FIRST, then the chapters, then the most tests first)."""
    path = Path(path).resolve()
    rel = path.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else None
    for i, first in enumerate(SLOWEST_FIRST):
        if rel is not None and (rel == first or (first.endswith("/") and rel.startswith(first))):
            return (i, 0)
    return (len(SLOWEST_FIRST) + (path.suffix != ".ipynb"), -n_tests)
