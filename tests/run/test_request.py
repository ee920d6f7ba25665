"""The one typed request: every front door takes it, or builds it from its keyword arguments."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from sudokit.errors import InvalidOption, UnknownMethod
from sudokit.model.constraints import Variant
from sudokit.model.result import Limits, Status
from sudokit.run.doors import count_solutions, solutions, solve, solve_array, solve_many
from sudokit.run.request import Request

# The Udacity notebook's puzzle: several solutions as plain Sudoku, one as Sudoku X.
UDACITY = "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3"
EMPTY4 = "." * 16


def test_build_resolves_the_method_and_checks_options() -> None:
    request = Request.build("propagate", {"naked_twins": False}, Limits(5, 100), 2, "diagonal")
    assert (request.method, request.count_limit, request.variant.rules) == (
        "propagate", 2, Variant.DIAGONAL)
    assert request.limits == Limits(5, 100)
    with pytest.raises(UnknownMethod):
        Request.build("no-such-method")
    with pytest.raises(InvalidOption):
        Request.build("propagate", {"no_such_option": 1})


def test_a_request_travels_to_worker_processes() -> None:
    request = Request.build("propagate", {"naked_twins": False}, Limits(1, None), 2, "diagonal")
    assert pickle.loads(pickle.dumps(request)) == request


def test_every_door_takes_the_request() -> None:
    request = Request.build("propagate", count_limit=2)
    counted = count_solutions(EMPTY4, request=request)
    assert counted.count == 2 and counted.method == "propagate"
    assert solve(EMPTY4, request=request).count == 1  # solve looks for one, whatever the limit
    assert len(list(solutions(EMPTY4, request=Request.build("propagate")))) == 288
    assert [r.count for r in solve_many([counted.puzzle] * 2, request=request)] == [2, 2]
    out = solve_array(np.zeros((3, 16), np.uint8), request=request)
    assert out.status.tolist() == [Status.MULTIPLE] * 3 and out.solutions.shape == (3, 2, 16)


def test_the_request_variant_rules_an_array() -> None:
    givens = np.array([[0 if c == "." else int(c) for c in UDACITY]], np.uint8)
    plain = solve_array(givens, request=Request.build("fast", count_limit=2))
    sudoku_x = solve_array(givens, request=Request.build("fast", count_limit=2,
                                                         variant="diagonal"))
    assert plain.status.tolist() == [Status.MULTIPLE]
    assert sudoku_x.status.tolist() == [Status.SOLVED]


def test_a_request_and_loose_arguments_do_not_mix() -> None:
    request = Request.build("propagate")
    for door in (solve, count_solutions):
        with pytest.raises(TypeError, match="either a request"):
            door(EMPTY4, "fast", request=request)
        with pytest.raises(TypeError, match="either a request"):
            door(EMPTY4, time_limit=1, request=request)
    with pytest.raises(TypeError, match="either a request"):
        solve_array(np.zeros((1, 16), np.uint8), naked_twins=False, request=request)
