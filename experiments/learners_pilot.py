#!/usr/bin/env python3
"""Writes experiments/learners_pilot.csv, the pilot of the powered comparison
(experiments/learners_powered.toml), from the committed run of the earlier design:

- testing accuracy (%) of every learner of reports/learners.json on T1/S1 (wtm) and T2/S2 (btm),
  5 replicates of 125 or 136 training and testing positions each;
- the bytes of the quantised net hybrid per seed from reports/play.json (kpk match trains
  experiments/compress.toml's chosen net per seed), and of the shipped exact tree
  (models/kpk.hybrid, written by `kpk learners --ship`; no seed enters CART, so its size is the
  same for every seed).

Usage: python3 experiments/learners_pilot.py > experiments/learners_pilot.csv
"""
import csv, json, os, sys

learners = json.load(open("reports/learners.json"))
play = json.load(open("reports/play.json"))
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["measure", "learner", "inputs", "side", "replicate", "value"])
sides = {"T1": "wtm", "T2": "btm"}
for row in learners["rows"]:
    side = sides.get(row["train_set"])
    if side is None or row["variant"]:
        continue
    for r, fit in enumerate(row["fits"]):
        out.writerow(["test_pct", row["learner"], row["inputs"], side, r, repr(fit["test_pct"])])
tree = os.path.getsize("models/kpk.hybrid")
for r, size in enumerate(play["hybrid"]["bytes"]):
    out.writerow(["exact_bytes", "hybrid", "pawn_side", "wtm", r, size])
    out.writerow(["exact_bytes", "tree", "x1..x32", "wtm", r, tree])
