"""``DtzModel`` answers Syzygy's DTZ from the DTZ model file alone: the same as the bitbase's
retrograde DTZ on every legal position in all four orientations, the same as ``kpk query --dtz``,
and consistent with the CLI's results and DTCs; shaped as python-chess's ``chess.syzygy``."""

import pickle
import subprocess

import numpy as np
import pytest

import kpk
from conftest import REPO
from orient import ORIENTATIONS, fen

WON = "8/8/8/8/8/1K6/1P6/6k1 w - - 0 1"
LOST = "8/8/8/8/8/1K6/1P6/6k1 b - - 0 1"
START = "k7/8/1K6/P7/8/8/8/8 b - - 0 1"
QUEEN = "8/8/8/8/8/8/4Q3/4K2k w - - 0 1"


@pytest.fixture(scope="module")
def model():
    return kpk.DtzModel()


@pytest.mark.parametrize("name,flip,mirror", ORIENTATIONS, ids=[o[0] for o in ORIENTATIONS])
def test_the_model_file_agrees_with_the_bitbase_on_every_position(model, bitbase_rows, name, flip, mirror):
    fens = [fen(r["side"], r["wk"], r["bk"], r["wp"], flip, mirror) for r in bitbase_rows]
    got = model.dtz(fens)
    assert got.dtype == np.int8 and len(got) == 165_676
    bb = kpk.Bitbase()
    want = np.array([bb.probe_dtz(f) for f in fens], dtype=np.int8)
    assert np.array_equal(got, want), name
    # The CLI's results and DTCs: 0 exactly for a draw, the sign of the side to move, and a win's
    # DTZ at most its DTC (a zeroing move comes no later than the conversion).
    win = np.array([r["result"] == "win" for r in bitbase_rows])
    pawn_side = np.array([r["side"] == "w" for r in bitbase_rows])
    dtc = np.array([int(r["dtc"]) if r["dtc"] else 0 for r in bitbase_rows])
    assert np.array_equal(got == 0, ~win)
    assert np.array_equal(got[win] > 0, pawn_side[win])
    assert (np.abs(got[win]) <= dtc[win]).all()


def test_the_model_file_agrees_with_kpk_query_dtz(model, kpk_bin, bitbase_rows):
    fens = [r["fen"] for r in bitbase_rows]
    done = subprocess.run(
        [str(kpk_bin), "query", "--dtz", "--model", str(REPO / "models" / "kpk-dtz.hybrid"), "--stdin"],
        input="\n".join(fens),
        capture_output=True,
        text=True,
        check=True,
    )
    cli = np.array([int(line.rsplit("\t", 1)[1]) for line in done.stdout.splitlines()])
    assert np.array_equal(model.dtz(fens), cli)


def test_the_syzygy_shaped_probes(model):
    bb = kpk.Bitbase()
    assert model.probe_dtz(WON) == bb.probe_dtz(WON) > 0
    assert model.probe_dtz(LOST) == bb.probe_dtz(LOST) < 0
    assert (model.probe_dtz(START), model.probe_wdl(START)) == (0, 0)
    assert (model.probe_wdl(WON), model.probe_wdl(LOST)) == (2, -2)
    # Black's pawn: the same position with colours flipped.
    assert model.probe_dtz("4k2K/4p3/8/8/8/8/8/8 b - - 0 1") == model.probe_dtz("8/8/8/8/8/8/4P3/4K2k w - - 0 1")
    assert model.get_dtz(QUEEN) is None and model.get_wdl(QUEEN, default=-99) == -99
    assert bb.get_dtz(QUEEN) is None and bb.get_dtz(LOST) == bb.probe_dtz(LOST)
    assert model.get_dtz(WON) == model.probe_dtz(WON) and model.get_wdl(LOST) == -2
    for probe in (model.probe_dtz, model.probe_wdl, bb.probe_dtz):
        with pytest.raises(KeyError):
            probe(QUEEN)
    with pytest.raises(ValueError):
        model.get_dtz("8/8 w")


def test_batches_mask_bad_items_and_the_model_pickles(model):
    d = model.dtz([WON, "8/8 w", START, None], errors="mask")
    assert isinstance(d, np.ma.MaskedArray) and d.mask.tolist() == [False, True, False, True]
    assert d.compressed().tolist() == [model.probe_dtz(WON), 0]
    with pytest.raises(ValueError, match=r"fens\[1\]"):
        model.dtz([WON, "8/8 w"])
    assert model.dtz(WON).tolist() == [model.probe_dtz(WON)]
    back = pickle.loads(pickle.dumps(model))
    assert back.probe_dtz(LOST) == model.probe_dtz(LOST) and repr(back) == repr(model)
    assert f"{(REPO / 'models' / 'kpk-dtz.hybrid').stat().st_size} bytes" in repr(model)


def test_a_damaged_or_foreign_file_is_refused(tmp_path):
    data = (REPO / "models" / "kpk-dtz.hybrid").read_bytes()
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 0x10
    (tmp_path / "bad.hybrid").write_bytes(bytes(bad))
    with pytest.raises(ValueError, match="bad.hybrid"):
        kpk.DtzModel(tmp_path / "bad.hybrid")
    with pytest.raises(ValueError):
        kpk.DtzModel(REPO / "models" / "kpk.hybrid")
    assert kpk.DtzModel(REPO / "models" / "kpk-dtz.hybrid").probe_dtz(WON) == kpk.DtzModel().probe_dtz(WON)


def test_python_chess_boards(model):
    chess = pytest.importorskip("chess")
    assert model.probe_dtz(chess.Board(WON)) == model.probe_dtz(WON)
    assert model.get_dtz(chess.Board()) is None
