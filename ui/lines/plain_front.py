"""``--plain``: the board as text and a sentence per action, for people and screen readers."""

from __future__ import annotations

from typing import Any

from twofold.core._i18n import N_, _
from twofold.core._presentation import BUILTIN_GAUGES, upcoming_words
from twofold.core.codes import format_code
from twofold.core.commands import EVERY_MODE, commands_of, controls_commands, shape_of
from twofold.core.plugins import PluginFault
from twofold.ui.cells import for_people, for_protocol
from twofold.ui.lines.front import LineFront
from twofold.ui.practice import practice_words


class PlainFront(LineFront):
    """The board as text and a sentence per action, for people and screen readers.

    People count rows and columns from 1: typed cells and hints are turned to and from
    the protocol's count from 0 here.
    """

    def to_rules(self, text: str) -> str:
        mode = self.session.mode
        return for_protocol(text, self.session.game.state.board, shape_of(mode, text))

    def time_ran_out(self) -> None:
        self.say(
            _("Time is up: the game is over with {score} points.").format(
                score=self.session.game.state.score
            )
        )

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def status_line(self) -> str:
        mode = self.session.mode
        game = self.session.game
        state = game.state
        parts = [
            mode.title,
            _("Score {score}").format(score=state.score),
            _("Moves {moves}").format(moves=state.moves),
            _("Code {code}").format(code=format_code(game.code)),
        ]
        own = [gauge for gauge in mode.gauges if gauge.key not in BUILTIN_GAUGES]
        status = self.status() if mode.status is not None else None
        if status is not None:
            # the mode's own gauges, as its top bar shows them ("Merges left 12")
            for gauge in own:
                value = status.gauges.get(gauge.key)
                if value is not None:
                    parts.append(f"{gauge.label} {value}".strip())
            if status.upcoming:
                parts.append(upcoming_words(status.upcoming))
        if game.time_left is not None:
            parts.append(_("Time left {s} s").format(s=int(game.time_left)))
        if status is not None and mode.powerups:
            # what the app's power-up bar shows, in the same order and names (Status.powerups)
            held = status.powerups
            parts.append(
                ", ".join(f"{powerup.name} {held.get(powerup.id, 0)}" for powerup in mode.powerups)
            )
        if game.flags.practice:
            parts.append(_("Practice"))
        return " · ".join(parts)

    def board(self) -> None:
        with self.session.faults():
            self.say(self.session.mode.rules.render_text(self.session.game.state))
        self.say(self.status_line())
        if self.session.game.over:
            # why it ended, in the mode's words (Status.over), as the app's result says
            why = self.status().over if self.session.mode.status is not None else ""
            if why:
                self.say(why if why.endswith((".", "!", "?")) else f"{why}.")
            self.say(_("Game over. Type new for a new game, undo to take back, quit to leave."))

    def noticed(self, text: str) -> None:
        self.say(text)

    def problem(self, text: str) -> None:
        self.say(text)

    def started(self, notice: str | None) -> None:
        if notice:
            self.say(notice)
        if self.session.game.flags.practice:
            self.say(practice_words(self.session))
        self.say(_("Type help for the commands."))
        self.board()

    def stopped(self, fault: PluginFault) -> None:
        self.say(_("Stopped: {reason}. The game is saved as it was.").format(reason=fault))

    def reply(self, **fields: Any) -> None:
        if "error" in fields:
            # the rules' reasons count cells from 0, as the protocol does; people count from 1
            reason = for_people(str(fields["error"]))
            self.say(_("Not allowed: {reason}").format(reason=reason))
            return
        if "hint" in fields:
            action = fields.get("hint_action")
            shape = shape_of(self.session.mode, action) if action else None
            self.say(
                _("Hint: {action}").format(action=for_people(action, shape))
                if action
                else _("No hint.")
            )
            return
        if "result" in fields:
            for line in str(fields["result"]).splitlines():
                self.say(line)
            return
        if fields.get("announcement"):
            self.say(fields["announcement"])
        if fields.get("changed"):
            self.board()

    def read(self) -> None:
        for line in self.session.mode.rules.read_board(self.session.game.state):
            self.say(line)

    def help(self) -> None:
        """The mode's commands, from the one table the JSON mode gives too."""
        mode = self.session.mode
        table = {command.word: command for command in commands_of(mode)}
        said: set[str] = set()
        kind = f"place {mode.place}" if mode.controls == "place" else mode.controls
        if mode.directions:  # a slide mode's own directions: their words, no aliases
            words = " ".join(direction.name for direction in mode.directions)
            self.say(_("Moves: {words}.").format(words=words))
            said |= {direction.name for direction in mode.directions}
        elif kind in CONTROLS_HELP:
            words = CONTROLS_HELP[kind]
            self.say(_(words))
            said |= {command.word for command in controls_commands(mode)}
        powerups = [p.id for p in mode.powerups if p.id in table and p.target != "undo"]
        if powerups:
            offered = [written(table[word]) for word in powerups]
            self.say(_("Power-ups: {powerups}.").format(powerups=" · ".join(offered)))
            said |= set(powerups)
        if "hint" in table:
            self.say(_("Ask for a hint: hint."))
            said.add("hint")
        said |= set(EVERY_MODE)
        own = [written(command) for command in table.values() if command.word not in said]
        if own:
            self.say(_("Also this mode: {commands}.").format(commands=" · ".join(own)))
        self.say(_("Also: undo · read · result · new · restart · last · quit."))


#: how each shape of arguments is written for people (cells counted from 1)
SHAPES = {"none": "", "cell": " R,C", "pair": " R,C R,C", "cells": " R,C R,C ...", "column": " C"}


#: what --plain help says of each kind of controls (a place mode by what it places); the
#: aliases it names are what the kit checks ``Rules.parse`` takes (SLIDE_ALIASES)
CONTROLS_HELP = {
    "slide": N_("Moves: left right up down (or h j k l, a w s d)."),
    "chain": N_("Chain: chain R,C R,C ... (rows from the top, columns from the left, from 1)."),
    "place column": N_("Drop: place C (columns from the left, from 1)."),
    "place cell": N_("Place: place R,C (rows from the top, columns from the left, from 1)."),
}


#: the aliases --plain help promises a slide mode with 2048's four directions takes
SLIDE_ALIASES = {"h": "left", "j": "down", "k": "up", "l": "right",
                 "a": "left", "w": "up", "s": "down", "d": "right"}  # fmt: skip


def written(command: Any) -> str:
    """A command as ``--plain`` help writes it: ``hammer R,C``, ``place C``."""
    return command.word + SHAPES.get(command.takes, "")
