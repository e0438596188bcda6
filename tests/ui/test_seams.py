"""The app and its screens ask each other through declared seams, never getattr."""

from __future__ import annotations

import re
from pathlib import Path

from textual.app import App

from twofold.ui.app.keys import KeyBindingsScreen
from twofold.ui.app.seams import AppHost, TwofoldScreen, twofold_screens

UI = Path(__file__).parents[2] / "ui"
#: getattr or hasattr on an app, a screen or a session: a probe where a seam belongs
PROBE = re.compile(r"(getattr|hasattr)\((self\.)?(app|screen|session|store)\b")


def test_no_front_end_probes_an_app_a_screen_or_a_store() -> None:
    probes = [
        f"{path.relative_to(UI)}:{number}"
        for path in sorted(UI.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PROBE.search(line)
    ]
    assert probes == []


async def test_a_screen_on_another_app_keeps_its_own_settings() -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        screen = KeyBindingsScreen()
        await app.push_screen(screen)
        await pilot.pause()
        assert not isinstance(app, AppHost) and screen.host is None
        screen.keep({"game.undo": "x"})
        # kept on the screen itself: nothing is set on an app that keeps no settings
        assert screen.settings.keymap == {"game.undo": "x"} and not hasattr(app, "settings")
        assert twofold_screens(app.screen_stack) == [screen]
        assert isinstance(screen, TwofoldScreen) and screen.session is None
