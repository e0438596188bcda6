"""Copy result gives the headline, the link and the proof; the proof verifies to the game."""

from __future__ import annotations

from tests.ui.conftest import AppFactory
from tests.waiting import until
from twofold.core.verify import verify
from twofold.ui.app.dialogs import ResultDialog


async def test_copy_result_carries_a_proof_that_verifies(make_app: AppFactory) -> None:
    app = make_app("2048-daily", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("left", "up", "right", "down", "left", "up"):
            await pilot.press(key)
        await until(pilot, lambda: app.screen.game.log, what="a move")
        game = app.screen.game
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ResultDialog), what="the dialog")
        lines = app.clipboard.splitlines()
        assert len(lines) == 3
        assert lines[0].startswith("twofold 2048 Daily ")
        assert lines[2].startswith("TF1")  # the proof is the last line
        verified = verify(app.clipboard)
        assert verified.status == 0
        assert (verified.score, verified.moves) == (game.state.score, game.state.moves)
        assert verified.replayed.actions == game.log
        assert verified.day is not None
