"""Sudoku as SAT: CNF encodings, DIMACS files and our own DPLL solver.

Knows nothing of the registry or the CLI; the adapters in :mod:`sudokit.solvers` use it.
"""

from __future__ import annotations

__all__: list[str] = []
