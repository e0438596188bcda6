"""Power-ups, the hint and undo on the 2248 screen."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.ui_chain.conftest import board_of, click, drag, ladder, playing, settle
from tests.waiting import until
from twofold.ui.app.screens.chain.powerups import PowerUpBar


def held(screen, name: str) -> int:  # type: ignore[no-untyped-def]
    return screen.rules.report(screen.state)["powerups"][name]


async def test_hammer_is_armed_then_picks_a_tile() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await pilot.press("1")
        assert screen.play.armed == "hammer"
        assert screen.query_one("#powerup-hammer").has_class("-armed")
        await click(pilot, board, (6, 0))
        assert screen.session.game.log == ["hammer 6,0"]
        assert screen.play.armed is None
        assert held(screen, "hammer") == 0


async def test_hammer_by_keyboard() -> None:
    async with playing() as (pilot, screen):
        await pilot.press("1", "up", "up", "enter")
        assert screen.session.game.log == ["hammer 6,0"]


async def test_escape_or_the_key_again_disarms() -> None:
    async with playing() as (pilot, screen):
        await pilot.press("1")
        await pilot.press("escape")
        assert screen.play.armed is None
        assert not screen.play.paused
        await pilot.press("2", "2")
        assert screen.play.armed is None
        assert screen.session.game.log == []


async def test_button_arms_and_disarms() -> None:
    async with playing() as (pilot, screen):
        await pilot.click("#powerup-swap")
        assert screen.play.armed == "swap"
        button = screen.query_one("#powerup-swap")
        # a button ignores clicks while it shows the last press
        await until(pilot, lambda: not button.has_class("-active"), what="the press shown")
        await pilot.click("#powerup-swap")
        assert screen.play.armed is None


async def test_swap_picks_two_neighbours() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await pilot.press("2")
        await click(pilot, board, (6, 0))
        assert board.picks == [(6, 0)]
        await click(pilot, board, (7, 0))
        assert screen.session.game.log == ["swap 6,0 7,0"]
        assert screen.state.board[7][0] == 32
        assert held(screen, "swap") == 0


async def test_swap_of_far_tiles_is_refused() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await pilot.press("2")
        await click(pilot, board, (6, 0))
        await click(pilot, board, (4, 0))
        assert screen.session.game.log == []
        assert board.flash_cell == (4, 0)
        assert "do not touch" in str(screen.query_one("#chain-status").render())


async def test_shuffle_plays_at_once() -> None:
    async with playing() as (pilot, screen):
        await pilot.press("3")
        assert screen.session.game.log == ["shuffle"]
        assert held(screen, "shuffle") == 0
        assert screen.query_one("#powerup-shuffle").disabled


async def test_undo_takes_back_a_merge() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        before = screen.state.board
        await drag(pilot, board, [(7, 0), (7, 1), (7, 2)])
        await pilot.press("u")
        assert screen.session.game.log == ["chain 7,0 7,1 7,2", "undo"]
        assert screen.state.board == before
        assert board.board == before
        assert held(screen, "undo") == 0
        assert "Undone" in screen.query_one("#chain-announce").text


async def test_hint_highlights_the_best_chain() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await pilot.press("h")
        await settle(pilot)
        assert board.hint == screen.rules.hint(screen.state)
        assert "Hint" in str(screen.query_one("#chain-status").render())
        await click(pilot, board, (7, 0))
        assert board.hint == ()


async def test_hint_button() -> None:
    async with playing() as (pilot, screen):
        await pilot.click("#powerup-hint")
        await settle(pilot)
        assert board_of(screen).hint


async def test_auto_hint_after_ten_idle_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    from twofold.core.settings import Settings
    from twofold.ui.app.screens.chain import ChainPlay

    assert ChainPlay.auto_hint_seconds == 10.0
    monkeypatch.setattr(ChainPlay, "auto_hint_seconds", 0.2)  # the same timer, sooner
    async with playing(settings=Settings(tutorial_seen=True, auto_hint=True)) as (pilot, screen):
        board = board_of(screen)
        await until(pilot, lambda: bool(board.hint), what="the automatic hint, by itself")
        assert board.hint == screen.rules.hint(screen.state)


async def test_daily_has_no_shuffle_or_undo_to_spend() -> None:
    async with playing("2248-daily") as (pilot, screen):
        bar = screen.query_one(PowerUpBar)
        assert bar.query_one("#powerup-shuffle").disabled
        assert bar.query_one("#powerup-undo").disabled
        assert not bar.query_one("#powerup-hammer").disabled
        await pilot.press("3")
        assert screen.session.game.log == []


def slow(hint: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The mode's hint, taking its time."""

    def wait_then_hint(state: Any) -> Any:
        time.sleep(1.5)
        return hint(state)

    return wait_then_hint


async def test_a_slow_hint_never_holds_up_play() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        screen.mode = replace(screen.mode, hint=slow(screen.mode.hint))
        await pilot.press("h")
        assert screen.hints.pending
        await drag(pilot, board, [(7, 0), (7, 1)])
        assert screen.session.game.log == ["chain 7,0 7,1"]
        await settle(pilot)
        assert board.hint == ()  # the hint was for the board before the merge


async def test_a_spent_power_up_says_so() -> None:
    position = {"board": ladder(), "powerups": {"hammer": 0, "undo": 0}}
    async with playing(position=position) as (pilot, screen):
        await pilot.press("1")
        assert screen.play.armed is None
        assert "No Hammer left" in str(screen.query_one("#chain-status").render())
        await pilot.press("u")
        assert "undo" in str(screen.query_one("#chain-status").render()).lower()
