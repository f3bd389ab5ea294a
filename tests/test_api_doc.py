"""docs/API.md is the one reference: its generated part lists every public name, and the names its hand-written
header (the contract) promises all exist."""

import inspect
from pathlib import Path

import evallib
from scripts import make_api_doc

ROOT = Path(__file__).resolve().parent.parent


def test_reference_is_up_to_date():
    assert (ROOT / "docs" / "API.md").read_text(encoding="utf-8") == make_api_doc.render(), (
        "docs/API.md is stale: run .venv/bin/python -m scripts.make_api_doc (the header above its marker is kept)"
    )


def test_header_is_kept_and_refers_to_nothing_outside_the_repository():
    head = make_api_doc.header()
    assert "## Conventions and error behaviour" in head and "ValueError" in head
    assert "../" not in head


CONTRACT = {
    "splits": ["HoldOut", "KFold", "LeaveOneOut", "Bootstrap"],
    "evaluation": ["evaluate"],
    "metrics": [
        "error_rate",
        "accuracy",
        "confusion_matrix",
        "precision",
        "recall",
        "f1_score",
        "fbeta_score",
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
    ],
    "curves": [
        "pr_curve",
        "break_even_point",
        "roc_curve",
        "auc",
        "roc_auc",
        "rank_loss",
        "cost_curve",
        "expected_total_cost",
    ],
    "compare": [
        "binomial_test",
        "ttest",
        "paired_ttest",
        "ttest_5x2cv",
        "corrected_resampled_ttest",
        "combined_ftest_5x2cv",
        "mcnemar_table",
        "mcnemar",
        "rank_matrix",
        "friedman",
        "q_alpha",
        "critical_difference",
        "nemenyi",
    ],
    "uncertainty": ["error_rate_interval", "roc_auc_interval", "delong_test", "bootstrap_632"],
    "biasvar": ["bias_variance"],
    "roofline": [
        "alexnet",
        "vgg16",
        "resnet18",
        "resnet50",
        "mobilenet_v1",
        "mobilenet_v2",
        "attainable",
        "ridge_point",
        "measure_machine",
    ],
    "plots": ["plot_cd_diagram"],
}


def test_contract_names_exist_and_are_documented():
    for module, names in CONTRACT.items():
        mod = getattr(evallib, module)
        for name in names:
            obj = getattr(mod, name, None)
            assert obj is not None, f"evallib.{module}.{name} is in the contract but missing"
            assert inspect.getdoc(obj), f"evallib.{module}.{name} has no docstring"
