"""The course's experiments on a Dask cluster (README, "For instructors": the three lines): `evaluate`,
`score_table` (chapter 09's study) and `null_rejection_rates` (chapter 08's Type-I simulation) under
``joblib.parallel_config(backend="dask")`` on a ``distributed.LocalCluster`` of 2 worker processes on 127.0.0.1
give exactly the sequential result, and the work really runs on the workers (Dask's task stream). The
cluster and its processes are stopped in ``finally``. dask/distributed come with the classroom extra."""

import os

import joblib
import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import evallib as el

distributed = pytest.importorskip("distributed", reason="pip install -e '.[classroom]' (make test does)")


@pytest.fixture(scope="module")
def client():
    import psutil

    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        env=dict(OMP_NUM_THREADS="1"),
    )
    pids = []
    try:
        c = distributed.Client(cluster)
        try:
            pids = list(c.run(os.getpid).values())
            assert len(pids) == 2 and os.getpid() not in pids, "two worker processes of their own"
            yield c
        finally:
            c.close()
    finally:
        cluster.close()
        gone, alive = psutil.wait_procs([psutil.Process(p) for p in pids if psutil.pid_exists(p)], timeout=30)
        for p in alive:
            p.kill()
        assert not alive, f"worker processes left running: {[p.pid for p in alive]}"


def _on_cluster(client, fn):
    """fn() under the Dask joblib backend; returns its value and how many tasks the workers ran."""
    with distributed.get_task_stream(client) as ts, joblib.parallel_config(backend="dask"):
        value = fn()
    return value, len(ts.data)


def test_evaluate_on_a_dask_cluster_equals_the_sequential_run(client):
    X, y = el.data.load_bundled("breast_cancer")
    cv = el.splits.KFold(10, n_repeats=2, random_state=0)
    for model in (GaussianNB(), DecisionTreeClassifier(max_depth=4, random_state=0)):
        seq = el.evaluation.evaluate(model, X, y, cv)
        par, tasks = _on_cluster(client, lambda: el.evaluation.evaluate(model, X, y, cv, n_jobs=-1))
        assert tasks > 0, "nothing ran on the cluster"
        assert np.array_equal(seq, par) and seq.shape == (20,)


def test_chapter_09_study_on_a_dask_cluster_equals_the_sequential_run(client):
    learners = {"tree": DecisionTreeClassifier(max_depth=3, random_state=0), "naive Bayes": GaussianNB()}
    datasets = {name: el.data.load_bundled(name) for name in ("iris", "wine", "breast_cancer")}
    cv = el.splits.KFold(5, random_state=0)
    seq = el.evaluation.score_table(learners, datasets, cv)
    par, tasks = _on_cluster(client, lambda: el.evaluation.score_table(learners, datasets, cv, n_jobs=-1))
    assert tasks > 0
    assert np.array_equal(seq.scores, par.scores)
    assert all(np.array_equal(a, b) for a, b in zip(seq.split_scores, par.split_scores))


def test_chapter_08_type_i_simulation_on_a_dask_cluster_equals_the_sequential_run(client):
    kw = dict(n_samples=100, n_resamples=10, n_folds=5, random_state=0)
    seq = el.compare.null_rejection_rates(200, **kw)
    par, tasks = _on_cluster(client, lambda: el.compare.null_rejection_rates(200, n_jobs=-1, **kw))
    assert tasks >= 2, "the trials were spread over the workers"
    assert np.array_equal(seq.pvalues, par.pvalues) and np.array_equal(seq.rates, par.rates)
