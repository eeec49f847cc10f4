"""kpk for Python: king and pawn versus king, exactly.

A reproduction of Haworth & Velliste, *Chess Endgames and Neural Networks*, ICCA Journal 21(4),
1998, as NumPy arrays:

- ``Bitbase()``: every legal KPK position's result and depth to conversion; ``.probe(fen)`` and
  ``.probe_many(fens)``.
- ``features(fens, coding="natural")``: the paper's characteristics x1..x32 (Table 4) in one of the
  input codings of section 4.2.
- ``dataset(name, coding="natural", seed=1998)``: the sets T1, S1, T2, S2, T3, T4, T5 of section
  4.5, and wtm, btm, all, as ``(X, y, fens)`` in the row order of ``kpk dataset``.
- ``Hybrid(path=None)``: the exact win/draw classifier (a learned model plus the positions it gets
  wrong, section 5.1); the committed model, a decision tree over Table 4's characteristics with
  its exceptions, ships inside the package (``Hybrid(path)`` also reads ``kpk compress``'s
  integer nets).
- ``DtzModel(path=None)``: Syzygy's DTZ from the DTZ model file alone (``probe_dtz``, ``get_dtz``,
  ``probe_wdl``, ``get_wdl``, and ``dtz(fens)`` for a batch); the committed model ships inside the
  package.
- ``PlayModel(path=None).best_move(fen)``: a perfect move from the play model file.
- ``load_net(path)``: a net saved by ``kpk run`` (``weights.json``) as NumPy arrays.
- ``datasets.load_kpk(name)``: a set as scikit-learn loads its data sets (a ``Bunch``).
- ``benchmark.evaluate(estimator, side=..., n=..., draws=...)``: section 7's comparison for any
  scikit-learn-style estimator, on the draws of ``kpk learners``.
- ``Bitbase().probe_wdl(board)`` / ``probe_dtc`` / ``probe_dtz`` / ``get_wdl`` / ``get_dtc`` /
  ``get_dtz``: probes shaped as python-chess's ``chess.syzygy``, from the side to move's point of
  view; ``open_tablebase()`` a ``chess.syzygy.Tablebase``-shaped object (``kpk.syzygy``), which
  raises ``chess.syzygy.MissingTableError`` for any material but KPvK.

A position is a FEN string, a python-chess ``chess.Board`` (read from its bitboards) or any object
with a ``fen()`` method, with the pawn of either colour on any file; answers are from the pawn
side's point of view. A board of a chess variant or with castling rights is refused. Bad input
raises ``ValueError`` with kpk's one-line message (``TypeError`` for a value of the wrong type);
the batch calls take ``errors="mask"`` to answer the good items and return masked arrays whose
masked items hold a fill value no answer takes (NaN, or the integer dtype's minimum, -128 for
int8). Every object pickles.
Nothing here uses the network.
"""

from . import benchmark, datasets, syzygy
from ._kpk import (
    CODINGS,
    SETS,
    TABLE4,
    Bitbase,
    DtzModel,
    Hybrid,
    PlayModel,
    Probe,
    __version__,
    dataset,
    features,
    load_net,
)
from .syzygy import open_tablebase

__all__ = [
    "Bitbase",
    "CODINGS",
    "DtzModel",
    "Hybrid",
    "PlayModel",
    "Probe",
    "SETS",
    "TABLE4",
    "__version__",
    "dataset",
    "benchmark",
    "datasets",
    "features",
    "load_net",
    "open_tablebase",
    "syzygy",
]
