"""A player's seat at one mode: the game in play, saved after every change, and records.

Every front end (the app, ``--plain`` and ``--json``) plays through a Session, so
saving, resuming, damaged-save recovery and records behave the same everywhere. The
session keeps the game in step with the store; its parts live beside it: the save and
its checkpoints (``twofold.core.save``), which games count (``twofold.core.eligibility``),
the finished row (``twofold.core.summary``) and what the player is told
(``twofold.core.notices``).

Nothing is lost silently. A write that fails (see ``twofold.core.store``) is told:
:attr:`Session.write_problem` says why while it lasts (the JSON mode puts it in every
reply), and ``on_notice`` is called when it starts, changes or ends (the app shows a
notification, ``--plain`` a line). Play goes on in memory; the store keeps what could
not be written and writes it with the next write that works.

Two windows on one mode: a session first takes the mode's *seat*
(``store.claim_seat``). If another open window holds it, this session does not
resume the save: it plays a fresh game of its own (with its own game id, so both
windows' finished games are recorded, each once), says so in ``notice``, and its
saves are written only if the seat and the slot become free of the other window.
:meth:`Session.close` gives the seat back.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from twofold.core import notices
from twofold.core._events import check as check_events
from twofold.core._layout import check_board
from twofold.core._rules import Mode
from twofold.core.codes import new_code
from twofold.core.daily import daily_code, utc_today
from twofold.core.eligibility import judge_daily, judge_new, off_the_day
from twofold.core.faults import rules_faults
from twofold.core.game import Clock, Game, ReplayError, Step
from twofold.core.plugins import PluginFault
from twofold.core.rows import FinishedGame, NewerSave, SavedGame
from twofold.core.save import Saving
from twofold.core.storage import MemoryStore, Store
from twofold.core.summary import stats_of, summary

#: the names long imported from here (the store's, the fault's, the summary's)
__all__ = [
    "FinishedGame",
    "MemoryStore",
    "SavedGame",
    "Session",
    "Store",
    "rules_faults",
    "summary",
]

FinishedHook = Callable[[FinishedGame], None]
NoticeHook = Callable[[str], None]
#: what a save that does not replay raises (a fault of the rules is a PluginFault instead)
UNREPLAYABLE = (ReplayError, ValueError, KeyError, TypeError)


class Session:
    """The game in play for one mode, kept in step with the store."""

    def __init__(
        self,
        mode: Mode,
        store: Store,
        *,
        clock: Clock = time.monotonic,
        today: Callable[[], date] = utc_today,
        on_finished: FinishedHook | None = None,
        on_notice: NoticeHook | None = None,
        plugin: str | None = None,
    ) -> None:
        """``plugin`` names the plugin that registered ``mode`` (``Registry.owner``), for
        the one-line message when its rules fail."""
        self.mode = mode
        self.plugin = plugin
        self.store = store
        self.clock = clock
        self.today = today
        self.on_finished = on_finished
        #: called with a line for the player when saving starts failing, changes or works again
        self.on_notice = on_notice
        #: called with a line when a plugin's hook or capability failed and play goes on
        #: (a failing ``twofold_game_finished``); without it, the line waits in ``problems``
        self.on_problem: NoticeHook | None = None
        self.problems: list[str] = []
        self.notice: str | None = None
        #: whether this session holds its mode's seat (False: another window has the save)
        self.seated = True
        #: the slot holds a newer twofold's save, left as it is (this game is not saved)
        self.keeps_newer = False
        #: the game that New game, Restart or Sample replaced (for Last game), once read
        self._previous: Game | None = None
        self._previous_read = False
        self.saving = Saving(mode, store, clock, plugin)
        #: the game_id last recorded as finished (a timed game is recorded once when time is up)
        self._recorded = ""
        self._sample_code: str | None = None
        #: the write problem last told through ``on_notice`` (what opening meets is in notice)
        self._told = self.write_problem
        self._resumed = False
        self.game = self._resume_or_start()
        if self.seated and not self._resumed and not self.keeps_newer:
            # a fresh game is the mode's game from its first reply, moves or not
            self.saving.keep(self.game, day=self._day())
        if self.seated and not self.keeps_newer:
            self._offer_kept()
        self._told = self.write_problem

    # -- what could not be kept -----------------------------------------------------------

    @property
    def write_problem(self) -> str | None:
        """Why this game is not being kept right now, or None when it is saved."""
        if self.keeps_newer:
            return notices.newer_save(self.mode)
        if self.mode.id in self.store.seat_refused:
            return notices.seat_taken(self.mode)
        return self.store.write_problem or self.store.unsaved

    def problem(self, text: str) -> None:
        """Tell the player, where the game is played, that a plugin's code failed."""
        if self.on_problem is not None:
            self.on_problem(text)
        else:
            self.problems.append(text)

    def _tell(self) -> None:
        """Call ``on_notice`` when the write problem starts, changes or ends."""
        problem = self.write_problem
        if problem == self._told:
            return
        self._told = problem
        if self.on_notice is not None:
            self.on_notice(problem or notices.saved_again())

    # -- opening --------------------------------------------------------------------------

    def _fresh_code(self) -> str:
        return daily_code(self.mode.id, self.today()) if self.mode.daily else new_code()

    def _day(self) -> str | None:
        return self.today().isoformat() if self.mode.daily else None

    def _resume_or_start(self) -> Game:
        if not self.store.claim_seat(self.mode.id):
            self.seated = False
            self.notice = notices.seat_taken(self.mode)
            return self._start(self._fresh_code(), None)
        saved = self._load()
        if saved is not None and self.mode.daily and saved.day != self._day():
            self._close_old_daily(saved)
            saved = None  # yesterday's daily is over: today's board waits
        if saved is not None:
            # a save the rules crash on is kept (PluginFault): the plugin may be fixed later
            with self.faults():
                try:
                    game = self.saving.restore(saved)
                except UNREPLAYABLE as error:
                    self.notice = notices.unreplayable(self.mode, error)
                    self.store.set_aside(self.mode.id)
                else:
                    if saved.lost:
                        self.notice = notices.damaged_tail(self.mode, saved.lost)
                    if not off_the_day(game, self.today()):
                        self._resumed = True
                        return game
                    # a daily mode opens today's board; the practice game on another
                    # code stays one step back (Last game)
                    self.previous = game
                    self.saving.keep_last(game, day=saved.day)
        return judge_daily(self._start(self._fresh_code(), None), self.store, self.today())

    def _offer_kept(self) -> None:
        """Offer, as the Last game, the oldest game a second window played on this mode
        and kept apart (its window has closed); it stays kept until it is brought back."""
        for saved in self.store.waiting_games(self.mode.id):
            if saved.game_id == self.game.game_id:
                continue
            try:
                with self.faults():
                    game = self.saving.restore(saved, mark=False)
            except (PluginFault, *UNREPLAYABLE):
                continue  # it stays kept, untouched, for a fixed plugin or a newer twofold
            self.previous = game
            kept = notices.kept_from_window(self.mode, game.state.score)
            self.notice = " ".join(filter(None, [self.notice, kept]))
            return

    def _load(self) -> SavedGame | None:
        """The mode's save, or None (set aside, or left for a newer twofold, and said)."""
        try:
            return self.store.load_save(self.mode.id)
        except NewerSave:
            # the newer twofold finds its save where it left it; this game is not saved
            self.keeps_newer = True
            self.notice = notices.newer_save(self.mode)
        except ValueError as error:
            self.notice = notices.unreadable(self.mode, error)
            self.store.set_aside(self.mode.id)
        return None

    def _close_old_daily(self, saved: SavedGame) -> None:
        """Record an earlier day's daily game left unfinished, so it is not lost from records."""
        try:
            with self.faults():
                game = self.saving.restore(saved)
                unfinished = game.started and not game.over
        except (PluginFault, *UNREPLAYABLE):
            return  # an old save that does not replay is simply let go
        if unfinished:
            with contextlib.suppress(PluginFault):  # its stats fail: the rules' fault, let go
                self._record(game, None)

    # -- play -------------------------------------------------------------------------------

    def act(self, text: str) -> Step:
        """Apply a command; save if it changed the game, record the game if it ended.

        Raises Refused, or PluginFault when the rules raise anything else: then the game
        is put back as it was before the command, so it and its save stay whole.
        """
        self.check_time()
        game = self.game
        with game.all_or_nothing(), self.faults():
            step = game.act(text)
            check_events(step.events, game.state.board)
            check_board(game.state.board, self.mode.layout)
        if step.changed:
            self.save()
            with self.faults():
                over = game.over
            # reaching a daily's goal completes its day, though play may go on
            if over or (step.reached_goal and self.mode.daily):
                self.finish()
        return step

    def check_time(self) -> FinishedGame | None:
        """Record a timed game whose clock has run out, once (any front end, any moment)."""
        game = self.game
        if not game.time_up or self._recorded == game.game_id:
            return None
        game.pause()
        self.save()
        return self.finish()

    def save(self) -> None:
        """Write the game's save (not over a newer twofold's), and tell how writing goes."""
        if not self.keeps_newer:
            self.saving.keep(self.game, day=self._day())
        self._tell()

    def finish(self) -> FinishedGame | None:
        """Record the current game as finished, if any action was taken."""
        game = self.game
        # a daily game joins its day's streak only once it is done (over, or its goal reached)
        done = self.mode.daily and (game.over or game.flags.won)
        return self._record(game, self._day() if done else None)

    def end_game(self) -> FinishedGame | None:
        """End the game at the player's word (End game): over for good, saved and recorded."""
        game = self.game
        game.flags.ended = True
        game.pause()
        self.save()
        return self.finish()

    def _record(self, game: Game, day: str | None) -> FinishedGame | None:
        if not (game.started or game.flags.ended):  # a game ended at once is a game played
            return None
        self._recorded = game.game_id
        finished = summary(game, stats_of(game, self.plugin), day=day)
        self.store.record_finished(finished)
        self._tell()
        if self.on_finished is not None:
            self.on_finished(finished)
        return finished

    def faults(self) -> contextlib.AbstractContextManager[None]:
        """:func:`rules_faults` for this session's mode and plugin."""
        return rules_faults(self.mode, self.plugin)

    def _start(self, code: str, position: Mapping[str, Any] | None) -> Game:
        with self.faults():
            game = Game.start(self.mode, code, position=position, clock=self.clock)
            # a value no front can draw is the mode's fault
            check_board(game.state.board, self.mode.layout)
            return game

    # -- another game -----------------------------------------------------------------------

    def _sample(self) -> str:
        """The code of the mode's Sample ("" when it has none), asked once.

        A failing ``sample`` is told (``problem``) and taken as no Sample: it costs
        neither the game nor the line modes, which never ask for it otherwise.
        """
        if self._sample_code is None:
            if self.mode.sample is None:
                self._sample_code = ""
                return ""
            try:
                with self.faults():
                    sample = self.mode.sample()
            except PluginFault as fault:
                self.problem(str(fault))
                sample = None
            self._sample_code = sample.code if sample is not None else ""
        return self._sample_code

    def _judged(self, game: Game, *, typed: bool) -> Game:
        """``game``, to replace the one in play, marked if it must not count."""
        return judge_new(
            game, self.game, self.store, self.today(), typed=typed, sample=self._sample
        )

    def _replace(self, game: Game) -> Game:
        old = self.game
        old.pause()
        self.finish()
        self._step_back(old)
        self.game = game
        self.save()
        return game

    @property
    def previous(self) -> Game | None:
        """The game one step back (Last game): kept by the mode, read when first asked for."""
        if not self._previous_read:
            self._previous_read = True
            self._previous = self._load_previous()
        return self._previous

    @previous.setter
    def previous(self, game: Game | None) -> None:
        self._previous, self._previous_read = game, True

    def _load_previous(self) -> Game | None:
        """The mode's game one step back as the store keeps it, or None (a second window has
        none of its own yet; one that no longer reads or replays is let go)."""
        if not self.seated or self.keeps_newer:
            return None
        try:
            saved = self.store.load_last(self.mode.id)
            if saved is None:
                return None
            with self.faults():
                return self.saving.restore(saved, mark=False)
        except (PluginFault, *UNREPLAYABLE):
            return None

    def _step_back(self, game: Game | None) -> None:
        """``game`` is now the one step back, in memory and, for this mode's seat, in the store."""
        self.previous = game
        if self.seated and not self.keeps_newer:
            self.saving.keep_last(game, day=self._day())

    def new_game(
        self, code: str | None = None, *, position: Mapping[str, Any] | None = None
    ) -> Game:
        """Finish the current game and start another (today's code in a daily mode)."""
        typed = code is not None
        return self._replace(
            self._judged(self._start(code or self._fresh_code(), position), typed=typed)
        )

    def restart(self) -> Game:
        """The same code (or position) again, from its first move."""
        return self._replace(
            self._judged(self._start(self.game.code, self.game.position), typed=False)
        )

    def adopt(self, game: Game) -> Game:
        """Put a game built elsewhere (the Sample, a replay) in play."""
        return self._replace(game)

    def last_game(self) -> Game | None:
        """Swap the game in play with the one New game, Restart or Sample replaced.

        The game it replaces is finished (recorded, if played), as New game finishes it,
        and becomes the one step back: Last game twice is where the player started.
        """
        back = self.previous
        if back is None:
            return None
        current = self.game
        current.pause()
        self.finish()
        self._step_back(current)
        self.game = back
        self.save()
        return back

    def close(self) -> None:
        """Save the game and give the mode's seat back (the window closes)."""
        self.game.pause()
        self.save()
        self.store.release_seat(self.mode.id)  # only a seat this store holds is given back
