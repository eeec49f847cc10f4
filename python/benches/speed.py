"""Speed of kpk for Python against its goals (docs/PYTHON.md), on this machine.

    pip install ./python
    python python/benches/speed.py [RUNS]

Each figure is the minimum and median wall time over RUNS calls (default 9) after one warm-up
call, and the minimum CPU time of the process (all threads: what the call costs on a machine
shared with other jobs). `first call` times kpk.dataset("all") in a fresh process after
`import numpy, kpk`, the bitbase's generation and the thread pool's start included.
Prints a Markdown table for docs/PYTHON.md and the machine it ran on. python-chess's Syzygy
probing is timed beside the hybrid where python-chess is installed and KPK tables
(KPvK.rtbw) are found under SYZYGY_PATH; neither is downloaded.
"""

import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import kpk

HERE = Path(__file__).resolve()


def timed(f, runs):
    """Minimum and median wall time, and minimum CPU time of all threads, of `runs` calls."""
    f()
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        f()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return min(wall), statistics.median(wall), min(cpu)


def first_dataset_call():
    code = (
        "import time, numpy, kpk; w, c = time.perf_counter(), time.process_time(); kpk.dataset('all'); "
        "print(time.perf_counter() - w, time.process_time() - c)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    wall, cpu = map(float, out.split())
    return wall, wall, cpu


def squares(fen):
    """(wk, bk, wp, black to move) of a canonical FEN, squares 0 = a1 ... 63 = h8."""
    placement, side = fen.split()[:2]
    found = {}
    for r, row in enumerate(placement.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                found[c] = 8 * (7 - r) + f
                f += 1
    return found["K"], found["k"], found["P"], side == "b"


def oriented(fen, flip, mirror):
    """The FEN of the same position mirrored in the d/e line and/or colour-flipped."""
    wk, bk, wp, btm = squares(fen)
    t = lambda s: (s ^ 56 if flip else s) ^ (7 if mirror else 0)  # noqa: E731
    pieces = {t(wk): "k" if flip else "K", t(bk): "K" if flip else "k", t(wp): "p" if flip else "P"}
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            p = pieces.get(8 * rank + file)
            if p is None:
                empty += 1
            else:
                row, empty = row + (str(empty) if empty else "") + p, 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" b" if btm != flip else " w") + " - - 0 1"


def syzygy(fens, runs):
    """python-chess's own Syzygy probe of the same FENs, or why it cannot run here."""
    try:
        import chess
        import chess.syzygy
    except ImportError:
        return "python-chess is not installed"
    path = os.environ.get("SYZYGY_PATH", "")
    if not path or not (Path(path) / "KPvK.rtbw").is_file():
        return "no KPK Syzygy tables (KPvK.rtbw) under SYZYGY_PATH; none are downloaded"
    boards = [chess.Board(f) for f in fens]
    with chess.syzygy.open_tablebase(path) as tb:
        return timed(lambda: [tb.probe_wdl(b) for b in boards], runs)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    first = first_dataset_call()
    X, y, fens = kpk.dataset("all")
    rng = random.Random(1998)
    some = [oriented(f, rng.random() < 0.5, rng.random() < 0.5) for f in fens]
    fens180 = (some + some[: 180_000 - len(some)])[:180_000]
    sq = np.array([squares(f) for f in fens], dtype=np.int64)
    h = kpk.Hybrid()
    assert np.array_equal(h.classify(fens180)[: len(fens)], y == 1)
    assert np.array_equal(h.classify_squares(sq[:, 0], sq[:, 1], sq[:, 2], sq[:, 3].astype(bool)), y == 1)

    rows = [
        ('kpk.dataset("all") (165,676 rows), first call', "100 ms", first),
        ('kpk.dataset("all"), later calls', "100 ms", timed(lambda: kpk.dataset("all"), runs)),
        ("Hybrid().classify of 180,000 FENs (four orientations)", "0.5 s",
         timed(lambda: h.classify(fens180), runs)),
        ("Hybrid().classify_squares of every legal position", "20 ms",
         timed(lambda: h.classify_squares(sq[:, 0], sq[:, 1], sq[:, 2], sq[:, 3].astype(bool)), runs)),
        ("Bitbase().probe_many of 180,000 FENs", "-", timed(lambda: kpk.Bitbase().probe_many(fens180), runs)),
        ("features of 180,000 FENs (natural)", "-", timed(lambda: kpk.features(fens180), runs)),
    ]
    print("| call | goal | wall, min | wall, median | CPU, min |")
    print("|---|---:|---:|---:|---:|")
    for what, goal, (lo, mid, cpu) in rows:
        print(f"| {what} | {goal} | {1e3 * lo:.1f} ms | {1e3 * mid:.1f} ms | {1e3 * cpu:.1f} ms |")
    s = syzygy(fens180, runs)
    if isinstance(s, str):
        print(f"\npython-chess Syzygy: not timed: {s}.")
    else:
        print(f"| python-chess Syzygy probe_wdl of 180,000 boards | - | {1e3 * s[0]:.1f} ms | {1e3 * s[1]:.1f} ms | {1e3 * s[2]:.1f} ms |")
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    print(
        f"\nMachine: {cpu}, {os.cpu_count()} logical CPUs, load average {os.getloadavg()[0]:.1f} "
        f"when the timings ended; Python {platform.python_version()}, NumPy {np.__version__}, "
        f"kpk {kpk.__version__}; {runs} timed runs each."
    )


if __name__ == "__main__":
    main()
