"""Setting up a chapter notebook: print options, the figure style, the language and the one random generator."""

from __future__ import annotations

import numbers

import numpy as np

from . import _theme
from ._theme import STYLE  # noqa: F401  (named in the docstring)
from ._validation import Interval, check_random_state, validate_params


@validate_params(
    {"seed": ["random_state"], "precision": [Interval(numbers.Integral, 0, None, closed="left")], "lang": ["str"]}
)
def setup_notebook(seed=0, *, precision=4, lang="en") -> np.random.Generator:
    """Set print options and the figure style for a chapter notebook; return its one random generator.

    Every chapter's first code cell is::

        import numpy as np
        import matplotlib.pyplot as plt
        import evallib as el
        rng = el.setup_notebook(seed=0)

    NumPy prints ``precision`` decimals without scientific noise (and, on NumPy 2, plain ``0.5`` rather
    than ``np.float64(0.5)``); matplotlib uses :data:`STYLE`. ``lang`` is the learner's language (``"en"`` or
    ``"zh"``, :mod:`evallib.i18n`): the Chinese edition's set-up cell passes ``lang="zh"``, and explorers and
    exercise feedback then speak Chinese (figures keep English labels).

    >>> rng = setup_notebook(seed=0)
    >>> round(float(rng.random()), 4)
    0.637
    """
    from ._validation import check_positive_int
    from .i18n import set_language

    precision = check_positive_int(precision, "precision", minimum=0)
    set_language(lang)
    opts = {"precision": precision, "suppress": True}
    if int(np.__version__.split(".")[0]) >= 2:
        opts["legacy"] = "1.25"
    np.set_printoptions(**opts)
    _theme.use(_theme.STYLE)
    return check_random_state(seed, "seed")
