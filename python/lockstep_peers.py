"""The peers of `kpk bench --what lockstep` and `--what adam`, timed side by side in one run on this
machine, with kpk's own figures taken in the same run (docs/BENCHMARKS.md, "Many nets at once").

The workload is kpk's: 32-64-20-1 with logistic units on all 81,664 wtm positions (T3, natural
coding), one thread each. Timed:

- NumPy, online backpropagation of the squared error, one position at a time in float64: the
  update pass (forward, backward and update per position, no measurement);
- PyTorch (if installed), the same hand-written backprop on one CPU thread, one net, and eight
  nets in lockstep (batched matrix products, one position per net per step);

  both over the first POSITIONS positions, the time scaled to the epoch's 81,664 (the per-position
  cost of these loops does not depend on the position);
- scikit-learn's MLPClassifier, one Adam epoch with batches of 256 (partial_fit);
- kpk: `kpk bench --what lockstep` and `kpk bench --what adam`, run between the peers.

    cargo build --release
    cargo run --release -- dataset --set T3 --out out/T3.csv
    python3 python/lockstep_peers.py out/T3.csv [RUNS]

Needs numpy and scikit-learn (pip install numpy scikit-learn); PyTorch is optional
(pip install torch --index-url https://download.pytorch.org/whl/cpu). Prints one line per
measure (minimum and median wall time over RUNS runs, default 3, after one warm-up run), then
the ratios.
"""

import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peer_bench import load  # noqa: E402

POSITIONS = 8192
ETA = 0.1
ROOT = Path(__file__).resolve().parent.parent
KPK = ROOT / "target" / "release" / "kpk"


def timed(f, runs):
    """Sorted wall seconds of `runs` calls of f after one warm-up call."""
    f()
    wall = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        wall.append(time.perf_counter() - t)
    return sorted(wall)


def line(what, wall, scale=1.0):
    best, median = 1e3 * wall[0] * scale, 1e3 * wall[len(wall) // 2] * scale
    print(f"{what}: min {best:.1f} ms, median {median:.1f} ms ({len(wall)} runs)", flush=True)
    return best


def init(rng, widths):
    """Weights uniform in [-0.1, 0.1], bias in column 0 (kpk's layout)."""
    return [rng.uniform(-0.1, 0.1, (widths[i + 1], widths[i] + 1)) for i in range(len(widths) - 1)]


def numpy_epoch(ws, x, d):
    sig = lambda z: 1.0 / (1.0 + np.exp(-z))  # noqa: E731
    one = np.ones(1)
    for xi, di in zip(x, d):
        acts = [np.concatenate((one, xi))]
        for w in ws:
            acts.append(np.concatenate((one, sig(w @ acts[-1]))))
        y = acts[-1][1:]
        delta = (y - di) * y * (1.0 - y)
        for l in range(len(ws) - 1, -1, -1):
            a = acts[l]
            down = ws[l][:, 1:].T @ delta if l > 0 else None
            ws[l] -= ETA * np.outer(delta, a)
            if l > 0:
                delta = down * a[1:] * (1.0 - a[1:])


def torch_peers(x, d, runs):
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    widths = [32, 64, 20, 1]
    xs = torch.tensor(x[:POSITIONS], dtype=torch.float64)
    ds = torch.tensor(d[:POSITIONS], dtype=torch.float64).reshape(-1, 1)

    def make(g):
        return [(torch.rand(g, widths[i + 1], widths[i], dtype=torch.float64) * 0.2 - 0.1,
                 torch.rand(g, widths[i + 1], dtype=torch.float64) * 0.2 - 0.1) for i in range(3)]

    def run(g):
        ws = make(g)
        order = [torch.randperm(POSITIONS) for _ in range(g)]
        order = torch.stack(order, 1)
        with torch.no_grad():
            for t in range(POSITIONS):
                a = xs[order[t]]
                acts = [a]
                for w, b in ws:
                    a = torch.sigmoid(torch.bmm(w, a.unsqueeze(2)).squeeze(2) + b)
                    acts.append(a)
                y = acts[-1]
                delta = (y - ds[order[t]]) * y * (1 - y)
                for l in range(2, -1, -1):
                    w, b = ws[l]
                    a = acts[l]
                    down = torch.bmm(w.transpose(1, 2), delta.unsqueeze(2)).squeeze(2) if l > 0 else None
                    w -= ETA * delta.unsqueeze(2) * a.unsqueeze(1)
                    b -= ETA * delta
                    if l > 0:
                        delta = down * a * (1 - a)

    scale = len(x) / POSITIONS
    one = line(f"PyTorch {torch.__version__}, online update pass, one net, one thread (first {POSITIONS} positions, scaled to the epoch)",
               timed(lambda: run(1), runs), scale)
    group = line(f"PyTorch, eight nets in lockstep (bmm), one thread, per group-epoch (scaled likewise)",
                 timed(lambda: run(8), runs), scale)
    return one, group / 8


def kpk_bench(what, runs):
    out = subprocess.run([str(KPK), "bench", "--what", what, "--runs", str(runs)], capture_output=True, text=True, check=True).stdout
    print(out.rstrip(), flush=True)
    return out


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: lockstep_peers.py T3.csv [RUNS]")
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 3
    x, y = load(sys.argv[1])
    d = y.astype(np.float64)
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    print(f"machine: {model}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; numpy {np.__version__}", flush=True)

    kpk = kpk_bench("lockstep", max(runs, 3))
    numpy_ms = line(f"NumPy, online update pass, one net, float64 (first {POSITIONS} positions, scaled to the epoch)",
                    timed(lambda: numpy_epoch(init(np.random.default_rng(0), [32, 64, 20, 1]), x[:POSITIONS], d[:POSITIONS]), runs),
                    len(x) / POSITIONS)
    torch_ms = None
    try:
        torch_ms = torch_peers(x, d, runs)
    except ImportError:
        print("PyTorch: not installed, not timed")
    import sklearn
    from sklearn.neural_network import MLPClassifier
    import warnings

    warnings.filterwarnings("ignore")
    net = MLPClassifier(hidden_layer_sizes=(64, 20), activation="logistic", solver="adam", batch_size=256,
                        learning_rate_init=1e-3, max_iter=1, shuffle=True, random_state=0)
    classes = np.array([0, 1])
    sk_ms = line(f"scikit-learn {sklearn.__version__} MLPClassifier, one Adam epoch, batch 256 (partial_fit)",
                 timed(lambda: net.partial_fit(x, y, classes=classes), runs))
    adam = kpk_bench("adam", max(runs, 3))
    print(f"load average after: {os.getloadavg()[0]:.1f}")

    lockstep = float(re.search(r"lockstep update pass: ([0-9.]+) ms per net-epoch", kpk).group(1))
    single = float(re.search(r"single net, update pass: CPU min ([0-9.]+) ms", kpk).group(1))
    adam_ms = float(re.search(r"Adam, per epoch of a \d+-epoch train\(\) run: CPU min ([0-9.]+) ms", adam).group(1))
    adam_wall = float(re.search(r"Adam, per epoch of a \d+-epoch train\(\) run: CPU .*; wall min ([0-9.]+) ms", adam).group(1))
    print(f"ratio: kpk lockstep per net-epoch vs kpk single net {single / lockstep:.2f}x; vs NumPy {numpy_ms / lockstep:.0f}x")
    if torch_ms:
        print(f"ratio: kpk lockstep vs PyTorch one net {torch_ms[0] / lockstep:.0f}x, vs PyTorch eight nets in lockstep {torch_ms[1] / lockstep:.0f}x")
    print(f"ratio: scikit-learn's Adam epoch (wall) over kpk's (one thread, incl. its measurement): {sk_ms / adam_wall:.2f}x by wall time, "
          f"{sk_ms / adam_ms:.2f}x against kpk's thread CPU time (the peers' figures are wall times: under load they include waits)")


if __name__ == "__main__":
    main()
