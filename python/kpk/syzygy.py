"""KPK as python-chess's ``chess.syzygy`` serves a table: ``open_tablebase()`` returns a
``Tablebase`` with ``probe_wdl``, ``probe_dtz``, ``get_wdl``, ``get_dtz`` and ``close``, usable as a
context manager, answering from the exact bitbase (values from the side to move's point of view,
as Syzygy's).

As ``chess.syzygy`` does, a probe raises ``MissingTableError`` (a ``KeyError``;
``chess.syzygy.MissingTableError`` itself where python-chess is installed) for a position of any
material but KPvK, and ``KeyError`` for a board of a variant (``uci_variant`` other than
``"chess"``) or with castling rights; ``get_wdl`` and ``get_dtz`` return ``default`` where the probe
would raise ``KeyError``. A malformed FEN or an illegal KPK position raises ``ValueError``. After
``close()`` the table is gone: every probe raises ``MissingTableError``, as ``chess.syzygy``'s does
once its tables are closed.
"""

from . import _kpk

__all__ = ["MissingTableError", "Tablebase", "open_tablebase"]

try:
    from chess.syzygy import MissingTableError
except ImportError:  # python-chess is optional

    class MissingTableError(KeyError):
        """No table for the material probed (as ``chess.syzygy.MissingTableError``)."""


class Tablebase:
    """The KPvK table, shaped as ``chess.syzygy.Tablebase``: positions are python-chess boards,
    FEN strings or objects with ``fen()``, as everywhere in kpk."""

    def __init__(self):
        self._bitbase = _kpk.Bitbase()

    def _table(self):
        if self._bitbase is None:
            raise MissingTableError("the tablebase is closed")
        return self._bitbase

    def probe_wdl(self, board):
        """2 a win, 0 a draw, -2 a loss for the side to move (KPK has no cursed win or blessed
        loss, Syzygy's 1 and -1)."""
        return self._table().probe_wdl(board)

    def probe_dtz(self, board):
        """Plies to the next zeroing move (a pawn move or a capture): positive where the side to
        move wins, negative where it loses, 0 for a draw; kpk's DTZ is Syzygy's metric."""
        return self._table().probe_dtz(board)

    def get_wdl(self, board, default=None):
        """``probe_wdl``, or ``default`` where it would raise ``KeyError``."""
        try:
            return self.probe_wdl(board)
        except KeyError:
            return default

    def get_dtz(self, board, default=None):
        """``probe_dtz``, or ``default`` where it would raise ``KeyError``."""
        try:
            return self.probe_dtz(board)
        except KeyError:
            return default

    def close(self):
        """Drop the table: later probes raise ``MissingTableError``."""
        self._bitbase = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __repr__(self):
        return "Tablebase(KPvK, closed)" if self._bitbase is None else "Tablebase(KPvK)"


def open_tablebase(directory=None, *, load_wdl=True, load_dtz=True, max_fds=128, VariantBoard=None):
    """The KPvK table as ``chess.syzygy.open_tablebase(directory)`` opens tables, so that code
    written for Syzygy runs unchanged. The table is generated in memory (about a millisecond)
    and no file is read: ``directory``, ``load_wdl``, ``load_dtz`` and ``max_fds`` are accepted
    and unused. ``VariantBoard`` other than standard chess raises ``ValueError``: kpk holds
    standard chess only."""
    variant = getattr(VariantBoard, "uci_variant", "chess")
    if variant != "chess":
        raise ValueError(f"VariantBoard: kpk holds standard chess only, got the variant {variant!r}")
    return Tablebase()
