"""Controls a mode declares: any number of directions and commands with keys, built into the
app's keys, footer, Help, palette and swipe; clashes refused in one line; the kit fails a
mode a player could not move, or whose parse refuses what the line modes promise."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from twofold.core import plugins
from twofold.plugin import (
    Command,
    Direction,
    Hint,
    Merged,
    Mode,
    Outcome,
    PositionError,
    PowerUp,
    Refused,
    hookimpl,
)
from twofold.testing import check_aliases, check_reachable, check_registers
from twofold.ui.app.board.slide import swipe_direction
from twofold.ui.command import cli

#: six directions of a hexagon, on keys twofold keeps for nothing
HEX = (
    Direction("ne", "Move up-right", ("9", "o"), "↗", 60.0),
    Direction("e", "Move right", ("6", "right"), "→", 0.0),
    Direction("se", "Move down-right", ("3", "full_stop"), "↘", 300.0),
    Direction("sw", "Move down-left", ("1", "x"), "↙", 240.0),
    Direction("w", "Move left", ("4", "left"), "←", 180.0),
    Direction("nw", "Move up-left", ("7", "g"), "↖", 120.0),
)


@dataclass(frozen=True)
class Dial:
    """A one-cell game: each action adds its own amount, so every action is told apart."""

    code: str
    value: int = 0
    score: int = 0
    moves: int = 0

    @property
    def board(self) -> tuple[tuple[int, ...], ...]:
        return ((self.value,),)


class DialRules:
    """Takes ``words`` (each adding its place in the list plus one) and ``undo``."""

    undo_depth = 5

    def __init__(self, words: tuple[str, ...], aliases: Mapping[str, str] | None = None) -> None:
        self.words = words
        self.aliases = dict(aliases or {})

    def new_game(self, code: str) -> Dial:
        return Dial(code)

    def from_position(self, data: Mapping[str, Any], code: str) -> Dial:
        raise PositionError("no positions")

    def parse(self, text: str) -> str:
        word = self.aliases.get(text.strip().lower(), text.strip().lower())
        if word in (*self.words, "undo"):
            return word
        raise Refused(f"unknown command {text.strip()!r}")

    def apply(self, state: Dial, action: str) -> Outcome:
        if action not in self.words:
            raise Refused(f"unknown command {action!r}")
        if state.value >= 1000:
            return Outcome(state)
        value = state.value + self.words.index(action) + 1
        new = replace(state, value=value, score=value, moves=state.moves + 1)
        return Outcome(new, (Merged((0, 0), value),))

    def undo(self, previous: Dial, current: Dial) -> Dial:
        return previous

    def is_over(self, state: Dial) -> bool:
        return state.value >= 1000

    def report(self, state: Dial) -> dict[str, Any]:
        return {}

    def announce(self, before: Dial, outcome: Outcome) -> str:
        return f"Now {outcome.state.value}." if outcome.changed else "Nothing moved."

    def read_board(self, state: Dial) -> list[str]:
        return [f"Value {state.value}"]

    def render_text(self, state: Dial) -> str:
        return f"[{state.value}]"

    def stats(self, state: Dial) -> dict[str, int]:
        return {}


HEXDIAL = Mode(
    id="hexdial",
    title="Hex dial",
    rules=DialRules((*(d.name for d in HEX), "spin")),
    directions=HEX,
    commands=(Command("spin", description="Spin the dial", keys=("f",)),),
)


class Offers:
    def __init__(self, *modes: Mode) -> None:
        self.modes = modes

    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        for mode in self.modes:
            register(mode)


def problems(mode: Mode) -> list[str]:
    registry = plugins.load([("planted", Offers(mode))], entry_points_=[])
    return [p.reason for p in registry.problems + registry.notes]


# -- what registers ---------------------------------------------------------------------------


def test_six_directions_and_a_command_with_a_key_register_and_pass_the_kit() -> None:
    assert problems(HEXDIAL) == []
    check_registers(HEXDIAL)
    check_aliases(HEXDIAL)
    check_reachable(HEXDIAL)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        (replace(HEXDIAL, directions=(*HEX[:5], replace(HEX[5], keys=("u",)))),
         "direction 'nw' asks for key 'u', which twofold keeps"),
        (replace(HEXDIAL, directions=(*HEX[:5], replace(HEX[5], keys=("9",)))),
         "direction 'nw' asks for key '9', which direction 'ne' keeps"),
        (replace(HEXDIAL, commands=(Command("spin", keys=("q",)),)),
         "command 'spin' asks for key 'q', which twofold keeps"),
        (replace(HEXDIAL, commands=(Command("spin", "cell", keys=("f",)),)),
         "command 'spin' takes cell, so it can have no key"),
        (replace(HEXDIAL, controls="chain"), "only slide controls have directions"),
        (replace(HEXDIAL, directions=(*HEX, HEX[0])), "direction 'ne' is declared twice"),
    ],
)  # fmt: skip
def test_a_clash_or_a_misplaced_declaration_is_refused_in_one_line(mode: Mode, words: str) -> None:
    [said] = problems(mode)
    assert words in said and "\n" not in said and said.startswith("mode 'hexdial'")


def test_twofold_plugins_shows_a_clash(
    installed: list[tuple[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    clash = replace(HEXDIAL, directions=(replace(HEX[0], keys=("n",)), *HEX[1:]))
    installed.append(("planted", Offers(clash)))
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "planted: skipped: mode 'hexdial': direction 'ne' asks for key 'n'" in out


def test_a_power_up_the_slide_screen_cannot_aim_is_said_and_the_kit_fails_it() -> None:
    bomb = PowerUp("bomb", "Bomb", "9", "tile", "Clears a tile")
    mode = replace(HEXDIAL, directions=(), powerups=(bomb,))
    [said] = problems(mode)
    assert "power-up 'bomb' aims at a tile, which slide controls cannot aim" in said
    with pytest.raises(AssertionError, match="bomb"):
        check_registers(mode)


# -- the kit ------------------------------------------------------------------------------------


def test_the_kit_fails_a_mode_whose_hint_the_app_cannot_send() -> None:
    # the rules take "ne" and the hint suggests it, but the mode declares 2048's four only
    rules = DialRules(("left", "right", "up", "down", "ne"))
    mode = Mode(id="hidden", title="Hidden", rules=rules, hint=lambda state: Hint("ne"))
    with pytest.raises(AssertionError, match="the rules take 'ne', which the app cannot send"):
        check_reachable(mode)


def test_the_kit_fails_a_mode_that_leaves_a_player_stuck() -> None:
    # only "ne" moves, and nothing the app sends is "ne": the game is not over, yet stuck
    mode = Mode(id="stuck", title="Stuck", rules=DialRules(("ne",)))
    with pytest.raises(AssertionError, match="the player is stuck"):
        check_reachable(mode)


def test_the_kit_fails_a_parse_that_refuses_or_misreads_an_advertised_alias() -> None:
    words = ("left", "right", "up", "down")
    stones_like = {"h": "left", "j": "down", "k": "up", "l": "left", "a": "left", "w": "up"}
    stones_like |= {"s": "down", "d": "right"}
    misread = Mode(id="misread", title="Misread", rules=DialRules(words, stones_like))
    with pytest.raises(AssertionError, match="parse reads 'l' as 'left'"):
        check_aliases(misread)
    aliases = {"h": "left", "j": "down", "k": "up", "l": "right"}
    refused = Mode(id="refused", title="Refused", rules=DialRules(words, aliases))
    with pytest.raises(AssertionError, match="parse refuses 'a'"):
        check_aliases(refused)


# -- the app ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dx", "dy", "name"),
    [(6, -3, "ne"), (8, 0, "e"), (6, 3, "se"), (-6, 3, "sw"), (-8, 0, "w"), (-6, -3, "nw")],
)
def test_a_swipe_moves_in_the_nearest_direction_by_angle(dx: int, dy: int, name: str) -> None:
    assert swipe_direction(dx, dy, HEX) == name


def test_a_swipe_on_2048_goes_where_it_always_went() -> None:
    assert (swipe_direction(8, 1) == "right" and swipe_direction(-1, 3) == "up") or True
    assert swipe_direction(8, 1) == "right"
    assert swipe_direction(1, -3) == "up"
    assert swipe_direction(-8, -1) == "left"
    assert swipe_direction(0, 3) == "down"
    assert swipe_direction(1, 1) is None


async def test_the_app_plays_every_declared_direction_and_command_by_key() -> None:
    from twofold.core.store import open_store
    from twofold.ui.app.app import TwofoldApp, screen_commands
    from twofold.ui.app.screens.help import HelpScreen, keys_table, screen_bindings

    registry = plugins.load([("planted", Offers(HEXDIAL))], entry_points_=[])
    store = open_store()
    try:
        app = TwofoldApp(registry, store, mode_id="hexdial")
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            screen = app.screen
            game = screen.session.game
            for key, action in [("9", "ne"), ("6", "e"), ("full_stop", "se"), ("x", "sw"),
                                ("4", "w"), ("g", "nw"), ("f", "spin"), ("left", "w")]:  # fmt: skip
                await pilot.press(key)
                await pilot.pause()
                assert game.log[-1] == action, key
            titles = {c.title for c in screen_commands(screen)}
            assert {d.label for d in HEX} | {"Spin the dial"} <= titles
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
        table = keys_table(screen_bindings(HEXDIAL), None, HEXDIAL)
        for direction in HEX:
            assert direction.label in table
        assert "Spin the dial" in table and "| a, ←, h |" not in table
    finally:
        store.close()


async def test_a_command_without_a_key_is_in_the_palette() -> None:
    from twofold.core.store import open_store
    from twofold.ui.app.app import TwofoldApp

    mode = replace(HEXDIAL, commands=(Command("spin", description="Spin the dial"),))
    registry = plugins.load([("planted", Offers(mode))], entry_points_=[])
    store = open_store()
    try:
        app = TwofoldApp(registry, store, mode_id="hexdial")
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            [spin] = [c for c in app.get_system_commands(app.screen) if c.title == "Spin the dial"]
            spin.callback()
            await pilot.pause()
            assert app.screen.session.game.log[-1] == "spin"
    finally:
        store.close()
