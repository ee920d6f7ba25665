"""Whether the technique engine runs its compiled kernels or only their Python references.

Every compiled kernel of the technique engine stands beside a Python reference that finds the
same steps in the same order (the tests hold them equal): the ladder's techniques, the chain
walks, ALS, Y-cycles, the candidates state. The kernels serve grids up to a size each names;
larger grids always take the references. :func:`use_references` makes every grid take them
(except the forcing chains, which have no second copy), so the engine answers at once where
compiling its kernels would take 20-40 s on a fresh install (see :mod:`sudokit.run.warm`).
The steps, ratings and texts are the same either way.
"""

from __future__ import annotations

__all__ = ["use_references", "kernels_for"]

_references = False


def use_references(on: bool) -> None:
    """Run the Python references instead of the kernels (``on``), or the kernels where they
    serve (``off``, the default), from the next step on. Process-wide."""
    global _references
    _references = on


def kernels_for(n_cells: int, limit: int) -> bool:
    """Whether a grid of ``n_cells`` cells runs the kernels whose largest grid is ``limit``
    cells (False while :func:`use_references` is on)."""
    return not _references and n_cells <= limit
