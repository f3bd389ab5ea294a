"""Tiny helpers to write chapter notebooks from Python scripts (scripts/make_nb_*.py).

The scripts are the editable source of the notebook text; `make regen` then executes the notebooks
and stores their outputs.
"""
import textwrap

import nbformat

SETUP = """import numpy as np
import matplotlib.pyplot as plt
import evallib as el
rng = el.setup_notebook(seed=0)"""


def md(text):
    return nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip("\n"))


def code(text):
    return nbformat.v4.new_code_cell(textwrap.dedent(text).strip("\n"))


def write(path, cells):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = cells
    nbformat.write(nb, path)
