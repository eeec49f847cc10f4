"""scikit-learn's MLPClassifier on the paper's set T4, beside kpk's trial 39.

Trial 39 of Table 5 (experiments/table5/trial39.toml) trains the net NN6, 32-32-5-2, on T4 (the
20,643 positions with White to move and the pawn on the a-file, section 4.5): natural coding,
online back-propagation, η = 0.03, E2 target 0.10, stopping after 100 epochs without gain. Here scikit-learn trains the same hidden layers (32, 5) with logistic units on
kpk.dataset("T4"): its solver is Adam with mini-batches and its loss cross-entropy, so the
comparison is of outcomes (training accuracy, positions misclassified, epochs, time), not of
identical arithmetic. kpk's figures are read from the committed reports/trial39/summary.json.

    pip install ./python scikit-learn
    python python/examples/sklearn_t4.py [--epochs N] [--seed S]

Prints one table; exits non-zero if the data are not what the paper's T4 is (20,643 positions).
"""

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

import kpk

REPO = Path(__file__).resolve().parents[2]
TRIAL39 = REPO / "reports" / "trial39" / "summary.json"


def train(X, y, epochs, seed):
    net = MLPClassifier(
        hidden_layer_sizes=(32, 5),
        activation="logistic",
        solver="adam",
        learning_rate_init=0.01,
        batch_size=32,
        max_iter=epochs,
        tol=0.0,
        n_iter_no_change=epochs,
        random_state=seed,
    )
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # max_iter is the budget, not a failure
        net.fit(X, y)
    return net, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--epochs", type=int, default=200, help="training epochs (default 200)")
    ap.add_argument("--seed", type=int, default=39, help="scikit-learn's random_state (default 39)")
    args = ap.parse_args()

    X, y, fens = kpk.dataset("T4")
    if X.shape != (20_643, 32):
        raise SystemExit(f"sklearn_t4: T4 has shape {X.shape}, expected (20643, 32)")
    net, seconds = train(X, y, args.epochs, args.seed)
    wrong = np.flatnonzero(net.predict(X) != y)

    rows = [("model", "hidden", "solver", "epochs", "train accuracy", "misclassified", "seconds")]
    rows.append(
        (
            "scikit-learn MLPClassifier",
            "32-5",
            "adam, batch 32",
            str(net.n_iter_),
            f"{100 * (1 - len(wrong) / len(y)):.3f}%",
            str(len(wrong)),
            f"{seconds:.1f}",
        )
    )
    if TRIAL39.is_file():
        s = json.loads(TRIAL39.read_text())
        rows.append(
            (
                f"kpk {s['name']} (Table 5)",
                s["topology"].split("-", 1)[1].rsplit("-", 1)[0],
                "online, η 0.03",
                f"{s['epochs']} (kept {s['best_epoch']})",
                f"{s['train_accuracy_pct']:.3f}%",
                str(s["train_misclassified"]),
                "-",
            )
        )
        rows.append(("paper, trial 39", "32-5", "online", "1610", "99.6%", "-", "-"))
    else:
        print(f"({TRIAL39} not found: run from a kpk checkout to compare with trial 39)")
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())

    # The positions scikit-learn's net gets wrong, with the bitbase's answer.
    bb = kpk.Bitbase()
    for i in wrong[:5]:
        p = bb.probe(fens[i])
        print(f"  wrong: {fens[i]}  {p.result}" + (f" in {p.dtc} plies" if p.dtc is not None else ""))


if __name__ == "__main__":
    main()
