"""How sure is an estimate（估计的不确定性）: intervals around the book's point estimates. Beyond the book.

Taught in ``notebooks/12_how_sure.ipynb``. The book measures a test error rate (§2.2), an AUC (式(2.20)) and
tests hypotheses about them (§2.4); this module puts an interval around each number:

- :func:`error_rate_interval`: an error rate on m test samples is a binomial proportion (式(2.26)): Wilson,
  Clopper–Pearson (exact) and the normal (Wald) interval; :func:`interval_coverage` measures how often each
  really covers the truth.
- :func:`kfold_mean_interval`: a t interval for the mean of k cross-validation scores, naive or with
  Nadeau and Bengio's correction for the folds' shared training data (the corrected t-test of chapter 08).
- :func:`roc_auc_interval` and :func:`delong_test`: DeLong, DeLong & Clarke-Pearson (1988), from the
  structural components computed by sorting (O(N log N), no m⁺ × m⁻ matrix).
- :func:`bootstrap_632`: Efron's .632 and Efron & Tibshirani's (1997) .632+ estimates on the course's own
  :class:`evallib.splits.Bootstrap` samples.
- :func:`bootstrap_interval`: percentile or BCa bootstrap interval of any metric; the engine is
  ``scipy.stats.bootstrap`` (not rewritten here).

Every distribution and quantile comes from SciPy.
"""

from ._bootstrap import BOOTSTRAP_INTERVAL_METHODS, bootstrap_632, bootstrap_interval  # noqa: F401
from ._checks import INTERVAL_METHODS
from ._delong import delong_test, roc_auc_interval, structural_components
from ._intervals import _bounds, coverage_curve, error_rate_interval, interval_coverage, kfold_mean_interval  # noqa: F401  (_bounds: the explorer)
from ._results import (
    AUCInterval,
    Bootstrap632Result,
    BootstrapInterval,
    Coverage,
    DeLongResult,
    ErrorRateInterval,
    MeanInterval,
)

__all__ = [
    "INTERVAL_METHODS",
    "ErrorRateInterval",
    "Coverage",
    "MeanInterval",
    "AUCInterval",
    "DeLongResult",
    "Bootstrap632Result",
    "BootstrapInterval",
    "error_rate_interval",
    "interval_coverage",
    "coverage_curve",
    "kfold_mean_interval",
    "structural_components",
    "roc_auc_interval",
    "delong_test",
    "bootstrap_632",
    "bootstrap_interval",
]
