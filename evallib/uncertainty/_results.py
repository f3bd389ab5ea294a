"""Result objects of evallib.uncertainty (chapter 12)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._results import Result
from ..compare import TestResult


# ----------------------------------------------------------------------------------------------------
# Result objects
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class ErrorRateInterval(Result):
    """An interval for a generalisation error rate from ``n_errors`` mistakes on ``m`` test samples."""

    estimate: float
    low: float
    high: float
    method: str
    confidence: float
    n_errors: int
    m: int

    @property
    def width(self) -> float:
        return self.high - self.low


@dataclass(frozen=True, repr=False)
class Coverage(Result):
    """How often an interval method covers the true error rate ``error_rate`` on ``m`` test samples.

    ``exact`` sums the binomial probabilities of the counts whose interval covers the truth; ``simulated``
    is the fraction of ``n_trials`` simulated test sets whose interval does, ``stderr`` its standard error."""

    method: str
    m: int
    error_rate: float
    confidence: float
    exact: float
    simulated: float
    stderr: float
    n_trials: int


@dataclass(frozen=True, repr=False)
class MeanInterval(Result):
    """A t interval for the mean of k scores; ``variance_factor`` multiplies the sample variance σ²
    (1/k naive, 1/k + n_test/n_train corrected)."""

    estimate: float
    low: float
    high: float
    std: float
    k: int
    variance_factor: float
    confidence: float


@dataclass(frozen=True, repr=False)
class AUCInterval(Result):
    """DeLong's interval for the AUC: ``auc`` ± z·sqrt(``variance``), clipped to [0, 1]."""

    auc: float
    variance: float
    low: float
    high: float
    confidence: float
    n_pos: int
    n_neg: int


@dataclass(frozen=True, repr=False)
class DeLongResult(TestResult):
    """DeLong's test of H0: AUC_a = AUC_b for two scorers on the same samples. ``statistic`` is
    z = (auc_a − auc_b) / sqrt(var_a + var_b − 2 cov_ab); ``covariance`` the 2 × 2 DeLong covariance."""

    auc_a: float = 0.0
    auc_b: float = 0.0
    covariance: np.ndarray = field(default=None)


@dataclass(frozen=True, repr=False)
class Bootstrap632Result(Result):
    """The .632 / .632+ bootstrap estimate of the 0-1 loss and its ingredients (Efron & Tibshirani 1997)."""

    estimate: float
    method: str
    training_error: float
    oob_error: float
    no_information_rate: float
    relative_overfitting_rate: float
    weight: float
    n_repeats: int
    n_covered: int  # samples out of the bag at least once (the average of Err⁽¹⁾ runs over them)
    repeat_oob_error: float = 0.0  # chapter 02's out-of-bag estimate: the mean of the per-repeat OOB error rates


@dataclass(frozen=True, repr=False)
class BootstrapInterval(Result):
    """A bootstrap interval of a metric from ``scipy.stats.bootstrap``; ``standard_error`` is the standard
    deviation of the bootstrap distribution."""

    estimate: float
    low: float
    high: float
    method: str
    confidence: float
    standard_error: float
    n_resamples: int
