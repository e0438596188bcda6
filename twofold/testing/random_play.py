"""Random play keeps the rules' promises: the core vocabulary, replay, undo that never rerolls."""

from __future__ import annotations

import json
import random

from twofold.core._events import VOCABULARY, check, is_known
from twofold.core._rules import Mode, Refused
from twofold.core.game import Game
from twofold.testing.player import CODE, played, random_action, random_game


def check_events(mode: Mode, *, actions: int = 300, seed: int = 0) -> None:
    """Random play emits only the core vocabulary's events, each one the board can draw."""
    kinds: set[str] = set()
    changed = 0
    for game, action, _before, events in played(mode, actions, seed):
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


def check_replay(mode: Mode, *, seed: int = 0) -> None:
    """Replaying a game's log gives the game played."""
    game = random_game(mode, seed)
    again = Game.replay(mode, game.code, list(game.log))
    assert again.state == game.state, f"{mode.id}: replaying {game.log} gives another state"


def check_undo_never_rerolls(mode: Mode, *, seed: int = 0) -> None:
    """An action undone and played again gives the same state and events."""
    game = random_game(mode, seed, length=3)
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
