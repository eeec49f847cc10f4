"""The conventions Python users bring: masked arrays whose masked items no answer can be taken
for, a `chess.syzygy`-shaped tablebase, variant boards and castling rights refused, errors that
are ValueError or TypeError, scikit-learn's loader shapes with names LightGBM accepts, and
`benchmark.evaluate` checking what `predict` answers."""

import json
import re

import numpy as np
import pytest

import kpk
import kpk.benchmark as bench
from conftest import REPO
from kpk.datasets import feature_names, load_kpk

START = "8/8/8/8/8/1k6/1P6/1K6 w - - 0 1"  # a draw
WON = "8/8/8/8/8/8/4P3/4K2k w - - 0 1"  # a win, White to move
LOST = "8/8/8/8/8/8/4P3/4K2k b - - 0 1"  # the lone king to move, lost
QUEEN = "8/8/8/8/8/8/4Q3/4K2k w - - 0 1"  # not KPK material
BAD = [WON, "8/8 w", START, None, QUEEN]


# errors="mask": masked arrays, masked items holding a value no answer takes.


def batch_answers(fens):
    """Every batch call's answers under errors="mask"."""
    bb, h = kpk.Bitbase(), kpk.Hybrid()
    win, dtc = bb.probe_many(fens, errors="mask")
    return {
        "probe_many win": win,
        "probe_many dtc": dtc,
        "classify": h.classify(fens, errors="mask"),
        "features": kpk.features(fens, errors="mask"),
        "features int8": kpk.features(fens, dtype=np.int8, errors="mask"),
        "dtz": kpk.DtzModel().dtz(fens, errors="mask"),
    }


def test_masked_items_hold_a_fill_value_no_answer_takes():
    good = batch_answers([WON, START])
    for name, a in batch_answers(BAD).items():
        assert isinstance(a, np.ma.MaskedArray), name
        bad_rows = np.array([False, True, False, True, True])
        rows = a.mask if a.ndim == 1 else a.mask.all(axis=1)
        assert rows.tolist() == bad_rows.tolist(), name
        fill = a.fill_value
        if a.dtype.kind == "f":
            assert np.isnan(fill), name
        else:
            assert fill == np.iinfo(a.dtype).min, name
        # .filled() and .data give the fill value where masked: never an answer.
        for values in (a.filled(), a.data):
            masked_values = values[bad_rows]
            assert (np.isnan(masked_values).all() if a.dtype.kind == "f" else (masked_values == fill).all()), name
            assert not np.isin(masked_values, good[name].compressed()).any(), name
        # The good items are the answers errors="raise" gives.
        assert np.array_equal(np.asarray(values[~bad_rows]), np.asarray(good[name])), name


def test_the_fill_value_lies_outside_every_answer_on_every_position(bitbase_rows):
    fens = [r["fen"] for r in bitbase_rows]
    for name, a in batch_answers(fens).items():
        assert not a.mask.any(), name
        data = a.compressed()
        if a.dtype.kind == "f":
            assert not np.isnan(data).any(), name
        else:
            assert data.min() > a.fill_value, name


def test_mask_gives_a_masked_array_even_when_nothing_is_bad():
    for name, a in batch_answers([WON, START]).items():
        assert isinstance(a, np.ma.MaskedArray) and not a.mask.any(), name
    sq = kpk.Hybrid().classify_squares([4], [7], [12], False, errors="mask")
    assert isinstance(sq, np.ma.MaskedArray) and sq.tolist() == [1] and sq.fill_value == -128


def test_win_answers_under_mask_are_int8_and_score_with_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")
    h = kpk.Hybrid()
    assert h.classify([WON, START]).dtype == np.bool_
    win = h.classify(BAD, errors="mask")
    assert win.dtype == np.int8 and win.filled().tolist() == [1, -128, 0, -128, -128]
    y = np.array([1, 1, 0, 0, 0])
    # .filled(): a masked item is a label no class has, so it counts as wrong.
    assert metrics.accuracy_score(y, win.filled()) == pytest.approx(2 / 5)
    assert metrics.accuracy_score(y[~win.mask], win.compressed()) == 1.0
    assert metrics.accuracy_score([1, 0], h.classify([WON, START], errors="mask")) == 1.0


# A tablebase shaped as chess.syzygy's.


def test_open_tablebase_is_shaped_as_chess_syzygy(bitbase_rows):
    chess = pytest.importorskip("chess")
    import chess.syzygy

    bb = kpk.Bitbase()
    with kpk.open_tablebase() as tb:
        assert isinstance(tb, kpk.syzygy.Tablebase)
        for r in bitbase_rows[::97]:
            board = chess.Board(r["fen"])
            assert tb.probe_wdl(board) == bb.probe_wdl(r["fen"]) == tb.get_wdl(board)
            assert tb.probe_dtz(board) == bb.probe_dtz(r["fen"]) == tb.get_dtz(board)
        assert tb.probe_wdl(chess.Board(WON)) == 2 and tb.probe_wdl(chess.Board(LOST)) == -2
        assert tb.probe_wdl(chess.Board(START)) == 0 and tb.probe_dtz(chess.Board(START)) == 0
        # Other material: MissingTableError, a KeyError, as chess.syzygy raises for a table it lacks.
        for missing in (chess.Board(QUEEN), QUEEN, chess.Board("8/8/8/8/8/8/8/4K2k w - - 0 1")):
            with pytest.raises(chess.syzygy.MissingTableError):
                tb.probe_wdl(missing)
            with pytest.raises(chess.syzygy.MissingTableError):
                tb.probe_dtz(missing)
            assert tb.get_wdl(missing) is None and tb.get_dtz(missing, -7) == -7
        assert kpk.syzygy.MissingTableError is chess.syzygy.MissingTableError
        with pytest.raises(ValueError):
            tb.probe_wdl("8/8 w")
    # Closed (the with block's end): the table is gone, as chess.syzygy's tables are.
    with pytest.raises(chess.syzygy.MissingTableError):
        tb.probe_wdl(chess.Board(WON))
    assert tb.get_wdl(chess.Board(WON)) is None
    assert kpk.open_tablebase("/nonexistent", max_fds=4).probe_wdl(WON) == 2


def test_variant_boards_are_refused_everywhere():
    chess = pytest.importorskip("chess")
    import chess.syzygy
    import chess.variant

    bb, h = kpk.Bitbase(), kpk.Hybrid()
    tb = kpk.open_tablebase()
    for Variant in (chess.variant.AntichessBoard, chess.variant.KingOfTheHillBoard, chess.variant.ThreeCheckBoard):
        board = Variant(WON)
        # The Syzygy-shaped probes: KeyError (not MissingTableError), as chess.syzygy raises.
        for probe in (tb.probe_wdl, tb.probe_dtz, bb.probe_wdl, bb.probe_dtz, bb.probe_dtc, kpk.DtzModel().probe_dtz):
            with pytest.raises(KeyError, match="variant") as e:
                probe(board)
            assert not isinstance(e.value, chess.syzygy.MissingTableError)
        assert tb.get_wdl(board) is None and bb.get_dtz(board, 5) == 5
        # Everywhere else: ValueError.
        for call in (bb.probe, h.classify, kpk.features, kpk.PlayModel().best_move, bb.probe_many):
            with pytest.raises(ValueError, match="variant"):
                call(board)
        assert h.classify([WON, board], errors="mask").mask.tolist() == [False, True]
    with pytest.raises(ValueError, match="standard chess"):
        kpk.open_tablebase(VariantBoard=chess.variant.SuicideBoard)


def test_boards_with_castling_rights_are_refused_everywhere():
    chess = pytest.importorskip("chess")
    bb, h = kpk.Bitbase(), kpk.Hybrid()
    board = chess.Board(WON)
    board.castling_rights = chess.BB_H1
    # python-chess's fen() drops rights it cannot use: kpk reads the board, and refuses it.
    assert board.fen() == WON
    for call in (bb.probe, h.classify, kpk.features, kpk.PlayModel().best_move):
        with pytest.raises(ValueError, match="castling rights"):
            call(board)
    with pytest.raises(KeyError, match="castling rights"):
        kpk.open_tablebase().probe_wdl(board)
    assert kpk.open_tablebase().get_dtz(board) is None
    assert h.classify([board, WON], errors="mask").mask.tolist() == [True, False]
    with pytest.raises(ValueError, match="castling"):
        bb.probe("8/8/8/8/8/8/4P3/4K2k w K - 0 1")


def test_a_base_board_is_a_type_error_not_an_attribute_error():
    chess = pytest.importorskip("chess")
    board = chess.BaseBoard("8/8/8/8/8/8/4P3/4K2k")
    for call in (kpk.Bitbase().probe, kpk.Hybrid().classify, kpk.features, kpk.Bitbase().probe_wdl):
        with pytest.raises(TypeError, match="no side to move"):
            call(board)
    assert kpk.Hybrid().classify([WON, board], errors="mask").mask.tolist() == [False, True]


def test_boards_whose_bitboards_disagree_say_so():
    chess = pytest.importorskip("chess")
    cases = []
    b = chess.Board(WON)
    b.pawns |= chess.BB_E1  # the white king's square also holds a pawn
    cases.append(b)
    b = chess.Board(WON)
    b.occupied_co[chess.BLACK] |= chess.BB_E2  # the pawn both white and black
    cases.append(b)
    b = chess.Board(WON)
    b.occupied ^= chess.BB_H1  # the black king missing from occupied
    cases.append(b)
    for board in cases:
        for call in (kpk.Bitbase().probe, kpk.Hybrid().classify, kpk.Bitbase().probe_wdl):
            with pytest.raises(ValueError, match="bitboards disagree"):
                call(board)


def test_seed_and_n_out_of_range_are_value_errors():
    for call in (
        lambda: kpk.dataset("T1", seed=-1),
        lambda: kpk.dataset("T1", seed=2**64),
        lambda: load_kpk("T1", seed=-1),
        lambda: bench.training_draw("wtm", -1, 0),
        lambda: bench.training_draw("btm", 84_013, 0),
        lambda: bench.training_draw("wtm", 0, 0),
        lambda: bench.evaluate(None, n=-1),
        lambda: bench.evaluate(None, n=81_664),
        lambda: bench.evaluate(None, side="btm", n=10**9),
    ):
        with pytest.raises(ValueError):
            call()
    for call in (
        lambda: kpk.dataset("T1", seed="1"),
        lambda: bench.training_draw("wtm", 1.5, 0),
        lambda: bench.evaluate(None, n="125"),
        lambda: bench.evaluate(None, draws=2.0),
    ):
        with pytest.raises(TypeError):
            call()


# load_kpk as scikit-learn's loaders, with names LightGBM and XGBoost accept.

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def test_feature_names_are_lists_and_safe_names_are_identifiers():
    for coding in kpk.CODINGS:
        names = feature_names(coding)
        safe = feature_names(coding, safe_names=True)
        assert isinstance(names, list) and isinstance(safe, list) and len(names) == len(safe)
        assert len(set(safe)) == len(safe) and all(IDENTIFIER.fullmatch(n) for n in safe), coding
        b = load_kpk("T1", coding=coding, safe_names=True)
        assert b.feature_names == safe and b.data.shape[1] == len(safe)
    assert feature_names("natural", safe_names=True) == [f"x{i}" for i in range(1, 33)]
    assert "x7_eq_m7" in feature_names("onehot", safe_names=True)
    assert feature_names("binary", safe_names=True)[:3] == ["x1_bit2", "x1_bit1", "x1_bit0"]
    assert "x1 ... x32" in load_kpk("T1", safe_names=True).DESCR


def test_as_frame_target_is_named_target():
    pd = pytest.importorskip("pandas")
    b = load_kpk("T1", as_frame=True, safe_names=True)
    assert list(b.frame.columns) == [*(f"x{i}" for i in range(1, 33)), "target"]
    assert b.target.name == "target" and isinstance(b.data, pd.DataFrame)


def test_lightgbm_fits_the_safe_names_frame():
    lgb = pytest.importorskip("lightgbm")
    X, y = load_kpk("T4", as_frame=True, safe_names=True, return_X_y=True)
    model = lgb.LGBMClassifier(n_estimators=20, random_state=0, verbose=-1).fit(X, y)
    assert model.feature_name_ == list(X.columns)
    assert (model.predict(X) == y).mean() > 0.9
    # Table 4's short names hold commas and brackets, which LightGBM refuses.
    X_short, _ = load_kpk("T4", as_frame=True, return_X_y=True)
    with pytest.raises(Exception, match="[Ff]eature"):
        lgb.LGBMClassifier(n_estimators=2, verbose=-1).fit(X_short, y)


# benchmark.evaluate checks predict's answer before it scores.


class Answers:
    """An estimator whose predict returns ``answer(X)``; the answer is a class attribute, since
    ``evaluate`` fits clones."""

    answer = None

    def fit(self, X, y):
        return self

    def predict(self, X):
        return type(self).answer(X)

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self


@pytest.mark.parametrize(
    "answer, kind, words",
    [
        (lambda X: np.zeros((len(X), 1), dtype=np.int64), ValueError, "shape"),
        (lambda X: np.zeros(len(X) - 1, dtype=np.int64), ValueError, "shape"),
        (lambda X: None, TypeError, "None"),
        (lambda X: np.full(len(X), np.nan), ValueError, "NaN"),
        (lambda X: np.full(len(X), 0.7), ValueError, "probabilities"),
        (lambda X: np.full(len(X), 2), ValueError, "other than 0 and 1"),
        (lambda X: np.full(len(X), "win"), TypeError, "labels"),
        (lambda X: np.zeros((len(X), 2)), ValueError, "shape"),
    ],
)
def test_evaluate_refuses_an_answer_it_cannot_score(answer, kind, words):
    Answers.answer = staticmethod(answer)
    with pytest.raises(kind, match=words):
        bench.evaluate(Answers(), side="wtm", n=125, draws=1)


def test_evaluate_scores_labels_of_any_numeric_dtype_alike():
    results = []
    for dtype in (np.int64, np.int8, np.bool_, np.float64):
        Answers.answer = staticmethod(lambda X, dtype=dtype: (X[:, 0] > 2).astype(dtype))
        results.append(bench.evaluate(Answers(), side="btm", n=136, draws=1)["per_draw"])
    assert all(r == results[0] for r in results)


def test_evaluate_records_the_kpk_version_and_the_designs_commit():
    Answers.answer = staticmethod(lambda X: np.ones(len(X), dtype=np.int64))
    result = bench.evaluate(Answers(), side="wtm", n=125, draws=1)
    assert result["kpk_version"] == kpk.__version__
    assert result["design"] == "experiments/learners_powered.toml"
    # The commit reports/learners.json names, read here independently of the build's reading.
    committed = REPO / "reports" / "learners.json"
    if committed.is_file():
        assert result["design_commit"] == json.loads(committed.read_text())["declared_in"]
        assert re.fullmatch(r"[0-9a-f]{40}", result["design_commit"])
