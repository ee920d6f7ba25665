"""``sudokit sat``: solve any DIMACS CNF file and print the answer in SAT-competition form."""

from __future__ import annotations

from typing import Annotated

import typer

from ._app import app


@app.command("sat")
def sat_command(
    file: Annotated[str, typer.Argument(help="A DIMACS CNF file ('-' for stdin).",
                                        metavar="FILE.cnf")],
    method: Annotated[str, typer.Option(
        "--method", "-m", help="dpll (ours, the default), a PySAT backend (cadical195, "
        "glucose4, ...) or exec (a solver binary, see -o cmd=...).")] = "dpll",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="cmd='SOLVER {in} {out}' for exec.")] = None,
    time_limit: Annotated[float, typer.Option(min=0, help="Seconds (0: no limit).")] = 0.0,
    node_limit: Annotated[int | None, typer.Option(
        min=0, help="Most decisions (exec: runs of the binary).")] = None,
    model: Annotated[bool, typer.Option(
        "--model/--no-model", help="Print the model as 'v' lines.")] = True,
) -> None:
    """Solve a CNF: print 's SATISFIABLE' (or UNSATISFIABLE / UNKNOWN), the verified model as
    'v ... 0' lines and the counters as 'c' lines. Exit code 0 when satisfiable, 1 when
    unsatisfiable or unknown."""
    from ..model.result import Status
    from ..run.cnf import solve_cnf
    from ..run.output import parse_option
    from ..sat.cnf import model_lines
    from ..sat.dimacs import read_dimacs, sat_word
    from ._common import read_argument

    options = dict(parse_option(text) for text in option or ())
    unknown = set(options) - {"cmd"}
    if unknown:
        raise typer.BadParameter(f"unknown option {min(unknown)!r} (known: cmd)",
                                 param_hint="--option")
    text, source = read_argument(file)
    cnf = read_dimacs(text, source)
    result = solve_cnf(cnf, method, time_limit=time_limit or None, node_limit=node_limit,
                       cmd=options.get("cmd"))
    print(f"c sudokit sat: {source}: {result.n_vars} variables, {result.n_clauses} clauses; "
          f"method {result.method}")
    if result.message:
        print(f"c {result.message}")
    print(f"s {sat_word(result.status)}")
    solved = result.status is Status.SOLVED
    if model and solved:
        print("\n".join(model_lines(result.model)))
    for name, value in result.stats.as_dict().items():
        if value is not None:
            print(f"c {name:<13} {value}")
    print(f"c {'seconds':<13} {result.seconds:.4f}")
    raise typer.Exit(0 if solved else 1)
