"""Nothing of another game in what the app and the line modes show of a mode.

A plugin's mode must not say ``"2048"`` or ``"2248"`` (twofold's own games) in its Help,
statistics, top bar, tutorial, ``--plain`` or ``--json``, unless its own id, title or
description names one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from twofold.core._rules import Mode
from twofold.core.game import Game
from twofold.testing.line_modes import line_commands, line_session
from twofold.testing.player import CODE

#: the names of twofold's own games, which a plugin's mode must not show as its own
OTHER_GAMES = ("2048", "2248")


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


def _found(text: str, foreign: tuple[str, ...]) -> str | None:
    """The first foreign word in ``text``, with the words around it; None if none."""
    hits = [(text.find(word), word) for word in foreign if word in text]
    if not hits:
        return None
    index, word = min(hits)
    around = " ".join(text[max(0, index - 30) : index + len(word) + 30].split())
    return f"{word!r} in …{around}…"


def check_no_foreign_words(mode: Mode, *, seed: int = 0) -> None:
    """Nothing of another game in the mode's texts, its ``--json`` replies or ``--plain``."""
    foreign = foreign_words(mode)
    if not foreign:
        return  # the mode is one of twofold's own games (or says it is like one)
    state = Game.start(mode, CODE).state
    for text in shown_texts(mode, state):
        found = _found(text, foreign)
        assert found is None, f"{mode.id} shows {found} (a word of another game)"
    _status, out = line_session(mode, line_commands(mode, seed), json_mode=True)
    for line in out.splitlines():
        said = [s for s in strings_in(json.loads(line)) if any(word in s for word in foreign)]
        assert said == [], f"{mode.id} replied {said}"
    _status, out = line_session(mode, ["help", "read", "quit"], json_mode=False)
    found = _found(out, foreign)
    assert found is None, f"{mode.id}'s --plain says {found} (a word of another game)"
