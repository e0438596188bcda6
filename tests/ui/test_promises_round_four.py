"""What a careful player found still broken, checked through the real app: one key never
loses a game, the solver asks before a game stops counting, and every screen fits."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.ui.conftest import AppFactory, set_settings
from twofold.core.store import SqliteStore
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.dialogs import ConfirmDialog
from twofold.ui.app.screens.game import GameScreen

MODES = ("2048", "2048-5x5", "2048-6x6", "2048-daily", "2248", "2248-daily", "2248-blitz")
SIZES = ((100, 32), (44, 20))


def game_screen(app: TwofoldApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), screen
    return screen


async def play(pilot: Pilot[None], *, until_points: bool = False, moves: int = 2) -> None:
    """Play moves the mode's own solver chooses, through the screen (bounded)."""
    screen = game_screen(pilot.app)  # type: ignore[arg-type]
    make = screen.mode.autoplayer
    assert make is not None
    player = make(None)
    for played in range(60):
        if until_points and screen.state.score > 0 and played >= moves:
            return
        if not until_points and played >= moves:
            return
        action = player.choose(screen.state)
        assert action is not None and screen.act(action) is not None
        await pilot.pause()
    raise AssertionError("no points after 60 moves")


async def press_b(pilot: Pilot[None]) -> str:
    await pilot.press("b")
    await pilot.pause()
    return game_screen(pilot.app).session.game.game_id  # type: ignore[arg-type]


# -- Last game swaps: the game it replaces is the one it brings back --------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("mode_id", MODES)
async def test_last_game_swaps_and_never_destroys(
    make_app: AppFactory, store: SqliteStore, mode_id: str, size: tuple[int, int]
) -> None:
    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=size) as pilot:
        await play(pilot, until_points=True)
        first = game_screen(app).session.game.game_id
        await pilot.press("n")
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
        await play(pilot)
        second = game_screen(app).session.game
        second_id, second_log = second.game_id, list(second.log)
        assert second_id != first
        assert await press_b(pilot) == first
        assert "Back to game" in game_screen(app).announcer.text
        assert await press_b(pilot) == second_id  # twice: where the player started
        assert game_screen(app).session.game.log == second_log
        await pilot.press("q")  # the menu, and the mode again
        await pilot.pause()
        app.open_mode(mode_id)
        await pilot.pause()
        assert await press_b(pilot) == first
    app = make_app(mode_id, motion=False)  # the app again
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert game_screen(app).session.game.game_id == first
        assert await press_b(pilot) == second_id
        assert game_screen(app).session.game.log == second_log
        assert await press_b(pilot) == first


# -- Watch the solver asks before a counted game stops counting -------------------------------


def bar_text(app: TwofoldApp, name: str) -> str:
    from textual.widgets import Label

    return str(game_screen(app).query_one(f"#topbar-{name}", Label).render())


@pytest.mark.parametrize("mode_id", ["2048", "2248"])
async def test_the_solver_asks_before_a_counted_game_stops_counting(
    make_app: AppFactory, store: SqliteStore, mode_id: str
) -> None:
    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await play(pilot, until_points=True)
        screen = game_screen(app)
        await pilot.press("v")
        assert isinstance(app.screen, ConfirmDialog)
        assert "never counts" in app.screen.body
        await pilot.press("escape")  # Cancel: the game still counts, nobody plays it
        assert app.screen is screen and not screen.assisting.watching
        assert not screen.game.flags.uncounted
        assert "not counted" not in bar_text(app, "code")
        await pilot.press("v", "y")
        assert screen.assisting.watching and screen.game.flags.uncounted
        await pilot.press("v")  # its own key stops it
        assert not screen.assisting.watching
        assert "not counted" in bar_text(app, "code")
        await pilot.press("v")  # a game that no longer counts: nothing more to ask
        assert app.screen is screen and screen.assisting.watching
        await pilot.press("v")
