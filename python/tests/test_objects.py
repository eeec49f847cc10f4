"""The package as scikit-learn, pandas, joblib and python-chess users expect it: `load_kpk`'s
Bunch, pickling, masked batches, boards read natively, the Syzygy-shaped probes, and errors that
name their argument."""

import inspect
import pickle
import subprocess

import numpy as np
import pytest

import kpk
from kpk.datasets import load_kpk
from conftest import REPO

START = "8/8/8/8/8/1k6/1P6/1K6 w - - 0 1"  # a draw
WON = "8/8/8/8/8/8/4P3/4K2k w - - 0 1"  # a win
LOST = "8/8/8/8/8/8/4P3/4K2k b - - 0 1"  # the lone king to move, lost


def test_load_kpk_is_a_scikit_learn_bunch():
    b = load_kpk("T1")
    assert b.data.shape == (125, 32) and b.data.dtype == np.float64
    assert isinstance(b.feature_names, list) and isinstance(b.feature_descriptions, list)
    assert len(b.feature_names) == 32 and b.feature_names[6] == "fd(wK,bK)"
    assert len(set(b.feature_names)) == 32
    assert list(b.target_names) == ["draw", "win"]
    assert len(b.fens) == 125 and b["target"] is b.target
    X, y, fens = kpk.dataset("T1")
    assert np.array_equal(b.data, X) and np.array_equal(b.target, y) and b.fens == fens
    assert "Haworth" in b.DESCR and "x13" in b.DESCR and "seeded with 1998" in b.DESCR
    assert b.frame is None
    # The constant column x13 is all zeros on every legal position.
    assert not load_kpk("all", dtype=np.int8).data[:, 12].any()


def test_load_kpk_options():
    X, y = load_kpk("T4", return_X_y=True, dtype=np.int8)
    assert X.dtype == np.int8 and X.nbytes == 20643 * 32
    assert np.array_equal(X, kpk.dataset("T4")[0].astype(np.int8))
    assert np.array_equal(load_kpk("T2", seed=7).fens, kpk.dataset("T2", seed=7)[2])
    for coding in kpk.CODINGS:
        b = load_kpk("T1", coding=coding)
        assert b.data.shape[1] == len(b.feature_names) == len(b.feature_descriptions)
    with pytest.raises(ValueError, match="scaled"):
        load_kpk("T1", coding="scaled", dtype=np.int8)
    with pytest.raises(ValueError, match="dtype"):
        load_kpk("T1", dtype=np.uint16)


def test_load_kpk_as_frame():
    pd = pytest.importorskip("pandas")
    b = load_kpk("T1", as_frame=True)
    assert isinstance(b.data, pd.DataFrame) and list(b.data.columns) == list(b.feature_names)
    assert isinstance(b.target, pd.Series) and b.target.name == "target"
    assert list(b.frame.columns) == [*b.feature_names, "target"]
    X, y = load_kpk("S1", as_frame=True, return_X_y=True, dtype=np.int8)
    assert isinstance(X, pd.DataFrame) and (X.dtypes == np.int8).all()


def test_load_kpk_without_scikit_learn_is_a_dict_with_attributes():
    from kpk.datasets import _Bunch

    b = _Bunch(data=1)
    assert b.data == 1 and b["data"] == 1
    with pytest.raises(AttributeError):
        b.target


def test_every_object_pickles():
    bb, h, play = kpk.Bitbase(), kpk.Hybrid(), kpk.PlayModel()
    for obj in (bb, h, play):
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj) and repr(back) == repr(obj)
    assert pickle.loads(pickle.dumps(h)).classify([WON, START]).tolist() == [True, False]
    assert pickle.loads(pickle.dumps(play)).best_move(WON) == play.best_move(WON)
    p = bb.probe(WON)
    assert pickle.loads(pickle.dumps(p)) == p


def test_a_loaded_model_pickles_to_its_files_bytes():
    path = REPO / "models" / "kpk.hybrid"
    data = path.read_bytes()
    h = kpk.Hybrid(path)
    assert data in pickle.dumps(h)
    assert kpk.PlayModel().__reduce__()[1][0] == (REPO / "models" / "kpk-play.hybrid").read_bytes()


def test_joblib_runs_classify_on_two_processes():
    joblib = pytest.importorskip("joblib")
    h = kpk.Hybrid()
    chunks = [[WON, START], [START, WON, WON]]
    out = joblib.Parallel(n_jobs=2)(joblib.delayed(h.classify)(c) for c in chunks)
    assert [o.tolist() for o in out] == [[True, False], [False, True, True]]


def test_probes_compare_hash_and_convert():
    bb = kpk.Bitbase()
    a, b = bb.probe(WON), bb.probe(WON + " ")
    assert a == b and hash(a) == hash(b) and a != bb.probe(START)
    assert len({a, b, bb.probe(START)}) == 2
    d = a.as_dict()
    assert d == {"fen": a.fen, "result": "win", "dtc": a.dtc, "dtz": a.dtz, "moves": a.moves}
    assert a.dtz == bb.probe_dtz(WON) > 0


def test_errors_mask_answers_the_good_items_and_masks_the_bad():
    bb, h = kpk.Bitbase(), kpk.Hybrid()
    fens = [WON, "8/8 w", START, None, "8/8/8/8/8/8/4P3/4KQ1k w - - 0 1"]
    win, dtc = bb.probe_many(fens, errors="mask")
    assert isinstance(win, np.ma.MaskedArray)
    assert win.mask.tolist() == [False, True, False, True, True]
    assert win.compressed().tolist() == [1, 0] and dtc.compressed().tolist() == [bb.probe(WON).dtc, -1]
    assert h.classify(fens, errors="mask").mask.tolist() == win.mask.tolist()
    x = kpk.features(fens, errors="mask")
    assert x.shape == (5, 32) and x.mask[:, 0].tolist() == win.mask.tolist() and x.mask[1].all()
    sq = h.classify_squares([4, 4], [7, 7], [12, 7], False, errors="mask")
    assert sq.mask.tolist() == [False, True] and sq[0] == 1
    # "raise" is the default and raises.
    with pytest.raises(ValueError, match=r"fens\[1\]"):
        h.classify(fens[:3])
    with pytest.raises(ValueError, match="errors must be 'raise' or 'mask'"):
        h.classify(fens, errors="ignore")


def test_syzygy_shaped_probes_answer_from_the_side_to_move():
    bb = kpk.Bitbase()
    assert (bb.probe_wdl(WON), bb.probe_dtc(WON)) == (2, bb.probe(WON).dtc) and bb.probe(WON).dtc > 0
    assert bb.probe_wdl(LOST) == -2 and bb.probe_dtc(LOST) < 0
    assert (bb.probe_wdl(START), bb.probe_dtc(START)) == (0, 0)
    # Black's pawn: the same position with colours flipped.
    assert bb.probe_wdl("4k2K/4p3/8/8/8/8/8/8 b - - 0 1") == 2
    queen = "8/8/8/8/8/8/4Q3/4K2k w - - 0 1"
    assert bb.get_wdl(queen) is None and bb.get_dtc(queen, default=-99) == -99
    assert bb.get_wdl(WON) == 2 and bb.get_dtc(LOST) == bb.probe_dtc(LOST)
    with pytest.raises(KeyError):
        bb.probe_wdl(queen)
    syzygy = pytest.importorskip("chess.syzygy")
    with pytest.raises(syzygy.MissingTableError):
        bb.probe_wdl(queen)
    with pytest.raises(ValueError):
        bb.get_wdl("8/8 w")


def test_the_syzygy_probes_agree_with_probe_many_on_every_position(bitbase_rows):
    bb = kpk.Bitbase()
    for r in bitbase_rows[::53]:
        wdl, dtc = bb.probe_wdl(r["fen"]), bb.probe_dtc(r["fen"])
        pawn_side_to_move = r["side"] == "w"
        win = r["result"] == "win"
        assert wdl == (0 if not win else 2 if pawn_side_to_move else -2)
        assert dtc == (0 if not win else int(r["dtc"]) * (1 if pawn_side_to_move else -1))


def test_python_chess_boards_are_read_natively_and_moves_come_back_as_chess_moves():
    chess = pytest.importorskip("chess")
    bb, h, play = kpk.Bitbase(), kpk.Hybrid(), kpk.PlayModel()
    board = chess.Board(WON)
    assert bb.probe(board) == bb.probe(WON)
    assert play.best_move(board, as_move=True) == chess.Move.from_uci(play.best_move(WON))
    assert play.best_move("k7/P7/1K6/8/8/8/8/8 b - - 0 1", as_move=True) is None
    assert [m[0] for m in bb.probe(board).chess_moves()] == [chess.Move.from_uci(m[0]) for m in bb.probe(board).moves]
    # A board that is not KPK gives the FEN's message; a board of any material is None for get_wdl.
    with pytest.raises(ValueError, match="not KPK material"):
        h.classify([chess.Board("8/8/8/8/8/8/4Q3/4K2k w - - 0 1")])
    assert bb.get_wdl(chess.Board()) is None
    assert bb.probe_wdl(chess.Board(LOST)) == -2


def test_en_passant_is_checked_as_python_chess_checks_it(kpk_bin):
    chess = pytest.importorskip("chess")
    bb = kpk.Bitbase()
    # Black's pawn just played e7e5: e6 is a possible en passant square with White to move.
    fen = "8/8/8/4p3/8/8/8/K6k w - e6 0 1"
    assert chess.Board(fen).is_valid()
    assert bb.probe(fen).result == bb.probe(chess.Board(fen)).result
    for bad in ["8/8/8/4p3/8/8/8/K6k w - d6 0 1", "8/8/8/8/8/8/4P3/K6k w - e3 0 1", "8/8/8/4p3/8/8/8/K6k b - e6 0 1"]:
        assert not chess.Board(bad).is_valid()
        with pytest.raises(ValueError, match="en passant"):
            bb.probe(bad)
        with pytest.raises(ValueError, match="en passant"):
            bb.probe(chess.Board(bad))
    # One grammar: the CLI refuses each with the package's message, on one line.
    for bad in ["8/8/8/8/8/8/4P3/K6k w - e3 0 1", "8/8/8/4p3/8/8/8/K6k b - e6 0 1"]:
        with pytest.raises(ValueError) as refused:
            bb.probe(bad)
        done = subprocess.run([str(kpk_bin), "probe", bad], capture_output=True, text=True)
        assert done.returncode != 0 and done.stdout == ""
        assert done.stderr == f"kpk: error: argument 1: {refused.value}\n"
    # A real double step, played on a board.
    board = chess.Board("8/8/8/8/8/8/4P3/K6k w - - 0 1")
    board.push_san("e4")
    assert board.ep_square == chess.E3 and bb.probe(board).result == bb.probe(board.fen()).result


@pytest.mark.parametrize(
    "call, kind, words",
    [
        (lambda: kpk.Hybrid().classify_squares([0.0], [63], [9], False), TypeError, "wk"),
        (lambda: kpk.Hybrid().classify_squares([0], [63.5], [9], False), TypeError, "bk"),
        (lambda: kpk.Hybrid().classify_squares([0], [63], None, False), TypeError, "wp"),
        (lambda: kpk.Hybrid().classify_squares([0], [63], [9], [1]), TypeError, "black_to_move"),
        (lambda: kpk.Hybrid().classify_squares([0], [63], [99], False), ValueError, "wp[0] = 99"),
        (lambda: kpk.dataset("T1", seed=-1), ValueError, "seed"),
        (lambda: kpk.dataset("T1", seed=2**64), ValueError, "seed"),
        (lambda: kpk.dataset("T1", seed=1.5), TypeError, "seed"),
        (lambda: kpk.dataset("T9"), ValueError, "name"),
        (lambda: kpk.features(START, coding="gray"), ValueError, "coding"),
        (lambda: kpk.features(12), TypeError, "fens"),
    ],
)
def test_errors_name_their_argument(call, kind, words):
    with pytest.raises(kind, match=words.replace("[", r"\[").replace("]", r"\]")):
        call()


def test_signatures_show_their_defaults():
    assert "seed=1998" in str(inspect.signature(kpk.dataset))
    assert "seed=1998" in str(inspect.signature(load_kpk))
