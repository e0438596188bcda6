"""In the app, the game one step back belongs to the mode, and the menu tells a
game in progress from a finished one."""

from __future__ import annotations

from tests.ui.conftest import AppFactory
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.dialogs import ConfirmDialog
from twofold.ui.app.screens.game import GameScreen
from twofold.ui.app.screens.slide import SlidePlay


def slide(app: TwofoldApp) -> GameScreen:
    screen = app.screen
    assert isinstance(getattr(screen, "play", None), SlidePlay), screen
    return screen


async def test_last_game_survives_the_menu_and_quitting(make_app: AppFactory) -> None:
    app = make_app("2048-6x6", motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        while not slide(app).state.score:
            await pilot.press("left", "up", "right", "down")
        played = slide(app).session.game
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmDialog) and "Last game (B)" in app.screen.body
        await pilot.press("y")
        await pilot.press("left", "up")  # a move on the new game
        await pilot.press("q")  # the menu
        app.open_mode("2048-6x6")
        await pilot.pause()
        await pilot.press("b")
        assert slide(app).session.game.game_id == played.game_id
        assert "Back to game" in slide(app).announcer.text
        await pilot.press("ctrl+r")  # Restart replaces it; the app is quit with it one back
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
    app = make_app("2048-6x6", motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("b")
        assert slide(app).session.game.game_id == played.game_id
        assert slide(app).state == played.state
