"""MkDocs hook: the command-line reference page (``docs/cli.md``) generated at build time from
the app's own ``--help`` (as sqlite-utils does with its CLI reference).

The marker :data:`MARKER` on the page is replaced by the ``--help`` text of ``sudokit`` and of
every command under it (nested groups walked, hidden commands left out), in the order
``sudokit --help`` lists them: one section per command, Click's plain text (the app sets
``rich_markup_mode=None``) at :data:`WIDTH` columns, so the page says exactly what the installed
``sudokit CMD --help`` says. ``tests/test_cli_reference.py`` checks that every command and
every option of the app is on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MARKER = "<!-- cli-help -->"
"""Where on ``docs/cli.md`` the generated reference goes."""
PAGE = "cli.md"
WIDTH = 100
"""Columns of the help text (the page's code blocks; fixed, so the page does not depend on the
terminal that builds the site)."""


def root_command() -> Any:
    """The ``sudokit`` command as Click sees it (every command module registered; Typer
    carries its own copy of Click, so its classes are not :mod:`click`'s)."""
    import typer.main

    import sudokit.cli  # noqa: F401  (registers every command on the app)
    from sudokit.cli._app import app

    return typer.main.get_command(app)


def root_context(width: int = WIDTH) -> Any:
    """A Click context for ``sudokit`` whose help is ``width`` columns wide."""
    root = root_command()
    return root.context_class(root, info_name="sudokit", terminal_width=width,
                              max_content_width=width)


def walk(ctx: Any, path: tuple[str, ...] = ("sudokit",)) -> Iterator[tuple[tuple[str, ...], Any]]:
    """``(path, context)`` of ``ctx``'s command and of every visible command under it, depth
    first in listing order (``path``: the words typed, ``("sudokit", "solve")``)."""
    yield path, ctx
    command = ctx.command
    for name in command.list_commands(ctx) if hasattr(command, "list_commands") else ():
        sub = command.get_command(ctx, name)
        if sub is not None and not sub.hidden:
            yield from walk(sub.context_class(sub, info_name=name, parent=ctx), path + (name,))


def cli_markdown() -> str:
    """The reference: a section per command (``## sudokit CMD``) holding its ``--help``."""
    sections = []
    for path, ctx in walk(root_context()):
        text = ctx.get_help().rstrip()
        sections.append(f"## {' '.join(path)}\n\n```text\n{text}\n```\n")
    return "\n".join(sections)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """MkDocs event: put the reference on :data:`PAGE` in place of :data:`MARKER`."""
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"docs/{PAGE} has no {MARKER} marker for the CLI reference")
    return markdown.replace(MARKER, cli_markdown())
