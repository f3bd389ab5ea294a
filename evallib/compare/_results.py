"""The result objects of evallib.compare: frozen dataclasses with named fields."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._results import Result, TestStatisticResult


# ----------------------------------------------------------------------------------------------------
# Result objects
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class TestResult(TestStatisticResult):
    """Outcome of a test: statistic, p-value, degrees of freedom, and the decision at level ``alpha``.

    ``distribution`` names the null distribution of ``statistic`` ("t", "chi2", "F", "binom", ...);
    :func:`evallib.plots.plot_null_distribution` draws it with the critical region.
    """

    test: str
    statistic: float
    pvalue: float
    df: object
    alpha: float
    critical_value: float
    reject: bool
    distribution: str = field(default="", repr=False)


@dataclass(frozen=True, repr=False)
class BinomialTestResult(TestResult):
    """Binomial test of H0: ε ≤ ε0. ``statistic`` is the test error rate ε̂ = n_errors / m and
    ``critical_value`` the critical error rate ε̄ = C / m; ``critical_count`` is C."""

    n_errors: int = 0
    m: int = 1
    eps0: float = 0.0
    critical_count: int = 0


@dataclass(frozen=True, repr=False)
class TTestResult(TestResult):
    """A t-test; ``mean`` and ``std`` are the mean and sample standard deviation (ddof=1) behind it."""

    mean: float = 0.0
    std: float = 0.0
    k: int = 0


@dataclass(frozen=True, repr=False)
class McNemarResult(TestResult):
    """McNemar's test on the discordant counts ``e01`` (A wrong, B right) and ``e10`` (A right, B wrong)."""

    e01: int = 0
    e10: int = 0
    correction: bool = True
    exact: bool = False


@dataclass(frozen=True, repr=False)
class FriedmanResult(TestResult):
    """Friedman test (式(2.34)–(2.35)). ``statistic``/``pvalue``/``critical_value``/``reject`` are the
    F form τ_F (df = (k-1, (k-1)(N-1))); ``chi2`` and its p-value and critical value are the χ² form τ_χ²."""

    mean_ranks: np.ndarray = field(default=None)
    chi2: float = 0.0
    chi2_pvalue: float = 1.0
    chi2_df: int = 1
    chi2_critical_value: float = 0.0
    F: float = 0.0
    F_pvalue: float = 1.0
    n_datasets: int = 0
    n_algorithms: int = 0
    tie_correction: bool = False


@dataclass(frozen=True, repr=False)
class NemenyiResult(TestResult):
    """Nemenyi post-hoc test. ``statistic`` is the k×k matrix of |mean-rank differences|, ``pvalue`` the
    matrix of pairwise p-values, ``critical_value`` the critical difference CD, ``reject`` the k×k matrix
    of pairs that differ (|r_i - r_j| > CD). ``groups`` are the bars of a CD diagram."""

    mean_ranks: np.ndarray = field(default=None)
    names: tuple = ()
    cd: float = 0.0
    q_alpha: float = 0.0
    n_datasets: int = 0
    groups: tuple = ()

    @property
    def differ(self) -> np.ndarray:
        """k×k boolean matrix: True where two algorithms' mean ranks differ by more than CD."""
        return self.reject

    def significant_pairs(self) -> list[tuple[str, str]]:
        """The pairs (better, worse) whose mean ranks differ by more than CD, better = lower mean rank."""
        r = self.mean_ranks
        out = []
        for i, j in zip(*np.nonzero(np.triu(self.reject, 1))):
            a, b = (i, j) if r[i] <= r[j] else (j, i)
            out.append((self.names[a], self.names[b]))
        return sorted(out, key=lambda p: (r[self.names.index(p[0])], r[self.names.index(p[1])]))


# ----------------------------------------------------------------------------------------------------
# Beyond the book (notebook 13): Demšar 2006 and Benavoli et al. 2017
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class SignTestResult(TestResult):
    """Sign test over N data sets. ``wins``: data sets where A is better, ``losses``: where B is better,
    ``ties``: equal scores. Ties are split evenly between A and B and an odd one is dropped (Demšar 2006),
    so ``statistic`` = wins + ties // 2 out of ``n`` = wins + losses + 2 (ties // 2) ~ Binomial(n, 1/2)
    under H0. ``critical_value`` is the smallest count of wins (of either learner) that rejects, n + 1
    when none can."""

    wins: int = 0
    losses: int = 0
    ties: int = 0
    n: int = 0


@dataclass(frozen=True, repr=False)
class WilcoxonResult(TestResult):
    """Wilcoxon signed-rank test over N data sets (Demšar 2006 §3.1.3) on d = scores_b - scores_a.

    ``r_plus``/``r_minus``: rank sums of the positive/negative differences (zeros as ``zero_method``
    says); ``statistic`` T = min(R+, R-); ``z`` its normal approximation
    (T - n(n+1)/4) / sqrt(n(n+1)(2n+1)/24) with SciPy's tie correction; ``method`` how SciPy computed
    the p-value ("exact", "permutation" or "approx"). ``critical_value`` is the largest T that rejects
    by the exact distribution without ties (Demšar's table; -1: no T can, too few data sets), or the
    normal approximation's bound for n > 50; the decision itself is ``pvalue < alpha``."""

    r_plus: float = 0.0
    r_minus: float = 0.0
    n: int = 0
    n_zero: int = 0
    z: float = 0.0
    zero_method: str = "zsplit"
    method: str = ""


@dataclass(frozen=True, repr=False)
class HolmResult(Result):
    """Holm's step-down correction of m p-values: ``adjusted_pvalue`` (in the input order) and ``reject``
    (adjusted p <= alpha, as statsmodels decides)."""

    pvalue: np.ndarray
    adjusted_pvalue: np.ndarray
    reject: np.ndarray
    alpha: float


@dataclass(frozen=True, repr=False)
class PosthocResult(TestStatisticResult):
    """Each algorithm against a control after a Friedman test (Demšar 2006 §3.2.2). Arrays run over the
    other algorithms in column order: ``others`` (column indices), ``statistic`` (z; positive = ranks
    behind the control), ``pvalue`` (two-sided normal), ``adjusted_pvalue`` and ``reject``.
    ``critical_difference`` is the Bonferroni–Dunn CD = z_{α/(2(k-1))} sqrt(k(k+1)/(6N))."""

    test: str
    control: int
    others: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    adjusted_pvalue: np.ndarray
    reject: np.ndarray
    method: str
    alpha: float
    mean_ranks: np.ndarray = field(repr=False)
    names: tuple = field(default=(), repr=False)
    n_datasets: int = field(default=0, repr=False)
    critical_difference: float = field(default=0.0, repr=False)


@dataclass(frozen=True, repr=False)
class PairwiseWilcoxonResult(Result):
    """All pairs of k algorithms by Wilcoxon signed-rank tests, Holm-corrected (Benavoli, Corani &
    Mangili 2016; the CD diagrams of autorank and Ismail Fawaz et al.). ``pvalue``, ``adjusted_pvalue``
    and ``reject`` are k×k (diagonal: 1, 1, False); ``groups`` are the cliques a CD diagram joins by a bar:
    maximal runs in mean-rank order with no significant pair inside (names), ``cliques`` the same as
    column indices."""

    names: tuple
    mean_ranks: np.ndarray
    groups: tuple
    alpha: float
    pvalue: np.ndarray = field(repr=False)
    adjusted_pvalue: np.ndarray = field(repr=False)
    reject: np.ndarray = field(repr=False)
    cliques: tuple = field(default=(), repr=False)

    def significant_pairs(self) -> list[tuple[str, str]]:
        """The pairs (better, worse) that differ after Holm's correction, better = lower mean rank."""
        r = self.mean_ranks
        out = []
        for i, j in zip(*np.nonzero(np.triu(self.reject, 1))):
            a, b = (i, j) if r[i] <= r[j] else (j, i)
            out.append((self.names[a], self.names[b]))
        return sorted(out, key=lambda p: (r[self.names.index(p[0])], r[self.names.index(p[1])]))


@dataclass(frozen=True, repr=False)
class CorrelatedTTestResult(Result):
    """Posterior of the mean difference d = scores_b - scores_a on one data set (Corani & Benavoli 2015):
    Student t with ``df`` degrees of freedom, location ``mean`` and scale ``scale``. ``p_left`` = P(d < -rope),
    ``p_rope`` = P(|d| <= rope), ``p_right`` = P(d > rope)."""

    p_left: float
    p_rope: float
    p_right: float
    rope: float
    rho: float
    mean: float = field(repr=False)
    scale: float = field(repr=False)
    df: int = field(repr=False)

    @property
    def probs(self) -> tuple[float, float, float]:
        """(p_left, p_rope, p_right)."""
        return self.p_left, self.p_rope, self.p_right


@dataclass(frozen=True, repr=False)
class SignedRankResult(Result):
    """Bayesian signed-rank test over N data sets (Benavoli et al. 2017), d = scores_b - scores_a.
    ``samples`` (n_samples, 3) are posterior draws of (θ_left, θ_rope, θ_right); ``p_left`` etc. are the
    fractions of draws in which that region is the most probable."""

    p_left: float
    p_rope: float
    p_right: float
    rope: float
    n: int
    n_samples: int
    prior: float = field(repr=False)
    samples: np.ndarray = field(repr=False)

    @property
    def probs(self) -> tuple[float, float, float]:
        """(p_left, p_rope, p_right)."""
        return self.p_left, self.p_rope, self.p_right
