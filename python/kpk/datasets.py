"""The paper's sets the scikit-learn way: ``load_kpk(name)`` returns a ``Bunch`` with ``data``,
``target``, ``feature_names``, ``target_names``, ``fens`` and ``DESCR``, as
``sklearn.datasets.load_iris`` does (``return_X_y``, ``as_frame``). scikit-learn and pandas are
optional: without scikit-learn the result is a dict with attribute access; pandas is imported only
for ``as_frame=True``.
"""

import numpy as np

from . import _kpk

__all__ = ["load_kpk", "feature_names"]

DEFAULT_SEED = 1998
"""The seed of the drawn sets T1/S1 and T2/S2 when none is given: the year of the paper."""

TARGET_NAMES = np.array(["draw", "win"])
"""``target`` 0 is a draw, 1 a win for the pawn side."""

# How each named set is made (section 4.5 of the paper; ``kpk dataset`` writes the same rows).
_CONSTRUCTION = {
    "T1": "125 White-to-move positions: the first half of a seeded random draw of 250 (S1 is the "
    "second half, disjoint from it).",
    "S1": "125 White-to-move positions: the second half of the seeded draw whose first half is T1.",
    "T2": "136 Black-to-move positions: the first half of a seeded random draw of 272 (S2 is the "
    "second half).",
    "S2": "136 Black-to-move positions: the second half of the seeded draw whose first half is T2.",
    "T3": "Every legal White-to-move position (81,664).",
    "T4": "Every White-to-move position with the pawn on the a-file (20,643; the paper's Fa).",
    "T5": "Every White-to-move position with the pawn on the d-file (20,346; the paper's Fd).",
    "WTM": "Every legal White-to-move position (81,664).",
    "BTM": "Every legal Black-to-move position (84,012).",
    "ALL": "Every legal position, White to move then Black (165,676).",
}

_DESCR = """\
.. _kpk_dataset:

KPK ({name}): king and pawn versus king
---------------------------------------

A set of section 4.5 of M. Haworth and M. Velliste, "Chess Endgames and Neural Networks", ICCA
Journal 21(4), 1998, rebuilt exactly by kpk from a retrograde-analysis bitbase.

**Construction.** {construction} {seeding}

**Positions.** Each row is one legal position in kpk's canonical orientation: the pawn is
White's and stands on files a-d (a position with a black pawn, or a pawn on files e-h, is the
mirror image of one of these). ``fens`` holds each row's FEN. Rows are in the order of
``kpk dataset --set {name}``.

**Target.** 1 (``win``) where the pawn side wins with best play, 0 (``draw``) otherwise:
{wins} wins and {draws} draws.

**Features.** Table 4's characteristics x1..x32 in the ``{coding}`` coding of section 4.2
({width} columns): level 0 holds the pieces' files and ranks, and every later characteristic is a
function of lower ones (Figure 2). ``feature_names`` are {names};
``feature_descriptions`` Table 4's descriptions. x13, ``r(wP)=8?`` (is the pawn on the eighth rank?),
is the constant 0 on every legal position: a pawn never stands on its last rank, and the paper
notes x13 "became redundant". It is kept so that the columns are the paper's 32.

:Number of Instances: {rows}
:Number of Attributes: {width}
:Class Distribution: {draws} draw, {wins} win
:Creator: kpk {version}, from Haworth and Velliste (1998)
"""


def _value_name(v):
    """A value as it reads in an identifier: ``3``, or ``m3`` for -3."""
    return f"m{-v}" if v < 0 else str(v)


def _columns(coding, safe_names=False):
    """``(name, description)`` of each column of ``coding``: Table 4's short name (or, with
    ``safe_names``, ``x1`` ... ``x32``) and description, with the bit or the value where a
    characteristic takes several columns."""
    rows = _kpk.TABLE4

    def base(r):
        return f"x{r['x']}" if safe_names else r["name"]

    if coding in ("natural", "scaled"):
        return [(base(r), r["description"]) for r in rows]
    if coding == "binary":
        # Most significant bit first, of the value minus the printed range's minimum.
        form = "{}_bit{}" if safe_names else "{}:bit{}"
        return [
            (form.format(base(r), b), r["description"])
            for r in rows
            for b in reversed(range(r["binary_bits"]))
        ]
    if coding == "onehot":
        return [
            (f"{base(r)}_eq_{_value_name(v)}" if safe_names else f"{base(r)}={v}", r["description"])
            for r in rows
            for v in range(r["range"][0], r["range"][1] + 1)
        ]
    raise ValueError(f"coding: unknown input coding {coding!r}; expected one of {_kpk.CODINGS}")


def _names_of(coding, safe_names=False):
    return [name for name, _ in _columns(coding, safe_names)]


def feature_names(coding="natural", *, safe_names=False):
    """The column names of ``coding``'s inputs, a list: Table 4's short names (``fd(wK,bK)``), or
    with ``safe_names=True`` identifiers (``x1`` ... ``x32``; ``x7_bit2`` in the binary coding,
    ``x7_eq_m7`` in the onehot one) that LightGBM, XGBoost and formula interfaces accept."""
    return _names_of(coding, safe_names)


def _bunch(**fields):
    try:
        from sklearn.utils import Bunch
    except ImportError:
        Bunch = _Bunch
    return Bunch(**fields)


class _Bunch(dict):
    """A dict whose keys are also attributes, as scikit-learn's ``Bunch``."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        self[key] = value

    def __dir__(self):
        return list(self.keys())


def load_kpk(
    name,
    *,
    coding="natural",
    seed=DEFAULT_SEED,
    return_X_y=False,
    as_frame=False,
    dtype=np.float64,
    safe_names=False,
):
    """Load a named set of the paper (section 4.5) as scikit-learn loads its data sets.

    Parameters
    ----------
    name : str
        T1, S1, T2, S2 (seeded draws), T3, T4, T5, wtm, btm or all (case-insensitive).
    coding : str, default "natural"
        The input coding of section 4.2: natural, scaled, binary or onehot.
    seed : int, default 1998
        The seed of the drawn sets T1/S1 and T2/S2 (the other sets ignore it).
    return_X_y : bool, default False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default False
        ``data`` a pandas DataFrame with ``feature_names`` as columns, ``target`` a Series named
        ``target``, and ``frame`` both together (pandas is imported only then).
    dtype : numpy dtype, default float64
        float64, float32, or int8, int16, int32, int64 (not for the scaled coding): the natural
        coding's values lie in [-7, 8], so ``np.int8`` holds every set in an eighth of the memory.
    safe_names : bool, default False
        Name the columns ``x1`` ... ``x32`` (Table 4's numbers; ``x7_bit2`` in the binary coding,
        ``x7_eq_m7`` in the onehot one) instead of Table 4's short names, whose commas and
        brackets LightGBM and XGBoost refuse.

    Returns
    -------
    Bunch with ``data``, ``target`` (int64, 1 a win), ``feature_names`` (a list),
    ``feature_descriptions`` (a list), ``target_names`` (``["draw", "win"]``), ``fens``, ``frame``
    (None unless ``as_frame``) and ``DESCR``; or ``(data, target)``.
    """
    X, y, fens = _kpk.dataset(name, coding, seed, dtype=dtype)
    names = _names_of(coding, safe_names)
    frame = None
    if as_frame:
        import pandas as pd

        X = pd.DataFrame(X, columns=names)
        y = pd.Series(y, name="target")
        frame = pd.concat([X, y], axis=1)
    if return_X_y:
        return X, y
    key = name.upper()
    seeding = (
        f"The draw is seeded with {seed} (``kpk dataset --seed {seed}`` draws the same positions)."
        if key in ("T1", "S1", "T2", "S2")
        else ""
    )
    wins = int(np.asarray(y).sum())
    descr = _DESCR.format(
        name=key if key in ("T1", "S1", "T2", "S2", "T3", "T4", "T5") else name.lower(),
        construction=_CONSTRUCTION[key],
        seeding=seeding,
        wins=f"{wins:,}",
        draws=f"{len(fens) - wins:,}",
        rows=f"{len(fens):,}",
        coding=coding,
        width=len(names),
        names="x1 ... x32, Table 4's numbers" if safe_names else "Table 4's short names",
        version=_kpk.__version__,
    )
    return _bunch(
        data=X,
        target=y,
        frame=frame,
        feature_names=names,
        feature_descriptions=[d for _, d in _columns(coding)],
        target_names=TARGET_NAMES.copy(),
        fens=fens,
        DESCR=descr,
    )
