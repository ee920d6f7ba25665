"""``sudokit sat FILE.cnf`` (issue 17.9): any DIMACS CNF, by our DPLL, PySAT or a binary."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.errors import SolverBug, UnknownMethod
from sudokit.model.result import Status
from sudokit.run.cnf import solve_cnf
from sudokit.sat.cnf import cnf_methods, falsified_clause
from sudokit.sat.dimacs import Dimacs, read_dimacs, read_solver_output, write_dimacs
from tests.helpers import DATA

runner = CliRunner()


def pigeonhole(holes: int) -> Dimacs:
    """holes + 1 pigeons in ``holes`` holes: unsatisfiable, and hard for DPLL (Haken 1985)."""
    pigeons = holes + 1

    def x(p: int, h: int) -> int:  # pigeon p sits in hole h
        return p * holes + h + 1

    clauses = [[x(p, h) for h in range(holes)] for p in range(pigeons)]
    clauses += [[-x(p, h), -x(q, h)] for h in range(holes)
                for p, q in itertools.combinations(range(pigeons), 2)]
    return Dimacs(pigeons * holes, clauses)


def write(tmp_path: Path, cnf: Dimacs, name: str = "f.cnf") -> Path:
    path = tmp_path / name
    with path.open("w") as out:
        write_dimacs(out, cnf.clauses, cnf.n_vars, cnf.comments)
    return path


@pytest.mark.parametrize("method", [m for m in cnf_methods() if m != "exec"][:3])
def test_every_method_solves_and_verifies(method: str) -> None:
    cnf = read_dimacs("p cnf 4 4\n1 2 0\n-1 3 0\n-3 -2 0\n4 -4 0\n")
    result = solve_cnf(cnf, method)
    assert result.status is Status.SOLVED and len(result.model) == 4
    assert falsified_clause(cnf.clauses, result.model) is None
    assert solve_cnf(pigeonhole(3), method).status is Status.UNSATISFIABLE


def test_limits_give_unknown_with_counters() -> None:
    result = solve_cnf(pigeonhole(9), "dpll", time_limit=0.3)
    assert result.status is Status.UNKNOWN and "time limit" in result.message
    result = solve_cnf(pigeonhole(6), "dpll", node_limit=10)
    assert result.status is Status.UNKNOWN and result.stats.nodes == 10
    assert result.stats.revisions is None  # not measured by DPLL


def test_unknown_method_and_wrong_models_are_errors(monkeypatch) -> None:
    with pytest.raises(UnknownMethod, match="dpll"):
        solve_cnf(pigeonhole(2), "walksat")
    from sudokit.sat import cnf

    monkeypatch.setattr(cnf, "dpll_models", lambda *a, **k: iter([[1, 2, 3, 4, 5, 6]]))
    with pytest.raises(SolverBug, match="falsifies clause"):
        solve_cnf(pigeonhole(2), "dpll")


def test_cli_prints_competition_lines(tmp_path: Path) -> None:
    path = tmp_path / "report.cnf"
    path.write_text("c the report's style\np cnf 3 3\nv1 -v2 0\n2 3 0\n-1 -3 0\n")
    done = runner.invoke(app, ["sat", str(path)])
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert "s SATISFIABLE" in lines and any(line.startswith("c nodes") for line in lines)
    answer = read_solver_output(done.stdout)
    assert falsified_clause(read_dimacs(path.read_text()).clauses, answer.model) is None


def test_cli_unsatisfiable_and_unknown_exit_1(tmp_path: Path) -> None:
    done = runner.invoke(app, ["sat", str(write(tmp_path, pigeonhole(4)))])
    assert done.exit_code == 1 and "s UNSATISFIABLE" in done.stdout
    done = runner.invoke(app, ["sat", str(write(tmp_path, pigeonhole(8))), "--node-limit", "5"])
    assert done.exit_code == 1 and "s UNKNOWN" in done.stdout and "c nodes         5" in done.stdout


def test_cli_errors_name_file_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 2 1\n1 x 0\n")
    done = runner.invoke(app, ["sat", str(bad)])
    assert done.exit_code != 0 and f"{bad}:2:3" in str(done.exception or done.stderr)
    done = runner.invoke(app, ["sat", str(bad), "-o", "colour=red"])
    assert done.exit_code == 2


def test_cli_answer_decodes_back_to_the_sudoku(tmp_path: Path) -> None:
    """cnf -> sat -> cnf --decode: our DPLL's competition answer is a verified grid."""
    line = (DATA / "norvig/sudoku-easy50.txt").read_text().splitlines()[0]
    cnf = tmp_path / "p.cnf"
    cnf.write_text(runner.invoke(app, ["cnf", line]).stdout)
    answer = tmp_path / "answer.txt"
    done = runner.invoke(app, ["sat", str(cnf)])
    assert done.exit_code == 0
    answer.write_text(done.stdout)
    decoded = runner.invoke(app, ["cnf", "--decode", str(cnf), str(answer)])
    assert decoded.exit_code == 0, decoded.output
    assert len(decoded.stdout.strip()) == 81 and "0" not in decoded.stdout.strip()


@pytest.mark.skipif(not shutil.which("minisat"), reason="needs a minisat binary")
def test_cli_exec_runs_a_binary(tmp_path: Path) -> None:
    path = write(tmp_path, pigeonhole(3))
    done = runner.invoke(app, ["sat", str(path), "-m", "exec", "-o", "cmd=minisat {in} {out}"])
    assert done.exit_code == 1 and "s UNSATISFIABLE" in done.stdout
