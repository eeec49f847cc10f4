"""python-chess boards against their FENs: 100,000 `chess.Board`s through `probe_many` and
`Hybrid.classify`, timed beside the same positions' FEN strings (the goal: boards at most 3x).

    python python/benches/boards.py      (the package and python-chess installed)

The positions: every legal position in a random one of its four orientations (seeded), the first
100,000 of them. Each call is timed 9 times after a warm-up; the minimum and median wall times
are printed, and the ratio of the minima.
"""

import random
import statistics
import time

import chess

import kpk

N = 100_000
RUNS = 9


def orientations(fen):
    """The four orientations of a canonical FEN: as given, mirrored, colours flipped, both."""
    board = chess.Board(fen)
    return [board, board.transform(chess.flip_horizontal), board.mirror(), board.mirror().transform(chess.flip_horizontal)]


def timed(call):
    call()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main():
    rng = random.Random(1998)
    _, _, fens = kpk.dataset("all")
    rng.shuffle(fens)
    boards = [rng.choice(orientations(f)) for f in fens[:N]]
    texts = [b.fen() for b in boards]
    bb, h = kpk.Bitbase(), kpk.Hybrid()
    assert (bb.probe_many(boards)[1] == bb.probe_many(texts)[1]).all()
    print(f"{N:,} positions; minimum and median of {RUNS} runs")
    for name, call in [("Bitbase().probe_many", bb.probe_many), ("Hybrid().classify", h.classify)]:
        board_min, board_med = timed(lambda: call(boards))
        fen_min, fen_med = timed(lambda: call(texts))
        print(
            f"{name}: boards {1000 * board_min:.1f} ms (median {1000 * board_med:.1f}), "
            f"FENs {1000 * fen_min:.1f} ms (median {1000 * fen_med:.1f}), "
            f"boards / FENs {board_min / fen_min:.2f}"
        )
    fen_calls_min, _ = timed(lambda: [b.fen() for b in boards])
    print(f"for scale: Board.fen() of the {N:,} boards alone {1000 * fen_calls_min:.1f} ms")


if __name__ == "__main__":
    main()
