"""The positions a trained net gets wrong, probed in the bitbase.

Reads a net saved by `kpk run` (its weights.json) with kpk.load_net, runs it in NumPy on its
training set (from the summary.json beside it, else every legal position), reads the outputs as
Tables 5 and 6 do (section 4.3 with m = 0), and probes each misclassified position: its result,
its depth to conversion and the move that keeps it (the best move, from the pawn side's view).

    cargo run --release -- run experiments/table5/trial39.toml --out out/
    pip install ./python
    python python/examples/net_mistakes.py out/trial39/weights.json [--set NAME]

Where `kpk run` also wrote misclassified.csv, the positions found here must be exactly those it
lists (a third reader of the saved weights: NumPy beside kpk's trainer); the script exits
non-zero if they are not.
"""

import argparse
import csv
import json
from pathlib import Path

import numpy as np

import kpk


def outputs(net, X):
    """The net's outputs: each layer 1 / (1 + exp(-slope (W a + b))), section 3."""
    a = X
    for w, b in zip(net["weights"], net["biases"]):
        a = 1.0 / (1.0 + np.exp(-net["slope"] * (a @ w.T + b)))
    return a


def wins(net, y):
    """Section 4.3's reading with m = 0: True win, False draw, None undecided (two outputs)."""
    if net["output_coding"] == "one":
        return [bool(v >= 0.5) for v in y[:, 0]]
    return [True if a >= 0.5 and b < 0.5 else False if a < 0.5 and b >= 0.5 else None for a, b in y]


def listed(folder):
    """The canonical (side, wk, bk, wp) of each position in kpk run's misclassified.csv."""
    path = folder / "misclassified.csv"
    if not path.is_file():
        return None
    with open(path, newline="") as f:
        return {(r["to_move"], r["wk"], r["bk"], r["wp"]) for r in csv.DictReader(f)}


def squares(fen):
    """(side, wk, bk, wp) of a canonical FEN (White pawn), square names."""
    placement, side = fen.split()[:2]
    found = {}
    for r, row in enumerate(placement.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
                continue
            found[c] = "abcdefgh"[f] + str(8 - r)
            f += 1
    return side, found["K"], found["k"], found["P"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("weights", type=Path, help="weights.json written by `kpk run`")
    ap.add_argument("--set", help="named set to test on (default: the trial's training set)")
    args = ap.parse_args()

    net = kpk.load_net(args.weights)
    summary_path = args.weights.parent / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    name = args.set or summary.get("training_set", "all")
    X, y, fens = kpk.dataset(name, coding=net["input_coding"])
    said = wins(net, outputs(net, X))
    wrong = [i for i, w in enumerate(said) if w is None or w != bool(y[i])]
    topology = "-".join(map(str, net["topology"]))
    print(f"{args.weights}: net {topology}, {len(wrong)} of {len(y)} positions of {name} misclassified")

    bb = kpk.Bitbase()
    for i in wrong:
        p = bb.probe(fens[i])
        verdict = {True: "win", False: "draw", None: "undecided"}[said[i]]
        depth = f", DTC {p.dtc}" if p.dtc is not None else ""
        best = f", best {p.moves[0][0]}" if p.moves else ""
        print(f"  {fens[i]}: the net says {verdict}, the bitbase {p.result}{depth}{best}")

    expected = listed(args.weights.parent) if args.set is None else None
    if expected is not None:
        found = {squares(fens[i]) for i in wrong}
        if found != expected:
            raise SystemExit(f"net_mistakes: NumPy finds {sorted(found)}, misclassified.csv lists {sorted(expected)}")
        print(f"  the same {len(found)} positions as {args.weights.parent / 'misclassified.csv'}")


if __name__ == "__main__":
    main()
