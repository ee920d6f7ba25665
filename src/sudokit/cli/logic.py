"""``sudokit explain``, ``hint`` and ``rate``: human-style solving, thin over its doors
(:mod:`sudokit.run.explain`, :mod:`sudokit.run.ratings`)."""

from __future__ import annotations

import json
import sys
from collections import deque
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from ._app import app
from ._common import (
    INDEX_HELP,
    JOBS_HELP,
    PUZZLE_HELP,
    Terminated,
    VariantChoice,
    VariantOption,
    one_puzzle,
    puzzle_records,
    stopped_by_sigterm,
)
from ._why import WhyOption

if TYPE_CHECKING:
    from ..model.puzzle import Puzzle
    from ..run.ratings import RatingRow


class StepFormat(str, Enum):
    TEXT = "text"
    JSONL = "jsonl"


BOX_HELP = "Box shape RxC, e.g. 2x3 (default: inferred)."

TechniquesOption = Annotated[str | None, typer.Option(
    "--techniques", help="Use only these techniques: names as 'sudokit explain' prints them, "
    "comma-separated ('Hidden Single,Naked Single,Pointing').")]
ExcludeOption = Annotated[str | None, typer.Option(
    "--exclude", help="Use every technique but these (comma-separated names).")]


def _names(text: str | None) -> list[str] | None:
    """A comma-separated list of technique names, or None."""
    return [n.strip() for n in text.split(",") if n.strip()] if text else None


TimeLimitOption = Annotated[float, typer.Option(
    min=0, help="Seconds per puzzle for finding its solution and the logical solve together, "
    "from the puzzle's start (its share of the batch's count included; 0: no limit).")]

StepTimeLimitOption = Annotated[float, typer.Option(
    "--time-limit", min=0, help="Seconds per puzzle for finding its solution and the logical "
    "solve together (0: no limit).")]


@app.command("explain")
def explain_command(
    puzzle: Annotated[str, typer.Argument(help=PUZZLE_HELP)],
    fmt: Annotated[StepFormat, typer.Option("--format", "-f", help="Output form.")]
    = StepFormat.TEXT,
    grid_every: Annotated[int, typer.Option(
        min=0, help="Show the candidates grid every K steps (0: never).")] = 0,
    trial: Annotated[bool, typer.Option(help="Finish with trial steps where logic ends.")]
    = True,
    index: Annotated[int | None, typer.Option(min=1, help=INDEX_HELP)] = None,
    box: Annotated[str | None, typer.Option(help=BOX_HELP)] = None,
    variant: VariantOption = VariantChoice.STANDARD,
    time_limit: StepTimeLimitOption = 15.0,
    why: WhyOption = False,
    techniques: TechniquesOption = None,
    exclude: ExcludeOption = None,
) -> None:
    """Print the whole logical solve of PUZZLE, easiest step first, with its rating (with
    --why, first why it has no solution or several: exit 1)."""
    from ..formats.text import format_candidates
    from ..logic.solve import rating_of
    from ..run.explain import explain_states

    chosen = one_puzzle(puzzle, index=index, box=box, variant=variant)
    if why:
        from ._why import stop_unless_unique

        stop_unless_unique(chosen, fmt is StepFormat.JSONL, time_limit)
    geometry = chosen.geometry
    steps = []
    solve = explain_states(chosen, trial=trial, time_limit=time_limit,
                           techniques=_names(techniques), exclude=_names(exclude))
    for number, (step, state) in enumerate(solve, 1):
        steps.append(step)
        show_grid = grid_every and number % grid_every == 0
        if fmt is StepFormat.JSONL:
            row = {"step": number} | step.as_dict(geometry)
            if show_grid:
                row["candidates"] = state.pencil_marks()
            print(json.dumps(row))
        else:
            print(f"{number:3d}. [{step.rating:.1f}] {step.technique}: {step.text}")
            if show_grid:
                print(format_candidates(state.pencil_marks(), geometry))
    result = rating_of(steps, True)
    solved = sum(1 for s in steps for _ in s.placements) + chosen.n_givens == geometry.n_cells
    if fmt is StepFormat.TEXT and solved:
        print(f"rating {result.rating:.1f} ({result.hardest or 'none'}), level "
              f"{result.level.value}, {len(steps)} steps")
    if not solved:  # no rating nor level: the solve is not finished
        done = (f"logic stops after {len(steps)} steps (hardest: {result.hardest}, "
                f"{result.rating:.1f})" if steps else "logic cannot start on this puzzle")
        print(f"sudokit: {done}: {STUCK}; --trial finishes with trial steps", file=sys.stderr)
    raise typer.Exit(0 if solved else 1)


def _stuck(puzzle: Puzzle, marks: Sequence[Sequence[int] | None] | None, only: list[str] | None,
           left_out: list[str] | None, time_limit: float) -> str:
    """What ``hint`` says when no step comes: with --techniques/--exclude, that none of the
    chosen ones applies and which technique would (the next step with every technique but
    trial)."""
    if not (only or left_out):
        return f"{STUCK}; --trial gives that step"
    from ..run.explain import hint

    step = hint(puzzle, marks, time_limit=time_limit, trial=False)
    needs = None if step is None else step.technique
    return ("none of the chosen techniques applies: " + (
        f"the next step needs {needs}, which --techniques/--exclude leave out" if needs
        else f"{STUCK}; --trial gives that step"))


STUCK = ("no technique applies (singles up to forcing chains): the next deduction needs "
         "trial, a guess on one cell searched to its end")
"""What ``explain --no-trial`` and ``hint`` say when logic cannot go on."""


@app.command("hint")
def hint_command(
    puzzle: Annotated[str, typer.Argument(help=PUZZLE_HELP + " A partly filled grid is fine.")],
    marks: Annotated[str | None, typer.Option(
        help="Your pencil marks: N*N groups separated by spaces, row by row, each the digits "
        "of one cell ('.' or '0': work them out; a filled cell's group is ignored).")] = None,
    fmt: Annotated[StepFormat, typer.Option("--format", "-f", help="Output form.")]
    = StepFormat.TEXT,
    trial: Annotated[bool, typer.Option(
        help="When no technique applies, give the trial step (a guess on one cell, searched "
        "to its end) instead of saying so.")] = False,
    index: Annotated[int | None, typer.Option(min=1, help=INDEX_HELP)] = None,
    box: Annotated[str | None, typer.Option(help=BOX_HELP)] = None,
    variant: VariantOption = VariantChoice.STANDARD,
    time_limit: StepTimeLimitOption = 15.0,
    why: WhyOption = False,
    every: Annotated[bool, typer.Option(
        "--all", help="Every step available now, each instance of each technique, easiest "
        "first (HoDoKu's all steps).")] = False,
    techniques: TechniquesOption = None,
    exclude: ExcludeOption = None,
) -> None:
    """Print the next logical step of PUZZLE (the easiest one), and why; when no technique
    applies, say so and what the next deduction needs (exit code 1), unless --trial. With
    --why, a grid without a solution or with several says why instead (exit 1)."""
    from ..logic.solve import parse_marks
    from ..run.explain import hint, hints

    chosen = one_puzzle(puzzle, index=index, box=box, variant=variant)
    if why:
        from ._why import stop_unless_unique

        stop_unless_unique(chosen, fmt is StepFormat.JSONL, time_limit)
    pencil = parse_marks(marks, chosen.geometry) if marks else None
    only, left_out = _names(techniques), _names(exclude)
    if every:
        found = hints(chosen, pencil, time_limit=time_limit, trial=trial, techniques=only,
                      exclude=left_out)
        for one in found:
            print(json.dumps(one.as_dict(chosen.geometry)) if fmt is StepFormat.JSONL
                  else f"[{one.rating:.1f}] {one.technique}: {one.text}")
        step = found[0] if found else None
        if step is not None:
            return
    else:
        step = hint(chosen, pencil, time_limit=time_limit, trial=trial, techniques=only,
                    exclude=left_out)

    if step is None:
        full = chosen.n_givens == chosen.geometry.n_cells
        if fmt is StepFormat.JSONL:
            print(json.dumps({"step": None, "full": full}))
        elif full:
            print("the grid is full")
        if not full:
            print(f"sudokit: {_stuck(chosen, pencil, only, left_out, time_limit)}",
                  file=sys.stderr)
        raise typer.Exit(0 if full else 1)
    if fmt is StepFormat.JSONL:
        print(json.dumps(step.as_dict(chosen.geometry)))
    else:
        print(f"[{step.rating:.1f}] {step.technique}: {step.text}")


@app.command("rate")
def rate_command(
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Puzzle files, '-' for stdin (the default), or literal puzzles.",
        metavar="FILE")] = None,
    fmt: Annotated[StepFormat, typer.Option("--format", "-f", help="Record form.")]
    = StepFormat.TEXT,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help=JOBS_HELP)] = 1,
    box: Annotated[str | None, typer.Option(help=BOX_HELP)] = None,
    variant: VariantOption = VariantChoice.STANDARD,
    time_limit: TimeLimitOption = 15.0,
    why: WhyOption = False,
    techniques: TechniquesOption = None,
    exclude: ExcludeOption = None,
) -> None:
    """Rate every puzzle of the inputs on Sudoku Explainer's scale; one record per puzzle, in
    input order: rating, level, hardest technique (``timeout`` past --time-limit; with --why,
    why a puzzle has no solution or several; with --techniques/--exclude, the solve with those
    techniques only, ``stuck`` where they cannot finish it). Ctrl-C and
    SIGTERM stop it with every record written complete (exit 130, 143)."""
    from ..run.ratings import rate_records, record_line
    from ._common import data_on_terminal, jobs_cap
    from ._why import with_puzzles

    all_ok, rated, said = True, 0, data_on_terminal()
    sources = inputs or ["-"]
    try:
        with stopped_by_sigterm():
            records = puzzle_records(sources, box=box, variant=variant)
            pending: deque[Puzzle | None] = deque()
            if why:
                records = with_puzzles(records, pending)
            rows = rate_records(records, jobs=jobs_cap(jobs), time_limit=time_limit or None,
                                techniques=_names(techniques), exclude=_names(exclude))
            for row in rows:
                all_ok, rated = all_ok and row["status"] == "rated", rated + 1
                reason = _add_why(row, pending.popleft(), time_limit) if why else ""
                print(json.dumps(row) if fmt is StepFormat.JSONL else record_line(row)
                      + (f"\n  {reason}" if reason else ""), flush=True)
                if row["status"] != "rated" and not said:  # a terminal shows the record
                    print(f"sudokit: {row['error']}", file=sys.stderr)
    except KeyboardInterrupt as exc:
        stopped = "terminated" if isinstance(exc, Terminated) else "interrupted"
        print(f"sudokit: {stopped}: every record written is complete", file=sys.stderr)
        raise typer.Exit(143 if stopped == "terminated" else 130) from None
    if not rated:
        names = ", ".join("<stdin>" if s == "-" else s for s in sources)
        print(f"sudokit: no puzzle found in {names}", file=sys.stderr)
    raise typer.Exit(0 if all_ok and rated else 1)



def _add_why(row: RatingRow, puzzle: Puzzle | None, time_limit: float) -> str:
    """Add the ``why`` field to a rating record of a puzzle that has no solution or several;
    return its text (indented), or ``""``."""
    from ._why import explained

    if puzzle is None or row["status"] == "timeout" or (row["status"] == "rated"
                                                        and row["unique"]):
        return ""
    found, text = explained(puzzle, time_limit)
    if found.get("verdict") == "unique":
        return ""
    row["why"] = found
    return text.replace("\n", "\n  ")
