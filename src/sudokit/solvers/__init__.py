"""Method adapters: one module per method family, each registering its solver classes.

Every module in this package is imported by :func:`sudokit.registry.load_methods` (those of other
problem types than Sudoku, listed in ``registry._MODULES``, only for their problem), so a new
method is one new file here and nothing else.
"""

from .base import Solver

__all__ = ["Solver"]
