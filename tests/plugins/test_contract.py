"""The variant contract, checked on every registered mode: built-ins and both examples.

Each mode plays a few hundred random actions from its own controls (directions for a
slide mode; for a chain mode its hint, paths grown through its judge or through equal
neighbours, random paths, its power-ups) and every event it emits must be one of the
core vocabulary, of exactly the vocabulary's class. A plugin's mode shows nothing of
another game: its Help, statistics, top bar and JSON replies say no "2048" or "2248"
unless its own title or description does.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
from collections.abc import Iterator
from importlib.metadata import entry_points
from typing import Any

import pytest
import twofold_chainsum
import twofold_drop
import twofold_fibonacci

from twofold.core import plugins
from twofold.core.capabilities import Hint
from twofold.core.codes import code_from_text
from twofold.core.events import VOCABULARY, Cell, is_known
from twofold.core.game import Game
from twofold.core.rules import Mode, Refused
from twofold.core.session import MemoryStore, Session
from twofold.ui.cells import for_people
from twofold.ui.lines import run_lines

from .conftest import only

EXAMPLES = (
    ("fibonacci", twofold_fibonacci),
    ("chainsum", twofold_chainsum),
    ("drop", twofold_drop),
)
ACTIONS = 400
OTHER_GAMES = ("2048", "2248")
CODE = code_from_text("contract")


def registry() -> plugins.Registry:
    """twofold's own variants from their entry points, and the examples, not installed."""
    found = entry_points(group=plugins.ENTRY_POINT_GROUP)
    builtin = [ep for ep in found if ep.dist is not None and ep.dist.name == "twofold"]
    return plugins.load(EXAMPLES, entry_points_=builtin)


REGISTRY = registry()
PLUGIN_MODES = [m for m in REGISTRY.modes if REGISTRY.owner(m) in dict(EXAMPLES)]


def test_every_mode_registered_and_both_examples_among_them() -> None:
    assert REGISTRY.problems == []
    assert {"2048", "2248", "fib", "fib-daily", "chainsum", "drop"} <= set(REGISTRY.modes)


# -- random play -------------------------------------------------------------------------------


def chain_text(cells: list[Cell]) -> str:
    return "chain " + " ".join(f"{r},{c}" for r, c in cells)


def touching_cells(board: Any, cell: Cell) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < len(board) and 0 <= c + dc < len(board[0])
    ]


def grown_chain(mode: Mode, state: Any, rng: random.Random) -> list[Cell]:
    """A path from a random cell, grown while the judge (or equal values) lets it."""
    board = state.board
    path = [(rng.randrange(len(board)), rng.randrange(len(board[0])))]
    for _step in range(rng.randint(1, 6)):
        options = [n for n in touching_cells(board, path[-1]) if n not in path]
        if mode.judge is not None:
            options = [n for n in options if mode.judge(state, [*path, n]).fits]
        else:
            first = board[path[0][0]][path[0][1]]
            options = [n for n in options if board[n[0]][n[1]] == first]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def random_path(state: Any, rng: random.Random) -> list[Cell]:
    """Any walk through touching cells: mostly illegal, sometimes off the board."""
    board = state.board
    path = [(rng.randrange(len(board)), rng.randrange(len(board[0])))]
    for _step in range(rng.randint(1, 4)):
        path.append(rng.choice(touching_cells(board, path[-1])))
    if rng.random() < 0.1:
        path.append((len(board), 0))
    return path


def powerup_action(mode: Mode, state: Any, rng: random.Random) -> str:
    powerup = rng.choice(mode.powerups)
    cells = {"tile": 1, "pair": 2}.get(powerup.target, 0)
    spots = [
        f"{rng.randrange(len(state.board))},{rng.randrange(len(state.board[0]))}"
        for _cell in range(cells)
    ]
    return " ".join([powerup.id, *spots])


def random_action(mode: Mode, state: Any, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.08:
        return "undo"
    if mode.controls == "slide":
        return rng.choice(("left", "right", "up", "down", "left", "down"))
    if mode.controls == "place":
        rows, columns = len(state.board), len(state.board[0])
        if mode.place == "column":
            return f"place {rng.randrange(columns + 1)}"  # sometimes off the board
        return f"place {rng.randrange(rows)},{rng.randrange(columns)}"
    if roll < 0.2 and mode.powerups:
        return powerup_action(mode, state, rng)
    if roll < 0.35 and mode.hint is not None:
        hint = mode.hint(state)
        if hint is not None:
            return hint.action
    if roll < 0.5:
        return chain_text(random_path(state, rng))
    return chain_text(grown_chain(mode, state, rng))


def played_events(mode: Mode, actions: int, seed: int) -> Iterator[tuple[str, object]]:
    """``(action, event)`` for every event of ``actions`` random actions, new games as needed."""
    rng = random.Random(seed)
    game = Game.start(mode, CODE)
    for number in range(actions):
        if game.over:
            game = Game.start(mode, code_from_text(f"contract {number}"))
        action = random_action(mode, game.state, rng)
        try:
            step = game.act(action)
        except Refused:
            continue
        for event in step.events:
            yield action, event


@pytest.mark.parametrize("mode_id", sorted(REGISTRY.modes))
def test_every_event_is_of_the_core_vocabulary(mode_id: str) -> None:
    mode = REGISTRY.mode(mode_id)
    kinds: set[str] = set()
    for action, event in played_events(mode, ACTIONS, seed=len(mode_id)):
        assert is_known(event), f"{mode_id}: {action!r} emitted {event!r}"
        assert type(event) is VOCABULARY[event.kind]  # type: ignore[attr-defined]
        data = event.as_dict()  # type: ignore[attr-defined]
        assert data["type"] == event.kind  # type: ignore[attr-defined]
        json.dumps(data)
        kinds.add(data["type"])
    assert {"appeared", "merged"} <= kinds, f"{mode_id} played too little: {kinds}"


# -- nothing of another game -------------------------------------------------------------------


def foreign_words(mode: Mode) -> tuple[str, ...]:
    """The other games' names this mode does not say of itself."""
    own = f"{mode.id} {mode.title} {mode.description}"
    return tuple(word for word in OTHER_GAMES if word not in own)


def shown_texts(mode: Mode, state: Any) -> list[str]:
    """Every text the app shows of a mode: Help, statistics, top bar, power-ups, tutorial."""
    status = mode.status_of(state)
    texts = [mode.help]
    texts += [f"{s.label} {s.field}" for s in mode.statistics]
    texts += [f"{g.key} {g.label}" for g in mode.gauges]
    texts += [f"{key} {value}" for key, value in status.gauges.items()]
    texts += [status.over, *status.powerups, *status.rescues, *status.free]
    texts += [f"{p.id} {p.name} {p.key} {p.description}" for p in mode.powerups]
    texts += [f"{page.title} {page.text}" for page in mode.tutorial]
    return texts


def strings_in(data: Any) -> Iterator[str]:
    """Every key and string value of JSON data (numbers may be anything: a score of 2048)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from strings_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings_in(value)


def json_replies(mode: Mode, rng: random.Random) -> list[dict[str, Any]]:
    session = Session(mode, MemoryStore())
    session.new_game(CODE)
    commands = [random_action(mode, session.game.state, rng) for _command in range(20)]
    commands += ["hint", "read", "help", "undo", "undo", "dance", "new", "restart", "quit"]
    out = io.StringIO()
    run_lines(session, json_mode=True, stdin=[c + "\n" for c in commands], stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("mode_id", PLUGIN_MODES)
def test_a_plugins_mode_shows_nothing_of_another_game(mode_id: str) -> None:
    mode = REGISTRY.mode(mode_id)
    foreign = foreign_words(mode)
    assert foreign == OTHER_GAMES
    state = Game.start(mode, CODE).state
    for text in shown_texts(mode, state):
        assert not any(word in text for word in foreign), f"{mode_id} shows {text!r}"
    replies = json_replies(mode, random.Random(mode_id))
    assert len(replies) > 20
    for reply in replies:
        said = [s for s in strings_in(reply) if any(word in s for word in foreign)]
        assert said == [], f"{mode_id} replied {reply}"


def test_the_examples_offer_what_the_app_shows_only_where_they_have_it() -> None:
    fib, chainsum = REGISTRY.mode("fib"), REGISTRY.mode("chainsum")
    assert fib.help and chainsum.help
    assert fib.statistics and chainsum.statistics
    assert (fib.hint, fib.judge, fib.autoplayer, fib.sample) == (None, None, None, None)
    assert chainsum.hint and chainsum.judge and chainsum.autoplayer and not chainsum.sample
    assert fib.powerups == chainsum.powerups == ()


def test_a_registry_of_one_example_holds_only_its_modes() -> None:
    for name, plugin in EXAMPLES:
        for alone in only(name, plugin):
            assert set(alone.modes) == {m for m in REGISTRY.modes if REGISTRY.owner(m) == name}


def line_replies(mode: Mode, commands: list[str], *, json_mode: bool) -> str:
    session = Session(mode, MemoryStore())
    session.new_game(CODE)
    out = io.StringIO()
    run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return out.getvalue()


def test_the_line_modes_give_the_hint_the_mode_offers() -> None:
    chainsum = REGISTRY.mode("chainsum")
    offered = chainsum.hint(Game.start(chainsum, CODE).state)
    assert offered is not None
    _start, reply = map(json.loads, line_replies(chainsum, ["hint"], json_mode=True).splitlines())
    assert reply["hint_action"] == offered.action
    assert reply["hint"] == [list(cell) for cell in offered.cells]
    # people count cells from 1 in --plain; the JSON protocol from 0
    plain = line_replies(chainsum, ["hint"], json_mode=False)
    assert f"Hint: {for_people(offered.action)}" in plain
    # a plugin's slide mode may offer a hint (2048 has none: SPEC 3)
    hinted = dataclasses.replace(REGISTRY.mode("2048"), id="hinted", hint=lambda s: Hint("up"))
    slide = json.loads(line_replies(hinted, ["hint"], json_mode=True).splitlines()[1])
    assert slide["hint_action"] == "up" and slide["hint"] == []
    classic = json.loads(
        line_replies(REGISTRY.mode("2048"), ["hint"], json_mode=True).splitlines()[1]
    )
    assert classic["error"] == "this mode has no hint" and "hint_action" not in classic
    none = json.loads(line_replies(REGISTRY.mode("fib"), ["hint"], json_mode=True).splitlines()[1])
    assert none["error"] == "this mode has no hint"


def test_plain_help_names_only_what_the_mode_has() -> None:
    said = line_replies(REGISTRY.mode("chainsum"), ["help"], json_mode=False)
    assert "chain R,C R,C" in said and "hint" in said
    assert "hammer" not in said and "Power-ups" not in said
    assert (
        "hint"
        not in line_replies(REGISTRY.mode("fib"), ["help"], json_mode=False).split("Type help")[-1]
    )


def test_a_hint_that_fails_stops_the_game_in_one_line_and_keeps_it() -> None:
    def broken_hint(state: Any) -> None:
        raise ZeroDivisionError("no hint today")

    mode = dataclasses.replace(REGISTRY.mode("chainsum"), hint=broken_hint)
    *_replies, last = map(
        json.loads, line_replies(mode, ["hint", "left"], json_mode=True).split("\n")[:-1]
    )
    assert last["stopped"] is True
    assert last["error"] == "mode chainsum failed: ZeroDivisionError: no hint today"
