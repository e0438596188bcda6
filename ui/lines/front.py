"""What both line modes share: one session played from lines, the front end's own words.

Subclasses (:mod:`.json_front`, :mod:`.plain_front`) decide how replies look.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any, TextIO

from twofold.core._i18n import _
from twofold.core._rules import Refused
from twofold.core.commands import controls_commands
from twofold.core.plugins import PluginFault
from twofold.core.result import result_text
from twofold.core.session import Session
from twofold.ui.lines.line_input import LINE_LIMIT, TooLong, cut, line_body
from twofold.ui.practice import practice_words

#: commands the line front end answers itself; everything else goes to the rules
FRONT_END_WORDS = {
    "new": "new",
    "restart": "restart",
    "last": "last",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "hint": "hint",
    "read": "read",
    "r": "read",
    "result": "result",
    "help": "help",
    "?": "help",
}


#: front-end commands that take nothing after them (``new extra`` is refused, not passed on)
WORDS_ALONE = frozenset({"new", "restart", "last", "quit", "read", "help", "hint", "result"})


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
        if first.lower() == "last" and self.mode_has_own("last"):
            word = None  # a word the mode took before the line modes had it stays the mode's
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
        if word == "last":
            self.last_game()
            return True
        if word == "hint":
            self.hint()
            return True
        if word == "read":
            self.read()
            return True
        if word == "result":
            self.result()
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

    def mode_has_own(self, word: str) -> bool:
        mode = self.session.mode
        return any(command.word == word for command in (*controls_commands(mode), *mode.commands))

    def last_game(self) -> None:
        """Last game: the game New game or Restart replaced, or one another window kept."""
        game = self.session.last_game()
        if game is None:
            self.reply(changed=False, events=[], error=_("there is no earlier game to bring back"))
            return
        game.resume()
        text = _("Back to game {code}, score {score}.").format(
            code=game.code, score=game.state.score
        )
        self.reply(changed=True, events=[], announcement=text)

    def hint(self) -> None:
        offered = self.session.mode.hint
        if offered is None:
            self.reply(changed=False, events=[], error=_("this mode has no hint"))
            return
        with self.session.faults():  # a plugin's failing hint stops that game
            hint = offered(self.session.game.state)
        if hint is not None:
            self.session.game.flags.hinted = True  # the result's proof says hints were shown
        cells = hint.cells if hint else ()
        self.reply(
            changed=False,
            events=[],
            hint=[list(cell) for cell in cells],
            hint_action=hint.action if hint else None,
        )

    def result(self) -> None:
        """The game's result as Copy result gives it: headline, link and proof."""
        session = self.session
        with session.faults():
            text = result_text(session.game, day=session.today())
        self.reply(changed=False, events=[], result=text)

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
