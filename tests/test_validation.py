"""evallib._validation: the messages name the argument and the problem."""

import inspect
import math
import numbers
import signal
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import evallib as el  # noqa: E402
from evallib._validation import (  # noqa: E402
    as_1d_array,
    as_finite_array,
    check_binary_labels,
    check_consistent_length,
    check_nonnegative,
    check_positive_int,
    check_probability,
    check_random_state,
)


def test_random_state_forms():
    assert isinstance(check_random_state(None), np.random.Generator)
    g = np.random.default_rng(1)
    assert check_random_state(g) is g
    assert check_random_state(5).random() == np.random.default_rng(5).random()
    assert isinstance(check_random_state(np.random.RandomState(0)), np.random.Generator)
    with pytest.raises(TypeError, match="random_state"):
        check_random_state(1.5)
    with pytest.raises(TypeError, match="random_state"):
        check_random_state(True)


@pytest.mark.parametrize(
    "value, match",
    [
        ([], "scores is empty"),
        ([[1, 2], [3, 4]], "scores must be 1-D"),
        ([[1], [2]], "ravel"),
        (None, "None"),
    ],
)
def test_as_1d_array(value, match):
    with pytest.raises(ValueError, match=match):
        as_1d_array(value, "scores")


def test_as_finite_array():
    np.testing.assert_array_equal(as_finite_array([1, 2], "x"), [1.0, 2.0])
    with pytest.raises(ValueError, match=r"x contains 1 non-finite value\(s\) \(NaN at flat index 1\)"):
        as_finite_array([1, np.nan], "x")
    with pytest.raises(ValueError, match="inf"):
        as_finite_array([np.inf], "x")
    with pytest.raises(ValueError, match="numeric"):
        as_finite_array(["a"], "x")
    with pytest.raises(ValueError, match="2-D"):
        as_finite_array([1.0], "X", ndim=2)


def test_binary_labels():
    np.testing.assert_array_equal(check_binary_labels([0, 1, 1]), [False, True, True])
    np.testing.assert_array_equal(check_binary_labels(["b", "g"], pos_label="g"), [False, True])
    with pytest.raises(ValueError, match="one class only"):
        check_binary_labels([1, 1])
    with pytest.raises(ValueError, match="binary"):
        check_binary_labels([0, 1, 2])
    with pytest.raises(ValueError, match="pos_label"):
        check_binary_labels([0, 2])
    assert check_binary_labels([1, 1], need_both=False).all()


def test_scalars():
    assert check_probability(0.05, "alpha") == 0.05
    with pytest.raises(ValueError, match=r"alpha must lie in \(0, 1\)"):
        check_probability(1.0, "alpha", low_open=True, high_open=True)
    with pytest.raises(ValueError, match="eps0"):
        check_probability(1.5, "eps0")
    with pytest.raises(TypeError, match="eps0"):
        check_probability("0.1", "eps0")
    assert check_positive_int(np.int64(3), "k") == 3
    with pytest.raises(ValueError, match="k must be >= 2"):
        check_positive_int(1, "k", minimum=2)
    with pytest.raises(TypeError, match="k"):
        check_positive_int(True, "k")
    with pytest.raises(ValueError, match="cost_fn"):
        check_nonnegative(-1, "cost_fn")
    with pytest.raises(ValueError, match="cost_fn"):
        check_nonnegative(float("nan"), "cost_fn")
    assert check_consistent_length(a=[1, 2], b=np.zeros(2)) == 2
    with pytest.raises(ValueError, match="a has 2, b has 3"):
        check_consistent_length(a=[1, 2], b=[1, 2, 3])


# =====================================================================================================
# The bad-input sweep over every public name (issue 13, part 4).
#
# Every name in the __all__ of every evallib module (plots and widgets included) needs a row in SWEEP
# (a valid call whose arguments the sweep spoils one at a time, plus explicit bad calls) or in EXEMPT
# (with the reason). A new public function without a row fails test_every_public_name_is_in_the_table.
# Each bad call must raise TypeError or ValueError whose message names the spoiled argument, within
# CALL_TIMEOUT seconds: never a silent result, a NaN/inf, a bare NumPy warning or a hang.
# =====================================================================================================

CALL_TIMEOUT = 10.0  # seconds; a call still running then is reported as a hang

MODULES = [
    el,
    el.style,
    el.data,
    el.splits,
    el.metrics,
    el.evaluation,
    el.fitting,
    el.curves,
    el.compare,
    el.uncertainty,
    el.biasvar,
    el.roofline,
    el.pitfalls,
    el.tuning,
    el.plots,
    el.widgets,
    el.grading,
    el.i18n,
]


def _public():
    names = {}
    for m in MODULES:
        short = m.__name__.replace("evallib.", "") if m is not el else ""
        for n in m.__all__:
            obj = getattr(m, n)
            if inspect.ismodule(obj):
                continue
            names[f"{short}.{n}" if short else n] = obj
    return names


PUBLIC = _public()


# ------------------------------------------------------------------------------- argument tags
class A:
    """A numeric 1-D array argument: spoiled as empty, NaN, inf, 2-D, strings."""

    def __init__(self, v):
        self.v = v


class A2(A):
    """A numeric 2-D array argument: spoiled as empty, NaN, inf, 1-D... (not 2-D), strings."""


class L(A):
    """A label argument: spoiled as empty, 2-D, mixed label types, NaN; for functions with a pos_label,
    labels {1, 2} without one."""


class P(A):
    """Probabilities/rates in [0, 1]: also spoiled with values outside [0, 1]."""


class O:
    """An object argument (a result, a model, a dataset): spoiled with a string."""

    def __init__(self, v):
        self.v = v


def _raw(v):
    return v.v if isinstance(v, (A, O)) else v


FREE_TEXT = {
    "xlabel",
    "ylabel",
    "title",
    "label",
    "description",
    "name",
    "readout_format",
    "kind_label",
    "test",
    "distribution",
    "color",
    "colors",
    "lang",
    "context",
    "text",
    "row_name",
    "col_name",
    "note",
    "source",
    "detail",
    "template",
    "message",
}  # a msgid: any text is valid (unknown ones come back as given)
# A threshold of +inf predicts nothing positive: where the book's ROC curve starts (tests/test_curves.py checks it)
INF_IS_MEANINGFUL = {("threshold_summary", "threshold")}
# Elementwise in their array argument: a 2-D array is a grid of inputs, not a mistake (exercise set 11's hidden test
# grades a student's attainable on a 2-D array against the library's)
ANY_SHAPE = {("attainable", "intensity")}
NO_AUTO = {
    "ax",
    "_figure",
    "names",
    "labels",
    "target",
    "model",
    "metric",
    "devices",
    "convention",
    "cases",
    "compute",
    "reference",
    "func",
    "check",
    "mistakes",
    "explanations",
    "keywords",
    "options",
    "holder",
    "random_state",
    "seed",
    "floor",
    "mark",
    "markers",
    "ideal",
    "ylim",
    "intensity_range",
    "ceilings",
    "layers",
    "points",
    "models",
    "x_test",
    "groups",
    "simulated",
    "n_jobs",
    "stratify",
    "shuffle",
}


def _mutations(func, base_args, base_kwargs):
    """(argument name, bad value) pairs derived from the valid call and the signature's defaults."""
    sig = inspect.signature(func)
    bound = sig.bind_partial(*base_args, **base_kwargs)
    out = []
    for pname, param in sig.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or pname in NO_AUTO:
            continue
        given = pname in bound.arguments
        v = bound.arguments[pname] if given else param.default
        if isinstance(v, A2):
            arr = np.asarray(v.v, float)
            out += [
                (pname, np.empty((0, arr.shape[1]))),
                (pname, np.where(np.arange(arr.size).reshape(arr.shape) == 0, np.nan, arr)),
                (pname, np.full(arr.shape, np.inf)),
                (pname, arr.ravel()),
                (pname, arr.astype(str)),
            ]
        elif isinstance(v, L):
            y = list(v.v)
            out += [(pname, []), (pname, [y]), (pname, [str(y[0])] + y[1:]), (pname, [np.nan] + y[1:])]
            if "pos_label" in sig.parameters and "pos_label" not in bound.arguments and set(y) <= {0, 1}:
                out.append(("pos_label", [t + 1 for t in y]))
        elif isinstance(v, A):
            arr = np.asarray(v.v, float)
            out += [
                (pname, []),
                (pname, np.r_[np.nan, arr[1:]]),
                (pname, np.r_[arr[:-1], np.inf]),
                (pname, arr.astype(str)),
            ]
            if (getattr(func, "__name__", ""), pname) not in ANY_SHAPE:
                out.append((pname, np.vstack([arr, arr])))
            if isinstance(v, P):
                out += [(pname, np.r_[arr[:-1], 1.5]), (pname, np.r_[-0.5, arr[1:]])]
        elif isinstance(v, O):
            out.append((pname, "not-an-object"))
        elif isinstance(v, bool):
            out.append((pname, "no"))
        elif isinstance(v, int):
            out += [(pname, True), (pname, 2.5), (pname, "3"), (pname, -1)]
        elif isinstance(v, float):
            out += [(pname, "0.5"), (pname, True), (pname, math.nan)]
            if (getattr(func, "__name__", ""), pname) not in INF_IS_MEANINGFUL:
                out.append((pname, math.inf))
        elif isinstance(v, str) and pname not in FREE_TEXT:
            out += [(pname, "no-such-option"), (pname, 3)]
    return out


def _call(func, base_args, base_kwargs, spoil=None, literal=False):
    sig = inspect.signature(func)
    bound = sig.bind_partial(*base_args, **base_kwargs)
    args = {k: _raw(v) for k, v in bound.arguments.items()}
    if spoil is not None:
        name, value = spoil
        # the label spoiling {0,1} -> {1,2} goes to the label argument, the error must name pos_label
        if name == "pos_label" and isinstance(value, list) and not literal:
            lab = next(k for k, v in bound.arguments.items() if isinstance(v, L))
            args[lab] = value
        else:
            args[name] = value
    pos, kw = [], {}
    for k, v in args.items():
        kind = sig.parameters[k].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            pos.extend(v)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            kw.update(v)
        elif kind is inspect.Parameter.POSITIONAL_ONLY:
            pos.append(v)
        else:
            kw[k] = v
    return func(*pos, **kw)


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def _expect_error(label, thunk, match):
    """Run thunk under a time limit; it must raise TypeError/ValueError naming ``match``."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CALL_TIMEOUT)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            result = thunk()
    except _Hang:
        pytest.fail(f"{label}: no answer within {CALL_TIMEOUT} s (a hang, or bad input accepted and computed)")
    except (TypeError, ValueError) as exc:
        assert re.search(match, str(exc)), f"{label}: the message does not name {match!r}: {exc}"
        return
    except Warning as w:
        pytest.fail(f"{label}: a bare warning instead of an error naming {match!r}: {type(w).__name__}: {w}")
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"{label}: {type(exc).__name__} instead of a TypeError/ValueError naming {match!r}: {exc}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        plt.close("all")
    pytest.fail(f"{label}: accepted, returned {result!r:.120}")


import re  # noqa: E402

# ------------------------------------------------------------------------------- fixtures
Y = [0, 1, 1, 0, 1, 0, 1, 0, 1, 0]
YP = [0, 1, 0, 0, 1, 1, 1, 0, 1, 0]
YB = [1, 0, 1, 0, 0, 1, 1, 0, 1, 1]
S = [0.1, 0.9, 0.8, 0.3, 0.7, 0.4, 0.6, 0.2, 0.65, 0.35]
S2 = [0.2, 0.8, 0.7, 0.1, 0.9, 0.5, 0.3, 0.4, 0.6, 0.45]
X2 = np.column_stack([np.linspace(0, 1, 10), np.linspace(1, 2, 10) ** 2])
RT, RP = [1.0, 2.0, 3.0, 4.0], [1.1, 2.0, 2.9, 4.2]
SC = np.array([[0.1, 0.2, 0.3], [0.2, 0.25, 0.4], [0.15, 0.3, 0.2], [0.3, 0.35, 0.5], [0.1, 0.4, 0.3], [0.2, 0.1, 0.4]])
EA = [0.10, 0.12, 0.08, 0.11, 0.09, 0.13, 0.10, 0.12, 0.07, 0.10]
EB = [0.12, 0.15, 0.09, 0.10, 0.12, 0.14, 0.13, 0.11, 0.09, 0.14]


def _model():
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(max_depth=2, random_state=0)


XC = np.column_stack([np.arange(20.0), (np.arange(20) % 3).astype(float)])
YC = np.array([0, 1] * 10)
NEM = el.compare.nemenyi(SC)
FRI = el.compare.friedman(SC)
TT = el.compare.paired_ttest(EA, EB)
CV = el.evaluation.cross_validation(_model(), XC, YC, n_splits=2, random_state=0)
EXP = el.fitting.polynomial_experiment(12, max_degree=5, n_test=50, n_grid=20, random_state=0)
COSTC = el.curves.cost_curve(Y, S)
CBT = el.compare.correlated_bayesian_ttest(EA, EB, rho=0.1, rope=0.01)
BSR = el.compare.bayesian_signed_rank(EA, EB, rope=0.01, n_samples=200, random_state=0)
STUDY = el.pitfalls.selection_leakage(np.random.default_rng(0).normal(size=(20, 30)), YC, [2, 5], n_splits=2)
POLY = el.fitting.PolynomialRegression(2)
BV = el.biasvar.bias_variance(POLY, np.sin, noise_std=0.3, n_train=10, n_datasets=5, random_state=0)
BVC = el.biasvar.bias_variance_curve(
    el.fitting.PolynomialRegression(1),
    "degree",
    [1, 2],
    np.sin,
    noise_std=0.3,
    n_train=10,
    n_datasets=5,
    random_state=0,
)
LC = el.biasvar.learning_curve(_model(), XC, YC, [5, 10], el.splits.KFold(2, random_state=0))
VGG = el.roofline.get_model("VGG16")
CONV = el.roofline.conv2d((3, 32, 32), 8, 3)
INT = el.uncertainty.error_rate_interval(3, 30)
NULL_RATES = el.compare.null_rejection_rates(4, n_samples=40, n_resamples=3, n_folds=2, random_state=0)
ZERO_ONE = el.biasvar.bias_variance_01(_model(), lambda x: np.clip(x, 0, 1), n_train=10, n_datasets=5, random_state=0)

SWEEP = {}  # public name -> (args, kwargs) of a valid call; the sweep spoils one argument at a time
EXTRA = []  # (public name, label, thunk, match): explicit bad calls


def row(name, *args, **kwargs):
    assert name not in SWEEP, name
    SWEEP[name] = (args, kwargs)


def bad(name, label, thunk, match):
    EXTRA.append((name, label, thunk, match))


EXEMPT = {}
for _n, _o in PUBLIC.items():
    if not callable(_o):
        EXEMPT[_n] = "a constant (data, not a function)"
    elif inspect.isclass(_o) and hasattr(_o, "__dataclass_fields__") and _o.__dataclass_params__.frozen:
        EXEMPT[_n] = "a frozen result object the library builds (its fields are checked where it is built)"

# style, i18n
row("setup_notebook", seed=0, precision=4, lang="en")
bad("setup_notebook", "seed=-1", lambda: el.setup_notebook(seed=-1), "seed")
bad("setup_notebook", "lang='xx'", lambda: el.setup_notebook(lang="xx"), "lang|language")
row("style.setup_notebook", seed=0)
row("style.presentation")
EXEMPT["style.presentation"] = "takes no argument"
del SWEEP["style.presentation"]
row("style.new_figure", 1, 1, width=4.0, height=3.0)
row("i18n.set_language", "en")
bad("i18n.set_language", "code='xx'", lambda: el.i18n.set_language("xx"), "code|language")
bad("i18n.set_language", "code=3 (int)", lambda: el.i18n.set_language(3), "code|language")
row("i18n.language", "en")
bad("i18n.language", "code='xx'", lambda: el.i18n.language("xx").__enter__(), "code|language")
for _n in ("i18n.get_language", "i18n.cjk_font"):
    EXEMPT[_n] = "takes no argument"
row("i18n.ui", "text")
bad("i18n.ui", "text=3", lambda: el.i18n.ui(3), "text")
row("i18n.say", "noise")
bad("i18n.say", "template=3", lambda: el.i18n.say(3), "template")
bad("i18n.say", "missing field", lambda: el.i18n.say("degree {d}"), "d")
row("i18n.translate", "text")
bad("i18n.translate", "text=3", lambda: el.i18n.translate(3), "text")

# data
for _n in ("data.load_watermelon", "data.load_ten_melons", "data.load_tumour_scores"):
    EXEMPT[_n] = "takes no argument"
row("data.Dataset", A2(X2), L(Y), ("a", "b"), ("no", "yes"))
row("data.make_sine", 30, noise_std=0.3, x_range=(0.0, 1.0), random_state=0)
bad("data.make_sine", "x_range reversed", lambda: el.data.make_sine(x_range=(1.0, 0.0)), "x_range")
row("data.make_majority_trap", 100)
row("data.load_bundled", "iris")
bad("data.load_bundled", "name='nope'", lambda: el.data.load_bundled("nope"), "name")
row("data.load_tumours", weak_features=False)

# splits
row("splits.HoldOut", 0.3, n_repeats=1, stratify=True, random_state=0)
bad("splits.HoldOut", "test_size=1.5", lambda: el.splits.HoldOut(1.5), "test_size")
row("splits.KFold", 10, n_repeats=1, stratify=True, shuffle=True, random_state=0)
bad("splits.KFold", "n_splits=1", lambda: el.splits.KFold(1), "n_splits")
bad("splits.KFold", "random_state=-1", lambda: el.splits.KFold(2, random_state=-1), "random_state")
row("splits.Bootstrap", 1, random_state=0)
EXEMPT["splits.LeaveOneOut"] = "takes no argument (split() is checked in tests/test_splits.py)"
row("splits.out_of_bag_fraction", 10)
# m beyond a double (10**400) is not bad input: the limit 1/e is the answer to double precision
# (tests/test_splits.py::test_out_of_bag_fraction_for_huge_m)
row("splits.simulate_oob_fraction", 10, 20, random_state=0)

# metrics
for _n in ("error_rate", "accuracy", "balanced_accuracy"):
    row(f"metrics.{_n}", L(Y), L(YP))
for _n in ("confusion_matrix",):
    row(f"metrics.{_n}", L(Y), L(YP))
for _n in ("precision", "recall", "f1_score"):
    row(f"metrics.{_n}", L(Y), L(YP), zero_division="raise")
row("metrics.fbeta_score", L(Y), L(YP), 2.0)
bad("metrics.fbeta_score", "beta=1e308", lambda: el.metrics.fbeta_score(Y, YP, beta=1e308), "beta")
bad("metrics.accuracy", "labels '1'/1", lambda: el.metrics.accuracy(["1", "0"], [1, 0]), "type")
bad("metrics.error_rate", "labels '1'/1", lambda: el.metrics.error_rate(["1", "0"], [1, 0]), "type")
bad("metrics.precision", "object labels", lambda: el.metrics.precision(np.array([None, 1], object), [0, 1]), "y_true")
row("metrics.macro_average", [[[3, 1], [2, 4]], [[2, 2], [1, 5]]])
bad(
    "metrics.macro_average",
    "negative counts",
    lambda: el.metrics.macro_average([[[3, -1], [2, 4]]]),
    "confusion_matrices",
)
bad(
    "metrics.macro_average",
    "float counts",
    lambda: el.metrics.macro_average([[[3.5, 1], [2, 4]]]),
    "confusion_matrices",
)
row("metrics.micro_average", [[[3, 1], [2, 4]], [[2, 2], [1, 5]]])
bad(
    "metrics.micro_average",
    "negative counts",
    lambda: el.metrics.micro_average([[[3, -1], [2, 4]]]),
    "confusion_matrices",
)
row("metrics.cost_sensitive_error", L(Y), L(YP), cost_fn=2.0, cost_fp=1.0)
bad(
    "metrics.cost_sensitive_error",
    "cost_fn=-1",
    lambda: el.metrics.cost_sensitive_error(Y, YP, cost_fn=-1.0, cost_fp=1.0),
    "cost_fn",
)
for _n in ("mae", "mse", "rmse", "mape", "mdape", "r2"):
    row(f"metrics.{_n}", A(RT), A(RP))
    bad(f"metrics.{_n}", "overflow", lambda f=getattr(el.metrics, _n): f([1e308, 1, 3], [-1e308, 1, 2]), "y_true")
row("metrics.average_precision", [1, 3, 4], 5)
bad("metrics.average_precision", "rank 0", lambda: el.metrics.average_precision([0, 3], 5), "relevant_ranks")
bad("metrics.average_precision", "n_relevant=True", lambda: el.metrics.average_precision([1, 3], True), "n_relevant")
row("metrics.mean_average_precision", [[1, 3], [2]], [3, 1])
bad("metrics.mean_average_precision", "[]", lambda: el.metrics.mean_average_precision([], []), "list_of")
row("metrics.dcg", A([3.0, 2.0, 3.0, 0.0, 1.0]), 3, gain="exponential")
row("metrics.ndcg", A([3.0, 2.0, 3.0, 0.0, 1.0]), 3, gain="exponential")
bad("metrics.dcg", "relevance 2000 overflows 2^r", lambda: el.metrics.dcg([2000.0, 1.0]), "relevances")
row("metrics.mrr", [1, 3, 2])
bad("metrics.mrr", "rank 0", lambda: el.metrics.mrr([0, 1]), "first_relevant_ranks")
bad("metrics.mrr", "rank 1.5", lambda: el.metrics.mrr([1.5, 1]), "first_relevant_ranks")
row("metrics.matthews_corrcoef", L(Y), L(YP), zero_division="raise")
row("metrics.brier_score", L(Y), P(S))
row("metrics.log_loss", L(Y), P(S))
row("metrics.calibration_curve", L(Y), P(S), n_bins=5, strategy="uniform")
row(
    "metrics.roc_auc_multiclass",
    [0, 1, 2, 0, 1, 2],
    [[0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1], [0.3, 0.4, 0.3], [0.2, 0.2, 0.6]],
    method="ovr",
)
bad(
    "metrics.roc_auc_multiclass",
    "rows not summing to 1",
    lambda: el.metrics.roc_auc_multiclass([0, 1, 2], [[0.9, 0.9, 0.9], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]]),
    "proba",
)

# evaluation
row("evaluation.evaluate", O(_model()), XC, L(YC), el.splits.KFold(2, random_state=0), response="predict")
bad("evaluation.evaluate", "X=None", lambda: el.evaluation.evaluate(_model(), None, YC, el.splits.KFold(2)), "X")
bad(
    "evaluation.evaluate", "metric=3", lambda: el.evaluation.evaluate(_model(), XC, YC, el.splits.KFold(2), 3), "metric"
)
row("evaluation.cross_validation", O(_model()), XC, L(YC), n_splits=2, n_repeats=1, random_state=0)
row("evaluation.score_table", {"tree": _model()}, {"d": (XC, YC)}, el.splits.KFold(2, random_state=0))
bad(
    "evaluation.score_table",
    "learners=[]",
    lambda: el.evaluation.score_table({}, {"d": (XC, YC)}, el.splits.KFold(2)),
    "learners",
)
bad(
    "evaluation.score_table",
    "datasets=3",
    lambda: el.evaluation.score_table({"t": _model()}, 3, el.splits.KFold(2)),
    "datasets",
)
row("evaluation.complexity_curve", O(_model()), "max_depth", [1, 2], XC, L(YC), el.splits.KFold(2, random_state=0))
bad(
    "evaluation.complexity_curve",
    "param_name unknown",
    lambda: el.evaluation.complexity_curve(_model(), "no_such", [1], XC, YC, el.splits.KFold(2)),
    "no_such|param_name",
)

# fitting
row("fitting.polynomial_design", A([0.1, 0.5, 0.9]), 3, (0.0, 1.0))
bad(
    "fitting.polynomial_design", "domain reversed", lambda: el.fitting.polynomial_design([0.1], 2, (1.0, 0.0)), "domain"
)
row("fitting.PolynomialRegression", 3)
row("fitting.polynomial_experiment", 20, noise_std=0.25, max_degree=15, n_test=100, n_grid=50, random_state=0)

# curves
for _n in ("roc_curve", "pr_curve", "break_even_point", "roc_auc", "rank_loss", "cost_curve", "expected_total_cost"):
    row(f"curves.{_n}", L(Y), A(S))
bad("curves.roc_auc", "labels {1, 2}", lambda: el.curves.roc_auc([1, 2, 1, 2], [0.1, 0.9, 0.2, 0.8]), "pos_label")
row("curves.auc", A([0.0, 0.5, 1.0]), A([0.0, 0.8, 1.0]))
row("curves.probability_cost", 0.5, 2.0, 1.0)
bad("curves.probability_cost", "cost_fn=-1", lambda: el.curves.probability_cost(0.5, -1.0, 1.0), "cost_fn")
row("curves.normalized_cost", P([0.2, 0.4]), P([0.3, 0.1]), 0.5, 2.0, 1.0)
bad("curves.normalized_cost", "'0.2', True", lambda: el.curves.normalized_cost("0.2", True, 0.5, 1.0, 1.0), "fpr|fnr")
row("curves.cost_operating_point", O(COSTC), p=0.5, cost_fn=2.0, cost_fp=1.0)
row("curves.threshold_summary", L(Y), A(S), 0.5)
bad("curves.threshold_summary", "threshold=nan", lambda: el.curves.threshold_summary(Y, S, math.nan), "threshold")

# compare
row("compare.binomial_test", 3, 30, 0.3, 0.05)
row("compare.binomial_critical_count", 30, 0.3, 0.05)
bad("compare.binomial_test", "n_errors > m", lambda: el.compare.binomial_test(31, 30, 0.3), "n_errors")
row("compare.ttest", A(EA), 0.1, 0.05)
row("compare.paired_ttest", A(EA), A(EB), 0.05)
row("compare.ttest_5x2cv", A2([[0.01, 0.02]] * 5), 0.05, variant="book")
row("compare.combined_ftest_5x2cv", A2([[0.01, 0.02], [0.0, 0.03], [0.02, 0.01], [0.01, 0.0], [0.03, 0.02]]), 0.05)
row("compare.corrected_resampled_ttest", A(EA), A(EB), test_train_ratio=0.25, alpha=0.05)
row("compare.mcnemar_table", L(Y), L(YP), L(YB))
bad("compare.mcnemar_table", "labels '1'/1", lambda: el.compare.mcnemar_table(["1", "0"], [1, 0], [1, 0]), "type")
row("compare.mcnemar", [[10, 4], [2, 8]], correction=True, exact=False, alpha=0.05)
bad("compare.mcnemar", "negative count", lambda: el.compare.mcnemar([[10, -4], [2, 8]]), "table")
bad("compare.mcnemar", "float count", lambda: el.compare.mcnemar([[10, 4.5], [2, 8]]), "table")
row("compare.rank_matrix", A2(SC), lower_is_better=True)
row("compare.friedman", A2(SC), lower_is_better=True, alpha=0.05, tie_correction=False)
row("compare.q_alpha", 3, 0.05)
row("compare.critical_difference", 3, 6, 0.05)
row("compare.nemenyi", A2(SC), lower_is_better=True, alpha=0.05)
row("compare.cd_groups", A([1.2, 2.0, 2.8]), 1.0)
bad(
    "compare.cd_groups",
    "mean_ranks outside [1, k]",
    lambda: el.compare.cd_groups([-1e308, 1e308, 2.0], 1.0),
    "mean_ranks",
)
row(
    "compare.null_rejection_rates",
    4,
    n_samples=40,
    separation=1.0,
    alpha=0.05,
    n_resamples=3,
    n_folds=2,
    random_state=0,
)
row("compare.sign_test", A(EA), A(EB), alpha=0.05, lower_is_better=True)
row("compare.wilcoxon", A(EA), A(EB), alpha=0.05, zero_method="zsplit", method="auto")
row("compare.holm", P([0.01, 0.04, 0.3]), alpha=0.05)
row("compare.posthoc_vs_control", A2(SC), 0, method="holm", lower_is_better=True, alpha=0.05)
row("compare.pairwise_wilcoxon_holm", A2(SC), lower_is_better=True, alpha=0.05)
row("compare.correlated_bayesian_ttest", A(EA), A(EB), rho=0.1, rope=0.01)
row("compare.bayesian_signed_rank", A(EA), A(EB), rope=0.01, n_samples=200, random_state=0, prior=1.0)
row(
    "compare.rejection_rates",
    5,
    difference=0.0,
    n_datasets=5,
    n_samples=40,
    separation=1.0,
    alpha=0.05,
    n_resamples=3,
    n_folds=2,
    bayes_samples=200,
    random_state=0,
)

# uncertainty
row("uncertainty.error_rate_interval", 3, 30, confidence=0.95, method="wilson")
row("uncertainty.interval_coverage", 30, 0.1, confidence=0.95, method="wilson", n_trials=100, random_state=0)
row("uncertainty.coverage_curve", 30, P([0.1, 0.2]), confidence=0.95, method="wilson")
row("uncertainty.kfold_mean_interval", A(EA), confidence=0.95, test_train_ratio=0.0)
row("uncertainty.structural_components", L(Y), A(S))
row("uncertainty.roc_auc_interval", L(Y), A(S), confidence=0.95)
row("uncertainty.delong_test", L(Y), A(S), A(S2), alpha=0.05)
row("uncertainty.bootstrap_632", O(_model()), XC, L(YC), n_repeats=5, method=".632+", random_state=0)
row(
    "uncertainty.bootstrap_interval",
    O(el.metrics.accuracy),
    L(Y),
    L(YP),
    confidence=0.95,
    method="BCa",
    n_resamples=50,
    random_state=0,
)

# biasvar
row(
    "biasvar.bias_variance",
    O(POLY),
    O(np.sin),
    noise_std=0.3,
    n_train=10,
    n_datasets=5,
    x_range=(0, 1),
    random_state=0,
    method="auto",
)
row(
    "biasvar.bias_variance_curve",
    O(el.fitting.PolynomialRegression(1)),
    "degree",
    [1, 2],
    O(np.sin),
    noise_std=0.3,
    n_train=10,
    n_datasets=5,
    random_state=0,
)
row("evaluation.learning_curve", O(_model()), XC, L(YC), [5, 10], el.splits.KFold(2, random_state=0))
bad(
    "evaluation.learning_curve",
    "train_sizes=[2.0]",
    lambda: el.biasvar.learning_curve(_model(), XC, YC, [2.0], el.splits.KFold(2)),
    "train_sizes",
)
row("biasvar.bias_variance_01", O(_model()), O(lambda x: np.clip(x, 0, 1)), n_train=10, n_datasets=5, random_state=0)
row("evaluation.expected_best_accuracy", 5, 100, 0.8)

# roofline
row("roofline.Convention", 2, "conv_linear", "float32", 1, False)
row("roofline.dtype_bytes", "float32")
row("roofline.conv2d", (3, 32, 32), 8, 3, 1, 0, groups=1, dilation=1, bias=True)
row("roofline.depthwise_conv2d", (8, 32, 32), 3, 1, 0, bias=False)
row("roofline.linear", 16, 8, bias=True)
row("roofline.maxpool2d", (8, 32, 32), 2, None, 0, ceil_mode=False)
row("roofline.avgpool2d", (8, 32, 32), 2, None, 0, ceil_mode=False)
row("roofline.adaptive_avgpool2d", (8, 32, 32), 1)
row("roofline.batchnorm2d", (8, 32, 32))
row("roofline.activation", (8, 32, 32), "relu")
row("roofline.residual_add", (8, 32, 32))
row("roofline.flatten", (8, 4, 4))
bad("roofline.flatten", "in_shape=(-1, 2)", lambda: el.roofline.flatten((-1, 2)), "in_shape")
row("roofline.sequential", "net", [CONV], input_shape=(3, 32, 32))
bad("roofline.sequential", "layers=[3]", lambda: el.roofline.sequential("net", [3]), "layers")
for _n in ("alexnet", "vgg16", "resnet18", "mobilenet_v1", "mobilenet_v2"):
    row(f"roofline.{_n}")
    bad(f"roofline.{_n}", "convention=3", lambda f=getattr(el.roofline, _n): f(3), "convention")
row("roofline.resnet50", version="1.5")
row("roofline.get_model", "VGG16")
bad("roofline.get_model", "name='nope'", lambda: el.roofline.get_model("nope"), "name")
bad("roofline.batchnorm2d", "in_shape=(8, -1, 32)", lambda: el.roofline.batchnorm2d((8, -1, 32)), "in_shape")
bad("roofline.residual_add", "in_shape=(8, 2.5, 32)", lambda: el.roofline.residual_add((8, 2.5, 32)), "in_shape")
row("roofline.attainable", A([1.0, 10.0]), 1e12, 1e11)
row("roofline.ridge_point", 1e12, 1e11)
row("roofline.time_bound", 1e9, 1e8, 1e12, 1e11)
row("roofline.analyze", O(VGG), 1e12, 1e11)
row("roofline.separable_cost_ratio", 64, 3)
row("roofline.get_device", "GTX 1080 Ti")
bad("roofline.get_device", "name=3", lambda: el.roofline.get_device(3), "name")
row("roofline.Device", "dev", {"float32": 1e12}, 1e11, "here")
bad("roofline.Device", "note=3", lambda: el.roofline.Device("d", {"float32": 1e12}, 1e11, "x", 3), "note")
bad("roofline.Device", "source=3", lambda: el.roofline.Device("d", {"float32": 1e12}, 1e11, 3), "source")
bad("roofline.Layer", "detail=3", lambda: el.roofline.Layer("l", "conv", (3, 8, 8), (8, 8, 8), 1, 1, 1, 3), "detail")
bad("roofline.Device", "bandwidth=-1", lambda: el.roofline.Device("d", {"float32": 1e12}, -1.0, "x"), "bandwidth")
row("roofline.measure_machine", 1, matmul_size=64, stream_mib=1)
MEASURED = el.roofline.MachineMeasurement(1e11, 1e10, 1, 64, 2**20, (1e-3,), (1e-3,), 1, "blas", {}, "cpu")
row("roofline.machine_device", O(MEASURED), "this machine")
bad("roofline.machine_device", "measurement=3", lambda: el.roofline.machine_device(3), "measurement")
row("roofline.measure_kernels", None, repeats=1, min_time=0.001)
row("roofline.Layer", "l", "conv", (3, 8, 8), (8, 8, 8), 10, 100, 200)
bad(
    "roofline.Layer",
    "params=-1 (negative)",
    lambda: el.roofline.Layer("l", "conv", (3, 8, 8), (8, 8, 8), -1, 100, 200),
    "params",
)
row("roofline.Model", "m", (CONV,), (3, 32, 32))
bad("roofline.Model", "layers=(3,)", lambda: el.roofline.Model("m", (3,), (3, 32, 32)), "layers")

# pitfalls
row(
    "pitfalls.selection_leakage",
    A2(np.random.default_rng(0).normal(size=(20, 30))),
    L(YC),
    [2, 5],
    n_splits=2,
    n_repeats=1,
    random_state=0,
)
row("pitfalls.distort_probabilities", P(S), slope=1.0, shift=0.0)

# tuning
row("tuning.make_coin_flips", 20, 3, random_state=0)
row(
    "tuning.nested_tuning",
    O(_model()),
    {"max_depth": [1, 2]},
    XC,
    YC,
    inner_cv=el.splits.KFold(2, random_state=0),
    outer_cv=el.splits.KFold(2, random_state=1),
)
bad(
    "tuning.nested_tuning",
    "param_grid={}",
    lambda: el.tuning.nested_tuning(_model(), {}, XC, YC, inner_cv=2, outer_cv=2),
    "param_grid",
)
row("tuning.coin_flip_tuning", random_state=1)
bad("tuning.coin_flip_tuning", "random_state=-1", lambda: el.tuning.coin_flip_tuning(random_state=-1), "random_state")

# plots
row("plots.get_ax", None)
bad("plots.get_ax", "ax=3", lambda: el.plots.get_ax(3), "ax")
row("plots.plot_watermelon", None, annotate=True)
bad("plots.plot_watermelon", "data=3", lambda: el.plots.plot_watermelon(3), "data")
row("plots.plot_polynomial_fit", O(EXP), 3, ylim=(-2.0, 2.0))
row("plots.plot_train_test_curve", A([1.0, 2.0, 3.0]), A([0.3, 0.2, 0.1]), A([0.35, 0.3, 0.4]), logy=False)
row("plots.plot_splits", el.splits.KFold(2, random_state=0), XC, L(YC), max_splits=12)
row("plots.plot_estimate_spread", A([0.1, 0.5]), A2([[0.1, 0.2], [0.15, 0.3]]))
row("plots.plot_oob_fraction", A([2.0, 10.0, 100.0]))
row("plots.plot_cv_repeats", O(CV))
row("plots.plot_roc", L(Y), A(S), chance=True)
row("plots.plot_pr", L(Y), A(S), bep=True)
row("plots.plot_cost_curves", L(Y), A(S), lines=True)
row("plots.plot_confusion_matrix", [[3, 1], [2, 4]], normalize=False)
bad("plots.plot_confusion_matrix", "negative count", lambda: el.plots.plot_confusion_matrix([[3, -1], [2, 4]]), "cm")
row("plots.plot_binomial_test", 30, 0.3, 0.05, 5)
row("plots.plot_null_distribution", O(TT))
row("plots.plot_cd_diagram", mean_ranks=A([1.2, 2.0, 2.8]), cd=1.0)
bad(
    "plots.plot_cd_diagram",
    "mean ranks outside [1, k]",
    lambda: el.plots.plot_cd_diagram(mean_ranks=[-1e308, 1e308, 3.2, 3.3], cd=1.0),
    "mean_ranks",
)
row("plots.plot_friedman_graph", mean_ranks=A([1.2, 2.0, 2.8]), cd=1.0)
bad(
    "plots.plot_friedman_graph",
    "mean ranks outside [1, k]",
    lambda: el.plots.plot_friedman_graph(mean_ranks=[0.0, 9.0, 3.2], cd=1.0),
    "mean_ranks",
)
row("plots.plot_rejection_rates", O(NULL_RATES))
row("plots.plot_cd_curve", (3, 5, 8), n_range=(2, 50), alpha=0.05)
row("plots.plot_prediction_fan", O(BV), n_curves=40, show_data=True)
row("plots.plot_decomposition", O(BV))
row("plots.plot_bias_variance_curve", O(BVC), log=True, show_train=True)
row("plots.plot_learning_curve", O(LC))
row("plots.plot_zero_one_decomposition", O(ZERO_ONE))
row("plots.plot_winner_optimism", A([0.8, 0.9, 0.85]), A([0.75, 0.8, 0.82]))
row("plots.plot_roofline", 1e12, 1e11, models=(VGG,), annotate=True)
row("plots.plot_batch_intensity", O(VGG), [1, 2], peak_flops=1e12, bandwidth=1e11)
row("plots.plot_layer_times", O(VGG), 1e12, 1e11, top=5)
row("plots.plot_intervals", [INT], ["a"])
bad(
    "plots.plot_intervals",
    "interval low > high",
    lambda: el.plots.plot_intervals([(0.5, 0.9, 0.1)], ["a"]),
    "intervals",
)
row("plots.plot_coverage", 30, confidence=0.95, n_grid=199)
row("plots.plot_posterior", O(CBT))
row("plots.plot_simplex", O(BSR), max_points=5000)
bad("plots.plot_size_power", "null=3", lambda: el.plots.plot_size_power(3, 3), "null")
row("plots.plot_power_curve", A([10.0, 20.0]), {"t": [0.1, 0.2]}, alpha=0.05)
bad(
    "plots.plot_power_curve",
    "rates outside [0, 1]",
    lambda: el.plots.plot_power_curve([10, 20], {"t": [0.1, 2.0]}),
    "power",
)
row("plots.plot_calibration", L(Y), P(S), n_bins=5, strategy="uniform", diagonal=True)
row("plots.plot_multiclass_confusion", L([0, 1, 2, 0]), L([0, 2, 2, 1]), normalize=False)
row("plots.plot_leakage", O(STUDY))
row("plots.plot_optimism", ["a", "b"], A([0.8, 0.9]), A([0.7, 0.85]), higher_is_better=True)

# widgets
row("widgets.fitting_update", 3, 20, 0.25, seed=0, max_degree=15)
for _d in (2.5, "3", True):
    bad("widgets.fitting_update", f"degree={_d!r}", lambda d=_d: el.widgets.fitting_update(degree=d), "degree")
row("widgets.fitting_explorer", seed=0)
bad("widgets.fitting_explorer", "seed=-1", lambda: el.widgets.fitting_explorer(seed=-1), "seed")
row("widgets.kfold_update", O(_model()), XC, L(YC), 2, 1, random_state=0)
row("widgets.kfold_explorer", O(_model()), XC, L(YC), random_state=0, max_k=5, max_p=3)
row("widgets.threshold_explorer", L(Y), A(S), threshold=0.5, step=0.01)
row("widgets.cost_explorer", L(Y), {"a": S}, p=0.5, log2_cost_ratio=0.0)
bad("widgets.cost_explorer", "p=1.5", lambda: el.widgets.cost_explorer(Y, {"a": S}, p=1.5), "p")
row("widgets.binomial_view", 30, 0.3, 0.05, 0.4)
row("widgets.binomial_test_explorer", 50, 0.3, 0.05, 0.4)
row("widgets.cd_view", A([1.2, 2.0, 2.8]), ["a", "b", "c"], 0.05, 10)
bad(
    "widgets.cd_view",
    "mean ranks outside [1, k]",
    lambda: el.widgets.cd_view([0.0, 9.0, 2.0], ["a", "b", "c"], 0.05, 10),
    "mean_ranks",
)
row("widgets.cd_explorer", A([1.2, 2.0, 2.8]), n_datasets=10, alpha=0.05)
row("widgets.sine_target", A([0.1, 0.2]))
row("widgets.bias_variance_view", 3, 0.3, 20, 10, random_state=0, n_curves=5)
row("widgets.bias_variance_explorer", degree=3, noise_std=0.3, n_train=30, n_datasets=20, max_degree=15, random_state=0)
row("widgets.roofline_update", "GTX 1080 Ti", 1e13, 4e11, ("VGG16",), 1, 2, "conv_linear", "float32")
row("widgets.roofline_explorer", None, models=("VGG16",), device="GTX 1080 Ti")
row("widgets.interval_view", 100, 0.05, 0.95)
row("widgets.interval_explorer", 100, 0.05, 0.95)
row("widgets.bayesian_comparison_view", A(EA), A(EB), 0.01, 10, n_samples=500)
row("widgets.bayesian_comparison_explorer", A(EA), A(EB), rope=0.01, n_datasets=10)
row("widgets.leakage_update", O(STUDY), 2)
row("widgets.leakage_explorer", O(STUDY), k=2)
row("widgets.calibration_update", L(Y), P(S), 1.0, 0.0, n_bins=5)
row("widgets.calibration_explorer", L(Y), P(S), slope=1.0, shift=0.0, n_bins=5)
SWEEP["widgets.slider"] = ((3.0, 0.0, 10.0, 1.0, "k"), {"name": "k"})  # floats: int lo=-1 or step=2.5 are valid
for _lab, _kw, _m in (
    ("value=True", dict(value=True), "value"),
    ("value='3'", dict(value="3"), "value"),
    ("value=-1", dict(value=-1), "value"),
    ("step=True", dict(step=True), "step"),
    ("step=-1", dict(step=-1), "step"),
    ("hi=-1", dict(hi=-1), "hi"),
    ("lo=True", dict(lo=True), "lo"),
):
    bad(
        "widgets.slider",
        _lab,
        lambda _kw=_kw: el.widgets.slider(**{"value": 3, "lo": 0, "hi": 10, "step": 1, "name": "k", **_kw}),
        _m,
    )
bad("widgets.slider", "lo > hi", lambda: el.widgets.slider(3, 10, 0, name="k"), "lo|hi")
SWEEP["widgets.menu"] = ((0.05, O([0.05, 0.1]), "alpha"), {"name": "alpha"})
bad("widgets.menu", "options=[]", lambda: el.widgets.menu(0.05, [], name="alpha"), "options")
row(
    "widgets.Explorer",
    O(__import__("altair").Chart().mark_point()),
    data=O(None),
    text="t",
    title="t",
)
row("widgets.fitting_data", seed=0, max_degree=3, n_train=(10,), noise_std=(0.1,), n_curve=5)
row("widgets.kfold_data", O(_model()), XC, L(YC), random_state=0, max_k=3, max_p=2)
# The explorers' data functions (widgets.*_data, roofline_values) have no row: their declarations generate their
# bad calls (test_declared_bad_value_is_refused_in_one_message_form). leakage_data needs a LeakageStudy, which no
# declaration can make: a row.
row("widgets.leakage_data", O(STUDY))
row("plots.plot_632_weight", n_grid=201)
row("plots.plot_coverage_dip", 30, method="wilson", confidence=0.95, eps_max=0.05, n_grid=200)
EXEMPT["grading.tr"] = "formats a check's sentence: any template and values are its normal input"
row("grading.hidden_rng", 0, variant=0)
EXEMPT["i18n.N_"] = "a no-op mark for Babel: any string is valid"
row("i18n.gettext", "noise")
bad("i18n.gettext", "message=3", lambda: el.i18n.gettext(3), "message")

EXEMPT["grading.available_sets"] = "takes no argument"
# grading: its functions judge a learner's answers, so a wrong answer is their normal input and gives feedback
# (Incorrect), not a TypeError; the instructor-facing entry points are checked here.
for _n in (
    "grading.require",
    "grading.expect_number",
    "grading.expect_int",
    "grading.expect_choice",
    "grading.expect_reason",
    "grading.expect_function",
    "grading.expect_array",
    "grading.as_float",
    "grading.to_data",
    "grading.from_data",
    "grading.data_key",
    "grading.cached",
    "grading.Problem",
    "grading.ExerciseSet",
    "grading.Incorrect",
    "grading.NotAttempted",
    "grading.CaseRecorder",
    "grading.Replay",
    "grading.available_sets",
    "grading.Outcome",
):
    EXEMPT.setdefault(
        _n, "grading framework: judges learners' answers (feedback, not TypeError); tests/test_grading.py attacks it"
    )
row("grading.exercise_set", "01", solutions=True, variant=0)
bad("grading.exercise_set", "key='zz'", lambda: el.grading.exercise_set("zz"), "key|zz")
row("grading.load_source", "no/such/file.md", variant=0, solutions=True)
bad("grading.load_source", "missing file", lambda: el.grading.load_source("no/such/file.md"), "path|no/such")


# chapter 14 plots (added while this sweep was written)
row("plots.plot_residuals", A(RT), A(RP))
row("plots.plot_outlier_effect", A(RT), A(RP), A([0.0, 1.0, 10.0]), index=0)
row("plots.plot_dcg_discount", 10)
row("plots.plot_grid_scores", A2([[0.1, 0.2], [0.3, 0.4]]), [1, 2], [3, 4])
bad(
    "plots.plot_grid_scores", "row_name=3", lambda: el.plots.plot_grid_scores([[0.1]], [1], [2], row_name=3), "row_name"
)
bad(
    "plots.plot_grid_scores", "col_name=3", lambda: el.plots.plot_grid_scores([[0.1]], [1], [2], col_name=3), "col_name"
)
row("plots.plot_rank_cells", L(Y), A(S))


# ------------------------------------------------------------------------------- the tests
def test_every_public_name_is_in_the_table():
    """Every public name is swept: by its declarations (a declared function needs no row), a row, or an exemption."""
    extra = {e[0] for e in EXTRA}
    generated = {c.values[0] for c in DECLARED_CASES}
    missing = sorted(n for n in PUBLIC if n not in SWEEP and n not in EXEMPT and n not in extra and n not in generated)
    assert not missing, (
        f"{len(missing)} public name(s) without bad input: {missing}; declare its constraints "
        "(evallib._validation.validate_params) or add it to tests/test_validation.py's table (SWEEP: a valid call; "
        "EXTRA: bad calls; EXEMPT: the reason)"
    )


def test_no_stale_rows():
    stale = sorted(n for n in [*SWEEP, *(e[0] for e in EXTRA)] if n not in PUBLIC)
    assert not stale, f"rows for names that are not public (any more): {stale}"


def test_every_callable_gets_bad_input():
    """A row must yield at least one bad call (spoiled argument or explicit)."""
    empty = sorted(
        n for n, (a, k) in SWEEP.items() if not _mutations(PUBLIC[n], a, k) and not any(e[0] == n for e in EXTRA)
    )
    assert not empty, f"rows that produce no bad call: {empty}"


def _cases():
    out = []
    for n, (args, kwargs) in SWEEP.items():
        for pname, value in _mutations(PUBLIC[n], args, kwargs):
            match = "pos_label" if pname == "pos_label" and isinstance(value, list) else re.escape(pname)
            out.append(_param(n, (pname, value), match, f"{n}-{pname}={_short(value)}"))
    for n, label, thunk, match in EXTRA:
        out.append(_param(n, thunk, match, f"{n}-{label}"))
    return out


def _param(n, spoil, match, id_):
    marks = (
        [pytest.mark.xfail(strict=True, reason="known defect (tests/validation_known_defects.txt)")]
        if id_ in KNOWN
        else []
    )
    return pytest.param(n, spoil, match, id=id_, marks=marks)


def _short(v):
    s = repr(v).replace("\n", "")
    return s if len(s) <= 24 else s[:21] + "..."


# Bad calls that still fail: defects found by this sweep and not fixed yet (one id per line). They run as
# strict xfails, so a fix must remove its line; a NEW failure (not listed) fails the suite.
_KNOWN_FILE = __import__("pathlib").Path(__file__).with_name("validation_known_defects.txt")
KNOWN = set(_KNOWN_FILE.read_text(encoding="utf-8").split("\n")) - {""} if _KNOWN_FILE.exists() else set()
CASES = _cases()


@pytest.mark.parametrize("name, spoil, match", CASES)
def test_bad_input(name, spoil, match):
    if callable(spoil):
        _expect_error(name, spoil, match)
    else:
        args, kwargs = SWEEP[name]
        _expect_error(f"{name}({spoil[0]}={_short(spoil[1])})", lambda: _call(PUBLIC[name], args, kwargs, spoil), match)


def test_sweep_size():
    """The numbers the issue asks for (printed with -s): public names, callables enumerated, bad calls."""
    n_callable = sum(callable(o) for o in PUBLIC.values())
    print(f"\n{len(PUBLIC)} public names, {n_callable} callables, {len(SWEEP)} rows, {len(CASES)} bad calls")
    n_declared = sum(_declared(o) is not None for o in PUBLIC.values())
    print(
        f"{n_declared} declared, {len(DECLARED_CASES)} bad values from the declarations ({len(GENERATED)} without a row)"
    )
    assert len(CASES) > 500


# =====================================================================================================
# Declared constraints (issue 27): every public function of the core modules and evallib.plots states its
# arguments' constraints with evallib._validation.validate_params; the bad values below come from those
# declarations, so a new public function needs a declaration, not a new table row.
# =====================================================================================================
DECLARED_MODULES = {
    "widgets",
    "grading",
    "i18n",
    "data",
    "splits",
    "metrics",
    "evaluation",
    "fitting",
    "curves",
    "compare",
    "uncertainty",
    "biasvar",
    "roofline",
    "pitfalls",
    "tuning",
    "plots",
    "style",
}
# Every module is in. What has no declaration is in EXEMPT with its reason: functions that take no argument; the
# learner-facing checks of evallib.grading (require, expect_*, as_float, cached, tr): a wrong answer is their normal
# input and gives feedback (Incorrect), not a TypeError; the grader's data protocol (to_data, from_data, data_key):
# it takes any value, and what it cannot express becomes a placeholder (Opaque), never an error (tests/test_grading.py
# attacks both); i18n.N_ (a no-op mark for Babel). Classes have rows (their constructors). The instructor-facing
# grading entry points (exercise_set, load_source, read_myst, hidden_rng) are declared. A function whose declaration
# has to wait goes here, and leaves once declared (test_pending_list_has_no_declared_function says so).
PENDING_DECLARATIONS = frozenset()


def _declared(obj):
    return getattr(obj, "__evallib_params__", None)


def test_every_public_function_declares_its_constraints():
    missing = sorted(
        n
        for n, o in PUBLIC.items()
        if callable(o)
        and n not in EXEMPT
        and "." in n
        and n.split(".")[0] in DECLARED_MODULES
        and not inspect.isclass(o)
        and _declared(o) is None
        and n not in PENDING_DECLARATIONS
    )
    assert not missing, f"public functions without @validate_params: {missing}"


def test_pending_list_has_no_declared_function():
    stale = sorted(n for n in PENDING_DECLARATIONS if _declared(PUBLIC[n]) is not None)
    assert not stale, f"declared now, remove from PENDING_DECLARATIONS: {stale}"


class _Unchecked:
    """Stands for a required argument without a declaration in a generated call: the declared argument's bad value
    is refused before the body runs, so this value is never looked at."""

    def __repr__(self):
        return "<unchecked>"


_CANDIDATES = (None, 1, 0, 2, 3, 10, 0.5, 1.0, 0.05, True, "a", (0.0, 1.0), [1.0, 2.0], {"a": [1.0]}, abs)


def _valid_value(kinds):
    """A value that satisfies one of the declared ``kinds`` (LookupError when none of the candidates does)."""
    for k in kinds:
        own = list(getattr(k, "values", ()))
        for end in (getattr(k, "left", None), getattr(k, "right", None)):
            if end is not None:
                own += [end, end + 1, end - 1, end / 2]
        for v in [*own, *_CANDIDATES]:
            if v in k:
                return v
    raise LookupError


def _generated_call(func):
    """(args, kwargs) for ``func`` without a SWEEP row: each required argument gets a value its declaration accepts
    (or an _Unchecked one if it has none); None when a required declared argument has no such value."""
    decl = _declared(func)
    args, kwargs = [], {}
    for pname, p in inspect.signature(func).parameters.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.default is not p.empty:
            continue
        try:
            v = _valid_value(decl[pname]) if pname in decl else _Unchecked()
        except LookupError:
            return None
        if p.kind is p.POSITIONAL_ONLY:
            args.append(v)
        else:
            kwargs[pname] = v
    return tuple(args), kwargs


def _declared_cases():
    """Bad values from each public function's declarations, spoiling its SWEEP row's valid call, or a call made
    from the declarations when it has no row (a new declared function needs no row)."""
    out = []
    for n, obj in PUBLIC.items():
        decl = _declared(obj)
        if decl is None or not callable(obj):
            continue
        if n not in SWEEP:
            call = _generated_call(obj)
            if call is None:
                continue  # test_every_public_name_is_in_the_table asks for a row
            GENERATED[n] = call
        for pname, kinds in decl.items():
            seen = set()
            for k in kinds:
                for bad_value in k.bad_values():
                    if any(bad_value in other for other in kinds) or repr(bad_value) in seen:
                        continue
                    seen.add(repr(bad_value))
                    out.append(pytest.param(n, pname, bad_value, id=f"{n}-{pname}={_short(bad_value)}"))
    return out


GENERATED = {}  # public name -> (args, kwargs): the calls made from declarations (no SWEEP row)
DECLARED_CASES = _declared_cases()


@pytest.mark.parametrize("name, pname, value", DECLARED_CASES)
def test_declared_bad_value_is_refused_in_one_message_form(name, pname, value):
    args, kwargs = SWEEP[name] if name in SWEEP else GENERATED[name]
    fname = PUBLIC[name].__name__
    _expect_error(
        f"{name}({pname}={_short(value)})",
        lambda: _call(PUBLIC[name], args, kwargs, (pname, value), literal=True),
        rf"^The '{pname}' parameter of {fname} must be .+; got .+\.$",
    )


def test_message_form():
    with pytest.raises(ValueError) as e:
        el.metrics.fbeta_score([1, 0], [1, 0], beta=-1)
    assert str(e.value) == "The 'beta' parameter of fbeta_score must be a float in (0, inf); got -1."
    with pytest.raises(
        TypeError,
        match=r"^The 'zero_division' parameter of precision must be 'raise' or one of "
        r"0\.0, 1\.0; got True\.$",
    ):
        el.metrics.precision([1, 0], [1, 0], zero_division=True)


def test_vocabulary_added_for_the_declarations():
    """Kinds added while declaring the pending functions: "range" (check_range's pair, a ValueError as before),
    an Interval of ints beyond a double, Options matching numpy strings."""
    from evallib._validation import Interval, Options, validate_params

    @validate_params({"r": ["range"], "m": [Interval(numbers.Integral, 1, None)], "o": [Options("a", "b")]})
    def f(r=(0.0, 1.0), m=1, o="a"):
        return r, m, o

    assert f((0, 2), 10**400, np.str_("b")) == ((0, 2), 10**400, "b")
    for bad_r in [(1.0, 0.0), (0.0, math.inf), 3, None, (1, 2, 3)]:
        with pytest.raises(ValueError, match=r"^The 'r' parameter of f must be a pair \(low, high\) of finite"):
            f(bad_r)
    with pytest.raises(ValueError, match=r"^The 'm' parameter of f must be an int in \[1, inf\); got 0\.$"):
        f(m=0)
    with pytest.raises(ValueError, match="'o' parameter"):
        f(o=np.str_("c"))

    @validate_params(
        {
            "t": [Interval(numbers.Real, None, None, allow_inf=True)],
            "c": [None, el.curves.CostCurve],
            "s": ["random_state"],
        }
    )
    def g(t=0.0, c=None, s=None):
        return t

    assert g(math.inf) == math.inf and g(-math.inf) == -math.inf
    with pytest.raises(ValueError, match=r"^The 't' parameter of g must be a float in \[-inf, inf\]; got nan\.$"):
        g(math.nan)
    assert g(c=COSTC) == 0.0
    with pytest.raises(TypeError, match=r"^The 'c' parameter of g must be None or an instance of CostCurve; got 3\.$"):
        g(c=3)
    with pytest.raises(ValueError, match="'s' parameter"):  # a negative seed: ValueError, as check_random_state
        g(s=-1)
    with pytest.raises(TypeError, match="'s' parameter"):
        g(s="0")
