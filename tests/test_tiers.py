"""The test tiers (tests/conftest.py): `make check` deselects the end-to-end tests, `make test` runs them all.

The tables naming the e2e tests must name what exists, or a renamed e2e test would silently join the fast tier
(and a removed one leave a dead row).
"""

import re
from pathlib import Path

import e2e_tiers as tiers  # tests/e2e_tiers.py
import pytest

TESTS = Path(__file__).resolve().parent
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("*.py"))


@pytest.mark.parametrize("path", sorted(tiers.E2E_PATHS))
def test_every_e2e_path_exists(path):
    assert (TESTS / path).exists(), f"tests/conftest.py E2E_PATHS names {path}, which is gone"


@pytest.mark.parametrize("name", sorted(tiers.E2E_FIXTURES))
def test_every_e2e_fixture_exists(name):
    assert re.search(rf"^def {name}\(", SOURCE, re.M), f"tests/conftest.py E2E_FIXTURES names {name}: no such fixture"


@pytest.mark.parametrize("name", sorted(tiers.E2E_TESTS))
def test_every_e2e_test_exists(name):
    assert re.search(rf"^def {name}\(", SOURCE, re.M), f"tests/conftest.py E2E_TESTS names {name}: no such test"


def test_make_check_deselects_e2e_and_make_test_runs_everything():
    makefile = (TESTS.parent / "Makefile").read_text(encoding="utf-8")
    check = re.search(r"^check:.*?(?=^\S)", makefile, re.M | re.S).group(0)
    test = re.search(r"^test:.*?(?=^\S)", makefile, re.M | re.S).group(0)
    assert '-m "not e2e"' in check and "ruff check" in makefile and "ruff format --check" in makefile
    assert '-m "' not in test and "no:cacheprovider" not in makefile
    assert "--durations=25" in (TESTS.parent / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", tiers.SLOWEST_FIRST)
def test_every_slowest_first_file_exists(path):
    assert (TESTS / path).exists(), f"tests/e2e_tiers.py SLOWEST_FIRST names {path}, which is gone"


def test_xdist_keeps_the_slowest_first_order():
    makefile = (TESTS.parent / "Makefile").read_text(encoding="utf-8")
    for target in ("test", "check"):
        recipe = re.search(rf"^{target}:.*?(?=^\S)", makefile, re.M | re.S).group(0)
        # without it xdist hands out the files with the most tests first, whatever order the items are in
        assert "--dist loadfile --no-loadscope-reorder" in recipe, target


def test_run_order_puts_the_slowest_files_first_then_chapters_then_most_tests():
    """A hand-made run: each file's rank, sorted as tests/conftest.py sorts the items."""
    root = TESTS.parent
    files = {
        TESTS / "test_small.py": 3,
        TESTS / "test_many.py": 4000,
        root / "notebooks" / "01_error_and_fitting.ipynb": 40,
        TESTS / "browser" / "test_zh_edition.py": 2,
        TESTS / "test_hub.py": 1,
        TESTS / "test_grading.py": 170,
    }
    order = sorted(files, key=lambda f: tiers.run_rank(f, files[f]))
    assert [f.name for f in order] == [
        "test_grading.py",
        "test_zh_edition.py",
        "test_hub.py",
        "01_error_and_fitting.ipynb",
        "test_many.py",
        "test_small.py",
    ]
