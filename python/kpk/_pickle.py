"""How kpk's objects come back from a pickle: a model from its file's bytes, a probe answer by
probing its position again (the bitbase is a pure function of the rules of chess)."""

from . import _kpk


def hybrid(data, name):
    """A ``Hybrid`` from its model file's bytes."""
    return _kpk.Hybrid._from_bytes(data, name)


def play_model(data, name):
    """A ``PlayModel`` from its model file's bytes."""
    return _kpk.PlayModel._from_bytes(data, name)


def probe(fen):
    """The ``Probe`` of a position."""
    return _kpk.Bitbase().probe(fen)
