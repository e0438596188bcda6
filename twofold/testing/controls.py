"""A player can reach every action from the app, and the line modes' words mean what they say.

Two checks of :mod:`twofold.testing`:

* :func:`check_reachable`: on the states of random play, every action the rules would
  take (the mode's hint, and its proof coder's legal actions when it lists them) is one
  the app can send (a key, the palette or the pointer), and a game that is not over always
  has one that changes it; a failure names the action or the state;
* :func:`check_aliases`: ``Rules.parse`` takes every word ``--plain`` help advertises
  (2048's ``h j k l, a w s d``, the mode's own directions and commands, ``undo`` when the
  mode keeps an undo) and reads each as the help says.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from twofold.core._rules import Mode, Refused
from twofold.core.commands import controls_commands
from twofold.core.game import Game
from twofold.core.plugins import AIMED_BY
from twofold.testing.player import CODE, played
from twofold.ui.lines.plain_front import SLIDE_ALIASES


def app_actions(mode: Mode) -> frozenset[str]:
    """The first words of the actions the app can send for ``mode`` (beyond undo)."""
    words = {"undo"}
    if mode.controls == "slide":
        words |= {direction.name for direction in mode.slide_directions()}
    else:
        words |= {command.word for command in controls_commands(mode)}
    words |= {command.word for command in mode.commands if command.takes == "none"}
    aimed = AIMED_BY.get(mode.controls)  # None: every target (the chain screen arms them)
    words |= {p.id for p in mode.powerups if aimed is None or p.target in aimed}
    return frozenset(words)


def reachable(mode: Mode, action: str) -> bool:
    """Whether the app can send ``action`` (its first word is one the app sends)."""
    word = action.split(maxsplit=1)[0] if action.strip() else ""
    return word in app_actions(mode)


def _changes(mode: Mode, state: Any, action: str) -> bool:
    try:
        return mode.rules.apply(state, mode.rules.parse(action)).changed
    except Refused:
        return False


def _candidates(mode: Mode, state: Any) -> Iterable[str]:
    """What the rules would take in ``state``: the hint, and the coder's legal actions."""
    if mode.hint is not None:
        hint = mode.hint(state)
        if hint is not None:
            yield hint.action
    legal = getattr(mode.proof, "legal", None)
    if callable(legal):
        yield from legal(state)


def check_reachable(mode: Mode, *, actions: int = 120, seed: int = 0) -> None:
    """Every action the rules take on random states can be sent from the app, and a game
    that is not over can always be moved from the app (a slide or place mode's own words)."""
    simple = sorted(w for w in app_actions(mode) if w != "undo")
    opening = Game.start(mode, CODE).state
    states = (opening, *(game.state for game, *_rest in played(mode, actions, seed)))
    for state in states:
        for candidate in _candidates(mode, state):
            if _changes(mode, state, candidate):
                assert reachable(mode, candidate), (
                    f"{mode.id}: the rules take {candidate!r}, which the app cannot send "
                    f"(no key, palette entry or pointer); the app sends {simple}"
                )
        if mode.controls == "slide" and not mode.rules.is_over(state):
            assert any(_changes(mode, state, word) for word in simple), (
                f"{mode.id}: the game is not over, yet nothing the app sends ({simple}) "
                f"changes the board {state.board}: the player is stuck"
            )


def advertised(mode: Mode) -> dict[str, str]:
    """Each word the line modes' help promises, with the action it must parse to."""
    words: dict[str, str] = {}
    if mode.controls == "slide" and not mode.directions:
        words |= {word: word for word in ("left", "right", "up", "down")}
        words |= SLIDE_ALIASES
    words |= {direction.name: direction.name for direction in mode.directions}
    words |= {command.word: command.word for command in mode.commands if command.takes == "none"}
    if getattr(mode.rules, "undo_depth", 0):
        words["undo"] = "undo"
    return words


def check_aliases(mode: Mode) -> None:
    """``Rules.parse`` takes every word the line modes' help advertises, as it says."""
    for word, meant in advertised(mode).items():
        try:
            parsed = mode.rules.parse(word)
        except Refused as refusal:
            raise AssertionError(
                f"{mode.id}: parse refuses {word!r}, which --plain help promises ({refusal})"
            ) from None
        assert parsed == meant, (
            f"{mode.id}: parse reads {word!r} as {parsed!r}; --plain help promises {meant!r}"
        )


__all__ = ["app_actions", "check_aliases", "check_reachable", "reachable"]
