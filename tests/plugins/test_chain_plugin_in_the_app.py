"""A plugin's chain mode in the app: its power-up's own key arms it, a key twofold keeps is
dropped (and Help lists it once), and the chain screen's words come from the mode."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import twofold_chainsum
from textual.pilot import Pilot

from twofold.core import plugins
from twofold.core._events import Used
from twofold.core._presentation import PowerUp, Status
from twofold.core._rules import Mode, Outcome
from twofold.core.codes import code_from_text
from twofold.core.store import open_store
from twofold.plugin import hookimpl
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.screens.chain import ChainPlay
from twofold.ui.app.screens.help import screen_keys

CODE = code_from_text("chain plugin")


class ShakingRules(type(twofold_chainsum.RULES)):  # type: ignore[misc]
    """Chain Sum with a power-up of its own: ``shake`` (it only counts as a move here)."""

    def parse(self, text: str) -> str:
        return "shake" if text.strip().lower() == "shake" else super().parse(text)

    def apply(self, state: Any, action: str) -> Outcome:
        if action == "shake":
            after = replace(state, moves=state.moves + 1)
            return Outcome(after, (Used("shake"),))
        return super().apply(state, action)


def shaking(key: str) -> Mode:
    [chainsum] = twofold_chainsum.modes()
    return replace(
        chainsum,
        id="shakesum",
        rules=ShakingRules(undo_depth=10),
        powerups=(PowerUp("shake", "Shake", key, "none", "Shake the board"),),
        status=lambda state: Status(powerups={"shake": 1}),
    )


class Offers:
    def __init__(self, *modes: Mode) -> None:
        self.modes = modes

    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        for mode in self.modes:
            register(mode)


def in_the_app(mode: Mode, body: Callable[[TwofoldApp, Pilot[Any]], Awaitable[None]]) -> None:
    registry = plugins.load([("shaker", Offers(mode))], entry_points_=[])
    store = open_store()
    store.save_settings(dataclasses.replace(store.load_settings(), reduced_motion=True))

    async def run() -> None:
        app = TwofoldApp(registry, store, mode_id=mode.id, code=CODE)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert isinstance(getattr(app.screen, "play", None), ChainPlay)
            await body(app, pilot)

    try:
        asyncio.run(run())
    finally:
        store.close()


def test_a_powerups_own_key_uses_it() -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        await pilot.press("x")
        await pilot.pause()
        assert screen.session.game.log == ["shake"]  # type: ignore[attr-defined]
        keys = [
            binding.key
            for binding in screen_keys(screen.keys_node)
            if binding.action.startswith("arm")
        ]
        assert keys.count("x") == 1

    in_the_app(shaking("x"), body)


def test_a_powerup_key_twofold_keeps_is_dropped_and_the_key_keeps_its_own_action() -> None:
    mode = shaking("b")  # b: Last game on every game screen

    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        [powerup] = screen.mode.powerups  # type: ignore[attr-defined]
        assert powerup.key == ""
        await pilot.press("b")
        await pilot.pause()
        assert screen.session.game.log == []  # type: ignore[attr-defined]
        bound = [binding.key for binding in screen_keys(screen.keys_node)]
        assert bound.count("b") <= 1  # Last game's, at most: never the power-up's too

    in_the_app(mode, body)


def test_the_chain_screens_words_come_from_the_mode() -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        greeting = screen.announcer.text  # type: ignore[attr-defined]
        assert greeting.endswith(screen.mode.description)  # type: ignore[attr-defined]
        assert "Join touching tiles" not in greeting
        resting = str(screen.play.status_line.render())  # type: ignore[attr-defined]
        assert "equal" not in resting and "touching tiles" in resting

    [chainsum] = twofold_chainsum.modes()
    in_the_app(chainsum, body)
