#!/usr/bin/env python
"""Write the Voilà apps (apps/NN_*.ipynb): one explorer each, full screen, code hidden (`make apps` serves them).

Each app is a title, one line of explanation and one code cell that prepares the explorer's inputs exactly as
its chapter does and calls the same evallib builder; ``el.style.presentation()`` makes it readable on a
projector. Edit here, then run ``python apps/make_apps.py``. The apps are stored without outputs (Voilà runs
them); tests/test_classroom.py checks that each still matches its chapter's explorer call.
"""
from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from nbgen import code, md, write  # noqa: E402

HERE = Path(__file__).resolve().parent
SETUP = """%matplotlib inline
import numpy as np
import evallib as el
rng = el.setup_notebook(seed=0)
_ = el.style.presentation()  # larger text and lines for projecting"""

TUMOURS = """X, target = el.data.load_bundled("breast_cancer")
y = 1 - target                      # malignant = 1 = positive, as in the chapter
X = X[:, [1, 4, 9]]                 # three weak features (mean texture, smoothness, fractal dimension)
train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier
models = {
    "logistic regression": make_pipeline(StandardScaler(), LogisticRegression()),
    "decision tree (depth 3)": DecisionTreeClassifier(max_depth=3, random_state=0),
}
scores = {name: m.fit(X[train], y[train]).predict_proba(X[test])[:, 1] for name, m in models.items()}
y_test = y[test]"""

APPS = {
    "02_kfold.ipynb": (
        "p-times k-fold cross-validation（k 折交叉验证）",
        "Move k and p: each grey dot is one fold's test error of naive Bayes on the breast-cancer data, each blue "
        "dot one k-fold estimate, the red line the mean of all p·k folds (西瓜书 §2.2.2; chapter 02).",
        """from sklearn.naive_bayes import GaussianNB
X, y = el.data.load_bundled("breast_cancer")
el.widgets.kfold_explorer(GaussianNB(), X, y, random_state=0)"""),
    "05_threshold.ipynb": (
        "The threshold explorer（截断点）",
        "Move the cut point of a logistic regression's scores: the confusion matrix, P, R, F1, TPR, FPR and the "
        "points on the ROC and P-R curves change together (西瓜书 §2.3.2–2.3.3; chapter 05).",
        TUMOURS + """
el.widgets.threshold_explorer(y_test, scores["logistic regression"], threshold=0.5)"""),
    "06_cost.ipynb": (
        "The cost explorer（代价曲线）",
        "Move the class prior and the cost ratio: each model's expected cost, its best threshold, and the ROC "
        "point an iso-cost line touches (西瓜书 §2.3.4, 式(2.23)–(2.25); chapter 06).",
        TUMOURS + """
el.widgets.cost_explorer(y_test, scores, log2_cost_ratio=np.log2(5))"""),
    "10_bias_variance.ipynb": (
        "The bias–variance explorer（偏差与方差）",
        "Move the polynomial degree, the noise, the training-set size and the number of data sets: bias², variance "
        "and noise of 式(2.42) by simulation (西瓜书 §2.5; chapter 10).",
        """el.widgets.bias_variance_explorer(degree=3, noise_std=0.3, n_train=30, n_datasets=200)"""),
    "11_roofline.ipynb": (
        "The roofline explorer（Roofline 模型）",
        "Pick a device, models, batch size and counting conventions: each model sits on the device's roof at its "
        "arithmetic intensity, with its time bound and best images per second (chapter 11).",
        """el.widgets.roofline_explorer(models=("VGG16", "MobileNetV1", "MobileNetV2"))"""),
}


def main(out=HERE):
    for name, (title, line, body) in APPS.items():
        cells = [md(f"# {title}\n\n{line}"), code(SETUP), code(body)]
        for i, cell in enumerate(cells):  # stable ids: the same file every time
            cell.id = f"{name[:2]}-{i}"
        write(Path(out) / name, cells)
        print(Path(out) / name)


if __name__ == "__main__":
    main(*sys.argv[1:])
