"""Explorers: charts drawn in the browser (Altair / Vega-Lite 5) from data evallib precomputed over their
controls' grid; each builder returns an :class:`Explorer` (docs/design/explorers.md)."""

from .. import _jsonschema  # noqa: F401  (first: jsonschema before Altair imports it)
from . import biasvar as _b
from . import compare as _k
from . import compare_today as _k13
from . import curves as _c
from . import evaluation as _e
from . import pitfalls as _p14
from . import roofline as _r
from . import uncertainty as _u12
from ._chart import Explorer, menu, slider
from .biasvar import *  # noqa: F401,F403  (chapter 10)
from .compare import *  # noqa: F401,F403  (chapters 08–09)
from .compare_today import *  # noqa: F401,F403  (chapter 13)
from .curves import *  # noqa: F401,F403  (chapters 05–06)
from .evaluation import *  # noqa: F401,F403  (chapters 01–02)
from .pitfalls import *  # noqa: F401,F403  (chapter 14)
from .roofline import *  # noqa: F401,F403  (chapter 11)
from .uncertainty import *  # noqa: F401,F403  (chapter 12)

__all__ = [
    "Explorer",
    "slider",
    "menu",
    *_e.__all__,
    *_c.__all__,
    *_k.__all__,
    *_b.__all__,
    *_r.__all__,
    *_u12.__all__,
    *_k13.__all__,
    *_p14.__all__,
]
