"""Performance measures (性能度量): 西瓜书 §2.3, plus the regression and ranking measures of the notes.

Classification metrics take ``(y_true, y_pred)``; taught in ``notebooks/01_error_and_fitting.ipynb``
(error rate, accuracy) and ``notebooks/04_classification_metrics.ipynb`` (confusion matrix, P, R, F1,
F-beta, macro/micro averages). The cost-sensitive error rate (式(2.23)) is taught in
``notebooks/06_cost_sensitive.ipynb``; regression and ranking measures in
``notebooks/07_regression_ranking_metrics.ipynb``.

Conventions
-----------
* Binary labels: ``pos_label`` marks the positive class (正例); the other label is negative (反例).
* The confusion matrix uses the book's layout (表2.1): rows are the true class (+, -), columns the
  predicted class (+, -), i.e. ``[[TP, FN], [FP, TN]]``. scikit-learn's ``confusion_matrix`` sorts the
  labels, so for labels {0, 1} it gives ``[[TN, FP], [FN, TP]]``: the same numbers, mirrored.
* A ratio whose denominator is zero (precision with no predicted positive, recall with no true positive)
  raises ``ValueError`` unless ``zero_division`` gives the value to use: never a silent NaN.
"""

from __future__ import annotations

from .._validation import check_label_types as _same_label_kind  # noqa: F401  (evallib.plots.pitfalls)
from ._beyond import (  # noqa: F401
    CalibrationCurve,
    balanced_accuracy,
    brier_score,
    calibration_curve,
    log_loss,
    matthews_corrcoef,
    roc_auc_multiclass,
)
from ._checks import (  # noqa: F401
    _labels_pair,
)
from ._classification import (  # noqa: F401
    AveragedScores,
    _as_confusion_matrices,
    accuracy,
    confusion_matrix,
    cost_sensitive_error,
    error_rate,
    f1_score,
    fbeta_score,
    macro_average,
    micro_average,
    precision,
    recall,
)
from ._ranking import (  # noqa: F401
    average_precision,
    dcg,
    mean_average_precision,
    mrr,
    ndcg,
)
from ._regression import (  # noqa: F401
    mae,
    mape,
    mdape,
    mse,
    r2,
    rmse,
)

__all__ = [
    "error_rate",
    "accuracy",
    "confusion_matrix",
    "precision",
    "recall",
    "f1_score",
    "fbeta_score",
    "AveragedScores",
    "macro_average",
    "micro_average",
    "cost_sensitive_error",
    "mae",
    "mse",
    "rmse",
    "mape",
    "mdape",
    "r2",
    "average_precision",
    "mean_average_precision",
    "dcg",
    "ndcg",
    "mrr",
]
__all__ += [
    "balanced_accuracy",
    "matthews_corrcoef",
    "brier_score",
    "log_loss",
    "CalibrationCurve",
    "calibration_curve",
    "roc_auc_multiclass",
]
