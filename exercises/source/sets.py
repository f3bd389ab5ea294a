"""Statements, figures and hidden tests of the exercise sets (instructor side; never released).

Each set: name (= chapter notebook stem), title, intro, problems. Each problem: q, statement (markdown),
optional `before` cells (data, figures), and extra hidden tests (points, failure message, code) after the
first test, which runs the learner-facing check. Points come from evallib/grading.py.
"""

SETS = {}

# ------------------------------------------------------------------------------------------------ 01
SETS["01"] = dict(
    name="01_error_and_fitting",
    title="01 · Error and over-fitting（经验误差与过拟合）",
    intro="Error rate and accuracy (西瓜书 §2.1), training versus test error, and over-fitting.",
    problems=[
        dict(q="q1", statement="""
            Load the breast-cancer data (`el.data.load_bundled("breast_cancer")`), take the first split of
            `el.splits.HoldOut(0.3, random_state=0)` (`train, test = next(...split(X, y))`), fit
            `DecisionTreeClassifier(max_depth=3, random_state=0)` on the training part and set `q1` to its
            **error rate on the test part** (a float).
            """),
        dict(q="q2", statement="""
            Implement `error_rate(y_true, y_pred)`: the fraction of wrong predictions, E = a/m (西瓜书 式(2.4)
            with the indicator loss). It must work for any labels (numbers or strings) and raise `ValueError` for
            empty input or arrays of different lengths. No loops over samples.
            """,
             tests=[(1, "labels of any type and edge cases", """
                from evallib.grading import expect_function
                import evallib as el
                expect_function(error_rate, el.metrics.error_rate, [
                    ("one sample, wrong", ([1], [0])),
                    ("all wrong", ([0, 0, 1, 1], [1, 1, 0, 0])),
                    ("three classes", ([2, 1, 0, 2, 2], [2, 0, 0, 1, 2])),
                    ("booleans", ([True, False, True], [True, True, True])),
                ], name="error_rate")
                """),
                    (1, "must raise ValueError on bad input", """
                from evallib.grading import expect_function
                import evallib as el
                expect_function(error_rate, el.metrics.error_rate, [([1, 0], [1, 0])], name="error_rate",
                                raises=[([], []), ([0, 1, 1], [0, 1]), (["a"], ["a", "b"])])
                """)]),
        dict(q="q3", before=[
            """
            exp = el.fitting.polynomial_experiment(20, noise_std=0.25, random_state=0)
            degrees = np.arange(len(exp.train_mse))
            ax = el.plots.plot_train_test_curve(degrees, exp.train_mse, exp.test_mse, xlabel="polynomial degree",
                                                ylabel="mean squared error", logy=True)
            ax.set_xticks(degrees)
            plt.show()
            """],
             statement="""
            The figure shows the training and test mean squared error of least-squares polynomials of degree
            0–15 fitted to 20 noisy samples of a sine. Reading **the figure only** (no code), set `q3` to the
            degree (an int) with the lowest **test** error.
            """),
        dict(q="q4", statement="""
            Two classifiers were trained on the same data. A: training error 0.00, test error 0.18.
            B: training error 0.08, test error 0.09. Set `q4` to `"A"` or `"B"`: the one you would deploy, and
            `q4_reason` to one sentence saying why (the grader reads it).
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 02
SETS["02"] = dict(
    name="02_evaluation_methods",
    title="02 · Evaluation methods（评估方法）",
    intro="Hold-out, cross-validation, leave-one-out and the bootstrap (西瓜书 §2.2.1–2.2.3), with the book's "
          "exercises 2.1 and 2.2.",
    problems=[
        dict(q="q1", statement="""
            A data set has 1000 samples, 500 positive and 500 negative. It is split into
            70 % training and 30 % test by *stratified* hold-out. How many different splits are there? Set `q1`
            to the exact integer (use `math.comb`, not floats).
            """),
        dict(q="q2", statement="""
            100 samples, half positive, half negative (`el.data.make_majority_trap(100)`),
            and a learner that predicts the majority class of its training set (scikit-learn's
            `DummyClassifier(strategy="most_frequent")`; a tie goes to the first class). Set `q2_cv` to its
            error rate estimated by stratified 10-fold cross-validation (`el.splits.KFold(10, random_state=0)`)
            and `q2_loo` to the leave-one-out estimate (`el.splits.LeaveOneOut()`). Can you predict both before
            computing them?
            """),
        dict(q="q3", statement="""
            Implement `fold_sizes(m, k)`: the sizes of the k test folds when m samples are dealt into k folds as
            evenly as possible, larger folds first (what scikit-learn's `KFold(k)` does), as a NumPy array.
            Raise `ValueError` unless k is an integer with 2 ≤ k ≤ m (k = m is leave-one-out).
            """,
             tests=[(1, "sizes must differ by at most one, larger folds first", """
                from evallib.grading import expect_function
                from sklearn.model_selection import KFold
                import numpy as np
                ref = lambda m, k: np.array([len(t) for _, t in KFold(k).split(np.zeros((m, 1)))])
                expect_function(fold_sizes, ref, [("k = 2", (3, 2)), ("m = k = 2", (2, 2)),
                                                  ("remainder 6", (1006, 10)), ("remainder 1", (7, 3))],
                                name="fold_sizes")
                """),
                    (1, "k outside 2..m must raise ValueError", """
                from evallib.grading import expect_function
                import numpy as np
                expect_function(fold_sizes, lambda m, k: np.full(k, m // k), [(4, 2)], name="fold_sizes",
                                raises=[(3, 4), (10, 0), (10, 1)])
                """)]),
        dict(q="q4", statement="""
            On the breast-cancer data, estimate the error rate of `GaussianNB()` (from `sklearn.naive_bayes`) by
            10 times repeated stratified 10-fold cross-validation, `el.splits.KFold(10, n_repeats=10,
            random_state=0)`, with `el.evaluation.evaluate`. Set `q4` to the mean over all 100 folds.
            """),
        dict(q="q5", statement="""
            A data set has 2000 samples, 5 % of them positive, and you will estimate recall by 5-fold
            cross-validation. Set `q5` to `"stratified"` (`el.splits.KFold(5, stratify=True)`) or `"plain"`
            (`stratify=False`), and `q5_reason` to one sentence why.
            """),
        dict(q="q6", before=[
            """
            ms = np.unique(np.geomspace(1, 1000, 60).astype(int))
            ax = el.plots.plot_oob_fraction(ms)
            ax.set_xticks([1, 2, 5, 10, 20, 50, 100, 1000], labels=["1", "2", "5", "10", "20", "50", "100", "1000"])
            ax.grid(True, which="both", alpha=0.4)
            plt.show()
            """],
             statement="""
            The bootstrap leaves each sample out of a training set of size m with probability (1 − 1/m)^m.
            Reading **the figure**, set `q6` to that probability for m = 5 (two decimals).
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 03
SETS["03"] = dict(
    name="03_tuning_and_final_model",
    title="03 · Tuning and the final model（调参与最终模型）",
    intro="Validation sets, the test set used once, refitting the final model, the winner's optimism "
          "(西瓜书 §2.2.4), and the book's exercise 2.8 on normalisation.",
    problems=[
        dict(q="q1", statement="""
            On the breast-cancer data: `dev, test = next(el.splits.HoldOut(0.25, random_state=0).split(X, y))`,
            then split the development set with `tr, va = next(el.splits.HoldOut(1 / 3, random_state=0).split(X[dev], y[dev]))`
            (indices into `dev`). For `max_depth` in 1, 2, 3, 4, 5 fit `DecisionTreeClassifier(max_depth=d,
            random_state=0)` on `dev[tr]` and score accuracy on `dev[va]`. Set `q1_depth` to the winner (the first
            best on ties) and `q1_test` to the **test accuracy of the final model**: the winner refitted on the
            whole development set.
            """),
        dict(q="q2", statement="""
            Min-max normalisation maps x to x' = lo + (x − x_min)(hi − lo)/(x_max − x_min).
            Implement `minmax(train, new, lo=0.0, hi=1.0)`: x_min and x_max per column (feature) of `train`
            (1-D input is one feature), applied to `new` — new data is scaled with the *training* statistics,
            so values may fall outside [lo, hi]. Raise `ValueError` for a constant column. No loops.
            """,
             tests=[(1, "a new value outside the training range must fall outside [lo, hi], columns separately", """
                from evallib.grading import expect_function
                import numpy as np
                def ref(train, new, lo=0.0, hi=1.0):
                    train, new = np.asarray(train, float), np.asarray(new, float)
                    mn, mx = train.min(axis=0), train.max(axis=0)
                    return lo + (new - mn) / (mx - mn) * (hi - lo)
                tr = np.array([[0.0, 10.0], [5.0, 30.0], [10.0, 20.0]])
                expect_function(minmax, ref, [("two columns", (tr, np.array([[20.0, 0.0]]))),
                                              ("negative values", ([-3.0, -1.0], [-2.0, 0.0])),
                                              ("lo = 2, hi = 4", ([0.0, 1.0], [0.5], 2.0, 4.0))], name="minmax")
                """),
                    (1, "a constant column must raise ValueError", """
                from evallib.grading import expect_function
                import numpy as np
                expect_function(minmax, lambda t, n: np.asarray(n, float), [([0.0, 1.0], [0.0, 1.0])], name="minmax",
                                raises=[(np.array([[1.0, 2.0], [3.0, 2.0]]), np.array([[1.0, 2.0]]))])
                """)]),
        dict(q="q3", statement="""
            A feature takes values between 0 and 10, plus one measurement error
            of 1000. Which normalisation squeezes the ordinary values into a tiny interval: `"min-max"` or
            `"z-score"` (x' = (x − x̄)/σ)? Set `q3` and, in `q3_reason`, one sentence why (try it on a small
            array if unsure).
            """),
        dict(q="q4", before=[
            """
            ks = np.arange(1, 126)
            best = [el.biasvar.expected_best_accuracy(int(k), 142, 0.9) for k in ks]
            fig, ax = plt.subplots(figsize=(6, 3.6))
            ax.plot(ks, best, color="#0072B2", label="expected validation accuracy of the winner")
            ax.axhline(0.9, color="grey", ls="--", label="true accuracy of every candidate")
            ax.set(xlabel="number of candidates k", ylabel="accuracy", xscale="log", ylim=(0.89, 0.97))
            ax.set_yticks(np.arange(0.89, 0.971, 0.01))
            ax.grid(True, which="both", alpha=0.4)
            ax.legend(loc="lower right")
            plt.show()
            """],
             statement="""
            The figure shows the expected validation accuracy of the *winner* among k equally good candidates
            (true accuracy 0.90 each, 142 validation samples). Reading **the figure**, set `q4` to the winner's
            optimism at k = 25: its expected validation accuracy minus 0.90 (about two decimals).
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 04
_TUMOURS_CELL = """
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression

X, target = el.data.load_bundled("breast_cancer")
y = 1 - target                                   # malignant = 1 = positive
X = X[:, [1, 4, 9]]                              # three weak features, as in the chapter
train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[train], y[train])
y_test, proba = y[test], clf.predict_proba(X[test])[:, 1]
print(f"{len(y_test)} test tumours, {y_test.sum()} malignant")
"""

SETS["04"] = dict(
    name="04_classification_metrics",
    title="04 · Classification metrics（错误率、查准率、查全率与 F1）",
    intro="Confusion matrix, precision, recall, F1 and F-beta, macro and micro averages (西瓜书 §2.3.2, "
          "式(2.8)–(2.15)), and the book's exercise 2.4.",
    problems=[
        dict(q="q1", before=[_TUMOURS_CELL], statement="""
            The cell above trains the chapter's tumour classifier (malignant = 1) and gives the test labels
            `y_test` and probabilities `proba`. Predict malignant where `proba >= 0.5` and set `q1_precision`,
            `q1_recall` and `q1_f1`.
            """),
        dict(q="q2", statement="""
            Implement `fbeta(y_true, y_pred, beta)` for labels {0, 1} from 式(2.11):
            F_β = (1 + β²)·P·R / (β²·P + R). Raise `ValueError` when it is undefined: no true positives
            (then P or R is 0/0, or P + R = 0), empty input or a length mismatch.
            """,
             tests=[(1, "edge cases: one sample, all positive, large beta", """
                from evallib.grading import expect_function
                import evallib as el
                expect_function(fbeta, el.metrics.fbeta_score, [
                    ("one sample", ([1], [1], 1.0)),
                    ("everything predicted positive", ([1, 0, 0, 1, 0], [1, 1, 1, 1, 1], 1.0)),
                    ("beta = 10 is almost recall", ([1, 1, 0, 1], [1, 0, 0, 0], 10.0)),
                ], name="fbeta")
                """),
                    (1, "undefined F-beta must raise ValueError", """
                from evallib.grading import expect_function
                import evallib as el
                expect_function(fbeta, el.metrics.fbeta_score, [([1, 0], [1, 0], 1.0)], name="fbeta",
                                raises=[([0, 0, 1], [0, 0, 0], 1.0), ([1, 0], [0, 1], 2.0), ([], [], 1.0)])
                """)]),
        dict(q="q3", statement="""
            Relate the true/false positive rates of ROC analysis (式(2.18)–(2.19)) to
            precision and recall. Set `q3` to the identity that holds for every classifier:
            `"TPR = recall"`, `"TPR = precision"`, `"FPR = 1 - precision"` or `"FPR = 1 - recall"`, and
            `q3_reason` to one sentence with the formulas.
            """),
        dict(q="q4", statement="""
            On the wine data (3 classes, `Xw, yw = el.data.load_bundled("wine")`):
            `tr, te = next(el.splits.HoldOut(0.5, random_state=1).split(Xw, yw))`,
            fit `GaussianNB()` on `tr`, predict `te`, build one one-vs-rest confusion matrix per class
            (`el.metrics.confusion_matrix(yw[te] == c, pred == c, pos_label=True)`) and set `q4` to the book's
            **macro-F1** (式(2.12)–(2.14)).
            """),
        dict(q="q5", before=["""
            cm = el.metrics.confusion_matrix(y_test, (proba >= 0.5).astype(int))
            ax = el.plots.plot_confusion_matrix(cm, title="tumour classifier, threshold 0.5")
            plt.show()
            """], statement="""
            Reading **the figure**: how many malignant tumours of the test set did the classifier miss?
            Set `q5` to that count.
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 05
SETS["05"] = dict(
    name="05_roc_pr_curves",
    title="05 · ROC and P-R curves（P-R 曲线、ROC 与 AUC）",
    intro="P-R curves and the break-even point, ROC and AUC, and the ranking loss (西瓜书 §2.3.2–2.3.3, "
          "式(2.18)–(2.22)), with the book's exercises 2.3, 2.5 and 2.6.",
    problems=[
        dict(q="q1", statement="""
            Implement `rank_loss(y_true, scores)`, the ℓ_rank of 式(2.21): the share of
            (positive, negative) pairs in which the positive scores lower, a tie counting 1/2. Raise `ValueError`
            unless both classes occur. No Python loops over samples (broadcasting is fine).
            """,
             tests=[(1, "all-tied scores, reversed ranking, unbalanced classes", """
                from evallib.grading import expect_function
                import evallib as el
                expect_function(rank_loss, el.curves.rank_loss, [
                    ("all scores tied", ([1, 0, 1, 0, 0], [0.5] * 5)),
                    ("reversed ranking", ([1, 1, 0], [0.1, 0.2, 0.9])),
                    ("one positive", ([0, 0, 0, 1], [0.3, 0.9, 0.1, 0.3])),
                    ("integer scores", ([1, 0, 1, 0, 1, 0], [3, 1, 2, 2, 1, 3])),
                ], name="rank_loss")
                """),
                    (1, "a single class must raise ValueError", """
                from evallib.grading import expect_function
                import evallib as el
                expect_function(rank_loss, el.curves.rank_loss, [([1, 0], [0.9, 0.1])], name="rank_loss",
                                raises=[([0, 0], [0.1, 0.2]), ([1], [0.3])])
                """)]),
        dict(q="q2", before=[_TUMOURS_CELL], statement="""
            With the tumour classifier above, set `q2_auc` to the AUC of
            `proba` on `y_test` and `q2_rank_loss` to its ℓ_rank (evallib or your function); check that they add
            up to 1.
            """),
        dict(q="q3", statement="""
            Is a learner with the higher F1 (at threshold 0.5) also the one with the
            higher break-even point? Answer with a counterexample: labels `q3_y` (0/1) and two score arrays
            `q3_a`, `q3_b` for which F1 of A > F1 of B (predict positive where score ≥ 0.5) but
            BEP of A < BEP of B (`el.curves.break_even_point`). Four samples are enough.
            """),
        dict(q="q4", statement="""
            Every ROC point is a threshold, and its error rate follows from the point:
            E = (FPR·m⁻ + (1 − TPR)·m⁺)/m. For the tumour classifier, set `q4` to the **lowest error rate over
            all points of its ROC curve** (`el.curves.roc_curve`).
            """),
        dict(q="q5", before=["""
            noisy = proba + np.random.default_rng(1).normal(0, 0.3, size=len(proba))
            fig, ax = plt.subplots(figsize=(4.5, 4.5))
            for name, s, color in (("A", proba, "#0072B2"), ("B", noisy, "#D55E00")):
                f, t, _ = el.curves.roc_curve(y_test, s)
                _ = ax.plot(f, t, color=color, label=name)
            ax.plot([0, 1], [0, 1], color="grey", ls=":")
            ax.set(xlabel="FPR", ylabel="TPR", title="two scorers on the same test set")
            ax.legend(loc="lower right")
            plt.show()
            """], statement="""
            Reading **the figure** only: which scorer has the larger AUC? Set `q5` to `"A"` or `"B"`.
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 06
SETS["06"] = dict(
    name="06_cost_sensitive",
    title="06 · Cost-sensitive evaluation（代价敏感错误率与代价曲线）",
    intro="Unequal costs, the cost-sensitive error rate, normalised cost and cost curves (西瓜书 §2.3.4, "
          "式(2.23)–(2.25)), with the book's exercise 2.7.",
    problems=[
        dict(q="q1", before=[_TUMOURS_CELL], statement="""
            A missed cancer (a false negative) costs 5, a false alarm (a false positive) costs 1. With the tumour
            classifier above predicting malignant where `proba >= 0.5`, set `q1` to its cost-sensitive error
            rate (式(2.23)).
            """),
        dict(q="q2", statement="""
            With the same costs, try every distinct value of `proba` as the threshold (predict malignant where
            `proba >= t`). Set `q2_cost` to the smallest cost-sensitive error rate and `q2_threshold` to a
            threshold that achieves it.
            """),
        dict(q="q3", statement="""
            Implement `normalized_cost(fpr, fnr, p, cost_fn, cost_fp)`, 式(2.25):
            cost_norm = (FNR·p·cost_fn + FPR·(1 − p)·cost_fp) / (p·cost_fn + (1 − p)·cost_fp), where p is the
            prior probability of the positive class. It must accept arrays of ROC points and raise `ValueError`
            when p is outside [0, 1].
            """,
             tests=[(1, "the ends of a cost line are FPR (p = 0) and FNR (p = 1)", """
                from evallib.grading import expect_function
                import evallib as el
                import numpy as np
                expect_function(normalized_cost, el.curves.normalized_cost, [
                    ("p = 0 gives FPR", (0.3, 0.6, 0.0, 2.0, 1.0)),
                    ("p = 1 gives FNR", (0.3, 0.6, 1.0, 2.0, 1.0)),
                    ("a whole ROC curve", (np.linspace(0, 1, 5), np.linspace(1, 0, 5) ** 2, 0.7, 1.0, 4.0)),
                ], name="normalized_cost")
                """),
                    (1, "p outside [0, 1] must raise ValueError", """
                from evallib.grading import expect_function
                import evallib as el
                expect_function(normalized_cost, el.curves.normalized_cost, [(0.1, 0.2, 0.5, 1.0, 1.0)],
                                name="normalized_cost", raises=[(0.1, 0.2, -0.1, 1.0, 1.0), (0.1, 0.2, 2.0, 1.0, 1.0)])
                """)]),
        dict(q="q4", before=["""
            fig, ax = plt.subplots(figsize=(5, 4))
            ax.plot([0, 1], [0.2, 0.4], color="#D55E00", lw=2, label="one ROC point's cost line")
            ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="probability cost P(+)cost", ylabel="normalised cost",
                   xticks=np.arange(0, 1.01, 0.1), yticks=np.arange(0, 1.01, 0.1))
            ax.grid(True, alpha=0.4)
            ax.legend(loc="upper left")
            plt.show()
            """], statement="""
            Every point of an ROC curve becomes a line of the cost curve, and every line
            gives back its point. Reading **the figure**, set `q4_fpr` and `q4_tpr` to the ROC point of the
            drawn line.
            """),
        dict(q="q5", statement="""
            With (cost_fn, cost_fp) = (5, 1) a threshold t* is the cheapest. For which of these cost pairs is
            t* also the cheapest, whatever the data: `"(50, 10)"`, `"(6, 2)"` or `"(14, 10)"`? Set `q5` and
            give one sentence in `q5_reason`.
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 07
SETS["07"] = dict(
    name="07_regression_ranking_metrics",
    title="07 · Regression and ranking metrics（回归与排序的性能度量）",
    intro="MAE, MSE, RMSE, MAPE, MdAPE and R² for regression; average precision, MAP, DCG/NDCG and MRR for "
          "rankings (西瓜书 式(2.2) and beyond, source note `004`).",
    problems=[
        dict(q="q1", statement="""
            On the diabetes data (`el.data.load_bundled("diabetes")`), split with
            `el.splits.HoldOut(0.3, stratify=False, random_state=0)`, fit `LinearRegression()` on the training
            part and set `q1_mae` and `q1_rmse` to its test MAE and RMSE.
            """),
        dict(q="q2", statement="""
            Implement `dcg(relevances, k)`: the discounted cumulative gain of the first k items in the order shown,
            Σ_{i=1..k} (2^{rel_i} − 1) / log₂(i + 1). Raise `ValueError` unless k is an integer with
            1 ≤ k ≤ len(relevances). No Python loops.
            """,
             tests=[(1, "k = 1, fractional grades, k = len", """
                from evallib.grading import expect_function
                import evallib as el
                expect_function(dcg, lambda r, k: el.metrics.dcg(r, k), [
                    ("k = 1", ([3, 2, 3, 0, 1, 2], 1)),
                    ("k = len", ([3, 2, 3, 0, 1, 2], 6)),
                    ("fractional grades", ([0.5, 2.5, 1.0], 2)),
                ], name="dcg")
                """)]),
        dict(q="q3", statement="""
            Two queries. Query 1 has 3 relevant documents, retrieved at ranks 1, 3 and 4. Query 2 has 4 relevant
            documents; the system retrieved two of them, at ranks 2 and 5, and never the other two. Set `q3` to
            the mean average precision (MAP).
            """),
        dict(q="q4", statement="""
            One prediction of a regression model is spoilt by +400. Which of `"MAE"`, `"RMSE"`, `"MdAPE"`, `"R2"`
            does not move at all (on the chapter's diabetes predictions)? Set `q4` and `q4_reason`.
            """),
        dict(q="q5", before=["""
            relevance = [0, 0, 2, 0, 1, 3, 0, 1]          # graded relevance of the results, in the order shown
            fig, ax = plt.subplots(figsize=(6, 3))
            ax.bar(np.arange(1, 9), relevance, color="#0072B2")
            ax.set(xlabel="rank", ylabel="relevance grade", xticks=np.arange(1, 9), yticks=[0, 1, 2, 3],
                   title="one query's result list")
            plt.show()
            """], statement="""
            The figure shows the graded relevance of the eight results a search system returned for one query,
            in the order shown (0 = not relevant). Reading **the figure**, set `q5` to this query's reciprocal
            rank (the term MRR averages over queries).
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 08
SETS["08"] = dict(
    name="08_hypothesis_tests",
    title="08 · Hypothesis tests for comparing learners（假设检验与比较检验）",
    intro="The binomial test and the t-test of an error rate, the paired t-test, 5×2cv and McNemar's test "
          "(西瓜书 §2.4.1–2.4.3, 式(2.26)–(2.33)), with the book's exercise 2.9.",
    problems=[
        dict(q="q1", statement="""
            A learner makes 20 errors on a test set of m = 50. Test H0: ε ≤ ε0 = 0.3 at α = 0.05 with the
            binomial test. Set `q1_critical` to the critical error rate ε̄ (the corrected form of 式(2.27):
            C/m with C the smallest count for which P(X > C) < α) and `q1_reject` to `True` or `False`.
            """),
        dict(q="q2", statement="""
            Implement `mcnemar_statistic(e01, e10)`: McNemar's τ_χ² with the continuity correction, 式(2.33),
            from the two discordant counts. |e01 − e10| − 1 is never taken below 0, and with no discordant pairs
            the statistic is 0.
            """,
             tests=[(1, "equal counts and no discordant pairs", """
                from evallib.grading import expect_function
                import evallib as el
                ref = lambda e01, e10: el.compare.mcnemar([[0, e01], [e10, 0]]).statistic
                expect_function(mcnemar_statistic, ref, [("e01 = e10", (6, 6)), ("|e01 - e10| = 1", (3, 2)),
                                                         ("no discordant pairs", (0, 0)), ("one pair", (1, 0))],
                                name="mcnemar_statistic")
                """)]),
        dict(q="q3", statement="""
            The χ² test, step by step. On the breast-cancer data,
            `train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))`; fit
            `DecisionTreeClassifier(max_depth=3, random_state=0)` (A) and `GaussianNB()` (B) on the training part
            and predict the test part. Build the contingency table (`el.compare.mcnemar_table`), compute the
            statistic τ_χ² of 式(2.33) yourself, its p-value from the χ² distribution with 1 degree of freedom
            (`scipy.stats.chi2.sf`), and decide at α = 0.05. Set `q3_statistic`, `q3_pvalue` and `q3_reject`.
            """),
        dict(q="q4", statement="""
            You compare four learners on eight data sets and want to know which pairs differ. Set `q4` to
            `"binomial test"`, `"paired t-test"`, `"McNemar"` or `"Friedman + Nemenyi"`, and `q4_reason` to one
            sentence.
            """),
        dict(q="q5", before=["""
            ax = el.plots.plot_binomial_test(50, 0.3, 0.05, n_errors=20)
            plt.show()
            """], statement="""
            The figure shows the distribution of the error count X under H0 (m = 50, ε0 = 0.3) with the
            rejection region at α = 0.05 in red. Reading **the figure**, set `q5` to the smallest number of
            errors for which the test rejects H0.
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 09
SETS["09"] = dict(
    name="09_friedman_nemenyi",
    title="09 · Friedman and Nemenyi tests（Friedman 检验与 Nemenyi 后续检验）",
    intro="Comparing several learners over several data sets by their ranks: the Friedman test in its χ² and F "
          "forms and the Nemenyi critical difference (西瓜书 §2.4.4, 式(2.34)–(2.36)), with the book's exercise 2.10.",
    problems=[
        dict(q="q1", before=["""
            errors = np.array([[0.21, 0.18, 0.25, 0.24],    # rows: 6 data sets
                               [0.15, 0.13, 0.17, 0.19],    # columns: algorithms A, B, C, D
                               [0.30, 0.26, 0.29, 0.33],
                               [0.09, 0.08, 0.12, 0.10],
                               [0.22, 0.20, 0.20, 0.27],    # B and C tie here
                               [0.12, 0.11, 0.15, 0.14]])
            """], statement="""
            The table `errors` holds the error rates of four algorithms on six data sets.
            Set `q1_chi2` to the Friedman statistic τ_χ² (式(2.34), ranks averaged over ties, no tie correction)
            and `q1_F` to τ_F (式(2.35)).
            """),
        dict(q="q2", statement="""
            Implement `friedman_statistics(mean_ranks, n_datasets)` returning
            `np.array([tau_chi2, tau_F])` from the k mean ranks and N. When every data set ranks the algorithms
            the same way, N(k − 1) − τ_χ² = 0 and τ_F is infinite: return `np.inf`, do not fail.
            """,
             tests=[(1, "perfect agreement must give tau_F = inf", """
                from evallib.grading import expect_function, _friedman_forms
                expect_function(friedman_statistics, _friedman_forms, [
                    ("perfect agreement", ([1.0, 2.0, 3.0], 5)),
                    ("two algorithms", ([1.2, 1.8], 10)),
                ], name="friedman_statistics")
                """)]),
        dict(q="q3", statement="""
            Set `q3` to the Nemenyi critical difference CD (式(2.36)) for k = 5 algorithms on N = 10 data sets at
            α = 0.05.
            """),
        dict(q="q4", before=["""
            ranks = np.array([1.5, 2.2, 3.1, 3.9, 4.3])
            ax = el.plots.plot_cd_diagram(mean_ranks=ranks, cd=el.compare.critical_difference(5, 10),
                                          names=["A", "B", "C", "D", "E"])
            plt.show()
            """], statement="""
            The CD diagram shows the mean ranks of five algorithms on ten data sets; a bar joins algorithms whose
            ranks are within CD of each other. Reading **the figure**, set `q4` to the number of pairs of
            algorithms that differ significantly.
            """),
        dict(q="q5", statement="""
            On four data sets, the Friedman test of three algorithms gives τ_F below its critical value. Can you
            conclude that the three perform equally well? Set `q5` to `"yes"` or `"no"` and `q5_reason` to one
            sentence.
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 10
SETS["10"] = dict(
    name="10_bias_variance",
    title="10 · Bias and variance（偏差与方差）",
    intro="The decomposition of the expected error into bias², variance and noise by simulation "
          "(西瓜书 §2.5, 式(2.37)–(2.42)).",
    problems=[
        dict(q="q1", statement="""
            The target is y = sin(2πx) + ε with ε ~ N(0, 0.3²), x uniform on [0, 1]. With
            `el.biasvar.bias_variance`, fit `el.fitting.PolynomialRegression(3)` to 200 training sets of 30 points
            (`random_state=0`) and set `q1_bias2` and `q1_variance`.
            """),
        dict(q="q2", statement="""
            Implement `bias2_variance(predictions, f_true)`: `predictions[i, j]` is the prediction of the model
            trained on data set i at test point j, `f_true[j]` the true function there. Return
            `np.array([bias2, variance])` following 式(2.37)–(2.40) (variance with 1/n, not 1/(n − 1)), each
            averaged over the test points. No loops.
            """,
             tests=[(1, "one data set has zero variance; constant predictions", """
                from evallib.grading import expect_function, _bias2_variance
                import numpy as np
                expect_function(bias2_variance, _bias2_variance, [
                    ("one data set", ([[0.3, 0.1, -0.2]], [0.0, 0.0, 0.0])),
                    ("identical predictions", (np.ones((5, 3)), [1.0, 2.0, 3.0])),
                ], name="bias2_variance")
                """),
                    (1, "agrees with evallib's simulation", """
                import evallib as el
                import numpy as np
                from evallib.grading import expect_array
                r = el.biasvar.bias_variance(el.fitting.PolynomialRegression(2), lambda x: np.sin(2 * np.pi * x),
                                             noise_std=0.3, n_train=20, n_datasets=50, random_state=3)
                f = np.sin(2 * np.pi * r.x_test)
                expect_array(bias2_variance(r.predictions, f), [r.bias2, r.variance], rtol=1e-9,
                             name="bias2_variance(r.predictions, f)")
                """)]),
        dict(q="q3", statement="""
            As the polynomial degree grows from 1 to 12 (same data), which term of the decomposition grows:
            `"bias2"`, `"variance"` or `"noise"`? Set `q3` and `q3_reason`.
            """),
        dict(q="q4", before=["""
            def f(x):
                return np.sin(2 * np.pi * x)

            curve = el.biasvar.bias_variance_curve(el.fitting.PolynomialRegression(), "degree", range(13), f,
                                                   noise_std=0.3, n_train=30, n_datasets=200, random_state=0)
            fig, ax = plt.subplots(figsize=(6.4, 4.2))
            el.plots.plot_bias_variance_curve(curve, ax)
            ax.set_xticks(range(13))
            plt.show()
            """], statement="""
            The figure shows bias², variance and the expected error against the degree. Reading **the figure**,
            set `q4` to the degree with the lowest expected error.
            """),
    ],
)

# ------------------------------------------------------------------------------------------------ 11
SETS["11"] = dict(
    name="11_roofline",
    title="11 · Model compute and the roofline（模型计算需求与 Roofline 模型）",
    intro="Parameters, multiply-accumulates, memory traffic and arithmetic intensity of a network, and the "
          "roofline bound (source note `004`, 模型计算需求).",
    problems=[
        dict(q="q1", statement="""
            Set `q1_params` to the number of parameters of ResNet-18 (`el.roofline.resnet18()`) and `q1_gmacs` to
            its multiply-accumulates per 224×224 image, in billions (G-MACs).
            """),
        dict(q="q2", statement="""
            Implement `attainable(intensity, peak_flops, bandwidth)`: the roofline bound min(π, I·β) in FLOP/s
            for an arithmetic intensity I (FLOP/B), a number or an array. Raise `ValueError` for a negative
            intensity.
            """,
             tests=[(1, "the ridge point itself and zero intensity", """
                from evallib.grading import expect_function
                import evallib as el
                import numpy as np
                expect_function(attainable, el.roofline.attainable, [
                    ("exactly at the ridge", (20.0, 10e12, 500e9)),
                    ("zero intensity", (0.0, 10e12, 500e9)),
                    ("2-D array", (np.array([[1.0, 100.0], [10.0, 30.0]]), 11.3e12, 484e9)),
                ], name="attainable")
                """)]),
        dict(q="q3", statement="""
            A GTX 1080 Ti has a float32 peak of 11.3 TFLOP/s and 484 GB/s of memory bandwidth
            (`el.roofline.get_device("GTX 1080 Ti")`). Set `q3_ridge` to its ridge point in FLOP/B and `q3_bound`
            to `"memory"` or `"compute"`: what limits a layer of intensity 10 FLOP/B on it?
            """),
        dict(q="q4", before=["""
            rl = el.roofline
            gtx = rl.get_device("GTX 1080 Ti")
            ax = el.plots.plot_roofline(gtx.peak(), gtx.bandwidth, models=[rl.vgg16(rl.ARTICLE), rl.mobilenet_v2(rl.ARTICLE)])
            plt.show()
            """], statement="""
            The roofline of the GTX 1080 Ti with two models (counted with the article's convention). Reading
            **the figure**, set `q4` to the memory-bound one: `"VGG16"` or `"MobileNetV2"`.
            """),
        dict(q="q5", statement="""
            The notes give a model's 计算量 (amount of computation) "in FLOPS". Is a model's computation a
            `"count"` or a `"rate"`? Set `q5` and `q5_reason` (one sentence: what do FLOPs and FLOPS measure?).
            """),
    ],
)
