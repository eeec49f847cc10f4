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
    assert len(bench.training_draw("btm", 100_000, 0)) == 84_012


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


def test_evaluate_refuses_bad_arguments():
    for kwargs in [{"side": "both"}, {"inputs": "x1..x9"}, {"draws": 0}]:
        with pytest.raises(ValueError):
            bench.evaluate(Majority(), **kwargs)
