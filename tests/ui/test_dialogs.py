"""Every dialog shows its whole message and all its buttons at 80x24 and larger."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Static

from tests.waiting import footer_drawn
from twofold.core import _i18n as i18n
from twofold.core.plugins import registry
from twofold.core.settings import Settings
from twofold.core.store import memory_store
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.dialogs import ConfirmDialog, Dialog, GameOverDialog, ResultDialog, WinDialog
from twofold.ui.app.screens.chain.dialogs import (
    BoardReading,
    ChainResultDialog,
    NoMoreMovesDialog,
    RescueDialog,
)

SIZES = [(80, 24), (100, 32)]
SnapCompare = Callable[..., bool]


def every_dialog() -> dict[str, Callable[[], Dialog]]:
    """Each dialog the app shows, with words as long as a real game gives them."""
    _ = i18n._
    return {
        "confirm": lambda: ConfirmDialog(
            _("Start a new game?"),
            _("This game has {score} points. Last game (B) can bring it back.").format(
                score=123456
            ),
            yes=_("New game"),
        ),
        "win": lambda: WinDialog(2048, 20480, 4096),
        "game_over": lambda: GameOverDialog(12345, 67890, 1024, 987, True),
        "result": lambda: ResultDialog(
            _("Result copied"),
            "twofold Daily 2248 2026-11-30: Score 123456 · Largest tile 4096 · "
            "Longest chain 14 · Merges 30\ntwofold:2248-daily:ABCD-EFGH",
        ),
        "rescue": lambda: RescueDialog(
            [
                ("hammer", _("Hammer"), False),
                ("swap", _("Swap"), False),
                ("shuffle", "Shuffle", False),
            ]
        ),
        "no_more_moves": lambda: NoMoreMovesDialog(
            _("Time's up!"),
            _("The clock has run out.") + "\n" + _("Score {score}").format(score=4242),
        ),
        "chain_result": lambda: ChainResultDialog(
            title=_("Game over"),
            lines=[
                (_("Score"), 123456),
                (_("Best"), 234567),
                (_("Highest tile"), 8192),
                ("Longest chain", 14),
                ("Merges", 1234),
            ],
        ),
        "reading": lambda: BoardReading([f"Row {r}: 2, 4, 8, 16, 32" for r in range(1, 9)]),
    }


def app(language: str = "en") -> TwofoldApp:
    store = memory_store()
    store.save_settings(Settings(tutorial_seen=True, language=language))
    return TwofoldApp(registry(), store)


def cut(dialog: Dialog) -> list[str]:
    """What of ``dialog`` does not show whole: a clipped message, a button or its label."""
    frame = dialog.query_one("VerticalGroup")
    problems: list[str] = []
    if not dialog.region.contains_region(frame.region):
        problems.append("the dialog is larger than the screen")
    body = dialog.query_one(".dialog--body", Static)
    size = body.content_region.size
    if body.get_content_height(size, size, size.width) > size.height:
        problems.append("the message is cut")
    for button in dialog.query(Button):
        label = str(button.label)
        if not frame.content_region.contains_region(button.region):
            problems.append(f"button {label!r} is outside the dialog")
        elif button.content_region.width < len(label):
            problems.append(f"button {label!r} is cut")
    return problems


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", [*SIZES, (120, 40), (44, 20)])  # 44x20: the smallest
async def test_every_dialog_shows_its_whole_message_and_buttons(
    language: str, size: tuple[int, int]
) -> None:
    opened = app(language)
    async with opened.run_test(size=size) as pilot:
        await pilot.pause()
        for name, make in every_dialog().items():
            dialog = make()
            await opened.push_screen(dialog)
            await pilot.pause()
            assert cut(dialog) == [], name
            opened.pop_screen()
            await pilot.pause()


@pytest.mark.parametrize("name", list(every_dialog()))
async def test_a_dialog_closed_before_its_events_ran_fits_nothing(name: str) -> None:
    """Under load a test (or a player's quick key, or the app ending) took a dialog's parts
    away before its mount or resize ran, and fitting them raised NoMatches."""
    opened = app()
    async with opened.run_test(size=SIZES[0]) as pilot:
        dialog = every_dialog()[name]()
        await opened.push_screen(dialog)
        await pilot.pause()
        await dialog.query_one("VerticalGroup").remove()
        dialog.on_resize()
        dialog.on_mount()
        assert not dialog.has_parts()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(every_dialog()))
def test_dialog_snapshot(snap_compare: SnapCompare, name: str, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await footer_drawn(pilot)
        await pilot.app.push_screen(every_dialog()[name]())
        await pilot.pause()

    assert snap_compare(app(), run_before=run_before, terminal_size=size)
