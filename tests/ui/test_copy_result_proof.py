"""Copy result gives the headline, the link and the proof; the proof verifies to the game."""

from __future__ import annotations

from tests.ui.conftest import AppFactory
from tests.waiting import notices, until
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
        assert lines[2].startswith("TF2")  # the proof is the last line
        verified = verify(app.clipboard)
        assert verified.status == 0
        assert (verified.score, verified.moves) == (game.state.score, game.state.moves)
        assert verified.replayed.actions == game.log
        assert verified.day is not None


async def test_send_to_leaderboard_only_when_set_and_says_the_rank(
    make_app: AppFactory, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.conftest import NEARLY_OVER
    from twofold.ui.app.screens import game as game_module
    from twofold.ui.submission import Sent

    sent: list[tuple[str, str, str]] = []

    def fake_send(address: str, text: str, name: str) -> Sent:
        sent.append((address, text, name))
        return Sent(3, "2048 ABCD", True)

    monkeypatch.setattr(game_module, "send_result", fake_send)
    app = make_app("2048", position=NEARLY_OVER, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y")  # not finished, and nothing set: no sending offered
        await until(pilot, lambda: isinstance(app.screen, ResultDialog), what="the dialog")
        assert not app.screen.query("#choice-send")
        await pilot.press("escape")
        app.settings = app.settings.__class__(
            **{
                **app.settings.as_dict(),
                "leaderboard": "http://board.example/",
                "leaderboard_name": "Ana",
            }
        )
        await pilot.press("right")  # the last move: game over
        await until(pilot, lambda: app.screen.id == "game-over-dialog", what="game over")
        await pilot.press("escape")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ResultDialog), what="the dialog")
        await pilot.click("#choice-send")
        await until(pilot, lambda: sent, what="the send")
        await until(
            pilot,
            lambda: any("Rank 3" in message for message in notices(app)),
            what="the rank",
        )
    assert sent[0][0] == "http://board.example/" and sent[0][2] == "Ana"
    assert sent[0][1].startswith("twofold 2048: Score ")
