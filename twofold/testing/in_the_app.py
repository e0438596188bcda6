"""The app opens the mode on the screen of its controls and plays it through Textual's Pilot.

The app is imported only when this check runs: the rest of the kit stands on core alone.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from twofold.core._rules import Mode
from twofold.testing.player import CODE, grown_chain
from twofold.testing.registry import registry_of


def check_in_the_app(mode: Mode, *, size: tuple[int, int] = (100, 32)) -> None:
    """The app opens ``mode`` on the screen of its controls and plays it through Pilot.

    Its game is stored in the data folder of ``TWOFOLD_HOME``: give the test a fresh one.
    """
    asyncio.run(_in_the_app(mode, size))


async def _in_the_app(mode: Mode, size: tuple[int, int]) -> None:
    from twofold.core.store import open_store
    from twofold.ui.app.app import TwofoldApp
    from twofold.ui.app.screens.game import GameScreen
    from twofold.ui.app.screens.tutorial import TutorialScreen

    registry = registry_of(mode)
    store = open_store()
    try:
        app = TwofoldApp(registry, store, mode_id=mode.id, code=CODE)
        errors: list[str] = []  # each error the app is told to show, through its public notify
        notify = app.notify

        def told(message: str, *, severity: Any = "information", **options: Any) -> None:
            if severity == "error":
                errors.append(str(message))
            notify(message, severity=severity, **options)

        app.notify = told  # type: ignore[method-assign]
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if mode.tutorial:  # the first game of a family opens on its tutorial
                assert isinstance(app.screen, TutorialScreen), (
                    f"{mode.id}: its tutorial is not shown on the first game"
                )
                await pilot.press("escape")
                await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen), (
                f"{mode.id}: the app opened no game ({type(screen).__name__})"
            )
            assert errors == [], f"{mode.id}: the app says {errors}"
            await _play_keys(pilot, mode, screen)
            await pilot.pause()
            assert screen.session.game.log, f"{mode.id}: nothing the keys did was played"
            assert app.screen is screen or not isinstance(app.screen, GameScreen), (
                f"{mode.id}: the game screen left while it was played"
            )
    finally:
        store.close()


async def _play_keys(pilot: Any, mode: Mode, screen: Any) -> None:
    """Keys a player presses on the mode's screen: moves, a chain or a place, undo."""
    if mode.controls == "slide":
        for key in ("left", "up", "right", "down", "left", "down"):
            await pilot.press(key)
        return
    if mode.controls == "place":
        for key in ("right", "enter", "left", "space", "enter"):
            await pilot.press(key)
        return
    state = screen.session.game.state
    hint = mode.hint(state) if mode.hint is not None else None
    if hint is not None and len(hint.cells) >= 2:
        path = list(hint.cells)
    else:
        path = grown_chain(mode, state, random.Random(0))
    # the cursor shows on the first key, at the bottom left; Space adds, Enter merges
    await pilot.press("up")
    at = (len(state.board) - 1, 0)
    for cell in path:
        for _step in range(abs(cell[0] - at[0])):
            await pilot.press("down" if cell[0] > at[0] else "up")
        for _step in range(abs(cell[1] - at[1])):
            await pilot.press("right" if cell[1] > at[1] else "left")
        await pilot.press("space")
        at = cell
    await pilot.press("enter")
