"""The one private name of textual-serve that twofold relies on, kept here alone.

textual-serve's ``AppService`` keeps its app's process in ``_process`` and offers no public
way to reach it; ``twofold serve`` needs it to end a page's app that does not quit when
asked. tests/cli/test_serve_private.py checks this name against the installed
textual-serve, and pyproject.toml bounds textual-serve to the versions checked.
"""

from __future__ import annotations

from asyncio.subprocess import Process

from textual_serve.app_service import AppService


def page_process(service: AppService) -> Process | None:
    """The process running a page's app, once started (None before)."""
    process = getattr(service, "_process", None)
    return process if isinstance(process, Process) else None
