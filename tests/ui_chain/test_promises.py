"""What the 2248 screen promises: confetti, the score's flash, Copy link and result, Blitz,
Daily."""

from __future__ import annotations

from typing import Any

import pytest
from textual.geometry import Region

from tests.ui_chain.conftest import (
    CODE,
    DAY,
    FakeClock,
    board_of,
    drag,
    make_app,
    no_pairs,
    playing,
)
from tests.waiting import until
from twofold.core.codes import share_string
from twofold.core.daily import daily_code
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.ui.app.dialogs import ResultDialog
from twofold.ui.app.screens.chain import ChainPlay
from twofold.ui.app.screens.game import GameScreen


def milestone_board() -> dict[str, Any]:
    """Two 256s side by side at the bottom, nothing larger: merging them makes a new 512."""
    board = no_pairs()
    board[7][0] = board[7][1] = 256
    return {"board": board}


def settings(*, reduced: bool) -> Settings:
    return Settings(tutorial_seen=True, reduced_motion=reduced)


@pytest.mark.parametrize("reduced", [False, True])
async def test_a_new_highest_tile_bursts_into_confetti(reduced: bool) -> None:
    async with playing(position=milestone_board(), settings=settings(reduced=reduced)) as (
        pilot,
        screen,
    ):
        board = board_of(screen)
        board.clock = lambda: 500.0
        await drag(pilot, board, [(7, 0), (7, 1)])
        assert "New tile: 512" in str(screen.query_one("#chain-status").render())
        if reduced:
            assert not board.bursting  # only the end state and the words
            return
        assert board.bursting
        board.clock = lambda: 500.3
        board.refresh()
        lines = [s.text for s in board.render_lines(Region(0, 0, *board.size))]
        assert sum(line.count(glyph) for line in lines for glyph in "*✦•▪◆✶") > 5
        board.clock = lambda: 502.0  # the burst is over: its next frame ends it
        await until(pilot, lambda: not board.bursting, what="the confetti to stop")


@pytest.mark.parametrize("reduced", [False, True])
async def test_the_score_flashes_only_when_a_merge_scores(
    reduced: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with playing(settings=settings(reduced=reduced)) as (pilot, screen):
        flashed: list[str] = []
        monkeypatch.setattr(screen.topbar, "flash", flashed.append)
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        assert screen.state.score > 0
        assert flashed == ([] if reduced else ["score"])
        flashed.clear()
        await pilot.press("u")
        await pilot.pause()
        assert screen.game.log[-1] == "undo"
        assert flashed == []  # never on undo


async def test_copy_link_and_copy_result_on_a_2248_daily() -> None:
    async with playing("2248-daily") as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        await pilot.press("c")  # a game begun from a position: no link that would lie
        assert "cannot travel as a link" in screen.announcer.text
        link = share_string("2248-daily", CODE)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ResultDialog)
        result = pilot.app.clipboard
        first, second = result.splitlines()
        assert first.startswith("twofold ") and DAY.isoformat() in first
        assert "Score 8" in first and "Largest tile" in first
        assert "Longest chain 3" in first and "Merges 1" in first
        assert second == link
        board = screen.state.board
        assert " ".join(str(v) for v in board[7]) not in result  # the board is not given away


async def test_blitz_ended_by_the_clock_is_recorded_with_its_time_capped() -> None:
    clock = FakeClock()
    async with playing("2248-blitz", clock=clock) as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        clock.now += 185
        screen.tick()
        await pilot.pause()
        [row] = screen.session.store.finished_games("2248-blitz")
        assert row.elapsed == pytest.approx(180.0)


async def test_a_second_daily_try_says_it_is_practice() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        mode = app.registry.mode("2248-daily")
        session = Session(mode, app.store, clock=FakeClock(), today=lambda: DAY)
        assert session.game.code == daily_code("2248-daily", DAY)
        screen = GameScreen(session, play=ChainPlay)
        await app.push_screen(screen)
        await pilot.pause()
        hint = mode.hint(screen.state) if mode.hint else None
        assert hint is not None
        screen.act(hint.action)
        screen.replace_game(session.new_game)
        await pilot.pause()
        assert session.game.flags.practice
        assert "Practice" in screen.announcer.text
        assert "practice" in str(screen.topbar.query_one("#topbar-code").render())


async def test_wide_terminals_list_the_hidden_actions() -> None:
    async with playing(size=(120, 40)) as (pilot, screen):
        bar = screen.query_one("#actions")
        assert bar.display
        text = str(bar.render())
        for label in ("Restart", "Last game", "Copy link", "Copy result"):
            assert label in text
        assert "Sample" not in text  # 2248 has no stored game to watch
        assert "Watch the solver" in text  # its autoplayer
        x = text.index("Copy result") + 2  # a position's game has no link to copy
        await pilot.click("#actions", offset=(x, 0))
        await pilot.pause()
        assert pilot.app.clipboard == screen.result_text()
    async with playing(size=(80, 24)) as (pilot, screen):
        assert not screen.query_one("#actions").display
        names = {command.title for command in pilot.app.get_system_commands(screen)}
        assert {"Restart", "Copy link", "Copy result"} <= names
