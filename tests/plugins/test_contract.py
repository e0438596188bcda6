"""The variant contract, checked on every registered mode: built-ins and both examples.

Each mode plays a few hundred random actions from its own controls and commands (the
test kit's random player, ``twofold.testing.random_action``) and every event it emits
must be one of the core vocabulary, of exactly the vocabulary's class. A plugin's mode
shows nothing of another game: its Help, statistics, top bar and JSON replies say no
"2048" or "2248" (the kit's ``check_no_foreign_words``), and no example's own title or
description names one.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
import twofold_chainsum
import twofold_drop
import twofold_fibonacci

from twofold.core import plugins
from twofold.core._capabilities import Hint
from twofold.core._events import VOCABULARY, is_known
from twofold.core._rules import Mode, Refused
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.session import MemoryStore, Session
from twofold.testing import OTHER_GAMES, check_no_foreign_words, foreign_words, random_action
from twofold.ui.cells import for_people
from twofold.ui.lines import run_lines

from .conftest import only

EXAMPLES = (
    ("fibonacci", twofold_fibonacci),
    ("chainsum", twofold_chainsum),
    ("drop", twofold_drop),
)
ACTIONS = 400
CODE = code_from_text("contract")


def registry() -> plugins.Registry:
    """twofold's own variants from their entry points (the suite sees no installed plugin),
    and the examples, registered in code."""
    return plugins.load(EXAMPLES)


REGISTRY = registry()
PLUGIN_MODES = [m for m in REGISTRY.modes if REGISTRY.owner(m) in dict(EXAMPLES)]


def test_every_mode_registered_and_both_examples_among_them() -> None:
    assert REGISTRY.problems == []
    assert {"2048", "2248", "fib", "fib-daily", "chainsum", "drop"} <= set(REGISTRY.modes)


# -- random play (the kit's random player) ---------------------------------------------------


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


@pytest.mark.parametrize("mode_id", PLUGIN_MODES)
def test_a_plugins_mode_shows_nothing_of_another_game(mode_id: str) -> None:
    mode = REGISTRY.mode(mode_id)
    # no example names another game, so the kit's check leaves none of their words out
    assert foreign_words(mode) == OTHER_GAMES
    check_no_foreign_words(mode, seed=len(mode_id))


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
    # a plugin's slide mode may offer a hint (2048 has none: it would play for you)
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
