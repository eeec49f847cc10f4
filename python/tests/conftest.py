"""The Rust CLI's answers, written once per test session into a temporary folder.

The tests compare the package with the `kpk` binary: `KPK_BIN` names it, else the repository's
`target/release/kpk` (`cargo build --release`). A missing binary fails the session: the
comparisons are the point of these tests.
"""

import csv
import os
import subprocess
from pathlib import Path

import pytest

import kpk

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def kpk_bin():
    path = Path(os.environ.get("KPK_BIN", REPO / "target" / "release" / "kpk"))
    if not path.is_file():
        pytest.fail(f"no kpk binary at {path}: run `cargo build --release` or set KPK_BIN")
    return path


def run(kpk_bin, *args):
    """The CLI's standard output; a non-zero exit fails the test with its standard error."""
    done = subprocess.run([str(kpk_bin), *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"kpk {' '.join(map(str, args))} exited {done.returncode}: {done.stderr}")
    return done.stdout


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="session")
def cli_dir(kpk_bin, tmp_path_factory):
    """`kpk bitbase --csv` and `kpk dataset --set NAME` for every named set."""
    d = tmp_path_factory.mktemp("cli")
    run(kpk_bin, "bitbase", "--csv", d / "bitbase.csv")
    for name in kpk.SETS:
        run(kpk_bin, "dataset", "--set", name, "--out", d / f"{name}.csv")
    return d


@pytest.fixture(scope="session")
def bitbase_rows(cli_dir):
    """Every legal position in canonical orientation: side, wk, bk, wp, result, dtc, fen."""
    return read_csv(cli_dir / "bitbase.csv")


@pytest.fixture(scope="session")
def all_rows(cli_dir):
    """`kpk dataset --set all`: side, wk, bk, wp, x1..x32, result, dtc."""
    return read_csv(cli_dir / "all.csv")
