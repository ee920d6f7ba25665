"""Magic squares, the second constraint problem: model, searches, constructions and counting.

>>> from sudokit.magic import MagicProblem, solve_magic, construct, count_magic, is_magic
>>> solve_magic(MagicProblem(3)).square
((2, 9, 4), (7, 5, 3), (6, 1, 8))
>>> is_magic(construct(5)), count_magic(3).count
(True, 8)
"""

from .construct import construct
from .methods import (COUNT_METHOD, DEFAULT_METHOD, METHODS, SEARCH_UP_TO, MagicSolver,
                      compare_methods, count_magic, get_method, magic_methods, solve_magic)
from .model import MagicProblem, MagicResult, canonical, is_magic, magic_constant, magic_violations
from .text import format_square, parse_givens, read_givens, summary_line

__all__ = ["MagicProblem", "MagicResult", "is_magic", "magic_violations", "magic_constant",
           "canonical", "construct", "METHODS", "DEFAULT_METHOD", "COUNT_METHOD", "SEARCH_UP_TO",
           "MagicSolver", "magic_methods", "get_method",
           "solve_magic", "count_magic", "compare_methods", "format_square", "parse_givens",
           "read_givens", "summary_line"]
