"""A second window's game on a mode another window holds is kept, through the real app.

Two apps on one data folder (two stores with owners of their own, as two processes
are): the first holds 2048's seat, the second plays a game of its own. Whichever quits
first, the second window's game is neither written over the first's save nor dropped:
the next window to open 2048 resumes the first's game and offers the second's as the
Last game, which brings it back whole.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.ui.conftest import AppFactory, set_settings
from tests.ui.test_promises_round_four import game_screen, play
from tests.waiting import notices, until
from twofold.core.store import SqliteStore, open_store
from twofold.ui.app.app import TwofoldApp


async def _quit(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+q")
    await until(pilot, lambda: not pilot.app.is_running or not pilot.app.sessions, what="quit")


@pytest.mark.parametrize("second_quits_first", [True, False])
async def test_the_second_windows_game_is_offered_at_the_next_open(
    make_app: AppFactory, store: SqliteStore, second_quits_first: bool
) -> None:
    set_settings(store, tutorial_seen=True)
    first = make_app("2048", motion=False)
    async with first.run_test(size=(100, 32)) as pilot:
        await play(pilot, until_points=True, moves=3)
        kept_first = (game_screen(first).game.game_id, tuple(game_screen(first).game.log))
        other = open_store(owner="second-window")
        try:
            second = TwofoldApp(first.registry, other, mode_id="2048")
            async with second.run_test(size=(100, 32)) as pilot2:
                await pilot2.pause()
                assert not game_screen(second).session.seated  # the first window holds it
                await play(pilot2, until_points=True, moves=5)
                game = game_screen(second).game
                kept_second = (game.game_id, tuple(game.log), game.state.score)
                if second_quits_first:
                    await _quit(pilot2)
                else:
                    await _quit(pilot)
                    await play(pilot2, moves=2)  # the seat is free: the slot is still not its
                    game = game_screen(second).game
                    kept_second = (game.game_id, tuple(game.log), game.state.score)
                    await _quit(pilot2)
        finally:
            other.close()
        if second_quits_first:
            await _quit(pilot)
    assert other.pending == 0  # nothing waited at the end, so nothing was dropped

    with open_store(owner="next-window") as later:
        third = TwofoldApp(first.registry, later, mode_id="2048")
        async with third.run_test(size=(100, 32)) as pilot3:
            await pilot3.pause()
            screen = game_screen(third)
            assert (screen.game.game_id, tuple(screen.game.log)) == kept_first
            assert any("another window was kept" in text for text in notices(third))
            await pilot3.press("b")  # Last game
            await until(pilot3, lambda: screen.game.game_id == kept_second[0], what="Last game")
            assert (screen.game.game_id, tuple(screen.game.log), screen.state.score) == kept_second
            await pilot3.press("b")  # and back: the first window's game is one step back
            await until(pilot3, lambda: screen.game.game_id == kept_first[0], what="back")
            await _quit(pilot3)
    with open_store(owner="reader") as reader:
        # taken into play once, the second window's game is no longer offered
        assert reader.waiting_games("2048") == []
        assert reader.load_save("2048").game_id == kept_first[0]  # type: ignore[union-attr]
        assert reader.load_last("2048").game_id == kept_second[0]  # type: ignore[union-attr]
