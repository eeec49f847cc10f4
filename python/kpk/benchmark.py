"""Section 7's comparison for any estimator: ``evaluate(estimator, side=..., n=..., draws=...)``
fits a scikit-learn-style estimator (``fit``/``predict``) on exactly the training draws of
``kpk learners`` (the same seed, side, size and draw index; kpk's own function draws them) and
tests it on every other position of the side, as the six learners and the paper's MLP are.
It returns the estimator's accuracy on each draw beside the committed rows of those learners for
the same draws, and the paired difference from each (Student's t over the draws they share).
"""

import csv
import io
import math

import numpy as np

from . import _kpk

__all__ = ["evaluate", "training_draw", "PAPER_SIZE"]

PAPER_SIZE = {"wtm": 125, "btm": 136}
"""The paper's training sizes (section 4.5: T1 has 125 positions, T2 136)."""

INPUTS = {"x1..x32": slice(0, 32), "x1..x6": slice(0, 6)}
"""The characterisations compared: all of Table 4, or the pieces' coordinates only."""


def training_draw(side, n, draw):
    """Indices (into ``kpk.dataset(side)``'s rows) of draw ``draw`` of ``n`` training positions."""
    return np.asarray(_kpk.learners_draw(side, n, draw), dtype=np.int64)


def _committed(side, n, inputs):
    """The committed rows of ``kpk learners`` for the cell: one dict per learner and draw."""
    rows = csv.DictReader(io.StringIO(_kpk.LEARNERS_DRAWS_CSV))
    return [
        r
        for r in rows
        if r.get("side") == side and r.get("n") == str(n) and r.get("inputs") == inputs
    ]


def _paired(mine, theirs):
    """Mean of ``mine - theirs`` over the draws both have, with its 95% Student's t interval."""
    draws = sorted(set(mine) & set(theirs))
    d = np.array([mine[k] - theirs[k] for k in draws])
    out = {"draws": len(draws), "mean": float(d.mean()) if len(d) else None, "lo": None, "hi": None}
    if len(d) > 1:
        try:
            from scipy.stats import t
        except ImportError:
            return out
        half = t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
        out.update(lo=float(d.mean() - half), hi=float(d.mean() + half))
    return out


def evaluate(estimator, *, side="wtm", n=None, draws=5, inputs="x1..x32"):
    """Fit ``estimator`` on draws ``0 .. draws-1`` of ``n`` positions of ``side`` and test it on
    the rest of the side's positions.

    ``side``: ``"wtm"`` or ``"btm"``; ``n``: the training size (the paper's, 125 or 136, by
    default); ``inputs``: ``"x1..x32"`` (Table 4) or ``"x1..x6"`` (the coordinates only). The
    estimator is cloned for each draw (``sklearn.base.clone`` where scikit-learn is installed).

    Returns a dict: ``per_draw`` (``draw``, ``train_pct``, ``test_pct`` for each draw),
    ``committed`` (the committed rows of the six learners and the MLP for the same cell and
    draws, as ``kpk learners`` wrote them; empty where it has not), and ``paired`` (for each
    committed learner, the estimator's test accuracy minus the learner's over their shared draws:
    ``mean``, ``lo``, ``hi``, ``draws``).
    """
    if side not in PAPER_SIZE:
        raise ValueError(f"side must be 'wtm' or 'btm', got {side!r}")
    if inputs not in INPUTS:
        raise ValueError(f"inputs must be 'x1..x32' or 'x1..x6', got {inputs!r}")
    if not isinstance(draws, int) or draws < 1:
        raise ValueError(f"draws must be a positive int, got {draws!r}")
    n = PAPER_SIZE[side] if n is None else n
    X, y, _ = _kpk.dataset(side, dtype=np.int8)
    X = X[:, INPUTS[inputs]]
    try:
        from sklearn.base import clone
    except ImportError:
        import copy

        clone = copy.deepcopy
    per_draw = []
    for d in range(draws):
        train = np.zeros(len(y), dtype=bool)
        train[training_draw(side, n, d)] = True
        model = clone(estimator)
        model.fit(X[train], y[train])
        right = np.asarray(model.predict(X)) == y
        per_draw.append(
            {
                "draw": d,
                "train_pct": float(100 * right[train].mean()),
                "test_pct": float(100 * right[~train].mean()) if (~train).any() else None,
            }
        )
    committed = [r for r in _committed(side, n, inputs) if int(r.get("draw", -1)) < draws]
    mine = {r["draw"]: r["test_pct"] for r in per_draw}
    paired = {}
    for learner in sorted({r.get("learner") for r in committed}):
        theirs = {
            int(r["draw"]): float(r["test_pct"])
            for r in committed
            if r.get("learner") == learner and r.get("test_pct")
        }
        paired[learner] = _paired(mine, theirs)
    return {
        "side": side,
        "n": n,
        "inputs": inputs,
        "seed": _kpk.LEARNERS_SEED,
        "per_draw": per_draw,
        "committed": committed,
        "paired": paired,
    }
