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
            **Book exercise 2.1.** A data set has 1000 samples, 500 positive and 500 negative. It is split into
            70 % training and 30 % test by *stratified* hold-out. How many different splits are there? Set `q1`
            to the exact integer (use `math.comb`, not floats).
            """),
        dict(q="q2", statement="""
            **Book exercise 2.2.** 100 samples, half positive, half negative (`el.data.make_majority_trap(100)`),
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
