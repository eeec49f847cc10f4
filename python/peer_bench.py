"""The peer of `kpk bench --what adam`: one epoch of scikit-learn's MLPClassifier on the same net
and data, timed side by side on the same machine.

The net is 32-64-20-1 with logistic units (sklearn's output unit for two classes is a logistic
sigmoid too), Adam with batches of 256 and learning rate 1e-3, one pass over all 81,664 wtm
positions (T3, natural coding), followed by the end-of-epoch measurement kpk's epoch includes:
the outputs of every position (predict_proba). sklearn's loss is cross-entropy, kpk's the squared
error; the arithmetic per batch is the same matrix products.

    cargo run --release -- dataset --set T3 --out out/T3.csv
    python3 python/peer_bench.py out/T3.csv [RUNS]

Needs numpy and scikit-learn (pip install numpy scikit-learn). Prints one line per measure: the
minimum and median over RUNS timed epochs (default 7) after one warm-up epoch, in wall time and
in the process's CPU time (sklearn may use several threads through its BLAS).
"""

import csv
import statistics
import sys
import time
import warnings


def load(path):
    """The x1..x32 columns and the outcome of each row of a `kpk dataset` CSV."""
    import numpy as np

    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        xs = [f"x{i}" for i in range(1, 33)]
        rows = list(reader)
    if not rows or any(x not in rows[0] for x in xs):
        sys.exit(f"peer_bench: {path}: expected a kpk dataset CSV with columns x1..x32")
    if "result" not in rows[0]:
        sys.exit(f"peer_bench: {path}: no result column")
    bad = next((r["result"] for r in rows if r["result"] not in ("win", "draw")), None)
    if bad is not None:
        sys.exit(f"peer_bench: {path}: result {bad!r}, expected win or draw")
    x = np.array([[float(r[c]) for c in xs] for r in rows])
    y = np.array([1 if r["result"] == "win" else 0 for r in rows])
    return x, y


def timed(f, runs):
    """Wall and CPU seconds of `runs` calls of f, after one warm-up call."""
    f()
    wall, cpu = [], []
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        f()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return wall, cpu


def report(what, wall, cpu):
    ms = lambda v: 1e3 * v  # noqa: E731
    print(
        f"{what}: wall min {ms(min(wall)):.1f} ms, median {ms(statistics.median(wall)):.1f} ms; "
        f"process CPU min {ms(min(cpu)):.1f} ms, median {ms(statistics.median(cpu)):.1f} ms "
        f"({len(wall)} runs)"
    )


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: peer_bench.py T3.csv [RUNS]")
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 7
    import numpy as np
    import sklearn
    from sklearn.neural_network import MLPClassifier

    x, y = load(sys.argv[1])
    print(f"workload: {len(y)} positions x {x.shape[1]} inputs, sklearn {sklearn.__version__}, numpy {np.__version__}")
    net = MLPClassifier(
        hidden_layer_sizes=(64, 20),
        activation="logistic",
        solver="adam",
        batch_size=256,
        learning_rate_init=1e-3,
        max_iter=1,
        shuffle=True,
        random_state=0,
    )
    classes = np.array([0, 1])
    warnings.filterwarnings("ignore")

    def epoch():
        net.partial_fit(x, y, classes=classes)

    def epoch_and_measure():
        net.partial_fit(x, y, classes=classes)
        net.predict_proba(x)

    report("MLPClassifier, one Adam epoch (partial_fit), batch 256", *timed(epoch, runs))
    report("the same with the end-of-epoch outputs of every position (predict_proba)", *timed(epoch_and_measure, runs))


if __name__ == "__main__":
    main()
