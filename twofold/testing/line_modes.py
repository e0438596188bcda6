"""``--json`` and ``--plain`` play the mode: one JSON object a line, help of its own controls."""

from __future__ import annotations

import io
import json
import random

from twofold.core._rules import Mode
from twofold.core.commands import commands_of
from twofold.core.game import Game
from twofold.core.session import Session
from twofold.core.storage import MemoryStore
from twofold.testing.player import CODE, random_action

#: a line of --plain help that names each kind of controls, which no other kind may say
CONTROLS_HELP = {
    "slide": "Moves: left right up down",
    "chain": "Chain: chain R,C",
    "place": "place ",
}


def line_session(mode: Mode, commands: list[str], *, json_mode: bool) -> tuple[int, str]:
    """The exit status and the output of a line mode given ``commands``, a line each."""
    from twofold.ui.lines import run_lines  # the ui only when a check plays the line modes

    session = Session(mode, MemoryStore())
    session.new_game(CODE)
    out = io.StringIO()
    status = run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return status, out.getvalue()


def line_commands(mode: Mode, seed: int, count: int = 20) -> list[str]:
    """Random actions, then every word of the line modes, some of them refused."""
    rng = random.Random(f"{mode.id}:lines:{seed}")
    state = Game.start(mode, CODE).state
    played = [random_action(mode, state, rng) for _command in range(count)]
    return [*played, "hint", "read", "help", "undo", "undo", "dance", "new", "restart", "quit"]


def check_line_modes(mode: Mode, *, seed: int = 0) -> None:
    """``--json`` answers every line with one object, the first carrying ``commands``;
    ``--plain`` help has no words of another kind of controls."""
    commands = line_commands(mode, seed)
    status, out = line_session(mode, commands, json_mode=True)
    assert status == 0, f"{mode.id}: --json ended with status {status}: {out.splitlines()[-1]}"
    replies = [json.loads(line) for line in out.splitlines()]
    assert len(replies) == len(commands) + 1, f"{mode.id}: not one reply a line"
    table = replies[0].get("commands")
    assert table == [c.as_dict() for c in commands_of(mode)], f"{mode.id}: first reply {table}"
    for reply in replies:
        for field in ("mode", "code", "board", "score", "moves", "over", "changed", "events"):
            assert field in reply, f"{mode.id}: a reply lacks {field!r}: {reply}"
    status, out = line_session(mode, ["help", *commands[:5], "quit"], json_mode=False)
    assert status == 0, f"{mode.id}: --plain ended with status {status}"
    for controls, words in CONTROLS_HELP.items():
        if controls != mode.controls:
            assert words not in out, f"{mode.id}'s --plain help says {words!r} of {controls}"
