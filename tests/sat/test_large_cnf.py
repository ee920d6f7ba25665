"""``benchmarks/large.py --write-cnf``: the DIMACS files it writes are the instances' CNFs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sudokit.sat.compact import compact_cnf
from sudokit.sat.dimacs import read_dimacs

ROOT = Path(__file__).resolve().parents[2]


def _large():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import large
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return large


def test_write_cnf_round_trip(tmp_path: Path) -> None:
    pysat = pytest.importorskip("pysat.solvers")
    large = _large()
    puzzle = large.qcp_instances(16, 0.5, 1, 7)[0]
    path = large.write_cnf(str(tmp_path), "p", puzzle)
    dimacs = read_dimacs(Path(path).read_text(), path)
    cnf = compact_cnf(puzzle)
    assert dimacs.clauses == cnf.clauses
    with pysat.Solver(name="cadical195", bootstrap_with=dimacs.clauses) as solver:
        assert solver.solve()
        grid = np.asarray(cnf.decode(solver.get_model()))
    givens = np.asarray(puzzle.givens)
    assert np.all((givens == 0) | (grid == givens))
    for unit in puzzle.geometry.units:
        assert sorted(grid[list(unit)].tolist()) == list(range(1, 17))


def test_write_cnf_command(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "large.py", "--suites", "qcp", "--sizes", "16",
                          "--ratios", "0.5", "--count", "2", "--seeds", "3",
                          "--write-cnf", str(tmp_path)],
                         cwd=ROOT / "benchmarks", capture_output=True, text=True, check=True)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["qcp16_0.5_s3_0.cnf", "qcp16_0.5_s3_1.cnf"]
    assert out.stdout.split() == [str(tmp_path / n) for n in names]
