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


SIZE = {"wtm": 81_664, "btm": 84_012}
"""The positions of each side: the most a draw can take."""

SEED_BASE = {"wtm": 1, "btm": 14}
"""The seed of draw 0 for each side: the Table 5 trial's (trial 1 on wtm, trial 14 on btm), as
``kpk learners`` seeds its learners (draw ``d`` adds ``d``)."""

DEFAULT_DRAWS = 5
"""Draws where the committed run has none for the cell (a size ``kpk learners`` did not run)."""


def _count(name, value, lo, hi):
    """``value`` if it is an int from ``lo`` to ``hi``, else ``TypeError`` or ``ValueError``
    naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be from {lo:,} to {hi:,}, got {value}")
    return int(value)


def training_draw(side, n, draw):
    """Indices (into ``kpk.dataset(side)``'s rows) of draw ``draw`` of ``n`` training positions;
    ``n`` from 1 to the side's size (81,664 wtm, 84,012 btm)."""
    if side not in SIZE:
        raise ValueError(f"side must be 'wtm' or 'btm', got {side!r}")
    n = _count("n", n, 1, SIZE[side])
    draw = _count("draw", draw, 0, 2**63 - 1)
    return np.asarray(_kpk.learners_draw(side, n, draw), dtype=np.int64)


def _labels(answer, rows):
    """``predict``'s answer as a bool array (True a win), after checking it is one label per
    row: shape ``(rows,)``, and every value 0 or 1 (bools, integers, or floats that are exactly
    0.0 or 1.0); else ``TypeError`` or ``ValueError`` saying what came back."""
    if answer is None:
        raise TypeError("predict returned None; it must return one label (0 draw, 1 win) per row")
    if isinstance(answer, np.ma.MaskedArray) and np.ma.is_masked(answer):
        raise ValueError("predict returned a masked array with masked labels")
    a = np.asarray(answer)
    if a.shape != (rows,):
        raise ValueError(
            f"predict returned shape {a.shape} for {rows:,} rows; it must return shape ({rows},), "
            "one label per row"
        )
    if a.dtype.kind not in "biuf":
        raise TypeError(f"predict returned {a.dtype} labels; they must be 0 (draw) or 1 (win)")
    if a.dtype.kind == "f" and np.isnan(a).any():
        raise ValueError(f"predict returned NaN for {int(np.isnan(a).sum()):,} rows")
    bad = (a != 0) & (a != 1)
    if bad.any():
        raise ValueError(
            f"predict returned {int(bad.sum()):,} values other than 0 and 1 (e.g. {a[bad][0]!r}); "
            "it must return class labels, not probabilities or scores"
        )
    return a == 1


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


def evaluate(estimator, *, side="wtm", n=None, draws=None, inputs="x1..x32"):
    """Fit ``estimator`` on draws ``0 .. draws-1`` of ``n`` positions of ``side`` and test it on
    the rest of the side's positions.

    ``side``: ``"wtm"`` or ``"btm"``; ``n``: the training size (the paper's, 125 or 136, by
    default); ``inputs``: ``"x1..x32"`` (Table 4) or ``"x1..x6"`` (the coordinates only);
    ``draws``: by default the declared design's for the cell (as many as ``kpk learners`` ran
    there: 200 at the paper's sizes), else ``DEFAULT_DRAWS``. The estimator is cloned for each
    draw (``sklearn.base.clone`` where scikit-learn is installed), and where it takes a
    ``random_state`` (``get_params``), draw ``d`` sets it to the seed ``kpk learners`` gives its
    own learners on that draw: the side's trial seed plus ``d`` (``SEED_BASE``: 1 for wtm as
    trial 1, 14 for btm as trial 14).

    ``predict``'s answer is checked before it is scored: one label per row (shape ``(rows,)``),
    each 0 (draw) or 1 (win); None, another shape, NaN, probabilities or other values raise
    ``TypeError`` or ``ValueError``. ``n`` must leave a position of the side to test on.

    Returns a dict: ``side``, ``n``, ``inputs``, ``seed`` (the design's), ``kpk_version``,
    ``design`` (the declared design's file) and ``design_commit`` (the commit that declared it,
    as the committed ``reports/learners.json`` names it; None where the build found none),
    ``per_draw`` (``draw``, ``train_pct``, ``test_pct`` for each draw),
    ``committed`` (the committed rows of the six learners and the MLP for the same cell and
    draws, as ``kpk learners`` wrote them; empty where it has not), and ``paired`` (for each
    committed learner, the estimator's test accuracy minus the learner's over their shared draws:
    ``mean``, ``lo``, ``hi``, ``draws``).
    """
    if side not in PAPER_SIZE:
        raise ValueError(f"side must be 'wtm' or 'btm', got {side!r}")
    if inputs not in INPUTS:
        raise ValueError(f"inputs must be 'x1..x32' or 'x1..x6', got {inputs!r}")
    # At least one position of the side must stay out of the draw to be tested on.
    n = PAPER_SIZE[side] if n is None else _count("n", n, 1, SIZE[side] - 1)
    if draws is None:
        ran = [int(r["draw"]) for r in _committed(side, n, inputs) if r.get("draw", "").isdigit()]
        draws = max(ran) + 1 if ran else DEFAULT_DRAWS
    draws = _count("draws", draws, 1, 2**32)
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
        params = model.get_params() if hasattr(model, "get_params") else {}
        if "random_state" in params and hasattr(model, "set_params"):
            model.set_params(random_state=SEED_BASE[side] + d)
        model.fit(X[train], y[train])
        right = _labels(model.predict(X), len(y)) == (y == 1)
        per_draw.append(
            {
                "draw": d,
                "train_pct": float(100 * right[train].mean()),
                "test_pct": float(100 * right[~train].mean()),
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
        "kpk_version": _kpk.__version__,
        "design": "experiments/learners_powered.toml",
        "design_commit": _kpk.LEARNERS_DESIGN_COMMIT,
        "per_draw": per_draw,
        "committed": committed,
        "paired": paired,
    }
