"""Every docstring example in evallib runs and prints what it shows (each public function carries a tiny example;
five of them had gone wrong unnoticed before this test)."""

import doctest
import importlib
import pkgutil

import matplotlib as mpl
import numpy as np
import pytest

import evallib

MODULES = sorted(m.name for m in pkgutil.walk_packages(evallib.__path__, "evallib."))


@pytest.fixture
def restored():
    """An example may switch the figure style or NumPy's print precision (setup_notebook): put them back."""
    rc, printing = mpl.rcParams.copy(), np.get_printoptions()
    yield
    mpl.rcParams.update(rc)
    np.set_printoptions(**printing)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name, restored):
    result = doctest.testmod(importlib.import_module(name), report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (printed above)"
