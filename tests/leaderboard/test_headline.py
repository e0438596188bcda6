"""The headline is checked whole, by ``twofold verify`` and the server alike.

Every figure it states (the score, the largest tile, the moves) and its title (the mode and
the day) are compared with the replay; a first line that is not twofold's headline or a
game link is refused, never read as a claim. A headline in another language of twofold's
verifies as the English one does.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from aiohttp.test_utils import TestClient

from twofold.core import _i18n
from twofold.core.daily import utc_today
from twofold.core.result import headline
from twofold.ui.command.cli import main

from .conftest import daily_game, daily_result
from .test_api import send


def forged() -> dict[str, tuple[str, int]]:
    """Results whose headline says something the replay does not, and verify's exit."""
    text = daily_result(80)
    first, link, proof = text.splitlines()
    game = daily_game(80)
    day = utc_today().isoformat()
    other_day = (utc_today() - timedelta(days=1)).isoformat()
    moves = f"Moves {game.state.moves}"
    return {
        "moves": (first.replace(moves, f"Moves {game.state.moves + 7}"), 1),
        "day": (first.replace(day, other_day), 1),
        "title": (first.replace("2048 Daily", "2248 Daily"), 1),
        "no figures": (first.partition(": ")[0], 1),
        "not twofold's": (f"My best: Score 999999 · Largest tile 131072\n{link}\n{proof}", 2),
    }


def as_result(line: str) -> str:
    _first, link, proof = daily_result(80).splitlines()
    return line if "\n" in line else f"{line}\n{link}\n{proof}"


@pytest.mark.parametrize("case", ["moves", "day", "title", "no figures", "not twofold's"])
def test_verify_checks_the_headline_whole(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    line, status = forged()[case]
    assert main(["verify", as_result(line)]) == status
    captured = capsys.readouterr()
    assert captured.err.startswith("twofold: ")
    if case == "moves":
        assert "for moves" in captured.err
    if case in ("day", "title"):
        assert "the headline names" in captured.err


async def test_the_server_refuses_what_verify_refuses(client: TestClient) -> None:
    for case, (line, _status) in forged().items():
        status, answer = await send(client, as_result(line), name="Ana")
        assert status == 422, case
        assert answer["error"]
    assert (await send(client, daily_result(80)))[0] == 201


def test_a_headline_in_german_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    game = daily_game(81)
    _first, link, proof = daily_result(81).splitlines()
    _i18n.set_language("de")
    try:
        german = headline(game.mode, game.state, utc_today())
    finally:
        _i18n.set_language("en")
    # the mode's title is in the language twofold started in: here German's too
    german = german.replace("2048 Daily", "2048 Tagesspiel")
    assert "Punkte" in german
    assert main(["verify", f"{german}\n{link}\n{proof}"]) == 0, capsys.readouterr().err
