"""`kpk.benchmark`: an estimator trains on exactly the draws of `kpk learners` (kpk's own
`training_draw`, bound) and is tested on every other position of the side."""

import numpy as np
import pytest

import kpk
import kpk.benchmark as bench


class Majority:
    """The smallest estimator: predicts the training set's majority class."""

    def fit(self, X, y):
        self.label_ = int(np.bincount(y).argmax())
        return self

    def predict(self, X):
        return np.full(len(X), self.label_)

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self


def test_draws_are_fixed_distinct_and_within_the_side():
    a = bench.training_draw("wtm", 125, 0)
    assert np.array_equal(a, bench.training_draw("wtm", 125, 0))
    assert len(a) == 125 and (np.diff(a) > 0).all() and a.max() < 81_664
    assert not np.array_equal(a, bench.training_draw("wtm", 125, 1))
    assert len(bench.training_draw("btm", 84_012, 0)) == 84_012


def test_evaluate_trains_on_the_draw_and_tests_on_the_rest():
    _, y, _ = kpk.dataset("btm")
    result = bench.evaluate(Majority(), side="btm", n=200, draws=2)
    assert [r["draw"] for r in result["per_draw"]] == [0, 1]
    for r in result["per_draw"]:
        train = np.zeros(len(y), dtype=bool)
        train[bench.training_draw("btm", 200, r["draw"])] = True
        label = int(np.bincount(y[train]).argmax())
        assert r["train_pct"] == pytest.approx(100 * (y[train] == label).mean())
        assert r["test_pct"] == pytest.approx(100 * (y[~train] == label).mean())
    assert result["seed"] == kpk._kpk.LEARNERS_SEED


class Seeded(Majority):
    """A majority estimator with a ``random_state``, recording the one each clone fits with."""

    seeds = []

    def __init__(self, random_state=None):
        self.random_state = random_state

    def get_params(self, deep=True):
        return {"random_state": self.random_state}

    def set_params(self, **params):
        self.random_state = params.get("random_state", self.random_state)
        return self

    def fit(self, X, y):
        Seeded.seeds.append(self.random_state)
        return super().fit(X, y)


def test_evaluate_seeds_draw_d_as_kpk_learners_does():
    Seeded.seeds = []
    bench.evaluate(Seeded(), side="btm", n=200, draws=3)
    assert Seeded.seeds == [14, 15, 16]
    Seeded.seeds = []
    bench.evaluate(Seeded(), side="wtm", n=200, draws=2)
    assert Seeded.seeds == [1, 2]


@pytest.mark.skipif(not kpk._kpk.LEARNERS_DRAWS_CSV, reason="the package was built without draws.csv")
def test_evaluate_runs_the_declared_draws_by_default():
    Seeded.seeds = []
    result = bench.evaluate(Seeded(), side="wtm")
    assert len(result["per_draw"]) == 200
    assert Seeded.seeds == [1 + d for d in range(200)]


def test_evaluate_refuses_bad_arguments():
    for kwargs in [{"side": "both"}, {"inputs": "x1..x9"}, {"draws": 0}]:
        with pytest.raises(ValueError):
            bench.evaluate(Majority(), **kwargs)


class Recorder:
    """Records the rows ``evaluate`` fits each clone on and the rows it asks it to predict; the
    records live on the class, since ``evaluate`` fits clones."""

    fitted = []
    predicted = []

    def fit(self, X, y):
        Recorder.fitted.append((np.array(X), np.array(y)))
        return self

    def predict(self, X):
        Recorder.predicted.append(np.array(X))
        return np.zeros(len(X), dtype=np.int64)

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self


def _rows(side, inputs):
    X, y, _ = kpk.dataset(side, dtype=np.int8)
    return X[:, bench.INPUTS[inputs]], y


def _committed_rows(side, n, inputs):
    return {
        (r["learner"], int(r["draw"])): r
        for r in bench._committed(side, n, inputs)
        if r["learner"] in SEEDLESS
    }


SEEDLESS = ("rule_list", "tree", "naive_bayes", "logistic")
"""kpk's learners whose fit draws nothing at random: their committed row depends on the
training positions alone."""

# A few cells of the committed run, both sides, both input sets, the paper's size and others.
CELLS = [
    ("wtm", 125, "x1..x32", 3),
    ("btm", 136, "x1..x32", 3),
    ("wtm", 1000, "x1..x6", 1),
    ("btm", 250, "x1..x6", 1),
]


@pytest.mark.skipif(not kpk._kpk.LEARNERS_DRAWS_CSV, reason="the package was built without draws.csv")
@pytest.mark.parametrize("side,n,inputs,draws", CELLS)
def test_evaluate_fits_on_the_positions_of_the_committed_run(side, n, inputs, draws):
    """The rows ``evaluate`` hands an estimator, located among the side's positions, are the
    training set of the committed ``kpk learners`` run for the same cell and draw: kpk's seedless
    learners fitted on exactly those positions (by the code that wrote draws.csv) give the
    committed training and testing accuracies to the last bit, and the estimator predicts every
    position of the side, so it is tested on all the others."""
    X, y = _rows(side, inputs)
    where = {row.tobytes(): i for i, row in enumerate(X)}
    assert len(where) == len(X), "the inputs name each position of the side once"
    committed = _committed_rows(side, n, inputs)
    Recorder.fitted.clear()
    Recorder.predicted.clear()
    bench.evaluate(Recorder(), side=side, n=n, draws=draws, inputs=inputs)
    assert len(Recorder.fitted) == len(Recorder.predicted) == draws
    trains = []
    for d, ((Xf, yf), Xp) in enumerate(zip(Recorder.fitted, Recorder.predicted)):
        train = np.array([where[row.tobytes()] for row in Xf])
        assert len(set(train.tolist())) == n
        assert np.array_equal(yf, y[train])
        assert np.array_equal(Xp, X)
        trains.append(train)
        for learner in SEEDLESS:
            row = committed[(learner, d)]
            got = kpk._kpk.learners_refit(learner, side, train.tolist(), inputs)
            want = (float(row["train_pct"]), float(row["test_pct"]), int(row["test_n"]))
            assert got == want, (learner, side, n, inputs, d)
    # The comparison can fail: another draw's positions do not give this draw's rows.
    other = bench.training_draw(side, n, draws).tolist()
    assert any(
        kpk._kpk.learners_refit(learner, side, other, inputs)[1]
        != float(committed[(learner, 0)]["test_pct"])
        for learner in SEEDLESS
    )


def test_refit_refuses_bad_arguments():
    for args in [
        ("mlp", "wtm", [0, 1], "x1..x32"),
        ("tree", "both", [0, 1], "x1..x32"),
        ("tree", "wtm", [0, 0], "x1..x32"),
        ("tree", "wtm", [0, 81_664], "x1..x32"),
        ("tree", "wtm", [0, 1], "x1..x9"),
    ]:
        with pytest.raises(ValueError):
            kpk._kpk.learners_refit(*args)
