"""scikit-learn's HistGradientBoostingClassifier on section 7's comparison: fitted on the draws
`kpk learners` uses (the same seed, side, size and draw), tested on every other position of the
side, and set beside the committed rows of the six learners and the paper's MLP.

    python python/examples/benchmark_hgb.py [--side wtm|btm] [--n N] [--draws K]
"""

import argparse

from sklearn.ensemble import HistGradientBoostingClassifier

import kpk.benchmark


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--side", default="wtm", choices=["wtm", "btm"])
    ap.add_argument("--n", type=int, default=None, help="training size (the paper's by default)")
    ap.add_argument("--draws", type=int, default=3)
    args = ap.parse_args()
    result = kpk.benchmark.evaluate(
        HistGradientBoostingClassifier(random_state=0), side=args.side, n=args.n, draws=args.draws
    )
    print(f"HistGradientBoostingClassifier, {result['side']}, n = {result['n']}, {result['inputs']}, seed {result['seed']}")
    for r in result["per_draw"]:
        print(f"  draw {r['draw']}: training {r['train_pct']:.2f}%, testing {r['test_pct']:.2f}%")
    if not result["committed"]:
        print("  no committed rows of kpk learners for this cell in this build")
    for learner, p in result["paired"].items():
        interval = f" [{p['lo']:+.2f}, {p['hi']:+.2f}]" if p["lo"] is not None else ""
        print(f"  minus {learner}: {p['mean']:+.2f} points over {p['draws']} draws{interval}")


if __name__ == "__main__":
    main()
