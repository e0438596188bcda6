"""The line modes: ``--plain`` for people and screen readers, ``--json`` for programs.

Both read one command a line from standard input. The JSON mode writes exactly one
JSON object per line: one at start and one after each line, whatever its bytes
(SPEC section 9): a line that is not UTF-8, is blank or is too long gets an ``error``.
Lines are decoded one at a time, so a bad byte costs its own line only. Input is
never echoed back whole: a message quotes at most :data:`MESSAGE_LIMIT` characters.

While the game cannot be saved (see ``Session.write_problem``), every JSON reply
carries ``notice`` with the reason, and ``--plain`` says so in a line when it starts
and when saving works again.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO, TextIO

from twofold.core.codes import format_code
from twofold.core.commands import EVERY_MODE, commands_of, controls_commands, shape_of
from twofold.core.daily import daily_code
from twofold.core.i18n import N_, _
from twofold.core.plugins import PluginFault
from twofold.core.presentation import BUILTIN_GAUGES, upcoming_words
from twofold.core.rules import Refused
from twofold.core.session import Session
from twofold.ui.cells import for_people, for_protocol


def practice_words(session: Session | None = None) -> str:
    """Why the game in play is practice: another day's board, or today's played again."""
    other_day = (
        session is not None
        and session.mode.daily
        and session.game.code != daily_code(session.mode.id, session.today())
    )
    if other_day:
        return _("Practice: only today's board is the Daily, so this game does not count.")
    return _("Practice: today's daily game is already played, so this try does not count.")


#: commands the line front end answers itself; everything else goes to the rules
FRONT_END_WORDS = {
    "new": "new",
    "restart": "restart",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "hint": "hint",
    "read": "read",
    "r": "read",
    "help": "help",
    "?": "help",
}


#: front-end commands that take nothing after them (``new extra`` is refused, not passed on)
WORDS_ALONE = frozenset({"new", "restart", "quit", "read", "help", "hint"})

#: the longest line read as a command (bytes); the rest of a longer line is skipped
LINE_LIMIT = 4096
#: the most characters of a message (a reason, a quoted command) put in a reply
MESSAGE_LIMIT = 200


class TooLong(bytes):
    """A line longer than LINE_LIMIT (its first bytes only)."""


def line_body(line: bytes) -> bytes:
    """A line without its end (``\\n`` or ``\\r\\n``): what the limit counts."""
    return line.removesuffix(b"\n").removesuffix(b"\r") if line.endswith(b"\n") else line


def read_lines(stream: BinaryIO, limit: int = LINE_LIMIT) -> Iterator[bytes]:
    """The lines of a binary stream, each at most ``limit`` bytes (a longer one as TooLong).

    The limit counts the command, not the line's end: ``limit`` bytes and ``\\r\\n`` is a line.
    """
    while True:
        line = stream.readline(limit + 2)
        if not line:
            return
        body = line_body(line)
        if len(body) > limit:
            if not line.endswith(b"\n"):
                while True:  # skip to the end of the line without holding it in memory
                    rest = stream.readline(65536)
                    if not rest or rest.endswith(b"\n"):
                        break
            yield TooLong(body[:limit])
        else:
            yield line


def cut(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` shortened to ``limit`` characters, so a reply never echoes huge input."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class LineFront:
    """Plays one session from lines of text; subclasses decide how replies look."""

    #: whether a blank line gets a reply (the JSON mode answers every line)
    answers_blank = False

    def __init__(self, session: Session, out: TextIO) -> None:
        self.session = session
        self.out = out
        session.on_notice = self.noticed
        session.on_problem = self.problem
        #: commands and the clock's watcher take turns with the session
        self._turn = threading.Lock()
        self._done = threading.Event()

    # -- the loop ------------------------------------------------------------------------

    def run(self, lines: Iterable[str | bytes]) -> int:
        """Play until quit or end of input (status 0), or until the rules fault (status 1)."""
        try:
            self.begin()
        except PluginFault as fault:  # the mode's status or report failed at once
            self.stopped(fault)
            self.session.close()
            return 1
        if self.session.mode.time_limit is not None:
            threading.Thread(target=self._watch_clock, name="clock", daemon=True).start()
        try:
            for raw in lines:
                try:
                    with self._turn:
                        if not self.handle(raw):
                            break
                except PluginFault as fault:
                    # the game is as it was before the command and saved: stop it cleanly
                    self.stopped(fault)
                    return 1
        finally:
            self._done.set()
            with self._turn:
                self.session.check_time()
                self.session.close()
        return 0

    def begin(self) -> None:
        """Start the clock and give the first reply."""
        self.session.game.resume()
        notice = self.session.notice
        problem = self.session.write_problem
        if problem and problem not in (notice or ""):
            notice = " ".join(filter(None, [notice, problem]))
        # what failed before this front end listened (a Sample asked for by --code)
        early, self.session.problems[:] = list(self.session.problems), []
        notice = " ".join(filter(None, [notice, *early])) or None
        self.started(notice)

    def handle(self, raw: str | bytes) -> bool:
        """One line of input, whatever its bytes: one reply (JSON), False to stop."""
        try:
            text = self.decode(raw)
        except ValueError as problem:
            self.reply(changed=False, events=[], error=str(problem))
            return True
        if not text:
            if self.answers_blank:
                self.reply(changed=False, events=[], error=_("the line is empty"))
            return True
        return self.command(text)

    @staticmethod
    def decode(raw: str | bytes) -> str:
        """The command in one line of input; ValueError (the reason) for a line that is not one."""
        if isinstance(raw, TooLong):
            raise ValueError(
                _("the line is too long (more than {limit} bytes)").format(limit=LINE_LIMIT)
            )
        if isinstance(raw, str):
            # a line given as text is held to the same count of UTF-8 bytes
            raw = raw.encode("utf-8", "surrogatepass")
        if len(line_body(raw)) > LINE_LIMIT:
            raise ValueError(
                _("the line is too long (more than {limit} bytes)").format(limit=LINE_LIMIT)
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(_("the line is not valid UTF-8")) from None
        return text.strip()

    def noticed(self, text: str) -> None:
        """Saving started failing, changed or works again (see Session.on_notice)."""

    def problem(self, text: str) -> None:
        """A plugin's hook or capability failed, and play goes on (see Session.on_problem)."""

    def _watch_clock(self) -> None:
        """Record a timed game the moment its clock runs out, not at the next command."""
        while not self._done.is_set():
            left = self.session.game.time_left
            self._done.wait(min(1.0, max(0.05, left or 0.0)))
            with self._turn:
                if self._done.is_set():
                    return
                try:
                    if self.session.check_time() is not None:
                        self.time_ran_out()
                except PluginFault:
                    return  # the next command meets the fault and stops the game cleanly

    def time_ran_out(self) -> None:
        """The clock ran out between commands and the game is recorded (plain mode says so)."""

    def command(self, text: str) -> bool:
        """Handle one line; False ends the loop."""
        word = FRONT_END_WORDS.get(text.lower())
        first, _space, rest = text.partition(" ")
        if word is None and rest.strip() and FRONT_END_WORDS.get(first.lower()) in WORDS_ALONE:
            self.reply(
                changed=False,
                events=[],
                error=_("{command} takes no argument").format(command=first.lower()),
            )
            return True
        session = self.session
        if word == "quit":
            self.reply(changed=False, events=[], announcement=_("Saved. Goodbye."))
            return False
        if word in ("new", "restart"):
            game = session.new_game() if word == "new" else session.restart()
            game.resume()
            text = _("New game {code}.") if word == "new" else _("Restarted {code}.")
            text = text.format(code=game.code)
            if game.flags.practice:
                text += " " + practice_words(session)
            self.reply(changed=True, events=[], announcement=text)
            return True
        if word == "hint":
            self.hint()
            return True
        if word == "read":
            self.read()
            return True
        if word == "help":
            self.help()
            return True
        try:
            step = session.act(self.to_rules(text))
        except Refused as refusal:
            self.reply(changed=False, events=[], error=cut(str(refusal)))
            return True
        announcement = step.announcement
        if step.reached_goal and session.mode.goal is not None:
            announcement += " " + _("You reached {goal}!").format(goal=session.mode.goal)
        self.reply(
            changed=step.changed,
            events=[event.as_dict() for event in step.events],
            announcement=announcement,
        )
        return True

    def hint(self) -> None:
        offered = self.session.mode.hint
        if offered is None:
            self.reply(changed=False, events=[], error=_("this mode has no hint"))
            return
        with self.session.faults():  # a plugin's failing hint stops that game
            hint = offered(self.session.game.state)
        cells = hint.cells if hint else ()
        self.reply(
            changed=False,
            events=[],
            hint=[list(cell) for cell in cells],
            hint_action=hint.action if hint else None,
        )

    def to_rules(self, text: str) -> str:
        """A typed command as the rules take it (the JSON protocol's own words)."""
        return text

    def status(self) -> Any:
        """The mode's status of the game in play; its failure is the mode's fault."""
        with self.session.faults():
            return self.session.mode.status_of(self.session.game.state)

    # -- what subclasses draw -------------------------------------------------------------

    def started(self, notice: str | None) -> None:
        raise NotImplementedError

    def stopped(self, fault: PluginFault) -> None:
        """The last reply, after the mode's rules failed."""
        raise NotImplementedError

    def reply(self, **fields: Any) -> None:
        raise NotImplementedError

    def read(self) -> None:
        raise NotImplementedError

    def help(self) -> None:
        raise NotImplementedError


class JsonFront(LineFront):
    """One JSON object per line, for programs."""

    answers_blank = True

    def __init__(self, session: Session, out: TextIO) -> None:
        super().__init__(session, out)
        #: what failed since the last reply (a plugin's hook), said in the next ``notice``
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def snapshot(self) -> dict[str, Any]:
        session = self.session
        game = session.game
        state = game.state
        with session.faults():
            data: dict[str, Any] = {
                "mode": session.mode.id,
                "code": game.code,
                "board": [list(row) for row in state.board],
                "score": state.score,
                "moves": state.moves,
                "over": game.over,
            }
            data.update(session.mode.rules.report(state))
        if session.mode.status is not None:
            upcoming = self.status().upcoming
            if upcoming:
                data["upcoming"] = list(upcoming)
        if game.time_left is not None:
            data["time_left"] = round(game.time_left, 3)
        if game.flags.practice:
            data["practice"] = True
        return data

    def write(self, data: dict[str, Any]) -> None:
        self.out.write(json.dumps(data, separators=(",", ":")) + "\n")
        self.out.flush()

    def started(self, notice: str | None) -> None:
        data = self.snapshot()
        data.update(changed=False, events=[])
        # the mode's commands are part of the contract: a program learns them here
        data["commands"] = [command.as_dict() for command in commands_of(self.session.mode)]
        if notice:
            data["notice"] = notice
        self.write(data)

    def reply(self, **fields: Any) -> None:
        data = self.snapshot()
        fields.pop("announcement", None)
        data.update(fields)
        told = [*self.problems, self.session.write_problem]
        self.problems.clear()
        if any(told):
            data["notice"] = cut(" ".join(filter(None, told)), 2 * MESSAGE_LIMIT)
        self.write(data)

    def stopped(self, fault: PluginFault) -> None:
        try:
            data = self.snapshot()
        except Exception:  # the failing rules may fail again in report(): say what is safe
            data = {"mode": self.session.mode.id, "code": self.session.game.code}
        data.update(changed=False, events=[], error=cut(str(fault)), stopped=True)
        self.write(data)

    def read(self) -> None:
        lines = self.session.mode.rules.read_board(self.session.game.state)
        self.reply(changed=False, events=[], read=lines)

    def help(self) -> None:
        self.reply(
            changed=False, events=[], error=_("the JSON mode has no help; see docs/protocol.md")
        )


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
        if kind in CONTROLS_HELP:
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
        self.say(_("Also: undo · read · new · restart · quit."))


#: how each shape of arguments is written for people (cells counted from 1)
SHAPES = {"none": "", "cell": " R,C", "pair": " R,C R,C", "cells": " R,C R,C ...", "column": " C"}


#: what --plain help says of each kind of controls (a place mode by what it places)
CONTROLS_HELP = {
    "slide": N_("Moves: left right up down (or h j k l, a w s d)."),
    "chain": N_("Chain: chain R,C R,C ... (rows from the top, columns from the left, from 1)."),
    "place column": N_("Drop: place C (columns from the left, from 1)."),
    "place cell": N_("Place: place R,C (rows from the top, columns from the left, from 1)."),
}


def written(command: Any) -> str:
    """A command as ``--plain`` help writes it: ``hammer R,C``, ``place C``."""
    return command.word + SHAPES.get(command.takes, "")


def run_lines(
    session: Session,
    *,
    json_mode: bool,
    stdin: Iterable[str | bytes],
    stdout: TextIO,
) -> int:
    front: Callable[[Session, TextIO], LineFront] = JsonFront if json_mode else PlainFront
    return front(session, stdout).run(stdin)
