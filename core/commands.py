"""A mode's commands: every word its line modes take, and the shape of what follows it.

One table for every kind of controls, so the first ``--json`` reply (``commands``),
``--plain`` help, and the turning of cells and columns between the count from 1 of
``--plain`` and the protocol's count from 0 all read the same thing. A mode adds its
own words with ``Mode.commands``; its power-ups are commands too.
"""

from __future__ import annotations

from twofold.core._presentation import Command
from twofold.core._rules import Mode

#: what each kind of controls plays with (a place mode's shape is its ``Mode.place``)
CONTROLS_COMMANDS: dict[str, tuple[Command, ...]] = {
    "slide": (Command("left"), Command("right"), Command("up"), Command("down")),
    "chain": (Command("chain", "cells"),),
}
#: the shape of a power-up's command, by its target ("undo" is the game's own undo)
POWERUP_SHAPES = {"none": "none", "tile": "cell", "pair": "pair"}
#: the words every line mode answers, whatever the mode
EVERY_MODE = ("undo", "read", "result", "new", "restart", "last", "quit")


def controls_commands(mode: Mode) -> tuple[Command, ...]:
    """The commands of the mode's controls: four directions, a chain, or a place."""
    if mode.controls == "place":
        return (Command("place", "column" if mode.place == "column" else "cell"),)
    if mode.controls == "slide" and mode.directions:
        return tuple(Command(direction.name) for direction in mode.directions)
    return CONTROLS_COMMANDS.get(mode.controls, ())


def commands_of(mode: Mode) -> tuple[Command, ...]:
    """Every command the mode takes, each word once: its controls', its own, its power-ups',
    the hint when it has one, and the words every mode answers."""
    found: dict[str, Command] = {}
    for command in (*controls_commands(mode), *mode.commands):
        found.setdefault(command.word, command)
    for powerup in mode.powerups:
        shape = POWERUP_SHAPES.get(powerup.target)
        if shape is not None:
            found.setdefault(powerup.id, Command(powerup.id, shape))  # type: ignore[arg-type]
    words = list(EVERY_MODE)
    if mode.hint is not None:
        words.insert(1, "hint")
    for word in words:
        found.setdefault(word, Command(word))
    return tuple(found.values())


def shape_of(mode: Mode, text: str) -> str | None:
    """The shape of the arguments of the command ``text`` starts with (None: not a word of
    the table, such as an alias the rules take: ``h`` for ``left``)."""
    word = text.strip().split(maxsplit=1)[0].lower() if text.strip() else ""
    for command in commands_of(mode):
        if command.word.lower() == word:
            return command.takes
    return None
