"""The app's screens are composed of parts, not mixed from them: no class of the
app has two or more twofold bases, so no part shares a screen's ``self``."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import twofold.ui.app
from tests.ui.conftest import AppFactory
from twofold.ui.app.screens.game import GameScreen


def test_no_class_of_the_app_is_built_from_two_twofold_classes() -> None:
    mixed = []
    for module in pkgutil.walk_packages(twofold.ui.app.__path__, "twofold.ui.app."):
        for name, cls in inspect.getmembers(importlib.import_module(module.name), inspect.isclass):
            ours = [b for b in cls.__bases__ if b.__module__.startswith("twofold.")]
            if cls.__module__ == module.name and len(ours) >= 2:
                mixed.append(f"{module.name}.{name}({', '.join(b.__name__ for b in ours)})")
    assert mixed == []


@pytest.mark.parametrize("mode", ["2048", "2248", "2248-blitz"])
async def test_a_game_screen_is_set_up_once(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """Textual calls every class's own on_mount along the screen's classes: a subclass that
    also called super().on_mount() set the game up three times (three greetings, three
    Blitz clocks)."""
    greetings: list[str] = []
    greeting = GameScreen.greeting

    def counted(screen: GameScreen) -> str:
        greetings.append(screen.mode.id)
        return greeting(screen)

    monkeypatch.setattr(GameScreen, "greeting", counted)
    app = make_app(mode)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert greetings == [mode]
