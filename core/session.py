"""A player's seat at one mode: the game in play, saved after every change, and records.

Every front end (the app, ``--plain`` and ``--json``) plays through a Session, so
saving, resuming, damaged-save recovery and records behave the same everywhere.

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
import dataclasses
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import date
from typing import Any

from twofold.core import checkpoint
from twofold.core.codes import new_code
from twofold.core.daily import daily_code, utc_today
from twofold.core.events import check as check_events
from twofold.core.game import Clock, Flags, Game, ReplayError, Step
from twofold.core.i18n import _, ngettext
from twofold.core.keeper import MemoryStore, Store
from twofold.core.kept import FinishedGame, NewerSave, SavedGame
from twofold.core.plugins import PluginFault
from twofold.core.rules import Mode, Refused, largest_tile, tile_values

#: the store's names, long imported from here
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


@contextmanager
def rules_faults(mode: Mode, plugin: str | None = None) -> Iterator[None]:
    """Turn anything but ``Refused`` raised by a mode's rules into a one-line PluginFault.

    ``plugin`` names the plugin that registered the mode (the fault's message says it).
    """
    try:
        yield
    except (Refused, PluginFault):
        raise
    except Exception as error:
        raise PluginFault(mode.id, error, plugin) from error


def summary(
    game: Game, stats: Mapping[str, int], *, day: str | None = None, at: float | None = None
) -> FinishedGame:
    """A game's figures as its finished row keeps them (the game in progress is summed up so too).

    ``stats`` are the mode's ``Rules.stats`` of the game's state; ``at`` the time it ends.
    """
    board = game.state.board
    return FinishedGame(
        game_id=game.game_id,
        mode_id=game.mode.id,
        code=game.code,
        score=game.state.score,
        largest=largest_tile(board),
        moves=game.state.moves,
        elapsed=game.elapsed,
        counted=not game.flags.uncounted,
        won=game.flags.won,
        tiles=tuple(sorted(game.reached | tile_values(board))),
        stats=dict(stats),
        day=day,
        finished_at=time.time() if at is None else at,
    )


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
        #: the game that New game, Restart or Sample replaced (for Last game)
        self.previous: Game | None = None
        #: the game_id last recorded as finished (a timed game is recorded once when time is up)
        self._recorded = ""
        self._sample_code: str | None = None
        #: the game whose checkpoints this session takes, the log length of its last one,
        #: and the digest of its log so far (extended block by block, never recomputed)
        self._marked = ""
        self._kept_at = 0
        self._digest: checkpoint.Digest | None = None
        self.game = self._resume_or_start()
        self._told = self.write_problem

    # -- what could not be kept -----------------------------------------------------------

    @property
    def write_problem(self) -> str | None:
        """Why this game is not being kept right now, or None when it is saved."""
        if self.keeps_newer:
            return self._newer_notice()
        if self.mode.id in self.store.seat_refused:
            return self._seat_notice()
        return self.store.write_problem or self.store.unsaved

    def _newer_notice(self) -> str:
        return _(
            "The saved {mode} game was written by a newer twofold; it is kept for it, and "
            "this window's game is recorded when it ends but not saved for later."
        ).format(mode=_(self.mode.title))

    def _seat_notice(self) -> str:
        return _(
            "This {mode} game is open in another window; this window plays a new game of its "
            "own, which is recorded when it ends but not saved for later."
        ).format(mode=_(self.mode.title))

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
            self.on_notice(problem or _("Progress is saved again."))

    # -- opening --------------------------------------------------------------------------

    def _fresh_code(self) -> str:
        return daily_code(self.mode.id, self.today()) if self.mode.daily else new_code()

    def _day(self) -> str | None:
        return self.today().isoformat() if self.mode.daily else None

    def _resume_or_start(self) -> Game:
        if not self.store.claim_seat(self.mode.id):
            self.seated = False
            self.notice = self._seat_notice()
            return self._start(self._fresh_code(), None)
        try:
            saved = self.store.load_save(self.mode.id)
        except NewerSave:
            # the newer twofold finds its save where it left it; this game is not saved
            self.keeps_newer = True
            self.notice = self._newer_notice()
            saved = None
        except ValueError as error:
            self.notice = _(
                "The saved {mode} game could not be read ({reason}); it is kept aside, and a "
                "new game starts."
            ).format(mode=_(self.mode.title), reason=error)
            self.store.set_aside(self.mode.id)
            saved = None
        if saved is not None and self.mode.daily and saved.day != self._day():
            self._close_old_daily(saved)
            saved = None  # yesterday's daily is over: today's board waits
        if saved is not None:
            # a save the rules crash on is kept (PluginFault): the plugin may be fixed later
            with self.faults():
                try:
                    game = self._restore(saved)
                except (ReplayError, ValueError, KeyError, TypeError) as error:
                    self.notice = _(
                        "The saved {mode} game could not be replayed ({reason}); it is kept "
                        "aside, and a new game starts."
                    ).format(mode=_(self.mode.title), reason=error)
                    self.store.set_aside(self.mode.id)
                else:
                    if saved.lost:
                        self.notice = self._lost_notice(saved.lost)
                    if not self._off_the_day(game):
                        return game
                    # a daily mode opens today's board; the practice game on another
                    # code stays one step back (Last game)
                    self.previous = game
        return self._judge_daily(self._start(self._fresh_code(), None))

    def _off_the_day(self, game: Game) -> bool:
        """A daily mode's game on another code than today's (a link, ``--code``): practice."""
        return self.mode.daily and game.position is None and game.code != self._fresh_code()

    def _played_today(self, code: str) -> bool:
        """Whether today's board was already played and counted (in any window)."""
        games = self.store.finished_games(self.mode.id, counted_only=True)
        return any(g.code == code for g in games)

    def _judge_daily(self, game: Game) -> Game:
        """In a daily mode only the day's first game on the day's own board counts."""
        if not self.mode.daily or game.position is not None:
            return game
        if self._off_the_day(game) or self._played_today(game.code):
            game.flags.uncounted = game.flags.practice = True
        return game

    def _lost_notice(self, lost: int) -> str:
        text = ngettext(
            "The saved {mode} game's last {count} action was damaged; it resumes before it.",
            "The saved {mode} game's last {count} actions were damaged; it resumes before them.",
            lost,
        )
        return text.format(mode=_(self.mode.title), count=lost)

    def _close_old_daily(self, saved: SavedGame) -> None:
        """Record an earlier day's daily game left unfinished, so it is not lost from records."""
        try:
            with self.faults():
                game = self._restore(saved)
                if game.started and not game.over:
                    self._record(game, None)
        except (PluginFault, ReplayError, ValueError, KeyError, TypeError):
            pass  # an old save that does not replay is simply let go

    def _restore(self, saved: SavedGame) -> Game:
        if saved.mode_id != self.mode.id:
            raise ValueError(f"it belongs to mode {saved.mode_id!r}")
        game = checkpoint.resume(
            self.mode,
            saved.code,
            saved.actions,
            saved.checkpoint,
            position=saved.position,
            clock=self.clock,
        )
        kept_at = 0 if game is None or saved.checkpoint is None else int(saved.checkpoint["at"])
        if game is None:
            game = Game.replay(
                self.mode, saved.code, saved.actions, position=saved.position, clock=self.clock
            )
        self._mark(game, kept_at)
        game.flags = Flags.from_dict(saved.flags or {})
        if saved.position is not None:
            game.flags.uncounted = True
        game.elapsed = saved.elapsed
        if saved.game_id:
            game.game_id = saved.game_id
        return game

    # -- play -------------------------------------------------------------------------------

    def act(self, text: str) -> Step:
        """Apply a command; save if it changed the game, record the game if it ended.

        Raises Refused, or PluginFault when the rules raise anything else: then the game
        is put back as it was before the command, so it and its save stay whole.
        """
        self.check_time()
        game = self.game
        state, history, log_length = game.state, game.history.copy(), len(game.log)
        reached, reached_history = set(game.reached), game.reached_history.copy()
        flags = dataclasses.replace(game.flags)
        try:
            with self.faults():
                step = game.act(text)
                check_events(step.events, game.state.board)
        except PluginFault:
            game.state, game.history, game.flags = state, history, flags
            game.reached, game.reached_history = reached, reached_history
            del game.log[log_length:]
            raise
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
        game = self.game
        if self.keeps_newer:
            self._tell()
            return
        # an untouched practice try is kept: it remembers that today's daily was played
        if not game.log and game.position is None and not game.flags.practice:
            self.store.clear_save(self.mode.id)
            self._tell()
            return
        self.store.write_save(
            SavedGame(
                mode_id=self.mode.id,
                code=game.code,
                actions=tuple(game.log),
                elapsed=game.elapsed,
                flags=game.flags.as_dict(),
                position=game.position,
                day=self._day(),
                game_id=game.game_id,
                live=self._live(game),
                checkpoint=self._checkpoint(game),
            )
        )
        self._tell()

    def _mark(self, game: Game, kept_at: int) -> None:
        """Take ``game``'s checkpoints from now on, its last one at action ``kept_at``."""
        self._marked, self._kept_at, self._digest = game.game_id, kept_at, None

    def _checkpoint(self, game: Game) -> dict[str, Any] | None:
        """A new checkpoint of ``game`` once its log has grown enough since the last one."""
        if self.mode.codec is None:
            return None
        if self._marked != game.game_id:
            self._mark(game, 0)  # a game brought back or started: checkpointed afresh
        if len(game.log) - self._kept_at < checkpoint.EVERY:
            return None
        if self._digest is None:
            self._digest = checkpoint.opening(self.mode.id, game.code, game.position)
        self._kept_at = len(game.log)
        try:
            taken = checkpoint.take(game, self._digest)
        except Exception:  # a codec's fault costs the checkpoint, never the save
            return None
        self._digest = checkpoint.extend(self._digest, game.log)
        return taken

    def _live(self, game: Game) -> FinishedGame:
        try:
            stats = self._stats(game)
        except PluginFault:
            stats = {}  # the save matters more than its summary; finishing will report the fault
        return summary(game, stats)

    def finish(self) -> FinishedGame | None:
        """Record the current game as finished, if any action was taken."""
        game = self.game
        # a daily game joins its day's streak only once it is done (over, or its goal reached)
        done = self.mode.daily and (game.over or game.flags.won)
        return self._record(game, self._day() if done else None)

    def _record(self, game: Game, day: str | None) -> FinishedGame | None:
        if not game.started:
            return None
        self._recorded = game.game_id
        finished = summary(game, self._stats(game), day=day)
        self.store.record_finished(finished)
        self._tell()
        if self.on_finished is not None:
            self.on_finished(finished)
        return finished

    def faults(self) -> contextlib.AbstractContextManager[None]:
        """:func:`rules_faults` for this session's mode and plugin."""
        return rules_faults(self.mode, self.plugin)

    def _stats(self, game: Game) -> dict[str, int]:
        with self.faults():
            return dict(self.mode.rules.stats(game.state))

    def _start(self, code: str, position: Mapping[str, Any] | None) -> Game:
        with self.faults():
            return Game.start(self.mode, code, position=position, clock=self.clock)

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

    def _judge(self, game: Game, *, typed: bool) -> Game:
        """Mark a new game that must not count: on the Sample's code, or a daily tried again.

        Only a typed code (``--code``, a link) or the restart of a game that did not count
        may be the Sample's (a fresh code never is), so only then is the Sample asked for.
        """
        if game.position is not None:
            return game
        old = self.game
        maybe_sample = typed or (old.code == game.code and old.flags.uncounted)
        if maybe_sample and game.code == self._sample():
            game.flags.uncounted = True  # its tiles are known in advance
        if self.mode.daily and old.code == game.code and (old.started or old.flags.practice):
            game.flags.uncounted = game.flags.practice = True
        return self._judge_daily(game)

    def _replace(self, game: Game) -> Game:
        old = self.game
        old.pause()
        self.finish()
        self.previous = old
        self.game = game
        self.save()
        return game

    def new_game(
        self, code: str | None = None, *, position: Mapping[str, Any] | None = None
    ) -> Game:
        """Finish the current game and start another (today's code in a daily mode)."""
        typed = code is not None
        return self._replace(
            self._judge(self._start(code or self._fresh_code(), position), typed=typed)
        )

    def restart(self) -> Game:
        """The same code (or position) again, from its first move."""
        return self._replace(
            self._judge(self._start(self.game.code, self.game.position), typed=False)
        )

    def adopt(self, game: Game) -> Game:
        """Put a game built elsewhere (the Sample, a replay) in play."""
        return self._replace(game)

    def last_game(self) -> Game | None:
        """Bring back the game that New game, Restart or Sample replaced; one step back."""
        if self.previous is None:
            return None
        back, self.previous = self.previous, None
        self.game.pause()
        self.game = back
        self.save()
        return back

    def close(self) -> None:
        """Save the game and give the mode's seat back (the window closes)."""
        self.game.pause()
        self.save()
        self.store.release_seat(self.mode.id)  # only a seat this store holds is given back
