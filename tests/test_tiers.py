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
