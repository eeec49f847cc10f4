"""`kpk uci` played through python-chess's UCI client (`chess.engine.SimpleEngine.popen_uci`):
from a won position to promotion with every move legal and DTC-optimal (the play model), on to
checkmate (both players; `--perfect` in exactly the DTM), and a drawn position
held, with both the play model and the bitbase behind the engine. Then a seeded sample of starts
from `kpk bitbase --endgame kpk --csv`: 200 won ones (50 for each colour of the pawn and each side
to move) played to mate by the engine against itself, and 100 drawn ones held."""

import csv
import random

import pytest

import kpk
from conftest import REPO, run

chess = pytest.importorskip("chess")
import chess.engine  # noqa: E402

WON = "8/8/8/8/8/8/4P3/4K2k w - - 0 1"  # Ke1, Pe2 v kh1: a win
DRAWN = "8/8/8/8/8/1k6/1P6/1K6 w - - 0 1"  # Kb1, Pb2 v kb3: a draw
PLAYERS = [["--model", str(REPO / "models" / "kpk-play.hybrid")], ["--perfect"]]


@pytest.fixture(params=PLAYERS, ids=["model", "perfect"])
def engine(kpk_bin, request):
    e = chess.engine.SimpleEngine.popen_uci([str(kpk_bin), "uci", *request.param])
    yield e
    e.quit()


def best(probe):
    """The result and DTC a best move leads to (the first of the probe's moves)."""
    return probe.moves[0][1:]


def test_the_engine_introduces_itself(engine):
    assert engine.id["name"].startswith("kpk ")


def test_a_won_position_is_played_to_promotion_every_move_dtc_optimal(kpk_bin):
    engine = chess.engine.SimpleEngine.popen_uci([str(kpk_bin), "uci", *PLAYERS[0]])
    bb = kpk.Bitbase()
    board = chess.Board(WON)
    start = bb.probe(board).dtc
    plies = 0
    while True:
        probe = bb.probe(board)
        result = engine.play(board, chess.engine.Limit(time=0.1), info=chess.engine.INFO_SCORE)
        assert result.move in board.legal_moves
        outcome = dict((m[0], m[1:]) for m in probe.moves)[result.move.uci()]
        assert outcome == best(probe), (board.fen(), result.move)
        # The score is the win the engine knows, from the side to move's point of view.
        pov = result.info["score"].relative.score()
        assert (pov > 0) == (board.turn == chess.WHITE) and abs(pov) >= 20000 - probe.dtc
        board.push(result.move)
        plies += 1
        if result.move.promotion:
            break
    assert board.piece_at(result.move.to_square).piece_type == chess.QUEEN
    assert plies == start
    engine.quit()


def test_won_games_end_in_mate_and_perfect_play_in_exactly_the_dtm(engine, request):
    """Past promotion both players mate with the DTM tables; `--perfect` mates from the start in
    exactly the DTM, reporting `score mate N` (moves, side to move's view) on every move."""
    bb = kpk.Bitbase()
    board = chess.Board(WON)
    start = bb.probe_dtm(board)
    perfect = request.node.callspec.id == "perfect"
    while not board.is_game_over():
        dtm = bb.probe_dtm(board)
        result = engine.play(board, chess.engine.Limit(time=0.1), info=chess.engine.INFO_SCORE)
        if perfect or board.pawns == 0:
            mate = result.info["score"].relative.mate()
            assert mate == ((dtm + 1) // 2 if dtm > 0 else -(-dtm // 2)), (board.fen(), mate, dtm)
        board.push(result.move)
    assert board.is_checkmate(), board.fen()
    if perfect:
        assert len(board.move_stack) == start


def test_a_drawn_position_is_held(engine):
    bb = kpk.Bitbase()
    board = chess.Board(DRAWN)
    for _ in range(40):
        if board.is_game_over() or board.pawns == 0:
            break
        result = engine.play(board, chess.engine.Limit(depth=5), info=chess.engine.INFO_SCORE)
        assert result.move in board.legal_moves
        assert result.info["score"].relative.score() == 0
        board.push(result.move)
        if bin(board.occupied).count("1") == 3 and board.pawns:
            assert bb.probe(board).result == "draw", board.fen()


def test_a_position_outside_kpk_gets_a_legal_move(engine):
    board = chess.Board()
    assert engine.play(board, chess.engine.Limit(time=0.1)).move in board.legal_moves
    mated = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert not engine.play(mated, chess.engine.Limit(time=0.1)).move


SAMPLE_SEED = 43


def mate_in_moves(dtm):
    """UCI's `score mate N` for a signed DTM in plies (python-chess's Gaviota convention)."""
    return (dtm + 1) // 2 if dtm > 0 else -(-dtm // 2)


@pytest.fixture(scope="module")
def starts(kpk_bin, tmp_path_factory):
    """Seeded won and drawn starts as FENs: each KPK row of the CSV (White's pawn) in White's
    colours and, mirrored, with Black's pawn; won ones not already mated."""
    path = tmp_path_factory.mktemp("uci") / "kpk.csv"
    run(kpk_bin, "bitbase", "--endgame", "kpk", "--csv", path)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    rng = random.Random(SAMPLE_SEED)
    won, drawn = [], []
    for turn in ("w", "b"):
        side = [r for r in rows if r["fen"].split()[1] == turn]
        wins = [r["fen"] for r in side if r["wdl"] != "0" and r["dtm"] != "0"]
        draws = [r["fen"] for r in side if r["wdl"] == "0"]
        for mirror in (False, True):

            def pick(fens, n):
                return [chess.Board(f).mirror().fen() if mirror else f for f in rng.sample(fens, n)]

            won += pick(wins, 50)
            drawn += pick(draws, 25)
    return won, drawn


@pytest.fixture(scope="module")
def engines(kpk_bin):
    opened = {
        name: chess.engine.SimpleEngine.popen_uci([str(kpk_bin), "uci", *args])
        for name, args in zip(["model", "perfect"], PLAYERS)
    }
    yield opened
    for e in opened.values():
        e.quit()


LIMIT = chess.engine.Limit(depth=1)


def test_sampled_starts_cover_both_colours_and_both_sides_to_move(starts):
    won, drawn = starts
    assert (len(won), len(set(won)), len(drawn), len(set(drawn))) == (200, 200, 100, 100)
    for fens in (won, drawn):
        boards = [chess.Board(f) for f in fens]
        kinds = {(b.turn, bool(b.pieces(chess.PAWN, chess.WHITE))) for b in boards}
        assert len(kinds) == 4, kinds


@pytest.mark.parametrize("player", ["perfect", "model"])
def test_sampled_won_starts_end_in_mate(starts, engines, player):
    """`--perfect` against itself mates in exactly the start's DTM, with `score mate N` on every
    move; the play model mates too, with `score mate N` past the promotion."""
    bb, engine = kpk.Bitbase(), engines[player]
    for fen in starts[0]:
        board = chess.Board(fen)
        start = bb.probe_dtm(board)
        assert start != 0, fen
        while not board.is_game_over():
            assert len(board.move_stack) <= 200, (fen, board.fen())
            result = engine.play(board, LIMIT, info=chess.engine.INFO_SCORE)
            if player == "perfect" or board.pawns == 0:
                dtm = bb.probe_dtm(board)
                mate = result.info["score"].relative.mate()
                assert mate == mate_in_moves(dtm), (fen, board.fen(), mate, dtm)
            board.push(result.move)
        assert board.is_checkmate(), (fen, board.fen())
        # The lone king is the one mated.
        pawn_side = chess.WHITE if chess.Board(fen).pieces(chess.PAWN, chess.WHITE) else chess.BLACK
        assert board.turn != pawn_side, (fen, board.fen())
        if player == "perfect":
            assert len(board.move_stack) == abs(start), (fen, len(board.move_stack), start)


@pytest.mark.parametrize("player", ["perfect", "model"])
def test_sampled_drawn_starts_stay_drawn(starts, engines, player):
    """Neither side is mated and, while KPK stands, the position stays a draw; a game stops at 60
    plies or at a draw that can be claimed."""
    bb, engine = kpk.Bitbase(), engines[player]
    for fen in starts[1]:
        board = chess.Board(fen)
        assert bb.probe_dtm(board) == 0, fen
        while len(board.move_stack) < 60 and not board.is_game_over(claim_draw=True):
            result = engine.play(board, LIMIT, info=chess.engine.INFO_SCORE)
            board.push(result.move)
            if len(board.piece_map()) == 3:
                assert bb.probe_dtm(board) == 0, (fen, board.fen())
        assert not board.is_checkmate(), (fen, board.fen())
