"""Share of the published rule puzzles (tests/data/rules) the technique engine explains to the
end without trial, each step checked against the published solution.

    PYTHONPATH=src python benchmarks/explain_rules.py [--heldout]

``--heldout`` measures the held-out lists (``tests/data/rules/heldout_*.json``) instead. Prints one line per puzzle (SOLVED or stuck, steps, the hardest rating, the most used
techniques), the share and the hardest ratings of the explained puzzles; deterministic
(counts, not times).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from sudokit.errors import SudokuError
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.logic.solve import logical_steps
from sudokit.model.puzzle import Puzzle

RULES = Path(__file__).parents[1] / "tests/data/rules"


def heldout() -> Iterator[tuple[str, Puzzle, tuple[int, ...]]]:
    """Every puzzle of the held-out lists (refused entries left out) with its solution."""
    for path in sorted(RULES.glob("heldout_*.json")):
        for item in json.loads(path.read_text()):
            if "refused" not in item:
                yield (item["title"], fpuzzles_puzzle(decode_fpuzzles(item["puzzle"])[0]),
                       tuple(map(int, item["solution"])))


def puzzles() -> Iterator[tuple[str, Puzzle, tuple[int, ...]]]:
    """Every published puzzle of tests/data/rules with its published solution."""
    for path in sorted(RULES.glob("sigh_*.json")):
        text = path.read_text()
        yield path.stem, fpuzzles_puzzle(text), tuple(json.loads(text)["solution"])
    for item in json.loads((RULES / "variant_solver_js_ci.json").read_text()):
        yield (item["title"], fpuzzles_puzzle(decode_fpuzzles(item["puzzle"])[0]),
               tuple(map(int, item["solution"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heldout", action="store_true", help="the held-out lists instead")
    done = total = 0
    hardest: list[float] = []
    for name, puzzle, solution in heldout() if parser.parse_args().heldout else puzzles():
        total += 1
        try:
            steps = logical_steps(puzzle, solution, unique=True, trial=False)
        except SudokuError as error:
            print(f"{name:36s} refused: {error}")
            continue
        placed = sum(1 for d in puzzle.givens if d) + sum(len(s.placements) for s in steps)
        solved = placed == len(solution)
        done += solved
        if solved:
            hardest.append(max((s.rating for s in steps), default=0.0))
        used = dict(Counter(s.technique for s in steps).most_common(3))
        print(f"{name:36s} {'SOLVED' if solved else 'stuck '} {len(steps):4d} steps, hardest "
              f"{max((s.rating for s in steps), default=0.0)}, {used}")
    print(f"explained to the end without trial: {done}/{total} = {100 * done / total:.0f}%")
    if hardest:
        print(f"their hardest steps (Sudoku Explainer's scale): median "
              f"{statistics.median(hardest):.1f}, at most {max(hardest):.1f}, "
              f"{sum(h < 8.0 for h in hardest)} below 8.0")


if __name__ == "__main__":
    main()
