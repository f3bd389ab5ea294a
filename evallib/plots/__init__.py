"""Teaching figures. Every ``plot_*(..., ax=None)`` draws on ``ax`` (or the current Axes) and returns it;
none calls ``plt.show()`` or changes rcParams."""

from . import biasvar as _b
from . import compare as _k
from . import compare_today as _k13
from . import curves as _c
from . import evaluation as _e
from . import pitfalls as _p14
from . import regression as _r07
from . import roofline as _r
from . import selection as _s35
from . import uncertainty as _u12
from ._base import get_ax
from .biasvar import *  # noqa: F401,F403  (chapters 03, 10)
from .compare import *  # noqa: F401,F403  (chapters 08–09)
from .compare_today import *  # noqa: F401,F403  (chapter 13)
from .curves import *  # noqa: F401,F403  (chapters 04–07)
from .evaluation import *  # noqa: F401,F403  (chapters 01–02)
from .pitfalls import *  # noqa: F401,F403  (chapter 14)
from .regression import *  # noqa: F401,F403  (chapter 07)
from .roofline import *  # noqa: F401,F403  (chapter 11)
from .selection import *  # noqa: F401,F403  (chapters 03, 05)
from .uncertainty import *  # noqa: F401,F403  (chapter 12)

__all__ = [
    "get_ax",
    *_e.__all__,
    *_c.__all__,
    *_k.__all__,
    *_b.__all__,
    *_r.__all__,
    *_u12.__all__,
    *_k13.__all__,
    *_p14.__all__,
    *_s35.__all__,
    *_r07.__all__,
]
