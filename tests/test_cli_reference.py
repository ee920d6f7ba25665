"""The CLI reference page (docs/cli.md, made at site build time by docs/hooks/cli_reference.py
from the app's own --help) holds every command and every option of the app (issue 37)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOOK = ROOT / "docs" / "hooks" / "cli_reference.py"


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_reference_hook", HOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sections() -> dict[str, str]:
    """The page's sections: command path ("sudokit solve") -> its text."""
    text = _hook().cli_markdown()
    parts = ("\n" + text).split("\n## ")[1:]
    return {part.split("\n", 1)[0]: part for part in parts}


def _commands(command: Any, path: str) -> list[tuple[str, Any]]:
    """Every visible command of the app with its path, read from Click's own tree (the
    commands' dict, not the hook's walk)."""
    found = [(path, command)]
    for name, sub in getattr(command, "commands", {}).items():
        if not sub.hidden:
            found += _commands(sub, f"{path} {name}")
    return found


def _app_commands() -> list[tuple[str, Any]]:
    import typer.main

    import sudokit.cli  # noqa: F401  (registers every command)
    from sudokit.cli._app import app

    return _commands(typer.main.get_command(app), "sudokit")


def test_every_command_has_a_section(sections: dict[str, str]) -> None:
    paths = [path for path, _ in _app_commands()]
    assert len(paths) >= 15  # solve, show, cnf, explain, generate, serve, ...
    assert sorted(sections) == sorted(paths)


def test_every_option_and_argument_is_in_its_command_section(sections: dict[str, str]) -> None:
    missing = []
    for path, command in _app_commands():
        for param in command.params:
            if getattr(param, "hidden", False):
                continue
            names = [*param.opts, *param.secondary_opts] if param.param_type_name == "option" \
                else [param.human_readable_name]
            missing += [(path, name) for name in names if name not in sections[path]]
    assert not missing, f"not on the CLI reference page: {missing}"


def test_a_section_is_the_command_help(sections: dict[str, str]) -> None:
    solve = sections["sudokit solve"]
    assert "Usage: sudokit solve [OPTIONS]" in solve
    assert "--time-limit" in solve and "--output" in solve
    assert all(len(line) <= 100 for part in sections.values() for line in part.splitlines())


def test_the_hook_fills_the_page_and_only_that_page() -> None:
    hook = _hook()
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert hook.MARKER in page

    def on(uri: str, text: str) -> str:
        result: str = hook.on_page_markdown(text, SimpleNamespace(file=SimpleNamespace(
            src_uri=uri)))
        return result

    filled = on("cli.md", page)
    assert hook.MARKER not in filled and "## sudokit generate" in filled
    assert on("usage.md", page) == page
    with pytest.raises(ValueError, match="marker"):
        on("cli.md", "# no marker")


def test_the_site_builds_the_page() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "docs/hooks/cli_reference.py" in config
    assert "cli.md" in config and "hooks/" in config.split("hooks:")[0]  # exclude_docs
