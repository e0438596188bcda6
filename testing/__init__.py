"""twofold.testing: the whole plugin contract, run against any mode.

A plugin author calls :func:`check_mode` from a test of their own (twofold's suite
calls it over every built-in and example mode)::

    from twofold.testing import check_mode
    from twofold_drop import modes

    def test_the_contract():
        for mode in modes():
            check_mode(mode)

Each check is a function of its own too, and fails with an ``AssertionError`` that
names the mode, the action and what is wrong:

* :func:`check_registers`: the mode registers with no problem and no note;
* :func:`check_events`: random play (the mode's own controls, hint, power-ups and
  commands, legal and not) emits only the core vocabulary, each event drawable;
* :func:`check_replay`: replaying a game's log gives the game played;
* :func:`check_undo_never_rerolls`: an action undone and played again gives the same;
* :func:`check_fields`: every documented field is honoured (statistics read numbers
  the rules keep, gauges get values, a hint and a judge agree with the rules...);
* :func:`check_no_foreign_words`: nothing of another game (``"2048"``, ``"2248"``) in
  what the app and the line modes show of the mode, unless its own title says it;
* :func:`check_line_modes`: ``--json`` and ``--plain`` play the mode, the first reply
  carries its commands, every reply is one JSON object;
* :func:`check_in_the_app`: the app opens the mode and plays it through Textual's Pilot.

This module is part of twofold's public API, beside ``twofold.core``; it may use the
app (``check_in_the_app``), which a plugin itself never imports.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from twofold.core import hookimpl, plugins
from twofold.core.codes import code_from_text
from twofold.core.commands import commands_of
from twofold.core.events import VOCABULARY, Cell, check, is_known
from twofold.core.game import Game
from twofold.core.presentation import BUILTIN_GAUGES, BUILTIN_STATISTICS
from twofold.core.rules import Mode, Refused
from twofold.core.session import MemoryStore, Session

__all__ = [
    "OTHER_GAMES",
    "check_events",
    "check_fields",
    "check_in_the_app",
    "check_line_modes",
    "check_mode",
    "check_no_foreign_words",
    "check_registers",
    "check_replay",
    "check_undo_never_rerolls",
    "random_action",
]

#: the names of twofold's own games, which a plugin's mode must not show as its own
OTHER_GAMES = ("2048", "2248")
CODE = code_from_text("twofold.testing")


def check_mode(mode: Mode, *, actions: int = 300, seed: int = 0, app: bool = True) -> None:
    """Every check of the contract on ``mode`` (``app=False`` leaves out the Pilot run)."""
    check_registers(mode)
    check_events(mode, actions=actions, seed=seed)
    check_replay(mode, seed=seed)
    check_undo_never_rerolls(mode, seed=seed)
    check_fields(mode, seed=seed)
    check_no_foreign_words(mode, seed=seed)
    check_line_modes(mode, seed=seed)
    if app:
        check_in_the_app(mode)


# -- registration ------------------------------------------------------------------------------


class _Offers:
    def __init__(self, mode: Mode) -> None:
        self.mode = mode

    @hookimpl
    def twofold_register_modes(self, register: Callable[[Mode], None]) -> None:
        register(self.mode)


def registry_of(mode: Mode) -> plugins.Registry:
    """A registry holding only ``mode`` (as a plugin named ``under-test``)."""
    registry = plugins.load([("under-test", _Offers(mode))], entry_points_=[])
    registry.manager.unregister(name="under-test")  # nothing else may meet it
    return registry


def check_registers(mode: Mode) -> None:
    registry = registry_of(mode)
    said = [str(p) for p in registry.problems + registry.notes]
    assert said == [], f"{mode.id}: registering it says {said}"


# -- random play -------------------------------------------------------------------------------


def _touching(board: Any, cell: Cell) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < len(board) and 0 <= c + dc < len(board[0])
    ]


def _cells(cells: Sequence[Cell]) -> str:
    return " ".join(f"{r},{c}" for r, c in cells)


def _grown_chain(mode: Mode, state: Any, rng: random.Random) -> list[Cell]:
    """A path from a random cell, grown while the judge (or equal values) lets it."""
    board = state.board
    path = [(rng.randrange(len(board)), rng.randrange(len(board[0])))]
    for _step in range(rng.randint(1, 6)):
        options = [n for n in _touching(board, path[-1]) if n not in path]
        if mode.judge is not None:
            options = [n for n in options if mode.judge(state, [*path, n]).fits]
        else:
            first = board[path[0][0]][path[0][1]]
            options = [n for n in options if board[n[0]][n[1]] == first]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def _random_cell(state: Any, rng: random.Random, *, off: float = 0.0) -> Cell:
    rows, columns = len(state.board), len(state.board[0])
    if rng.random() < off:
        return (rows, rng.randrange(columns))  # off the board: must be refused, not crash
    return (rng.randrange(rows), rng.randrange(columns))


def _shaped(word: str, takes: str, state: Any, rng: random.Random) -> str:
    """A command of the mode's table with arguments of its shape, sometimes wrong."""
    if takes == "cell":
        return f"{word} {_cells([_random_cell(state, rng, off=0.05)])}"
    if takes == "pair":
        first = _random_cell(state, rng)
        return f"{word} {_cells([first, rng.choice(_touching(state.board, first))])}"
    if takes == "cells":
        return f"{word} {_cells([_random_cell(state, rng) for _cell in range(rng.randint(2, 4))])}"
    if takes == "column":
        return f"{word} {rng.randrange(len(state.board[0]) + 1)}"
    return word


def random_action(mode: Mode, state: Any, rng: random.Random) -> str:
    """An action for ``mode`` from its own controls and commands: mostly legal, not always."""
    roll = rng.random()
    if roll < 0.08:
        return "undo"
    if roll < 0.25 and mode.hint is not None:
        hint = mode.hint(state)
        if hint is not None:
            return hint.action
    if mode.controls == "slide":
        return rng.choice(("left", "right", "up", "down", "left", "down"))
    if mode.controls == "chain" and roll < 0.7:
        return "chain " + _cells(_grown_chain(mode, state, rng))
    table = [c for c in commands_of(mode) if c.word not in ("read", "new", "restart", "quit")]
    command = rng.choice(table)
    return _shaped(command.word, command.takes, state, rng)


def _played(
    mode: Mode, actions: int, seed: int
) -> Iterator[tuple[Game, str, Any, tuple[Any, ...]]]:
    """``(game, action, state before, events)`` for each action taken, new games as needed."""
    rng = random.Random(f"{mode.id}:{seed}")
    game = Game.start(mode, CODE)
    for number in range(actions):
        if game.over:
            game = Game.start(mode, code_from_text(f"twofold.testing {number}"))
        before = game.state
        action = random_action(mode, before, rng)
        try:
            step = game.act(action)
        except Refused:
            continue
        yield game, action, before, step.events


def check_events(mode: Mode, *, actions: int = 300, seed: int = 0) -> None:
    kinds: set[str] = set()
    changed = 0
    for game, action, _before, events in _played(mode, actions, seed):
        for event in events:
            assert is_known(event), f"{mode.id}: {action!r} emitted {event!r}"
            assert type(event) is VOCABULARY[event.kind], f"{mode.id}: {event!r} is a subclass"
            json.dumps(event.as_dict())
            kinds.add(event.kind)
        try:
            check(events, game.state.board)
        except ValueError as error:
            raise AssertionError(f"{mode.id}: {action!r}: {error}") from None
        changed += bool(events)
    assert changed, f"{mode.id}: {actions} random actions changed nothing"
    assert kinds - {"undone"}, f"{mode.id}: random play made only {kinds}"


def _random_log(mode: Mode, seed: int, length: int = 60) -> Game:
    rng = random.Random(f"{mode.id}:log:{seed}")
    game = Game.start(mode, CODE)
    for _number in range(length):
        if game.over:
            break
        with contextlib.suppress(Refused):
            game.act(random_action(mode, game.state, rng))
    return game


def check_replay(mode: Mode, *, seed: int = 0) -> None:
    game = _random_log(mode, seed)
    again = Game.replay(mode, game.code, list(game.log))
    assert again.state == game.state, f"{mode.id}: replaying {game.log} gives another state"


def check_undo_never_rerolls(mode: Mode, *, seed: int = 0) -> None:
    game = _random_log(mode, seed, length=3)
    if game.over:
        game = Game.start(mode, CODE)
    rng = random.Random(f"{mode.id}:undo:{seed}")
    tried = 0
    for _attempt in range(40):
        action = random_action(mode, game.state, rng)
        if action == "undo" or game.over:
            continue
        try:
            first = game.act(action)
        except Refused:
            continue
        if not first.changed:
            continue
        try:
            game.act("undo")
        except Refused:
            return  # the mode allows no undo now (an Undo power-up spent): nothing to check
        second = game.act(action)
        assert second.outcome.state == first.outcome.state, (
            f"{mode.id}: {action!r} after undo gave another state: undo rerolled"
        )
        assert second.events == first.events, f"{mode.id}: {action!r} after undo differs"
        tried += 1
        if tried >= 3:
            return


# -- the fields --------------------------------------------------------------------------------


def check_fields(mode: Mode, *, seed: int = 0) -> None:
    """Every documented field does what its docs say, for states met in random play."""
    game = _random_log(mode, seed, length=30)
    state = game.state
    stats = mode.rules.stats(state)
    assert all(type(v) is int for v in stats.values()), f"{mode.id}: stats are not whole numbers"
    for statistic in mode.statistics:
        assert statistic.key in BUILTIN_STATISTICS or statistic.key in stats, (
            f"{mode.id}: statistic {statistic.label!r} reads {statistic.key!r}, "
            f"which Rules.stats does not give"
        )
    status = mode.status_of(state)
    for gauge in mode.gauges:
        if gauge.key not in BUILTIN_GAUGES:
            assert gauge.key in status.gauges, f"{mode.id}: gauge {gauge.key!r} gets no value"
            assert isinstance(status.gauges[gauge.key], str), f"{mode.id}: a gauge is not text"
    offered = {p.id for p in mode.powerups}
    held = {name for name, count in status.powerups.items() if count}
    assert held <= offered, f"{mode.id}: status counts power-ups it does not offer: {held}"
    assert all(type(v) is int and v > 0 for v in status.upcoming), (
        f"{mode.id}: upcoming holds a value that is not a tile"
    )
    if mode.rules.is_over(state):
        assert isinstance(status.over, str)
    for page in mode.tutorial:
        assert page.title and page.text, f"{mode.id}: a tutorial page says nothing"
    if mode.hint is not None:
        _check_hint(mode, game)
    if mode.judge is not None and mode.controls == "place":
        _check_place_judge(mode, state)
    if mode.sample is not None:
        sample = mode.sample()
        if sample is not None:
            Game.replay(mode, sample.code, list(sample.actions))
    assert mode.aim_after_goal() is None or mode.aim_after_goal() > (mode.goal or 0)


def _check_hint(mode: Mode, game: Game) -> None:
    assert mode.hint is not None
    hint = mode.hint(game.state)
    if hint is None:
        return
    action = mode.rules.parse(hint.action)
    try:
        outcome = mode.rules.apply(game.state, action)
    except Refused as refusal:
        raise AssertionError(f"{mode.id}: its hint {hint.action!r} is refused: {refusal}") from None
    board = game.state.board
    assert all(0 <= r < len(board) and 0 <= c < len(board[0]) for r, c in hint.cells), (
        f"{mode.id}: the hint's cells {hint.cells} are not on the board"
    )
    assert outcome.changed, f"{mode.id}: its hint {hint.action!r} changes nothing"


def _check_place_judge(mode: Mode, state: Any) -> None:
    """The judge of a place mode says "fits" exactly where the rules take the action."""
    assert mode.judge is not None
    rows, columns = len(state.board), len(state.board[0])
    if mode.place == "column":
        places = [((0, c), f"place {c}") for c in range(columns)]
    else:
        places = [((r, c), f"place {r},{c}") for r in range(rows) for c in range(columns)]
    for cell, action in places:
        verdict = mode.judge(state, [cell])
        try:
            mode.rules.apply(state, mode.rules.parse(action))
            taken = True
        except Refused:
            taken = False
        assert verdict.fits == taken, (
            f"{mode.id}: the judge says {verdict} of {action!r}, the rules "
            f"{'take' if taken else 'refuse'} it"
        )


# -- what is shown -----------------------------------------------------------------------------


def foreign_words(mode: Mode) -> tuple[str, ...]:
    """The names of twofold's games a mode must not show: all of them, unless its id,
    title or description names one (then it is one of them, or says it is like one, and
    their numbers are its tiles: 2248's chart has a 2048)."""
    own = f"{mode.id} {mode.title} {mode.description}"
    return () if any(word in own for word in OTHER_GAMES) else OTHER_GAMES


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
    texts += [f"{c.word} {c.description}" for c in mode.commands]
    return texts


def _strings_in(data: Any) -> Iterator[str]:
    """Every key and string value of JSON data (numbers may be anything: a score of 2048)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _strings_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings_in(value)


def _line_session(mode: Mode, commands: list[str], *, json_mode: bool) -> tuple[int, str]:
    from twofold.ui.lines import run_lines

    session = Session(mode, MemoryStore())
    session.new_game(CODE)
    out = io.StringIO()
    status = run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return status, out.getvalue()


def _commands(mode: Mode, seed: int, count: int = 20) -> list[str]:
    rng = random.Random(f"{mode.id}:lines:{seed}")
    state = Game.start(mode, CODE).state
    played = [random_action(mode, state, rng) for _command in range(count)]
    return [*played, "hint", "read", "help", "undo", "undo", "dance", "new", "restart", "quit"]


def check_no_foreign_words(mode: Mode, *, seed: int = 0) -> None:
    foreign = foreign_words(mode)
    if not foreign:
        return  # the mode is one of twofold's own games (or says it is like one)
    state = Game.start(mode, CODE).state
    for text in shown_texts(mode, state):
        assert not any(word in text for word in foreign), f"{mode.id} shows {text!r}"
    _status, out = _line_session(mode, _commands(mode, seed), json_mode=True)
    for line in out.splitlines():
        said = [s for s in _strings_in(json.loads(line)) if any(word in s for word in foreign)]
        assert said == [], f"{mode.id} replied {said}"
    _status, out = _line_session(mode, ["help", "read", "quit"], json_mode=False)
    assert not any(word in out for word in foreign), f"{mode.id}'s --plain says {out!r}"


def check_line_modes(mode: Mode, *, seed: int = 0) -> None:
    commands = _commands(mode, seed)
    status, out = _line_session(mode, commands, json_mode=True)
    assert status == 0, f"{mode.id}: --json ended with status {status}: {out.splitlines()[-1]}"
    replies = [json.loads(line) for line in out.splitlines()]
    assert len(replies) == len(commands) + 1, f"{mode.id}: not one reply a line"
    table = replies[0].get("commands")
    assert table == [c.as_dict() for c in commands_of(mode)], f"{mode.id}: first reply {table}"
    for reply in replies:
        for field in ("mode", "code", "board", "score", "moves", "over", "changed", "events"):
            assert field in reply, f"{mode.id}: a reply lacks {field!r}: {reply}"
    status, out = _line_session(mode, ["help", *commands[:5], "quit"], json_mode=False)
    assert status == 0, f"{mode.id}: --plain ended with status {status}"
    kinds = {"slide": "Moves: left right up down", "chain": "Chain: chain R,C", "place": "place "}
    for controls, words in kinds.items():
        if controls != mode.controls:
            assert words not in out, f"{mode.id}'s --plain help says {words!r} of {controls}"


# -- the app -----------------------------------------------------------------------------------


def check_in_the_app(mode: Mode, *, size: tuple[int, int] = (100, 32)) -> None:
    """The app opens ``mode`` on the screen of its controls and plays it through Pilot.

    Its game is stored in the data folder of ``TWOFOLD_HOME``: give the test a fresh one.
    """
    asyncio.run(_in_the_app(mode, size))


async def _in_the_app(mode: Mode, size: tuple[int, int]) -> None:
    from twofold.core.store import open_store
    from twofold.ui.app.app import TwofoldApp

    registry = registry_of(mode)
    store = open_store()
    try:
        app = TwofoldApp(registry, store, mode_id=mode.id, code=CODE)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if mode.tutorial:  # the first game of a family opens on its tutorial
                from twofold.ui.app.screens.tutorial import TutorialScreen

                assert isinstance(app.screen, TutorialScreen), (
                    f"{mode.id}: its tutorial is not shown on the first game"
                )
                await pilot.press("escape")
                await pilot.pause()
            screen = app.screen
            session = getattr(screen, "session", None)
            assert session is not None, f"{mode.id}: the app opened no game ({type(screen)})"
            errors = [n.message for n in app._notifications if n.severity == "error"]
            assert errors == [], f"{mode.id}: the app says {errors}"
            await _play_keys(pilot, mode)
            await pilot.pause()
            assert session.game.log, f"{mode.id}: nothing the keys did was played"
            assert app.screen is screen or not hasattr(app.screen, "session"), (
                f"{mode.id}: the game screen left while it was played"
            )
    finally:
        store.close()


async def _play_keys(pilot: Any, mode: Mode) -> None:
    """Keys a player presses on the mode's screen: moves, a chain or a place, undo."""
    screen = pilot.app.screen
    if mode.controls == "slide":
        for key in ("left", "up", "right", "down", "left", "down"):
            await pilot.press(key)
        return
    if mode.controls == "place":
        for key in ("right", "enter", "left", "space", "enter"):
            await pilot.press(key)
        return
    state = screen.session.game.state
    hint = mode.hint(state) if mode.hint is not None else None
    if hint is not None and len(hint.cells) >= 2:
        path = list(hint.cells)
    else:
        path = _grown_chain(mode, state, random.Random(0))
    # the cursor shows on the first key, at the bottom left; Space adds, Enter merges
    await pilot.press("up")
    at = (len(state.board) - 1, 0)
    for cell in path:
        for _step in range(abs(cell[0] - at[0])):
            await pilot.press("down" if cell[0] > at[0] else "up")
        for _step in range(abs(cell[1] - at[1])):
            await pilot.press("right" if cell[1] > at[1] else "left")
        await pilot.press("space")
        at = cell
    await pilot.press("enter")
