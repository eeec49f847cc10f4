"""The API's contract: boards as well as FENs, ValueError with kpk's message, no panic, the
shipped models, the play model's moves, `kpk run`'s saved nets."""

import json
import subprocess

import numpy as np
import pytest

import kpk
from conftest import REPO, run

START = "8/8/8/8/8/1k6/1P6/1K6 w - - 0 1"  # Kb1, Pb2 v kb3: a draw
WON = "8/8/8/8/8/8/4P3/4K2k w - - 0 1"  # Ke1, Pe2 v kh1: a win


class Board:
    """Anything with a fen() method is taken as a position (python-chess's chess.Board is)."""

    def __init__(self, fen):
        self._fen = fen

    def fen(self):
        return self._fen


BAD_FENS = [
    "",
    "   ",
    "8/8 w",
    "8/8/8/8/8/1k6/1P6/1K6 x - - 0 1",
    "8/8/8/8/8/1k6/1P6/1K6 w KQ - 0 1",
    "8/8/8/8/8/1k6/1P6/1K6 w - - -1 1",
    "8/8/8/8/8/1k6/1P6/1KQ5 w - - 0 1",
    "8/8/8/8/8/1k6/1P6/1K5 w - - 0 1",
    "8/8/8/8/8/8/1Pk5/1K6 w - - 0 1",
    "1P6/8/8/8/8/1k6/8/1K6 w - - 0 1",
    "8/8/8/8/8/2k5/1P6/1K6 w - - 0 1",
    "8/8/8/8/8/8/kP6/K7 w - - 0 1",
    "8/8/8/8/8/1k6/1P6/1K6 w - - 0 1 extra",
    "8/8/8/8/8/1k6/1P6/1K6\x1b[31m w",
    "é" * 200,
]


@pytest.mark.parametrize("bad", BAD_FENS)
def test_bad_fens_raise_value_error_with_kpks_message(kpk_bin, bad):
    done = subprocess.run([str(kpk_bin), "probe", bad], capture_output=True, text=True)
    assert done.returncode == 2
    prefix = "kpk: error: argument 1: "
    assert done.stderr.startswith(prefix) and done.stderr.count("\n") == 1
    message = done.stderr[len(prefix) :].rstrip("\n")
    for call in (
        lambda: kpk.Bitbase().probe(bad),
        lambda: kpk.PlayModel().best_move(bad),
    ):
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == message
    for call in (
        lambda: kpk.Bitbase().probe_many([START, bad]),
        lambda: kpk.features([START, bad]),
        lambda: kpk.Hybrid().classify([START, START, bad]),
    ):
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value).startswith("fens[") and str(e.value).endswith(message)


@pytest.mark.parametrize(
    "call",
    [
        lambda: kpk.Bitbase().probe(None),
        lambda: kpk.Bitbase().probe(42),
        lambda: kpk.features([START, None]),
        lambda: kpk.features(12),
        lambda: kpk.features(START, coding="gray"),
        lambda: kpk.dataset("T9"),
        lambda: kpk.dataset("T1", seed=-1),
        lambda: kpk.dataset("T1", seed=2**70),
        lambda: kpk.benchmark.training_draw("wtm", -1, 0),
        lambda: kpk.benchmark.training_draw("wtm", 10, -1),
        lambda: kpk.benchmark.training_draw("wtm", 1.5, 0),
        lambda: kpk.benchmark.evaluate(None, n=-1),
        lambda: kpk.features(START, dtype="int3"),
        lambda: kpk.Hybrid().classify_squares([0], [2], [2**70], True),
        lambda: kpk.dataset("T1", coding=""),
        lambda: kpk.Hybrid().classify([[START]]),
        lambda: kpk.Hybrid("/nonexistent/kpk.hybrid"),
        lambda: kpk.Hybrid(__file__),
        lambda: kpk.PlayModel(__file__),
        lambda: kpk.load_net(__file__),
        lambda: kpk.load_net("/nonexistent/weights.json"),
        lambda: kpk.Hybrid().classify_squares([0], [2], [64], True),
        lambda: kpk.Hybrid().classify_squares([0], [2], [-1], True),
        lambda: kpk.Hybrid().classify_squares([0], [2], [2**40], True),
        lambda: kpk.Hybrid().classify_squares([0], [2], [8, 9], True),
        lambda: kpk.Hybrid().classify_squares([0], [2], [8], [True, False]),
        lambda: kpk.Hybrid().classify_squares([0], [1], [8], False),
        lambda: kpk.Hybrid().classify_squares([0], [63], [56], False),
        lambda: kpk.Hybrid().classify_squares([[0]], [[63]], [[9]], False),
        lambda: kpk.Hybrid().classify_squares(["a1"], [63], [9], False),
        lambda: kpk.Hybrid().classify_squares([0], [63], [9], "yes"),
    ],
)
def test_bad_input_raises_an_error_never_a_panic(call):
    # A Rust panic would surface as pyo3's PanicException, a BaseException: not caught here. Every
    # error is one docs/PYTHON.md documents: ValueError or TypeError.
    with pytest.raises((ValueError, TypeError)):
        call()


def test_illegal_squares_name_the_position():
    with pytest.raises(ValueError, match=r"position 1 \(Ka1 kb2 Pc2, White to move\): illegal: kings on adjacent"):
        kpk.Hybrid().classify_squares([0, 0], [63, 9], [10, 10], False)


def test_boards_are_taken_wherever_a_fen_is():
    bb, h = kpk.Bitbase(), kpk.Hybrid()
    assert bb.probe(Board(WON)).result == "win"
    assert bb.probe_many([Board(WON), START])[0].tolist() == [True, False]
    assert np.array_equal(kpk.features([Board(WON)]), kpk.features(WON))
    assert h.classify(Board(WON)).tolist() == [True]
    assert kpk.PlayModel().best_move(Board(WON)) == kpk.PlayModel().best_move(WON)
    # Any iterable of positions: a NumPy array of strings, a generator.
    assert h.classify(np.array([WON, START])).tolist() == [True, False]
    assert h.classify(f for f in (START, WON)).tolist() == [False, True]


def test_python_chess_boards():
    chess = pytest.importorskip("chess")
    board = chess.Board(WON)
    assert kpk.Bitbase().probe(board).dtc == kpk.Bitbase().probe(WON).dtc
    assert kpk.Hybrid().classify([board, chess.Board(START)]).tolist() == [True, False]
    move = kpk.PlayModel().best_move(board)
    assert chess.Move.from_uci(move) in board.legal_moves


def test_probe_answers_as_the_cli(kpk_bin):
    p = kpk.Bitbase().probe(WON)
    out = run(kpk_bin, "probe", WON)
    assert f"DTC {p.dtc} plies" in out and p.result == "win"
    assert p.moves[0] == ("e2e4", "win", p.dtc - 1)
    assert kpk.Bitbase().probe(START).moves == [("b1a1", "draw", None), ("b1c1", "draw", None)]
    assert "Probe(" in repr(p)


def test_black_pawn_orientation_moves_are_in_its_own_orientation():
    # Ke8, Pe7... the colour-flipped WON: Black's pawn on e7, Black to move.
    p = kpk.Bitbase().probe("4k2K/4p3/8/8/8/8/8/8 b - - 0 1")
    assert p.result == "win" and p.moves[0][0] == "e7e5"


def test_play_model_plays_perfectly_on_every_won_position(bitbase_rows):
    bb, play = kpk.Bitbase(), kpk.PlayModel()
    for r in bitbase_rows:
        if r["side"] != "w" or r["result"] != "win":
            continue
        p = bb.probe(r["fen"])
        move = play.best_move(r["fen"])
        assert dict((m[0], m[1:]) for m in p.moves)[move] == p.moves[0][1:], r["fen"]


def test_no_legal_move_gives_a_dash():
    stalemate = "k7/P7/1K6/8/8/8/8/8 b - - 0 1"  # ka8 v Kb6, Pa7: Black has no move
    assert kpk.Bitbase().probe(stalemate).moves == []
    assert kpk.Bitbase().probe(stalemate).result == "draw"
    assert kpk.PlayModel().best_move(stalemate) == "-"


def test_the_models_ship_in_the_package():
    h = kpk.Hybrid()
    assert h.classify(WON).tolist() == [True]
    committed = REPO / "models" / "kpk.hybrid"
    if committed.is_file():
        assert repr(h) == repr(kpk.Hybrid(committed)).replace(str(committed), "models/kpk.hybrid")


def test_load_net_reads_kpk_runs_weights(kpk_bin, tmp_path):
    """A short `kpk run` of trial 1's config: the net read back, run in NumPy, scores what the
    trial's summary says on its training set."""
    config = (REPO / "experiments" / "table5" / "trial01.toml").read_text()
    config = config.replace("max_epochs = 2000", "max_epochs = 5").replace("window = 20", "window = 2")
    (tmp_path / "t.toml").write_text(config)
    run(kpk_bin, "run", tmp_path / "t.toml", "--out", tmp_path / "out")
    folder = tmp_path / "out" / "trial01"
    net = kpk.load_net(folder / "weights.json")
    summary = json.loads((folder / "summary.json").read_text())
    assert net["topology"] == [32, 10, 10, 1] and net["output_coding"] == "one"
    assert [w.shape for w in net["weights"]] == [(10, 32), (10, 10), (1, 10)]
    X, y, _ = kpk.dataset(summary["training_set"], coding=net["input_coding"])
    a = X
    for w, b in zip(net["weights"], net["biases"]):
        a = 1.0 / (1.0 + np.exp(-net["slope"] * (a @ w.T + b)))
    correct = int(((a[:, 0] >= 0.5) == (y == 1)).sum())
    assert correct == summary["train_positions"] - summary["train_misclassified"]
