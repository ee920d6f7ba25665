"""Magic squares, the second constraint problem: model, searches, constructions and counting.

>>> from sudokit.magic import MagicProblem, construct, is_magic
>>> MagicProblem(3).constant, is_magic(construct(5))
(15, True)

The front door (:func:`sudokit.solve_magic`, :func:`sudokit.count_magic`,
:func:`sudokit.compare_magic`) is :mod:`sudokit.run.magic`; the methods' adapters are in
:mod:`sudokit.solvers.magic`.
"""

from .construct import construct
from .model import MagicProblem, MagicResult, canonical, is_magic, magic_constant, magic_violations
from .text import format_square, parse_givens, read_givens, summary_line

__all__ = ["MagicProblem", "MagicResult", "is_magic", "magic_violations", "magic_constant",
           "canonical", "construct", "format_square", "parse_givens", "read_givens",
           "summary_line"]
