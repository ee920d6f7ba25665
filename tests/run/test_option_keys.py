"""Method options given as ``-o KEY=VALUE`` never land on a parameter of the functions that pass
them on as keywords (``sudokit magic -o request=x`` reached ``solve_magic``'s ``request``; ``-o
time_limit=3`` was a keyword given twice): such a key is a usage error
(:data:`sudokit.run.output.CALL_KEYWORDS`), and the set holds every such parameter and no
method's option."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
from typer.testing import CliRunner

import sudokit
from sudokit.cli import app
from sudokit.errors import InvalidOption
from sudokit.run.output import CALL_KEYWORDS, parse_option

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _passing_options_on() -> Iterator[tuple[str, Callable[..., object]]]:
    """Every function and method of the package with a ``**options`` parameter."""
    skip = ("sudokit.serve", "sudokit.run.warm", "sudokit.__main__")
    for info in pkgutil.walk_packages(sudokit.__path__, "sudokit."):
        if info.name.startswith(skip):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != info.name:
                continue
            found = [obj] if inspect.isfunction(obj) else [
                f for f in vars(obj).values() if inspect.isfunction(f)] if inspect.isclass(obj) \
                else []
            for func in found:
                parameters = inspect.signature(func).parameters.values()
                if any(p.kind is p.VAR_KEYWORD and p.name == "options" for p in parameters):
                    yield f"{info.name}.{name}", func


def test_call_keywords_hold_every_parameter_beside_options() -> None:
    seen = 0
    for where, func in _passing_options_on():
        own = {p.name for p in inspect.signature(func).parameters.values()
               if p.kind is not p.VAR_KEYWORD}
        assert own <= CALL_KEYWORDS, (where, sorted(own - CALL_KEYWORDS))
        seen += 1
    assert seen >= 10  # the doors, get_solver, the solvers' constructors


def test_no_method_declares_a_call_keyword() -> None:
    from sudokit.registry import PROBLEMS, methods

    declared = {key for problem in PROBLEMS for info in methods(problem)
                for key in info.cls.options}
    assert declared and not declared & CALL_KEYWORDS


def test_parse_option_refuses_a_call_keyword() -> None:
    assert parse_option("select = mrv") == ("select", "mrv")
    for text in ("request=x", "time-limit=3", "count_limit=2", "name=mac", " trace =1"):
        with pytest.raises(InvalidOption, match="is not a method option"):
            parse_option(text)


@pytest.mark.parametrize("args", [
    ("magic", "4", "-o", "request=x"),  # reached solve_magic's request: AttributeError
    ("magic", "3", "-o", "method=x"),  # a keyword given twice: TypeError
    ("magic", "3", "--compare", "-o", "count_limit=2"),
    ("compare", TOP1, "--methods", "mac", "-o", "time_limit=3"),
    ("compare", TOP1, "--methods", "mac[name=x]"),  # a label's own options too
    ("trace", TOP1, "-o", "trace=1"),
])
def test_a_call_keyword_as_option_is_a_usage_error(args: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, list(args))
    assert isinstance(result.exception, InvalidOption), (result.exception, result.output)
    assert "is not a method option" in str(result.exception)


def test_magic_request_option_exits_2_with_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "sudokit", "magic", "4", "-o", "request=x"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "'request' is not a method option" in done.stderr


def test_method_options_still_reach_the_method() -> None:
    result = CliRunner().invoke(app, ["magic", "3", "-o", "select=static"])
    assert result.exit_code == 0, result.output
    assert "forward-checking: solved" in result.output
