"""A plugin's mode opened in the real app, its tutorials seen or not, motion on or off."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from twofold.core import plugins
from twofold.core.store import open_store
from twofold.ui.app.app import TwofoldApp

Body = Callable[[TwofoldApp, Pilot[Any]], Awaitable[None]]


def play_in_the_app(
    body: Body,
    registry: plugins.Registry,
    mode_id: str,
    *,
    code: str,
    seen: tuple[str, ...],
    motion: bool = False,
) -> None:
    """Run ``body`` on the app opened on ``mode_id`` at ``code``, at 100x32."""
    store = open_store()
    settings = dataclasses.replace(
        store.load_settings(), tutorials_seen=seen, reduced_motion=not motion
    )
    store.save_settings(settings)

    async def run() -> None:
        app = TwofoldApp(registry, store, mode_id=mode_id, code=code)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await body(app, pilot)

    try:
        asyncio.run(run())
    finally:
        store.close()
