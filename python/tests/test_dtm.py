"""``Bitbase.probe_dtm`` answers the distance to mate in python-chess's Gaviota convention (signed
plies from the side to move's view) for KPK, KQK and KRK, either colour strong, equal to the
``kpk bitbase --endgame E --csv`` rows of the kpk binary (every 7th KPK row, every 53rd KQK/KRK
row, each in both colours; every row is checked against an independent solver in tests/dtm.rs)."""

import csv

import chess
import pytest

import kpk
from conftest import run


@pytest.fixture(scope="module")
def bb():
    return kpk.Bitbase()


def swapped(fen):
    """The same position with the colours swapped and the board turned round."""
    return chess.Board(fen).mirror().fen()


@pytest.mark.parametrize("endgame", ["kpk", "kqk", "krk"])
def test_probe_dtm_is_the_cli_dtm_on_sampled_rows(bb, kpk_bin, tmp_path, endgame):
    out = tmp_path / f"{endgame}.csv"
    run(kpk_bin, "bitbase", "--endgame", endgame, "--csv", out)
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows
    for r in rows[:: 7 if endgame == "kpk" else 53]:
        want = int(r["wdl"]) * int(r["dtm"])
        assert bb.probe_dtm(r["fen"]) == want, r
        assert bb.probe_dtm(chess.Board(swapped(r["fen"]))) == want, r


def test_the_sign_and_a_mate(bb):
    assert bb.probe_dtm("2k5/8/8/8/8/8/8/KQ6 w - - 0 1") == 13
    assert bb.probe_dtm("8/8/8/8/8/8/8/KR4k1 b - - 0 1") == -22
    assert bb.probe_dtm("k7/8/1K6/3P4/8/8/8/8 w - - 0 1") == 5
    assert bb.probe_dtm("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1") == 0
    with pytest.raises(KeyError):
        bb.probe_dtm("8/8/8/8/8/8/8/KRR3k1 b - - 0 1")
