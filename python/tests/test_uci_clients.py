"""`kpk uci` as GUIs, bots and other engines meet it, through python-chess's UCI client: the
options lichess-bot sends, MultiPV analysis, root moves, `go infinite` ... `stop` across a new
position, `bestmove (none)`, and a match against Stockfish (Debian's `stockfish` package) on
KPK starts in both roles, every result kept and checked against the bitbase (`kpk probe`).

The engine runs from an empty temporary folder with no `--model`: the play model inside the
binary answers."""

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

chess = pytest.importorskip("chess")
import chess.engine  # noqa: E402

WON = "8/8/8/8/8/8/4P3/4K2k w - - 0 1"  # Ke1, Pe2 v kh1: a win


@pytest.fixture(params=[[], ["--perfect"]], ids=["model", "perfect"])
def engine(kpk_bin, request, tmp_path):
    e = chess.engine.SimpleEngine.popen_uci([str(kpk_bin), "uci", *request.param], cwd=tmp_path)
    yield e
    e.quit()


def test_lichess_bots_options_are_taken(engine):
    engine.configure({"Hash": 64, "Threads": 1, "Move Overhead": 30})
    assert {"Hash", "Threads", "MultiPV", "Move Overhead", "Ponder", "UCI_ShowWDL"} <= set(engine.options)


def test_analyse_with_multipv_gives_that_many_lines_best_first(engine):
    board = chess.Board(WON)
    infos = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
    assert len(infos) == 3
    assert [i["multipv"] for i in infos] == [1, 2, 3]
    scores = [i["score"].relative.score(mate_score=100_000) for i in infos]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    assert all(i["pv"][0] in board.legal_moves for i in infos)
    assert all(k in infos[0] for k in ("depth", "nodes", "time", "score"))


def test_show_wdl_gives_the_exact_triple(engine):
    engine.configure({"UCI_ShowWDL": True})
    info = engine.analyse(chess.Board(WON), chess.engine.Limit(time=0.1))
    assert tuple(info["wdl"].relative) == (1000, 0, 0)
    # At halfmove 99 the king move's win is cursed: a draw by the 50-move rule.
    board = chess.Board("8/8/8/8/8/8/4P3/4K2k w - - 99 1")
    info = engine.analyse(board, chess.engine.Limit(time=0.1), root_moves=[chess.Move.from_uci("e1f2")])
    assert tuple(info["wdl"].relative) == (0, 1000, 0) and info["score"].relative.score() == 0


def test_play_keeps_to_the_root_moves(engine):
    board = chess.Board(WON)
    for move in ["e1d1", "e1f1", "e2e3"]:
        m = chess.Move.from_uci(move)
        assert engine.play(board, chess.engine.Limit(time=0.1), root_moves=[m]).move == m


def test_go_infinite_then_a_new_position_then_stop_gives_a_bestmove(kpk_bin, tmp_path):
    script = f"uci\nposition fen {WON}\ngo infinite\nucinewgame\nposition startpos\nstop\nquit\n"
    out = subprocess.run([str(kpk_bin), "uci"], input=script, capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0
    assert out.stdout.splitlines()[-1] == "bestmove e2e4"


def test_a_stalemate_gives_none_and_a_checkmate_too(engine):
    for fen in ["k7/P7/1K6/8/8/8/8/8 b - - 0 1", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]:
        assert engine.play(chess.Board(fen), chess.engine.Limit(time=0.1)).move is None


def test_an_infinite_analysis_stops_with_a_bestmove(engine):
    with engine.analysis(chess.Board(WON)) as analysis:
        analysis.stop()
        assert analysis.wait().move == chess.Move.from_uci("e2e4")


# The match against Stockfish.

STOCKFISH = shutil.which("stockfish") or (Path("/usr/games/stockfish") if Path("/usr/games/stockfish").exists() else None)


def probe(kpk_bin, fen):
    """The bitbase's result of a KPK position for the side with the pawn: "win" or "draw"."""
    out = subprocess.run([str(kpk_bin), "probe", fen], capture_output=True, text=True, check=True).stdout
    return out.splitlines()[1].split()[0].rstrip(",")


def starts(kpk_bin, n, seed=1):
    """`n` won and `n` drawn KPK starts, White with the pawn, drawn at random from a seed."""
    rng = random.Random(seed)
    found = {"win": [], "draw": []}
    while min(len(v) for v in found.values()) < n:
        board = chess.Board(None)
        squares = rng.sample(range(64), 3)
        if not 8 <= squares[2] < 56:
            continue
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(squares[2], chess.Piece(chess.PAWN, chess.WHITE))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if not board.is_valid() or board.is_game_over():
            continue
        result = probe(kpk_bin, board.fen())
        if len(found[result]) < n:
            found[result].append(board.fen())
    return found


def play_out(board, white, black, limit):
    """Plays to a promotion kept (1-0), the pawn lost or a dead end (1/2), or 100 plies."""
    for _ in range(100):
        if board.is_game_over():
            return "1/2" if not board.is_checkmate() else "1-0"
        engine = white if board.turn == chess.WHITE else black
        move = engine.play(board, limit).move
        assert move in board.legal_moves, (board.fen(), move)
        board.push(move)
        if not board.pawns:
            # A promotion: won if the new piece survives the reply and it is no stalemate.
            promoted = board.queens | board.rooks | board.bishops | board.knights
            if not promoted:
                return "1/2"
            if board.is_stalemate():
                return "1/2"
            reply = black.play(board, limit).move if board.turn == chess.BLACK else None
            if reply is not None:
                board.push(reply)
            kept = board.queens | board.rooks
            return "1-0" if kept else "1/2"
    return "1/2"


@pytest.mark.skipif(STOCKFISH is None and not os.environ.get("KPK_REQUIRE_STOCKFISH"), reason="no stockfish")
def test_a_match_against_stockfish_spoils_no_result(kpk_bin, tmp_path):
    assert STOCKFISH is not None, "KPK_REQUIRE_STOCKFISH is set but stockfish is not installed"
    kpk_engine = chess.engine.SimpleEngine.popen_uci([str(kpk_bin), "uci"], cwd=tmp_path)
    stockfish = chess.engine.SimpleEngine.popen_uci(str(STOCKFISH))
    limit = chess.engine.Limit(time=0.02)
    results = []
    try:
        for expected, fens in starts(kpk_bin, 12).items():
            for fen in fens:
                for kpk_side in ["pawn", "king"]:
                    white, black = (kpk_engine, stockfish) if kpk_side == "pawn" else (stockfish, kpk_engine)
                    result = play_out(chess.Board(fen), white, black, limit)
                    results.append((fen, expected, kpk_side, result))
    finally:
        kpk_engine.quit()
        stockfish.quit()
    for fen, expected, kpk_side, result in results:
        print(f"{fen}\t{expected}\tkpk plays the {kpk_side}\t{result}")
    assert len(results) == 48
    # kpk converts every won start against Stockfish's defence ...
    assert all(r == "1-0" for _, e, side, r in results if e == "win" and side == "pawn"), results
    # ... and loses no drawn start to Stockfish's attack.
    assert all(r == "1/2" for _, e, side, r in results if e == "draw" and side == "king"), results
