"""The local web app of ``sudokit serve``: an interactive board in the browser.

Beside :mod:`sudokit.cli` on the top floor and as thin: :mod:`~sudokit.serve.api` turns JSON
request bodies into calls of the front doors of :mod:`sudokit.run` and their answers into the
records of ``--format jsonl``; :mod:`~sudokit.serve.app` is the Starlette app (the page's static
files from ``static/``, the API under ``/api/``, the trust boundary, size and time limits)
served by uvicorn; :mod:`~sudokit.serve.worker` runs the work in child processes killed at
the limit. The
board itself is the SVG of :mod:`sudokit.present.svg`, filled in by the page's JavaScript.
"""

from __future__ import annotations

from .app import LOOPBACK, Settings, create_app, run_server

__all__ = ["LOOPBACK", "Settings", "create_app", "run_server"]
