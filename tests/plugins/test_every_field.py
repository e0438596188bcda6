"""Every documented field is honoured, on a plugin's mode: registration, the line modes.

The third controls kind (``place``), a mode's own commands, the keys twofold keeps, the
next aim after the goal, ``--size`` listing sizes only, and the plain status line
reading the mode's own gauges rather than any game's report by name.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Any

import pytest

from tests.core.toy import TALLY
from twofold.core import plugins
from twofold.core._presentation import (
    Command,
    Gauge,
    PowerUp,
    Status,
    TutorialPage,
    upcoming_words,
)
from twofold.core._rules import Mode
from twofold.core.commands import commands_of, shape_of
from twofold.core.session import MemoryStore, Session
from twofold.plugin import hookimpl
from twofold.ui.cells import for_people, for_protocol
from twofold.ui.command import cli
from twofold.ui.lines import run_lines


class Offers:
    """A plugin that registers whatever modes it is given."""

    def __init__(self, *modes: Any) -> None:
        self.modes = modes

    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        for mode in self.modes:
            register(mode)


def load(*modes: Mode) -> plugins.Registry:
    return plugins.load([("offers", Offers(*modes))], entry_points_=[])


# -- registration ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"controls": "hexagons"}, "unknown controls 'hexagons' (slide, chain, place)"),
        ({"controls": "place", "place": "row"}, "place must be one of cell, column"),
        ({"commands": (Command("spin", "diagonal"),)}, "a command's takes is not one of"),
        ({"commands": ("spin",)}, "commands must be a tuple of Command"),
        ({"next_goal": 0}, "next_goal must be a whole number above 0"),
        (
            {"tutorial": (TutorialPage("Tiles", "Two make one", tiles=("2", "2")),)},
            "a tutorial page needs text and tiles of whole numbers above 0",
        ),
    ],
)
def test_a_new_field_that_cannot_be_used_skips_the_mode(
    changes: dict[str, Any], fragment: str
) -> None:
    registry = load(replace(TALLY, id="bad", **changes), replace(TALLY, id="good"))
    [problem] = registry.problems
    assert fragment in problem.reason and list(registry.modes) == ["good"]


def test_place_controls_register_for_a_cell_and_for_a_column() -> None:
    registry = load(
        replace(TALLY, id="tap", controls="place"),
        replace(TALLY, id="drop", controls="place", place="column"),
    )
    assert registry.problems == [] and set(registry.modes) == {"tap", "drop"}
    assert commands_of(registry.mode("tap"))[0] == Command("place", "cell")
    assert commands_of(registry.mode("drop"))[0] == Command("place", "column")


def test_a_powerup_key_twofold_keeps_is_noted_and_dropped_and_the_mode_stays() -> None:
    powerups = (
        PowerUp("bomb", "Bomb", "b", "tile"),  # b: Last game, on every screen
        PowerUp("zap", "Zap", "x", "none"),
        PowerUp("again", "Again", "x", "none"),  # the same key as Zap
        PowerUp("back", "Back", "u", "undo"),  # the game's own undo keeps u
    )
    registry = load(replace(TALLY, id="boom", controls="chain", powerups=powerups))
    assert registry.problems == []
    mode = registry.mode("boom")
    assert [p.key for p in mode.powerups] == ["", "x", "", "u"]
    reasons = [note.reason for note in registry.notes]
    assert reasons == [
        "mode 'boom': power-up 'bomb' asks for key 'b', which twofold keeps; it has no key",
        "mode 'boom': power-up 'again' asks for key 'x', which twofold keeps; it has no key",
    ]


def test_twofold_plugins_lists_a_note_without_calling_the_plugin_skipped(
    installed: list[tuple[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    installed.append(
        ("keys", Offers(replace(TALLY, powerups=(PowerUp("peek", "Peek", "?", "none"),))))
    )
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "keys (registered in code): tally" in out
    assert "keys: mode 'tally': power-up 'peek' asks for key '?'" in out
    assert "keys: skipped" not in out


@pytest.mark.parametrize(
    ("goal", "next_goal", "aim"),
    [(2048, None, 4096), (2584, None, None), (2584, 4181, 4181), (None, None, None)],
)
def test_the_aim_after_the_goal_comes_from_the_mode(
    goal: int | None, next_goal: int | None, aim: int | None
) -> None:
    assert replace(TALLY, goal=goal, next_goal=next_goal).aim_after_goal() == aim


def test_size_lists_board_sizes_only_and_never_a_daily_as_a_size() -> None:
    registry = load(
        replace(TALLY, id="threes", family="threes", size=4),
        replace(TALLY, id="threes-daily", family="threes", size=4, daily=True),
    )
    with pytest.raises(cli.UsageError) as refused:
        cli.resolve_mode(registry, "threes", 5)
    assert str(refused.value) == "mode 'threes' has no 5x5 board (sizes: 4)"
    assert cli.resolve_mode(registry, "threes", 4).id == "threes"


# -- one table of commands, turned in one place -----------------------------------------------


def test_the_commands_of_every_kind() -> None:
    chain = replace(
        TALLY,
        controls="chain",
        hint=lambda state: None,
        powerups=(PowerUp("hammer", "Hammer", "1", "tile"), PowerUp("undo", "Undo", "u", "undo")),
        commands=(Command("spin"),),
    )
    words = [(c.word, c.takes) for c in commands_of(chain)]
    assert words == [
        ("chain", "cells"),
        ("spin", "none"),
        ("hammer", "cell"),
        ("undo", "none"),
        ("hint", "none"),
        ("read", "none"),
        ("result", "none"),
        ("new", "none"),
        ("restart", "none"),
        ("last", "none"),
        ("quit", "none"),
    ]
    assert shape_of(chain, "Hammer 1,1") == "cell" and shape_of(chain, "zz") is None


@pytest.mark.parametrize(
    ("people", "shape", "protocol"),
    [
        ("place 1", "column", "place 0"),
        ("place 3,2", "cell", "place 2,1"),
        ("chain 1,1 1,2", "cells", "chain 0,0 0,1"),
        ("hammer 2,2", "cell", "hammer 1,1"),
        ("left", "none", "left"),
    ],
)
def test_cells_and_columns_are_turned_by_the_commands_shape(
    people: str, shape: str, protocol: str
) -> None:
    board = ((0, 0, 0), (0, 0, 0), (0, 0, 0))
    assert for_protocol(people, board, shape) == protocol
    assert for_people(protocol, shape) == people


def line_mode(mode: Mode, commands: list[str], *, json_mode: bool) -> str:
    session = Session(mode, MemoryStore())
    out = io.StringIO()
    run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return out.getvalue()


def test_the_first_json_reply_of_every_kind_carries_its_commands() -> None:
    for mode, first in (
        (TALLY, {"word": "left", "takes": "none"}),
        (replace(TALLY, controls="chain"), {"word": "chain", "takes": "cells"}),
        (replace(TALLY, controls="place"), {"word": "place", "takes": "cell"}),
    ):
        start, after = map(json.loads, line_mode(mode, ["add"], json_mode=True).splitlines())
        assert start["commands"][0] == first
        assert "commands" not in after


def test_plain_help_lists_the_modes_own_commands_and_no_other_kinds() -> None:
    mode = replace(TALLY, controls="place", place="column", commands=(Command("spin", "cell"),))
    said = line_mode(mode, ["help"], json_mode=False)
    assert "Drop: place C (columns from the left, from 1)." in said
    assert "Also this mode: spin R,C." in said
    assert "chain" not in said and "left right" not in said and "hint" not in said


# -- the plain status line reads the mode's gauges --------------------------------------------


def test_the_plain_status_line_shows_the_modes_own_gauges_and_what_comes_next() -> None:
    mode = replace(
        TALLY,
        gauges=(Gauge("score"), Gauge("merges_left", "Pushes left"), Gauge("code")),
        status=lambda state: Status(gauges={"merges_left": "7"}, upcoming=(8, 4)),
    )
    said = line_mode(mode, [], json_mode=False)
    assert "Pushes left 7" in said and "Merges left" not in said
    assert "next: 8, then 4" in said
    assert upcoming_words((8, 4)) == "next: 8, then 4" and upcoming_words(()) == ""
    start = json.loads(line_mode(mode, [], json_mode=True).splitlines()[0])
    assert start["upcoming"] == [8, 4]


def test_a_report_field_named_like_2248s_is_not_said_without_a_gauge() -> None:
    class Reporting(type(TALLY.rules)):  # type: ignore[misc]
        def report(self, state: Any) -> dict[str, Any]:
            return {"merges_left": 3}

    said = line_mode(replace(TALLY, rules=Reporting()), [], json_mode=False)
    assert "Merges left" not in said


# -- in the app: the win dialog's next aim and the game-over dialog's words ----------------------


def app_dialog_text(mode: Mode, adds: int) -> str:
    """The body of the dialog the app shows after ``adds`` adds on a fresh game of ``mode``."""
    import asyncio

    from textual.widgets import Static

    from twofold.core.store import open_store
    from twofold.ui.app.app import TwofoldApp
    from twofold.ui.app.dialogs import Dialog

    registry = load(mode)
    store = open_store()
    found: list[str] = []

    async def body() -> None:
        app = TwofoldApp(registry, store, mode_id=mode.id, code="KAF3Q0D0")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _add in range(adds):
                if isinstance(app.screen, Dialog):
                    break
                await app.screen.keys_node.run_action("move('left')")  # the slide game's first key
                await pilot.pause()
            assert isinstance(app.screen, Dialog)
            found.append(str(app.screen.query_one(".dialog--body", Static).render()))

    try:
        asyncio.run(body())
    finally:
        store.close()
    return found[0]


class Adding(type(TALLY.rules)):  # type: ignore[misc]
    """The tally, played by any direction key: every move adds."""

    def parse(self, text: str) -> str:
        return "undo" if text.strip().lower() in ("u", "undo") else "add"


def test_the_win_dialog_names_the_modes_next_aim_or_none() -> None:
    tally = replace(TALLY, rules=Adding())
    game_values = []
    state = tally.rules.new_game("KAF3Q0D0")
    for _add in range(6):
        state = tally.rules.apply(state, "add").state
        game_values.append(state.value)
    goal = next(v for v in game_values if v & (v - 1))  # not a power of two: no aim invented
    said = app_dialog_text(replace(tally, goal=goal), 6)
    assert "Keep going, or start afresh." in said and "towards" not in said
    said = app_dialog_text(replace(tally, goal=goal, next_goal=99), 6)
    assert "Keep going towards 99 and beyond" in said


def test_the_game_over_dialog_says_the_modes_words() -> None:
    over = replace(
        TALLY,
        rules=Adding(),
        goal=None,
        status=lambda state: Status(over="The tally is full" if state.value >= 12 else ""),
    )
    said = app_dialog_text(over, 20)
    assert said.splitlines()[0] == "The tally is full" and "Score:" in said
