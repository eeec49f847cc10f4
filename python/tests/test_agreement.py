"""The package agrees with the Rust CLI on every legal position, in all four orientations."""

import numpy as np
import pytest

import kpk
from conftest import read_csv, run
from orient import ORIENTATIONS, fen, square_index, uci_back

N_LEGAL = 165_676
FEATURES = [f"x{i}" for i in range(1, 33)]


@pytest.fixture(scope="session")
def truth(bitbase_rows):
    win = np.array([r["result"] == "win" for r in bitbase_rows])
    dtc = np.array([int(r["dtc"]) if r["dtc"] else -1 for r in bitbase_rows], dtype=np.int16)
    return win, dtc


@pytest.fixture(scope="session", params=ORIENTATIONS, ids=[o[0] for o in ORIENTATIONS])
def oriented(request, bitbase_rows):
    """(name, flip, mirror, FENs of every legal position in that orientation)."""
    name, flip, mirror = request.param
    fens = [fen(r["side"], r["wk"], r["bk"], r["wp"], flip, mirror) for r in bitbase_rows]
    return name, flip, mirror, fens


def test_the_domain_is_every_legal_position(bitbase_rows):
    assert len(bitbase_rows) == N_LEGAL
    assert len(kpk.Bitbase()) == N_LEGAL
    # The CLI's own FEN column is the canonical orientation the tests build.
    assert all(r["fen"] == fen(r["side"], r["wk"], r["bk"], r["wp"]) for r in bitbase_rows)


def test_probe_many_and_classify_agree_with_the_bitbase_csv(oriented, truth):
    _, _, _, fens = oriented
    win, dtc = kpk.Bitbase().probe_many(fens)
    assert win.dtype == np.bool_ and dtc.dtype == np.int16
    assert np.array_equal(win, truth[0])
    assert np.array_equal(dtc, truth[1])
    assert np.array_equal(kpk.Hybrid().classify(fens), truth[0])


def test_features_agree_with_the_dataset_csv(oriented, all_rows, bitbase_rows):
    _, _, _, fens = oriented
    # `kpk dataset --set all` lists the positions in the bitbase CSV's order.
    assert [(r["side"], r["wk"], r["bk"], r["wp"]) for r in all_rows] == [
        (r["side"], r["wk"], r["bk"], r["wp"]) for r in bitbase_rows
    ]
    expected = np.array([[int(r[x]) for x in FEATURES] for r in all_rows], dtype=np.float64)
    got = kpk.features(fens)
    assert got.shape == (N_LEGAL, 32) and got.dtype == np.float64
    assert np.array_equal(got, expected)


def test_probe_agrees_with_the_bitbase_csv(oriented, bitbase_rows, truth):
    """Every position's probe: result and DTC as the CSV, and each move's result and DTC as the
    CSV's answer for the position the move leads to (looked up in canonical orientation)."""
    _, flip, mirror, fens = oriented
    bb = kpk.Bitbase()
    at = {
        (r["side"], square_index(r["wk"]), square_index(r["bk"]), square_index(r["wp"])): i
        for i, r in enumerate(bitbase_rows)
    }
    win, dtc = truth
    for i, (r, f) in enumerate(zip(bitbase_rows, fens)):
        p = bb.probe(f)
        assert (p.result == "win", -1 if p.dtc is None else p.dtc) == (win[i], dtc[i]), f
        for uci, result, d in p.moves:
            expected = expected_after(r, uci_back(uci, flip, mirror), at, truth)
            if expected is None:  # a promotion ends the search: a win is converted (DTC 0)
                expected = (result, 0 if result == "win" else None)
            assert expected == (result, d), (f, uci)


def expected_after(row, move, at, truth):
    """The CSV's (result, dtc) after a canonical move, or the rule for a capture or promotion."""
    wk, bk, wp = (square_index(row[k]) for k in ("wk", "bk", "wp"))
    a, b = square_index(move[0:2]), square_index(move[2:4])
    if row["side"] == "b":
        if b == wp:
            return ("draw", None)
        key = ("w", wk, b, wp)
    elif a == wk:
        key = ("b", b, bk, wp)
    elif len(move) == 5:
        return None
    else:
        key = ("b", wk, bk, b)
    i = at[key]
    return ("win" if truth[0][i] else "draw", None if truth[1][i] < 0 else int(truth[1][i]))


def test_every_move_list_is_best_first(bitbase_rows):
    bb = kpk.Bitbase()
    for r in bitbase_rows[::7]:
        p = bb.probe(r["fen"])
        if not p.moves:
            continue
        top = p.moves[0]
        if r["side"] == "w":
            wins = [d for _, res, d in p.moves if res == "win"]
            assert p.result == ("win" if wins else "draw")
            if wins:
                assert top[1] == "win" and top[2] == min(wins) and p.dtc == min(wins) + 1
        else:
            draws = [m for m in p.moves if m[1] == "draw"]
            assert p.result == ("draw" if draws else "win")
            if not draws:
                assert p.dtc == max(d for _, _, d in p.moves) + 1 == top[2] + 1


@pytest.mark.parametrize("name", kpk.SETS)
def test_dataset_agrees_with_kpk_dataset(cli_dir, name):
    rows = read_csv(cli_dir / f"{name}.csv")
    X, y, fens = kpk.dataset(name)
    assert X.shape == (len(rows), 32) and y.shape == (len(rows),) and len(fens) == len(rows)
    assert np.array_equal(X, np.array([[int(r[x]) for x in FEATURES] for r in rows], dtype=np.float64))
    assert np.array_equal(y, np.array([r["result"] == "win" for r in rows], dtype=np.int64))
    assert fens == [fen(r["side"], r["wk"], r["bk"], r["wp"]) for r in rows]


def test_seeded_draws_follow_the_seed(kpk_bin, tmp_path):
    run(kpk_bin, "dataset", "--set", "T2", "--seed", "7", "--out", tmp_path / "t2.csv")
    rows = read_csv(tmp_path / "t2.csv")
    _, _, fens = kpk.dataset("t2", seed=7)
    assert fens == [fen(r["side"], r["wk"], r["bk"], r["wp"]) for r in rows]
    assert fens != kpk.dataset("T2")[2]


@pytest.mark.parametrize("coding", kpk.CODINGS)
def test_codings_agree_with_kpk_features(kpk_bin, bitbase_rows, coding):
    """`kpk features --coding C` on a spread of positions, each in all four orientations."""
    sample = [r for r in bitbase_rows[::4001]]
    fens = [fen(r["side"], r["wk"], r["bk"], r["wp"], f, m) for r in sample for _, f, m in ORIENTATIONS]
    out = run(kpk_bin, "features", "--coding", coding, *fens)
    lines = [ln.split(":", 1)[1] for ln in out.splitlines() if ln.strip().startswith(f"{coding} inputs")]
    expected = np.array([[float(v) for v in ln.split()] for ln in lines])
    assert expected.shape[0] == len(fens)
    assert np.array_equal(kpk.features(fens, coding), expected)
    # The dataset's inputs are the same function of the same positions.
    X, _, all_fens = kpk.dataset("btm", coding=coding)
    assert np.array_equal(X, kpk.features(all_fens, coding))


def test_classify_squares_agrees_on_every_legal_position(bitbase_rows, truth):
    side = np.array([r["side"] == "b" for r in bitbase_rows])
    sq = {k: np.array([square_index(r[k]) for r in bitbase_rows]) for k in ("wk", "bk", "wp")}
    h = kpk.Hybrid()
    assert np.array_equal(h.classify_squares(sq["wk"], sq["bk"], sq["wp"], side), truth[0])
    # Mirrored in the d/e line: the pawn on files e-h.
    m = {k: v ^ 7 for k, v in sq.items()}
    assert np.array_equal(h.classify_squares(m["wk"], m["bk"], m["wp"], side), truth[0])
