"""Comparison tests (比较检验, 西瓜书 §2.4): is a measured difference in performance real?

Taught in ``notebooks/08_hypothesis_tests.ipynb`` (§2.4.1–2.4.3: binomial and t-tests, cross-validated
t-tests, 5×2cv, McNemar, and how often each test rejects a true null) and
``notebooks/09_friedman_nemenyi.ipynb`` (§2.4.4: Friedman and Nemenyi, CD diagrams). Beyond the book,
``notebooks/13_comparing_today.ipynb`` teaches Demšar's (2006) sign and Wilcoxon tests, Holm and
Bonferroni–Dunn against a control, Benavoli et al.'s (2017) Bayesian tests with a ROPE, and measures the
Type-I error and power of every test here (:func:`rejection_rates`).

Every test returns a frozen result object with at least ``statistic``, ``pvalue``, ``df`` (None where
no degrees of freedom apply), ``alpha``, ``critical_value`` and ``reject``. Every distribution and
quantile comes from SciPy: no table is copied by hand.

Decision rule everywhere: reject H0 at level ``alpha`` when the statistic falls in the critical region
(equivalently, when the p-value is below ``alpha``). Not rejecting is *not* evidence that H0 holds.
"""

from __future__ import annotations

from ._bayes import (  # noqa: F401
    bayesian_signed_rank,
    correlated_bayesian_ttest,
)
from ._book import (  # noqa: F401
    binomial_critical_count,
    binomial_test,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    mcnemar,
    mcnemar_table,
    paired_ttest,
    ttest,
    ttest_5x2cv,
)
from ._checks import (  # noqa: F401
    _check_real,
)
from ._demsar import (  # noqa: F401
    _default_names,
    cd_groups,
    critical_difference,
    friedman,
    holm,
    nemenyi,
    pairwise_wilcoxon_holm,
    posthoc_vs_control,
    q_alpha,
    rank_matrix,
    sign_test,
    wilcoxon,
)
from ._results import (  # noqa: F401
    BinomialTestResult,
    CorrelatedTTestResult,
    FriedmanResult,
    HolmResult,
    McNemarResult,
    NemenyiResult,
    PairwiseWilcoxonResult,
    PosthocResult,
    SignedRankResult,
    SignTestResult,
    TestResult,
    TTestResult,
    WilcoxonResult,
)
from ._simulate import (  # noqa: F401
    ALL_TESTS,
    NULL_TESTS,
    NullRejectionRates,
    RejectionRates,
    _null_pvalues,
    _null_trial,
    _stump_wrong,
    null_rejection_rates,
    rejection_rates,
)

__all__ = [
    "TestResult",
    "BinomialTestResult",
    "TTestResult",
    "McNemarResult",
    "FriedmanResult",
    "NemenyiResult",
    "binomial_test",
    "binomial_critical_count",
    "ttest",
    "paired_ttest",
    "ttest_5x2cv",
    "combined_ftest_5x2cv",
    "corrected_resampled_ttest",
    "mcnemar_table",
    "mcnemar",
    "rank_matrix",
    "friedman",
    "q_alpha",
    "critical_difference",
    "nemenyi",
    "cd_groups",
    "NULL_TESTS",
    "NullRejectionRates",
    "null_rejection_rates",
    # beyond the book (notebook 13): Demšar 2006, Benavoli et al. 2017
    "SignTestResult",
    "WilcoxonResult",
    "HolmResult",
    "PosthocResult",
    "PairwiseWilcoxonResult",
    "CorrelatedTTestResult",
    "SignedRankResult",
    "sign_test",
    "wilcoxon",
    "holm",
    "posthoc_vs_control",
    "pairwise_wilcoxon_holm",
    "correlated_bayesian_ttest",
    "bayesian_signed_rank",
    "ALL_TESTS",
    "RejectionRates",
    "rejection_rates",
]
