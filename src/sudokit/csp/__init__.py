"""Generic constraint satisfaction: model, AC-3, backtracking with forward checking or MAC.

Knows nothing of the registry; :mod:`sudokit.csp.sudoku` builds a Sudoku's CSP from its geometry.
"""

from .engine import Engine, sum_bounds
from .model import (
                    CSP,
                    AllDifferent,
                    CageSum,
                    Compiled,
                    Constraint,
                    LinearSum,
                    NotConsecutive,
                    NotEqual,
                    mask_of,
                    values_of,
)
from .search import (
                    CSP_COUNTERS,
                    Inference,
                    Order,
                    Search,
                    Select,
                    ac3_domains,
                    backtracking_search,
                    counters_for,
                    depth_first,
)

__all__ = [
                    "CSP",
                    "CSP_COUNTERS",
                    "AllDifferent",
                    "CageSum",
                    "Compiled",
                    "Constraint",
                    "Engine",
                    "Inference",
                    "LinearSum",
                    "NotConsecutive",
                    "NotEqual",
                    "Order",
                    "Search",
                    "Select",
                    "ac3_domains",
                    "backtracking_search",
                    "counters_for",
                    "depth_first",
                    "mask_of",
                    "sum_bounds",
                    "values_of",
]
